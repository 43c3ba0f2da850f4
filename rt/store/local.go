package store

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"sync"
	"syscall"
	"time"
)

// tempMarker is part of every temporary file's name on the local disk:
// ".<base>.tmp-<random>". Dot-names are never listed and never valid object
// names, so a torn temporary file (a crash mid-write) is invisible; CleanTemp
// removes old ones.
const tempMarker = ".tmp-"

// Local is an FS on a local directory. Objects are files; their names map to
// paths below Root. Writes go to a temporary file in the target's directory,
// are fsynced, and are published with rename (replace) or link
// (create-if-absent), so a crash never leaves a partial object under a real
// name.
type Local struct {
	Root string

	mu sync.Mutex // serializes ReplaceIfMatch within this process (see guard)
}

// NewLocal returns an FS rooted at dir (created if missing).
func NewLocal(dir string) (*Local, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, err
	}
	if err := os.MkdirAll(abs, 0o755); err != nil {
		return nil, err
	}
	return &Local{Root: abs}, nil
}

func (l *Local) path(name string) (string, error) {
	if err := ValidName(name); err != nil {
		return "", err
	}
	return filepath.Join(l.Root, filepath.FromSlash(name)), nil
}

// Location implements FS: the file's path.
func (l *Local) Location(name string) string {
	return filepath.Join(l.Root, filepath.FromSlash(name))
}

type localObject struct {
	*os.File
	size int64
}

func (o localObject) Size() int64 { return o.size }

// Open implements FS.
func (l *Local) Open(ctx context.Context, name string) (Object, error) {
	p, err := l.path(name)
	if err != nil {
		return nil, err
	}
	f, err := os.Open(p)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	if st.IsDir() {
		f.Close()
		return nil, &fs.PathError{Op: "open", Path: p, Err: ErrNotExist}
	}
	return localObject{f, st.Size()}, nil
}

// OpenFile opens a file on the local disk by its OS path, as an Object. Source
// readers use it for files found by globs.
func OpenFile(path string) (Object, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	st, err := f.Stat()
	if err != nil {
		f.Close()
		return nil, err
	}
	return localObject{f, st.Size()}, nil
}

func tagOf(data []byte) string {
	h := sha256.Sum256(data)
	return hex.EncodeToString(h[:16])
}

// ReadFile implements FS. The tag is a hash of the content.
func (l *Local) ReadFile(ctx context.Context, name string) ([]byte, string, error) {
	p, err := l.path(name)
	if err != nil {
		return nil, "", err
	}
	data, err := os.ReadFile(p)
	if err != nil {
		return nil, "", err
	}
	return data, tagOf(data), nil
}

// Stat implements FS.
func (l *Local) Stat(ctx context.Context, name string) (Info, error) {
	p, err := l.path(name)
	if err != nil {
		return Info{}, err
	}
	st, err := os.Stat(p)
	if err != nil {
		return Info{}, err
	}
	if st.IsDir() {
		return Info{}, &fs.PathError{Op: "stat", Path: p, Err: ErrNotExist}
	}
	return Info{Name: name, Size: st.Size(), ModTime: st.ModTime()}, nil
}

// List implements FS. It walks the deepest directory that contains every
// match and skips dot-names (temporary and guard files).
func (l *Local) List(ctx context.Context, prefix string) ([]Info, error) {
	dir := prefix
	if i := strings.LastIndexByte(prefix, '/'); i >= 0 {
		dir = prefix[:i]
	} else {
		dir = ""
	}
	start := filepath.Join(l.Root, filepath.FromSlash(dir))
	var out []Info
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil // removed while walking, or no such directory
			}
			return err
		}
		if p != start && strings.HasPrefix(d.Name(), ".") {
			if d.IsDir() {
				return fs.SkipDir
			}
			return nil
		}
		if d.IsDir() {
			return nil
		}
		rel, err := filepath.Rel(l.Root, p)
		if err != nil {
			return err
		}
		name := filepath.ToSlash(rel)
		if !strings.HasPrefix(name, prefix) {
			return nil
		}
		st, err := d.Info()
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		out = append(out, Info{Name: name, Size: st.Size(), ModTime: st.ModTime()})
		return nil
	})
	if err != nil {
		return nil, err
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
}

// localWriter writes to a temporary file beside the target.
type localWriter struct {
	f      *os.File
	target string
	done   bool
	err    error // first write error, reported again by Commit
}

func (w *localWriter) Write(p []byte) (int, error) {
	if w.done {
		return 0, errors.New("store: write after commit or abort")
	}
	n, err := w.f.Write(p)
	if err != nil && w.err == nil {
		w.err = err
	}
	return n, err
}

// finish flushes and closes the temporary file; publish then moves it.
func (w *localWriter) finish() error {
	if w.err != nil {
		w.f.Close()
		return w.err
	}
	if err := w.f.Sync(); err != nil {
		w.f.Close()
		return err
	}
	return w.f.Close()
}

func (w *localWriter) Commit() error {
	if w.done {
		return nil
	}
	w.done = true
	tmp := w.f.Name()
	if err := w.finish(); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, w.target); err != nil {
		os.Remove(tmp)
		return err
	}
	syncDir(filepath.Dir(w.target))
	return nil
}

func (w *localWriter) Abort() error {
	if w.done {
		return nil
	}
	w.done = true
	w.f.Close()
	return os.Remove(w.f.Name())
}

// createTemp makes the target's directory and a temporary file in it.
func createTemp(target string) (*os.File, error) {
	dir, base := filepath.Split(target)
	for attempt := 0; ; attempt++ {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		f, err := os.CreateTemp(dir, "."+base+tempMarker+"*")
		// A concurrent Remove may prune the directory between MkdirAll and
		// CreateTemp; try again.
		if err != nil && errors.Is(err, fs.ErrNotExist) && attempt < 3 {
			continue
		}
		return f, err
	}
}

// Create implements FS.
func (l *Local) Create(ctx context.Context, name string) (Writer, error) {
	p, err := l.path(name)
	if err != nil {
		return nil, err
	}
	f, err := createTemp(p)
	if err != nil {
		return nil, err
	}
	return &localWriter{f: f, target: p}, nil
}

// writeTemp writes data to a fresh, fsynced temporary file beside target.
func writeTemp(target string, data []byte) (string, error) {
	f, err := createTemp(target)
	if err != nil {
		return "", err
	}
	w := &localWriter{f: f, target: target}
	if _, err := w.Write(data); err != nil {
		w.f.Close()
		os.Remove(f.Name())
		return "", err
	}
	if err := w.finish(); err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// WriteFile implements FS.
func (l *Local) WriteFile(ctx context.Context, name string, data []byte) error {
	w, err := l.Create(ctx, name)
	if err != nil {
		return err
	}
	if _, err := w.Write(data); err != nil {
		w.Abort()
		return err
	}
	return w.Commit()
}

// CreateIfAbsent implements FS with a hard link from a complete temporary
// file: link(2) fails with EEXIST when the name is taken, and the content is
// whole before the name appears. On a filesystem without hard links it falls
// back to O_EXCL, where a crash can leave a partial object; readers of
// create-if-absent objects (commit records, the lock) validate what they read.
func (l *Local) CreateIfAbsent(ctx context.Context, name string, data []byte) error {
	p, err := l.path(name)
	if err != nil {
		return err
	}
	tmp, err := writeTemp(p, data)
	if err != nil {
		return err
	}
	defer os.Remove(tmp)
	err = os.Link(tmp, p)
	if err == nil {
		syncDir(filepath.Dir(p))
		return nil
	}
	if errors.Is(err, fs.ErrExist) {
		return err
	}
	var le *os.LinkError
	if errors.As(err, &le) && (errors.Is(le.Err, syscall.EPERM) || errors.Is(le.Err, syscall.ENOTSUP) || errors.Is(le.Err, syscall.EXDEV)) {
		f, err := os.OpenFile(p, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o644)
		if err != nil {
			return err
		}
		if _, err := f.Write(data); err != nil {
			f.Close()
			os.Remove(p)
			return err
		}
		if err := f.Sync(); err != nil {
			f.Close()
			os.Remove(p)
			return err
		}
		return f.Close()
	}
	return err
}

// ReplaceIfMatch implements FS. The compare and the rename run under a guard:
// a process-wide mutex plus, on Unix, an flock(2) on a dot-file beside the
// object, which the kernel releases if the process dies.
func (l *Local) ReplaceIfMatch(ctx context.Context, name string, data []byte, tag string) error {
	p, err := l.path(name)
	if err != nil {
		return err
	}
	tmp, err := writeTemp(p, data)
	if err != nil {
		return err
	}
	defer os.Remove(tmp) // no-op once renamed
	l.mu.Lock()
	defer l.mu.Unlock()
	unlock, err := lockGuard(p)
	if err != nil {
		return err
	}
	defer unlock()
	cur, err := os.ReadFile(p)
	if err != nil {
		return err
	}
	if tagOf(cur) != tag {
		return &fs.PathError{Op: "replace", Path: p, Err: ErrPrecondition}
	}
	if err := os.Rename(tmp, p); err != nil {
		return err
	}
	syncDir(filepath.Dir(p))
	return nil
}

// Remove implements FS. The removal is durable when it returns (the
// directory is synced), as an object store's DELETE is, so a caller that
// orders removals (vacuum retires commit records before their files) keeps
// that order across a power loss too. Directories left empty are removed up
// to the root, so the tree looks like an object store's key space.
func (l *Local) Remove(ctx context.Context, name string) error {
	p, err := l.path(name)
	if err != nil {
		return err
	}
	if st, err := os.Stat(p); err == nil && st.IsDir() {
		return &fs.PathError{Op: "remove", Path: p, Err: ErrNotExist}
	}
	if err := os.Remove(p); err != nil {
		return err
	}
	syncDir(filepath.Dir(p))
	for dir := filepath.Dir(p); dir != l.Root && strings.HasPrefix(dir, l.Root); dir = filepath.Dir(dir) {
		if os.Remove(dir) != nil {
			break
		}
	}
	return nil
}

// CleanTemp implements TempCleaner: it removes the temporary files under
// prefix (a crashed writer's leftovers) last modified before cutoff of the
// object each was to become, and then the folders that left empty.
func (l *Local) CleanTemp(ctx context.Context, prefix string, cutoff func(name string) time.Time) (int, error) {
	start := filepath.Join(l.Root, filepath.FromSlash(strings.TrimSuffix(prefix, "/")))
	var dirs []string
	n := 0
	err := filepath.WalkDir(start, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return nil
			}
			return err
		}
		if d.IsDir() {
			return nil
		}
		base, ok := tempTarget(d.Name())
		if !ok {
			return nil
		}
		rel, err := filepath.Rel(l.Root, filepath.Join(filepath.Dir(p), base))
		if err != nil {
			return nil
		}
		st, err := d.Info()
		if err != nil {
			return nil // gone meanwhile: renamed into place, or removed
		}
		if before := cutoff(filepath.ToSlash(rel)); !before.IsZero() && st.ModTime().Before(before) {
			if os.Remove(p) == nil {
				n++
				dirs = append(dirs, filepath.Dir(p))
			}
		}
		return nil
	})
	for _, dir := range dirs {
		for ; dir != l.Root && strings.HasPrefix(dir, l.Root); dir = filepath.Dir(dir) {
			if os.Remove(dir) != nil {
				break
			}
		}
	}
	return n, err
}

// tempTarget returns the base name of the object a temporary file's name
// ".<base>.tmp-<random>" was written for.
func tempTarget(name string) (string, bool) {
	i := strings.LastIndex(name, tempMarker)
	if !strings.HasPrefix(name, ".") || i <= 1 {
		return "", false
	}
	return name[1:i], true
}

// syncDir makes a rename or link durable; errors are ignored (some
// filesystems cannot fsync a directory).
func syncDir(dir string) {
	if d, err := os.Open(dir); err == nil {
		d.Sync()
		d.Close()
	}
}

var _ io.ReaderAt = localObject{}
