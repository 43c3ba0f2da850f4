package store

import (
	"context"
	"errors"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"
)

func newLocal(t *testing.T) *Local {
	t.Helper()
	l, err := NewLocal(t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	return l
}

func names(infos []Info) []string {
	var out []string
	for _, i := range infos {
		out = append(out, i.Name)
	}
	return out
}

func TestLocalBasics(t *testing.T) {
	ctx := context.Background()
	l := newLocal(t)
	if err := l.WriteFile(ctx, "a/b/c.txt", []byte("hello")); err != nil {
		t.Fatal(err)
	}
	if err := l.WriteFile(ctx, "a/bc.txt", []byte("x")); err != nil {
		t.Fatal(err)
	}
	if err := l.WriteFile(ctx, "z.txt", []byte("z")); err != nil {
		t.Fatal(err)
	}
	data, tag, err := l.ReadFile(ctx, "a/b/c.txt")
	if err != nil || string(data) != "hello" || tag == "" {
		t.Fatalf("ReadFile = %q %q %v", data, tag, err)
	}
	got := names(must(l.List(ctx, "a/b")))
	if want := []string{"a/b/c.txt", "a/bc.txt"}; !slices.Equal(got, want) {
		t.Errorf("List(a/b) = %v, want %v", got, want)
	}
	got = names(must(l.List(ctx, "a/b/")))
	if want := []string{"a/b/c.txt"}; !slices.Equal(got, want) {
		t.Errorf("List(a/b/) = %v, want %v", got, want)
	}
	got = names(must(l.List(ctx, "")))
	if want := []string{"a/b/c.txt", "a/bc.txt", "z.txt"}; !slices.Equal(got, want) {
		t.Errorf("List() = %v, want %v", got, want)
	}
	if got := must(l.List(ctx, "nope/")); len(got) != 0 {
		t.Errorf("List(nope/) = %v", got)
	}
	st, err := l.Stat(ctx, "a/b/c.txt")
	if err != nil || st.Size != 5 {
		t.Errorf("Stat = %+v %v", st, err)
	}
	if _, err := l.Stat(ctx, "a/b"); !errors.Is(err, ErrNotExist) {
		t.Errorf("Stat(dir) err = %v, want ErrNotExist", err)
	}
	o, err := l.Open(ctx, "a/b/c.txt")
	if err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 3)
	if _, err := o.ReadAt(buf, 2); err != nil || string(buf) != "llo" || o.Size() != 5 {
		t.Errorf("ReadAt = %q %v size %d", buf, err, o.Size())
	}
	o.Close()
	if err := l.Remove(ctx, "a/b/c.txt"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(l.Root, "a", "b")); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("empty directory a/b not pruned: %v", err)
	}
	if err := l.Remove(ctx, "a/b/c.txt"); !errors.Is(err, ErrNotExist) {
		t.Errorf("second Remove err = %v", err)
	}
	for _, bad := range []string{"", "/a", "a/", "a//b", "../x", "a/./b", ".hidden", "a/.tmp"} {
		if err := l.WriteFile(ctx, bad, nil); !errors.Is(err, ErrInvalidName) {
			t.Errorf("WriteFile(%q) err = %v, want ErrInvalidName", bad, err)
		}
	}
}

func TestLocalWriterCommitAbort(t *testing.T) {
	ctx := context.Background()
	l := newLocal(t)
	w, err := l.Create(ctx, "d/part-0")
	if err != nil {
		t.Fatal(err)
	}
	io.WriteString(w, "abc")
	if got := must(l.List(ctx, "")); len(got) != 0 {
		t.Fatalf("uncommitted object listed: %v", names(got))
	}
	if err := w.Commit(); err != nil {
		t.Fatal(err)
	}
	if got := names(must(l.List(ctx, ""))); !slices.Equal(got, []string{"d/part-0"}) {
		t.Fatalf("List = %v", got)
	}
	w, _ = l.Create(ctx, "d/part-1")
	io.WriteString(w, "abc")
	w.Abort()
	w.Commit() // no-op after Abort
	if got := names(must(l.List(ctx, ""))); !slices.Equal(got, []string{"d/part-0"}) {
		t.Fatalf("List after abort = %v", got)
	}
	ents, _ := os.ReadDir(filepath.Join(l.Root, "d"))
	if len(ents) != 1 {
		t.Errorf("temporary file left after Abort: %v", ents)
	}
}

func TestCreateIfAbsentRace(t *testing.T) {
	ctx := context.Background()
	l := newLocal(t)
	const n = 16
	var wg sync.WaitGroup
	errs := make([]error, n)
	for i := range n {
		wg.Add(1)
		go func() {
			defer wg.Done()
			errs[i] = l.CreateIfAbsent(ctx, "commits/1.json", []byte{byte('a' + i)})
		}()
	}
	wg.Wait()
	won := 0
	for _, err := range errs {
		switch {
		case err == nil:
			won++
		case !errors.Is(err, ErrExist):
			t.Errorf("unexpected error %v", err)
		}
	}
	if won != 1 {
		t.Fatalf("%d of %d CreateIfAbsent calls succeeded, want exactly 1", won, n)
	}
}

func TestReplaceIfMatch(t *testing.T) {
	ctx := context.Background()
	l := newLocal(t)
	if err := l.ReplaceIfMatch(ctx, "lock", []byte("x"), "t"); !errors.Is(err, ErrNotExist) {
		t.Errorf("replace absent: %v", err)
	}
	l.CreateIfAbsent(ctx, "lock", []byte("v1"))
	_, tag, _ := l.ReadFile(ctx, "lock")
	// Many concurrent swaps from the same tag: exactly one wins.
	var wg sync.WaitGroup
	var mu sync.Mutex
	won := 0
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			err := l.ReplaceIfMatch(ctx, "lock", []byte{byte('a' + i)}, tag)
			mu.Lock()
			defer mu.Unlock()
			if err == nil {
				won++
			} else if !errors.Is(err, ErrPrecondition) {
				t.Errorf("unexpected %v", err)
			}
		}()
	}
	wg.Wait()
	if won != 1 {
		t.Fatalf("%d swaps won, want 1", won)
	}
	if got := names(must(l.List(ctx, ""))); !slices.Equal(got, []string{"lock"}) {
		t.Errorf("guard or temp files listed: %v", got)
	}
}

func TestTornTempIgnoredAndCleaned(t *testing.T) {
	ctx := context.Background()
	l := newLocal(t)
	f := NewFaulty(l, Fault{Op: OpCreateIfAbsent, Torn: true, Err: syscall.EIO})
	if err := f.CreateIfAbsent(ctx, "_thund/commits/000001.json", []byte("0123456789")); !errors.Is(err, syscall.EIO) {
		t.Fatalf("err = %v", err)
	}
	if got := must(l.List(ctx, "")); len(got) != 0 {
		t.Fatalf("torn write visible: %v", names(got))
	}
	ents, _ := os.ReadDir(filepath.Join(l.Root, "_thund", "commits"))
	if len(ents) != 1 {
		t.Fatalf("want one torn temp file, got %v", ents)
	}
	if _, err := l.CleanTemp(ctx, "", OlderThan(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(filepath.Join(l.Root, "_thund", "commits")); len(ents) != 1 {
		t.Fatalf("fresh temp removed")
	}
	if _, err := f.CleanTemp(ctx, "_thund", OlderThan(-time.Second)); err != nil {
		t.Fatal(err)
	}
	if ents, _ := os.ReadDir(filepath.Join(l.Root, "_thund", "commits")); len(ents) != 0 {
		t.Fatalf("old temp not removed: %v", ents)
	}
}

func TestFaultyNth(t *testing.T) {
	ctx := context.Background()
	l := newLocal(t)
	f := NewFaulty(l, Fault{Op: OpAnyWrite, Nth: 2, Err: syscall.ENOSPC})
	if err := f.WriteFile(ctx, "a", []byte("1")); err != nil {
		t.Fatal(err)
	}
	err := f.WriteFile(ctx, "b", []byte("2"))
	if !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("2nd write err = %v", err)
	}
	if err.Error() != "writefile b: no space left on device" {
		t.Errorf("message %q", err)
	}
	if err := f.CreateIfAbsent(ctx, "c", []byte("3")); err != nil {
		t.Fatal(err)
	}
	if got := names(must(l.List(ctx, ""))); !slices.Equal(got, []string{"a", "c"}) {
		t.Errorf("List = %v", got)
	}
	if f.Calls(OpAnyWrite) != 3 {
		t.Errorf("Calls = %d", f.Calls(OpAnyWrite))
	}

	// A streamed write that fails mid-way publishes nothing.
	f.Add(Fault{Op: OpWrite, Match: "big", Nth: 2, Err: syscall.ENOSPC})
	w, _ := f.Create(ctx, "big")
	w.Write([]byte("x"))
	if _, err := w.Write([]byte("y")); !errors.Is(err, syscall.ENOSPC) {
		t.Fatalf("write err = %v", err)
	}
	w.Abort()
	if _, err := l.Stat(ctx, "big"); !errors.Is(err, ErrNotExist) {
		t.Errorf("big exists after failed write")
	}

	// After: the write happens but is reported failed.
	f.Add(Fault{Op: OpCreateIfAbsent, Match: "amb", After: true, Err: syscall.ETIMEDOUT})
	if err := f.CreateIfAbsent(ctx, "amb", []byte("x")); !errors.Is(err, syscall.ETIMEDOUT) {
		t.Fatalf("err = %v", err)
	}
	if _, err := l.Stat(ctx, "amb"); err != nil {
		t.Errorf("After fault did not apply the write: %v", err)
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func TestHint(t *testing.T) {
	ctx := context.Background()
	f := WithHints(NewFaulty(newLocal(t), Fault{Op: OpWriteFile, Match: "full", Err: syscall.ENOSPC}, Fault{Op: OpWriteFile, Match: "ro", Err: syscall.EROFS}))
	err := f.WriteFile(ctx, "full", nil)
	if !errors.Is(err, syscall.ENOSPC) || !strings.HasSuffix(err.Error(), "(the disk holding the warehouse is full: free space (etl vacuum removes old versions) and run again)") {
		t.Errorf("ENOSPC: %v", err)
	}
	if err := f.WriteFile(ctx, "ro", nil); !strings.Contains(err.Error(), "read-only file system") {
		t.Errorf("EROFS: %v", err)
	}
	if err := f.WriteFile(ctx, "fine", nil); err != nil {
		t.Error(err)
	}
	if _, _, err := f.ReadFile(ctx, "nope"); !errors.Is(err, ErrNotExist) || strings.Contains(err.Error(), "(") {
		t.Errorf("a missing object gets a hint: %v", err)
	}
	if Hint(Hint(syscall.ENOSPC)).Error() != Hint(syscall.ENOSPC).Error() {
		t.Error("Hint twice adds two hints")
	}
}
