package spill

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"sync/atomic"
)

// DefaultRoot is the spill root when none is given: thund-spill in the
// system's temporary folder.
func DefaultRoot() string { return filepath.Join(os.TempDir(), "thund-spill") }

const lockName = "lock"

// Area is one process's spill folder under a root, made at the first
// File. It is safe for concurrent use.
type Area struct {
	root string

	mu     sync.Mutex
	dir    string   // "" until the first File
	lock   *os.File // held open, locked, while dir exists
	seq    int
	closed bool

	bytes atomic.Int64 // written by every File
}

// Open returns the Area of root (DefaultRoot when empty). It makes no
// folder yet.
func Open(root string) *Area {
	if root == "" {
		root = DefaultRoot()
	}
	return &Area{root: root}
}

// Root is the area's root folder.
func (a *Area) Root() string { return a.root }

// Bytes is how many bytes the area's files took on disk, in all.
func (a *Area) Bytes() int64 { return a.bytes.Load() }

// Sweep removes the folders under the root that no live process holds:
// what a killed process left. It returns how many it removed. A missing
// root is no error.
func (a *Area) Sweep() (int, error) {
	ents, err := os.ReadDir(a.root)
	if os.IsNotExist(err) {
		return 0, nil
	}
	if err != nil {
		return 0, fmt.Errorf("spill: %w", err)
	}
	a.mu.Lock()
	own := a.dir
	a.mu.Unlock()
	n := 0
	for _, e := range ents {
		dir := filepath.Join(a.root, e.Name())
		if !e.IsDir() || dir == own || !strings.HasPrefix(e.Name(), "p") {
			continue
		}
		f, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR, 0)
		if os.IsNotExist(err) {
			// a folder whose maker died before its lock existed, or one
			// being made now: leave a folder younger than its maker could be
			continue
		}
		if err != nil {
			continue
		}
		ok, _ := lockFile(f)
		if ok {
			if os.RemoveAll(dir) == nil {
				n++
			}
		}
		f.Close()
	}
	return n, nil
}

// folder makes the area's folder and takes its lock, once.
func (a *Area) folder() (string, error) {
	a.mu.Lock()
	defer a.mu.Unlock()
	if a.closed {
		return "", fmt.Errorf("spill: the area is closed")
	}
	if a.dir != "" {
		return a.dir, nil
	}
	if err := os.MkdirAll(a.root, 0o700); err != nil {
		return "", fmt.Errorf("spill: %w", err)
	}
	dir, err := os.MkdirTemp(a.root, "p"+strconv.Itoa(os.Getpid())+"-")
	if err != nil {
		return "", fmt.Errorf("spill: %w", err)
	}
	// locked under another name, then renamed: Sweep never finds a lock
	// file that nobody holds yet
	tmp := filepath.Join(dir, lockName+".new")
	f, err := os.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err == nil {
		_, err = lockFile(f)
	}
	if err == nil {
		err = os.Rename(tmp, filepath.Join(dir, lockName))
	}
	if err != nil {
		if f != nil {
			f.Close()
		}
		os.RemoveAll(dir)
		return "", fmt.Errorf("spill: locking %s: %w", dir, err)
	}
	a.dir, a.lock = dir, f
	return dir, nil
}

// Create starts a new file in the area; what names it (an operator, say)
// only helps a reader of the folder. count, if not nil, is told the bytes
// the file took when it is finished or abandoned (a flow's own count).
func (a *Area) Create(what string, count func(int64)) (*Writer, error) {
	dir, err := a.folder()
	if err != nil {
		return nil, err
	}
	a.mu.Lock()
	a.seq++
	name := fmt.Sprintf("%06d-%s", a.seq, sanitize(what))
	a.mu.Unlock()
	f, err := os.OpenFile(filepath.Join(dir, name), os.O_RDWR|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return nil, fmt.Errorf("spill: %w", err)
	}
	w := newWriter(a, f)
	w.count = count
	return w, nil
}

// Close removes the area's folder and everything in it; the area makes no
// more files.
func (a *Area) Close() error {
	a.mu.Lock()
	defer a.mu.Unlock()
	a.closed = true
	if a.dir == "" {
		return nil
	}
	err := os.RemoveAll(a.dir)
	a.lock.Close()
	a.dir, a.lock = "", nil
	if err != nil {
		return fmt.Errorf("spill: %w", err)
	}
	return nil
}

// sanitize keeps a name's letters, digits, '-' and '_', at most 40.
func sanitize(s string) string {
	var b strings.Builder
	for _, r := range s {
		if b.Len() >= 40 {
			break
		}
		switch {
		case r >= 'a' && r <= 'z', r >= 'A' && r <= 'Z', r >= '0' && r <= '9', r == '-', r == '_':
			b.WriteRune(r)
		default:
			b.WriteByte('_')
		}
	}
	return b.String()
}
