//go:build unix

package store

import (
	"os"
	"path/filepath"
	"syscall"
)

// lockGuard takes an exclusive flock(2) on a dot-file beside path. The kernel
// drops it when the process dies, so a crash never leaves it stuck.
func lockGuard(path string) (unlock func(), err error) {
	dir, base := filepath.Split(path)
	f, err := os.OpenFile(filepath.Join(dir, "."+base+".guard"), os.O_RDWR|os.O_CREATE, 0o644)
	if err != nil {
		return nil, err
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		f.Close()
		return nil, err
	}
	return func() {
		syscall.Flock(int(f.Fd()), syscall.LOCK_UN)
		f.Close()
	}, nil
}
