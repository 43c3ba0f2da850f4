//go:build !unix

package gobuild

import "os"

// tryLock cannot lock here: every work folder counts as held, so every
// build takes a fresh folder of its own (and compiles the program's
// packages again).
func tryLock(f *os.File) (bool, error) { return false, nil }
