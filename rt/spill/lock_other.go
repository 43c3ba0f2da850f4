//go:build !unix

package spill

import "os"

// lockFile cannot lock here: every folder counts as held, so Sweep removes
// none (a killed process's folder stays until removed by hand).
func lockFile(f *os.File) (bool, error) { return false, nil }
