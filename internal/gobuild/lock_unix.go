//go:build unix

package gobuild

import (
	"os"
	"syscall"
)

// tryLock takes an exclusive advisory lock on f without waiting; false when
// another process holds it. Closing f releases it.
func tryLock(f *os.File) (bool, error) {
	err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB)
	if err == syscall.EWOULDBLOCK {
		return false, nil
	}
	return err == nil, err
}
