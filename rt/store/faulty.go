package store

import (
	"context"
	"io/fs"
	"strings"
	"sync"
	"time"
)

// Op names an FS operation for fault injection.
type Op string

// The operations a Fault can target. OpAnyWrite matches every operation that
// publishes or deletes an object (OpCommit, OpWriteFile, OpCreateIfAbsent,
// OpReplace, OpRemove); OpWrite is one Writer.Write call on a streamed object.
const (
	OpOpen           Op = "open"
	OpReadFile       Op = "readfile"
	OpStat           Op = "stat"
	OpList           Op = "list"
	OpCreate         Op = "create"
	OpWrite          Op = "write"
	OpCommit         Op = "commit"
	OpWriteFile      Op = "writefile"
	OpCreateIfAbsent Op = "createifabsent"
	OpReplace        Op = "replace"
	OpRemove         Op = "remove"
	OpAnyWrite       Op = "anywrite"
)

func (o Op) isMutation() bool {
	switch o {
	case OpCommit, OpWriteFile, OpCreateIfAbsent, OpReplace, OpRemove:
		return true
	}
	return false
}

// Fault makes matching calls fail. A call matches when its operation is Op
// (or Op is OpAnyWrite and the call publishes or deletes an object) and its
// object name contains Match.
type Fault struct {
	Op    Op
	Match string // substring of the object name; "" matches every name
	// Nth fails only the Nth matching call (1-based); 0 fails every one.
	Nth int
	// Err is the cause, e.g. syscall.ENOSPC or syscall.EACCES; it is wrapped
	// in a *fs.PathError naming the operation and object.
	Err error
	// After performs the operation first and reports Err afterwards: the
	// outcome is unknown to the caller, as when a connection drops after the
	// server applied a write.
	After bool
	// Torn, for a publishing write, leaves the first half of the data in a
	// temporary object that is never published, as a crash mid-write would.
	Torn bool

	seen int
}

// Faulty wraps an FS and injects faults; tests use it to check that a failure
// at any point leaves the warehouse consistent. It is safe for concurrent use.
type Faulty struct {
	FS
	mu     sync.Mutex
	faults []*Fault
	calls  map[Op]int
}

// NewFaulty wraps inner with the given faults.
func NewFaulty(inner FS, faults ...Fault) *Faulty {
	f := &Faulty{FS: inner, calls: map[Op]int{}}
	for _, ft := range faults {
		f.Add(ft)
	}
	return f
}

// Add installs one more fault.
func (f *Faulty) Add(ft Fault) {
	f.mu.Lock()
	defer f.mu.Unlock()
	c := ft
	f.faults = append(f.faults, &c)
}

// Reset removes every fault and zeroes the call counts.
func (f *Faulty) Reset() {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.faults = nil
	f.calls = map[Op]int{}
}

// Calls reports how many calls of op were made (OpAnyWrite: all mutations).
func (f *Faulty) Calls(op Op) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	if op == OpAnyWrite {
		n := 0
		for o, c := range f.calls {
			if o.isMutation() {
				n += c
			}
		}
		return n
	}
	return f.calls[op]
}

// check counts a call and returns the fault it triggers, if any.
func (f *Faulty) check(op Op, name string) *Fault {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls[op]++
	for _, ft := range f.faults {
		if ft.Op != op && !(ft.Op == OpAnyWrite && op.isMutation()) {
			continue
		}
		if !strings.Contains(name, ft.Match) {
			continue
		}
		ft.seen++
		if ft.Nth == 0 || ft.seen == ft.Nth {
			return ft
		}
	}
	return nil
}

func faultErr(op Op, name string, ft *Fault) error {
	return &fs.PathError{Op: string(op), Path: name, Err: ft.Err}
}

// torn leaves half of data in a never-published temporary object.
func (f *Faulty) torn(ctx context.Context, name string, data []byte) {
	if w, err := f.FS.Create(ctx, name); err == nil {
		w.Write(data[:len(data)/2])
		// Neither Commit nor Abort: the temporary file stays, as after a crash.
	}
}

// Open implements FS.
func (f *Faulty) Open(ctx context.Context, name string) (Object, error) {
	if ft := f.check(OpOpen, name); ft != nil {
		return nil, faultErr(OpOpen, name, ft)
	}
	return f.FS.Open(ctx, name)
}

// ReadFile implements FS.
func (f *Faulty) ReadFile(ctx context.Context, name string) ([]byte, string, error) {
	if ft := f.check(OpReadFile, name); ft != nil {
		return nil, "", faultErr(OpReadFile, name, ft)
	}
	return f.FS.ReadFile(ctx, name)
}

// Stat implements FS.
func (f *Faulty) Stat(ctx context.Context, name string) (Info, error) {
	if ft := f.check(OpStat, name); ft != nil {
		return Info{}, faultErr(OpStat, name, ft)
	}
	return f.FS.Stat(ctx, name)
}

// List implements FS.
func (f *Faulty) List(ctx context.Context, prefix string) ([]Info, error) {
	if ft := f.check(OpList, prefix); ft != nil {
		return nil, faultErr(OpList, prefix, ft)
	}
	return f.FS.List(ctx, prefix)
}

// Create implements FS. The returned Writer honours OpWrite and OpCommit faults.
func (f *Faulty) Create(ctx context.Context, name string) (Writer, error) {
	if ft := f.check(OpCreate, name); ft != nil {
		return nil, faultErr(OpCreate, name, ft)
	}
	w, err := f.FS.Create(ctx, name)
	if err != nil {
		return nil, err
	}
	return &faultyWriter{Writer: w, f: f, name: name}, nil
}

type faultyWriter struct {
	Writer
	f    *Faulty
	name string
}

func (w *faultyWriter) Write(p []byte) (int, error) {
	if ft := w.f.check(OpWrite, w.name); ft != nil {
		if ft.After {
			w.Writer.Write(p)
		}
		return 0, faultErr(OpWrite, w.name, ft)
	}
	return w.Writer.Write(p)
}

func (w *faultyWriter) Commit() error {
	if ft := w.f.check(OpCommit, w.name); ft != nil {
		if ft.After {
			w.Writer.Commit()
		} else if !ft.Torn {
			w.Writer.Abort()
		}
		return faultErr(OpCommit, w.name, ft)
	}
	return w.Writer.Commit()
}

// WriteFile implements FS.
func (f *Faulty) WriteFile(ctx context.Context, name string, data []byte) error {
	if ft := f.check(OpWriteFile, name); ft != nil {
		if ft.After {
			f.FS.WriteFile(ctx, name, data)
		} else if ft.Torn {
			f.torn(ctx, name, data)
		}
		return faultErr(OpWriteFile, name, ft)
	}
	return f.FS.WriteFile(ctx, name, data)
}

// CreateIfAbsent implements FS.
func (f *Faulty) CreateIfAbsent(ctx context.Context, name string, data []byte) error {
	if ft := f.check(OpCreateIfAbsent, name); ft != nil {
		if ft.After {
			f.FS.CreateIfAbsent(ctx, name, data)
		} else if ft.Torn {
			f.torn(ctx, name, data)
		}
		return faultErr(OpCreateIfAbsent, name, ft)
	}
	return f.FS.CreateIfAbsent(ctx, name, data)
}

// ReplaceIfMatch implements FS.
func (f *Faulty) ReplaceIfMatch(ctx context.Context, name string, data []byte, tag string) error {
	if ft := f.check(OpReplace, name); ft != nil {
		if ft.After {
			f.FS.ReplaceIfMatch(ctx, name, data, tag)
		} else if ft.Torn {
			f.torn(ctx, name, data)
		}
		return faultErr(OpReplace, name, ft)
	}
	return f.FS.ReplaceIfMatch(ctx, name, data, tag)
}

// Remove implements FS.
func (f *Faulty) Remove(ctx context.Context, name string) error {
	if ft := f.check(OpRemove, name); ft != nil {
		if ft.After {
			f.FS.Remove(ctx, name)
		}
		return faultErr(OpRemove, name, ft)
	}
	return f.FS.Remove(ctx, name)
}

// CleanTemp implements TempCleaner when the wrapped FS does.
func (f *Faulty) CleanTemp(ctx context.Context, prefix string, cutoff func(name string) time.Time) (int, error) {
	if c, ok := f.FS.(TempCleaner); ok {
		return c.CleanTemp(ctx, prefix, cutoff)
	}
	return 0, nil
}
