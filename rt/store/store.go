package store

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"strings"
	"time"
)

// Errors reported by every FS. Test with errors.Is: implementations wrap them
// (a *fs.PathError for the local disk).
var (
	// ErrNotExist: the object does not exist.
	ErrNotExist = fs.ErrNotExist
	// ErrExist: CreateIfAbsent found the object already there.
	ErrExist = fs.ErrExist
	// ErrPrecondition: ReplaceIfMatch found an object other than the one named
	// by the tag (someone else changed it first).
	ErrPrecondition = errors.New("object changed since it was read (precondition failed)")
	// ErrInvalidName: the name is not a valid object name (see ValidName).
	ErrInvalidName = errors.New("invalid object name")
)

// Info describes one object.
type Info struct {
	Name    string // slash-separated, relative to the FS root
	Size    int64
	ModTime time.Time
}

// Object is an open object for reading. Parquet and Arrow IPC files need
// random access, so it is a ReaderAt and a Seeker too; an object store serves
// those as ranged GETs.
type Object interface {
	io.Reader
	io.ReaderAt
	io.Seeker
	io.Closer
	Size() int64
}

// Writer streams a new object. Nothing is visible under the name until Commit
// returns nil; Commit replaces an existing object atomically (temp+rename on
// disk, a completed upload on an object store). Abort discards the data. Exactly
// one of Commit or Abort must be called; both are safe to call after the other
// (they then do nothing and return nil).
type Writer interface {
	io.Writer
	Commit() error
	Abort() error
}

// FS is the storage the warehouse lives on. It is shaped like an object store:
// flat slash-separated names, whole objects, no appends, no directory renames.
// Every write is atomic: a reader sees the old object, the new one, or none, and
// never a part. Names are validated with ValidName.
type FS interface {
	// Open opens an object for reading.
	Open(ctx context.Context, name string) (Object, error)
	// ReadFile reads a whole (small) object and returns its tag, an opaque
	// string that changes whenever the object does; pass it to ReplaceIfMatch.
	ReadFile(ctx context.Context, name string) (data []byte, tag string, err error)
	// Stat describes one object.
	Stat(ctx context.Context, name string) (Info, error)
	// List returns every object whose name starts with prefix (a plain string
	// prefix, not a directory: "a/b" matches "a/bc"), sorted by name. Objects in
	// the middle of being written are never listed.
	List(ctx context.Context, prefix string) ([]Info, error)
	// Create starts writing an object; see Writer.
	Create(ctx context.Context, name string) (Writer, error)
	// WriteFile writes a whole object atomically, replacing any old one.
	WriteFile(ctx context.Context, name string, data []byte) error
	// CreateIfAbsent writes a whole object atomically only if no object of
	// that name exists; otherwise it returns an error wrapping ErrExist and
	// changes nothing. Of two concurrent calls at most one succeeds.
	CreateIfAbsent(ctx context.Context, name string, data []byte) error
	// ReplaceIfMatch replaces an object atomically only if its current tag is
	// tag (from ReadFile); otherwise it returns an error wrapping
	// ErrPrecondition, or ErrNotExist when the object is gone.
	ReplaceIfMatch(ctx context.Context, name string, data []byte, tag string) error
	// Remove deletes an object. Removing an absent object returns an error
	// wrapping ErrNotExist.
	Remove(ctx context.Context, name string) error
	// Location renders name for messages: a path or URL a person can use.
	Location(name string) string
}

// ValidName reports whether name is a valid object name: non-empty,
// slash-separated segments that are neither empty, "." nor "..", and that do
// not start with "." (dot-names are reserved for an implementation's temporary
// and guard files, which List never shows). No leading or trailing slash.
func ValidName(name string) error {
	if name == "" {
		return fmt.Errorf("%w: empty", ErrInvalidName)
	}
	for _, seg := range strings.Split(name, "/") {
		switch {
		case seg == "":
			return fmt.Errorf("%w %q: empty path segment", ErrInvalidName, name)
		case seg[0] == '.':
			return fmt.Errorf("%w %q: segment %q starts with '.'", ErrInvalidName, name, seg)
		case strings.ContainsAny(seg, "\\\x00"):
			return fmt.Errorf("%w %q: backslash or NUL in name", ErrInvalidName, name)
		}
	}
	return nil
}

// Join joins name segments with "/".
func Join(segs ...string) string {
	var b strings.Builder
	for _, s := range segs {
		s = strings.Trim(s, "/")
		if s == "" {
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('/')
		}
		b.WriteString(s)
	}
	return b.String()
}

// TempCleaner is implemented by stores that can leave temporary objects
// behind when a process dies mid-write: temporary files on the local disk,
// incomplete multipart uploads on S3. The warehouse calls it while it holds
// the run lock.
type TempCleaner interface {
	// CleanTemp removes the temporary objects under prefix that were last
	// written before cutoff(name), by the store's clock, name being the
	// object each was to become (a zero time keeps it). It returns how many
	// it removed.
	CleanTemp(ctx context.Context, prefix string, cutoff func(name string) time.Time) (int, error)
}

// OlderThan is a CleanTemp cutoff: every temporary object last written more
// than age ago.
func OlderThan(age time.Duration) func(string) time.Time {
	t := time.Now().Add(-age)
	return func(string) time.Time { return t }
}
