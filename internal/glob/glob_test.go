package glob

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

func TestMatch(t *testing.T) {
	root := t.TempDir()
	for _, p := range []string{"data/b.csv", "data/a.csv", "data/_SUCCESS", "data/.0.csv", "data/_tmp/x.csv",
		"data/2024/01/c.csv", "data/2024/d.json", "other/e.csv"} {
		full := filepath.Join(root, filepath.FromSlash(p))
		os.MkdirAll(filepath.Dir(full), 0o755)
		os.WriteFile(full, []byte("x"), 0o644)
	}
	for _, c := range []struct{ pat, want string }{
		{"data/**/*.csv", "data/2024/01/c.csv data/a.csv data/b.csv"},
		{"data/*.csv", "data/a.csv data/b.csv"},
		{"data", "data/2024/01/c.csv data/2024/d.json data/a.csv data/b.csv"},
		{"data/.*.csv", "data/.0.csv"},
		{"data/_tmp/*.csv", "data/_tmp/x.csv"},
		{"**/e.csv", "other/e.csv"},
		{"nope/*.csv", ""},
	} {
		files, err := Match(root, c.pat)
		if err != nil {
			t.Errorf("%s: %v", c.pat, err)
			continue
		}
		var names []string
		for _, f := range files {
			names = append(names, f.Name)
		}
		if got := strings.Join(names, " "); got != c.want {
			t.Errorf("Match(%s) = %s, want %s", c.pat, got, c.want)
		}
	}
	for _, pat := range []string{"data/[.csv", "data//a.csv", "/"} {
		if _, err := Match(root, pat); err == nil {
			t.Errorf("Match(%s) accepted a bad pattern", pat)
		}
	}
}
