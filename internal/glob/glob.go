package glob

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
)

// File is one input file found by Glob.
type File struct {
	Path string // the OS path to open
	Name string // the name for messages: relative to root when the pattern was
}

// Glob resolves source patterns against root (the executable's --root). A
// pattern is slash-separated, relative to root unless absolute, and its
// segments use path.Match syntax plus "**", which matches any number of
// directories. A pattern that names a directory means every file below it.
// Names starting with '.' or '_' (temporary files, _SUCCESS markers) are
// skipped unless the pattern's last segment starts with that character too.
// The result is sorted by name and free of duplicates; a pattern that matches
// no file is an error naming it.
func Glob(root string, patterns []string) ([]File, error) {
	seen := map[string]bool{}
	var out []File
	for _, pat := range patterns {
		files, err := globOne(root, pat)
		if err != nil {
			return nil, err
		}
		if len(files) == 0 {
			return nil, fmt.Errorf("source pattern %q matched no files (under %s)", pat, root)
		}
		for _, f := range files {
			if !seen[f.Path] {
				seen[f.Path] = true
				out = append(out, f)
			}
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// Match returns the files one pattern names under root, by Glob's rules,
// sorted by name; a pattern that matches no file gives none, not an error.
func Match(root, pattern string) ([]File, error) {
	files, err := globOne(root, pattern)
	if err != nil {
		return nil, err
	}
	sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	return files, nil
}

func hasMeta(s string) bool { return strings.ContainsAny(s, `*?[\`) }

func globOne(root, pat string) ([]File, error) {
	slashed := strings.TrimRight(filepath.ToSlash(pat), "/")
	abs := filepath.IsAbs(pat)
	if strings.Trim(slashed, "/") == "" {
		return nil, fmt.Errorf("source pattern %q: empty", pat)
	}
	segs := strings.Split(strings.TrimPrefix(slashed, "/"), "/")
	for _, s := range segs {
		if s == "" {
			return nil, fmt.Errorf("source pattern %q: empty path segment", pat)
		}
		if s != "**" {
			if _, err := path.Match(s, ""); err != nil {
				return nil, fmt.Errorf("source pattern %q: %w", pat, err)
			}
		}
	}
	// The longest meta-free prefix is the directory to start from.
	n := 0
	for n < len(segs) && !hasMeta(segs[n]) && segs[n] != "**" {
		n++
	}
	base := filepath.FromSlash(strings.Join(segs[:n], "/"))
	if abs {
		base = string(filepath.Separator) + base // Unix paths; generated programs do not target Windows yet
	} else {
		base = filepath.Join(root, base)
	}
	display := func(p string) string {
		if abs {
			return p
		}
		if rel, err := filepath.Rel(root, p); err == nil {
			return filepath.ToSlash(rel)
		}
		return p
	}
	rest := segs[n:]
	lastSeg := segs[len(segs)-1]
	hidden := func(name string) bool {
		return (name[0] == '.' || name[0] == '_') && lastSeg[0] != name[0]
	}
	st, err := os.Stat(base)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	if len(rest) == 0 && !st.IsDir() {
		return []File{{Path: base, Name: display(base)}}, nil
	}
	if !st.IsDir() {
		return nil, nil
	}
	var out []File
	err = filepath.WalkDir(base, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if p == base {
			return nil
		}
		if hidden(d.Name()) {
			if d.IsDir() {
				return filepath.SkipDir
			}
			return nil
		}
		rel, _ := filepath.Rel(base, p)
		rsegs := strings.Split(filepath.ToSlash(rel), "/")
		if d.IsDir() {
			if len(rest) > 0 && !matchPrefix(rest, rsegs) {
				return filepath.SkipDir
			}
			return nil
		}
		if len(rest) == 0 || matchSegs(rest, rsegs) {
			out = append(out, File{Path: p, Name: display(p)})
		}
		return nil
	})
	return out, err
}

// matchSegs matches path segments against pattern segments with "**".
func matchSegs(pat, name []string) bool {
	for len(pat) > 0 {
		if pat[0] == "**" {
			for k := 0; k <= len(name); k++ {
				if matchSegs(pat[1:], name[k:]) {
					return true
				}
			}
			return false
		}
		if len(name) == 0 {
			return false
		}
		if ok, _ := path.Match(pat[0], name[0]); !ok {
			return false
		}
		pat, name = pat[1:], name[1:]
	}
	return len(name) == 0
}

// matchPrefix reports whether a directory (name) could contain a match.
func matchPrefix(pat, name []string) bool {
	for i, seg := range name {
		if i >= len(pat) {
			return false
		}
		if pat[i] == "**" {
			return true
		}
		if ok, _ := path.Match(pat[i], seg); !ok {
			return false
		}
	}
	return true
}
