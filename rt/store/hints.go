package store

import (
	"context"
	"errors"
	"io/fs"
	"syscall"
	"time"
)

// HintError is a storage error with advice for the person who reads it.
type HintError struct {
	Err  error
	Hint string
}

func (e *HintError) Error() string { return e.Err.Error() + " (" + e.Hint + ")" }
func (e *HintError) Unwrap() error { return e.Err }

// RemoteError is the error of a request to an object store (s3store.Error):
// it names the operation and the object, and the server's answer says what
// to check, so Hint adds no local-disk advice to it.
type RemoteError interface {
	error
	RemoteLocation() string // the object, e.g. s3://bucket/key
}

// Hint returns err with advice added when it is a storage condition a user
// can fix: a full disk or quota, a permission error, a read-only file
// system. Other errors, and errors that already carry a hint, are returned
// as they are.
func Hint(err error) error {
	var he *HintError
	if err == nil || errors.As(err, &he) {
		return err
	}
	var hint string
	switch {
	case errors.Is(err, syscall.ENOSPC):
		hint = "the disk holding the warehouse is full: free space (etl vacuum removes old versions) and run again"
	case errors.Is(err, syscall.EDQUOT):
		hint = "the disk quota is exhausted: free space (etl vacuum removes old versions) and run again"
	case errors.Is(err, syscall.EROFS):
		hint = "the warehouse is on a read-only file system"
	case errors.Is(err, fs.ErrPermission):
		var re RemoteError
		if errors.As(err, &re) {
			return err // an object store's errors say what to check
		}
		hint = "permission denied: this user must be able to create, write and remove files in the warehouse folder"
	default:
		return err
	}
	return &HintError{Err: err, Hint: hint}
}

// WithHints wraps an FS so that its errors carry Hint's advice.
func WithHints(f FS) FS { return hinted{f} }

type hinted struct{ FS }

func (h hinted) Open(ctx context.Context, name string) (Object, error) {
	o, err := h.FS.Open(ctx, name)
	return o, Hint(err)
}

func (h hinted) ReadFile(ctx context.Context, name string) ([]byte, string, error) {
	d, t, err := h.FS.ReadFile(ctx, name)
	return d, t, Hint(err)
}

func (h hinted) Stat(ctx context.Context, name string) (Info, error) {
	i, err := h.FS.Stat(ctx, name)
	return i, Hint(err)
}

func (h hinted) List(ctx context.Context, prefix string) ([]Info, error) {
	l, err := h.FS.List(ctx, prefix)
	return l, Hint(err)
}

func (h hinted) Create(ctx context.Context, name string) (Writer, error) {
	w, err := h.FS.Create(ctx, name)
	if err != nil {
		return nil, Hint(err)
	}
	return hintedWriter{w}, nil
}

type hintedWriter struct{ Writer }

func (w hintedWriter) Write(p []byte) (int, error) {
	n, err := w.Writer.Write(p)
	return n, Hint(err)
}
func (w hintedWriter) Commit() error { return Hint(w.Writer.Commit()) }

func (h hinted) WriteFile(ctx context.Context, name string, data []byte) error {
	return Hint(h.FS.WriteFile(ctx, name, data))
}

func (h hinted) CreateIfAbsent(ctx context.Context, name string, data []byte) error {
	return Hint(h.FS.CreateIfAbsent(ctx, name, data))
}

func (h hinted) ReplaceIfMatch(ctx context.Context, name string, data []byte, tag string) error {
	return Hint(h.FS.ReplaceIfMatch(ctx, name, data, tag))
}

func (h hinted) Remove(ctx context.Context, name string) error {
	return Hint(h.FS.Remove(ctx, name))
}

// CleanTemp implements TempCleaner when the wrapped FS does.
func (h hinted) CleanTemp(ctx context.Context, prefix string, cutoff func(name string) time.Time) (int, error) {
	if c, ok := h.FS.(TempCleaner); ok {
		n, err := c.CleanTemp(ctx, prefix, cutoff)
		return n, Hint(err)
	}
	return 0, nil
}
