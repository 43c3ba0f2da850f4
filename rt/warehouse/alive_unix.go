//go:build unix

package warehouse

import (
	"errors"
	"syscall"
)

// processAlive reports whether a process of this host exists (signal 0).
func processAlive(pid int) bool {
	if pid <= 0 {
		return false
	}
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
