// Package storetest is the contract test of rt/store's FS interface: every
// implementation (store.Local, s3store.Store against the fake server and
// against the S3 lane's real one) must pass Contract. It is imported by tests
// only.
package storetest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"math/rand"
	"slices"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/nordisk/thund/rt/store"
)

// Contract checks the FS contract of rt/store/store.go on one implementation:
// every FS (Local, S3 against the fake, S3 against a real server in the s3
// lane) must pass it. big is the size of a streamed object that must go
// through the multipart path on S3 (more than one part).
func Contract(t *testing.T, fsys store.FS, big int) {
	ctx := context.Background()

	t.Run("basics", func(t *testing.T) {
		for name, data := range map[string]string{"a/b/c.txt": "hello", "a/bc.txt": "x", "z.txt": "z"} {
			if err := fsys.WriteFile(ctx, name, []byte(data)); err != nil {
				t.Fatal(err)
			}
		}
		data, tag, err := fsys.ReadFile(ctx, "a/b/c.txt")
		if err != nil || string(data) != "hello" || tag == "" {
			t.Fatalf("ReadFile = %q %q %v", data, tag, err)
		}
		for prefix, want := range map[string][]string{
			"a/b": {"a/b/c.txt", "a/bc.txt"}, "a/b/": {"a/b/c.txt"}, "": {"a/b/c.txt", "a/bc.txt", "z.txt"}, "nope/": nil,
		} {
			if got := names(must(fsys.List(ctx, prefix))); !slices.Equal(got, want) {
				t.Errorf("List(%q) = %v, want %v", prefix, got, want)
			}
		}
		st, err := fsys.Stat(ctx, "a/b/c.txt")
		if err != nil || st.Size != 5 || st.Name != "a/b/c.txt" {
			t.Errorf("Stat = %+v %v", st, err)
		}
		if _, err := fsys.Stat(ctx, "a/nope"); !errors.Is(err, store.ErrNotExist) {
			t.Errorf("Stat(absent) err = %v, want store.ErrNotExist", err)
		}
		if _, _, err := fsys.ReadFile(ctx, "a/nope"); !errors.Is(err, store.ErrNotExist) {
			t.Errorf("ReadFile(absent) err = %v, want store.ErrNotExist", err)
		}
		if _, err := fsys.Open(ctx, "a/nope"); !errors.Is(err, store.ErrNotExist) {
			t.Errorf("Open(absent) err = %v, want store.ErrNotExist", err)
		}
		if err := fsys.Remove(ctx, "a/bc.txt"); err != nil {
			t.Fatal(err)
		}
		if err := fsys.Remove(ctx, "a/bc.txt"); !errors.Is(err, store.ErrNotExist) {
			t.Errorf("Remove(absent) err = %v, want store.ErrNotExist", err)
		}
		if err := fsys.WriteFile(ctx, ".hidden", nil); !errors.Is(err, store.ErrInvalidName) {
			t.Errorf("WriteFile(.hidden) err = %v, want store.ErrInvalidName", err)
		}
		for _, n := range []string{"a/b/c.txt", "z.txt"} {
			if err := fsys.Remove(ctx, n); err != nil {
				t.Error(err)
			}
		}
	})

	t.Run("create-if-absent race", func(t *testing.T) {
		const n = 8
		var wins atomic.Int32
		var wg sync.WaitGroup
		errs := make([]error, n)
		for i := range n {
			wg.Add(1)
			go func() {
				defer wg.Done()
				err := fsys.CreateIfAbsent(ctx, "race/commit.json", []byte(fmt.Sprintf("writer %d", i)))
				if err == nil {
					wins.Add(1)
				}
				errs[i] = err
			}()
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Fatalf("%d of %d concurrent CreateIfAbsent calls succeeded, want exactly 1: %v", wins.Load(), n, errs)
		}
		for _, err := range errs {
			if err != nil && !errors.Is(err, store.ErrExist) {
				t.Errorf("a losing CreateIfAbsent: %v, want store.ErrExist", err)
			}
		}
		data, _, err := fsys.ReadFile(ctx, "race/commit.json")
		if err != nil || !bytes.HasPrefix(data, []byte("writer ")) {
			t.Errorf("after the race: %q %v", data, err)
		}
		if err := fsys.CreateIfAbsent(ctx, "race/commit.json", []byte("late")); !errors.Is(err, store.ErrExist) {
			t.Errorf("CreateIfAbsent on an existing object: %v, want store.ErrExist", err)
		}
		if again, _, _ := fsys.ReadFile(ctx, "race/commit.json"); !bytes.Equal(again, data) {
			t.Errorf("a refused CreateIfAbsent changed the object: %q", again)
		}
		fsys.Remove(ctx, "race/commit.json")
	})

	t.Run("compare-and-swap", func(t *testing.T) {
		if err := fsys.CreateIfAbsent(ctx, "cas/lock", []byte("v1")); err != nil {
			t.Fatal(err)
		}
		_, tag1, err := fsys.ReadFile(ctx, "cas/lock")
		if err != nil {
			t.Fatal(err)
		}
		if err := fsys.ReplaceIfMatch(ctx, "cas/lock", []byte("v2"), tag1); err != nil {
			t.Fatalf("ReplaceIfMatch with the current tag: %v", err)
		}
		if err := fsys.ReplaceIfMatch(ctx, "cas/lock", []byte("v3"), tag1); !errors.Is(err, store.ErrPrecondition) {
			t.Errorf("ReplaceIfMatch with a stale tag: %v, want store.ErrPrecondition", err)
		}
		data, tag2, _ := fsys.ReadFile(ctx, "cas/lock")
		if string(data) != "v2" || tag2 == tag1 {
			t.Errorf("after CAS: %q tag %q (old %q)", data, tag2, tag1)
		}
		// Concurrent swaps from the same tag: exactly one wins.
		var wins atomic.Int32
		var wg sync.WaitGroup
		for i := range 6 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				if fsys.ReplaceIfMatch(ctx, "cas/lock", []byte(fmt.Sprintf("swap %d", i)), tag2) == nil {
					wins.Add(1)
				}
			}()
		}
		wg.Wait()
		if wins.Load() != 1 {
			t.Errorf("%d concurrent swaps from one tag succeeded, want 1", wins.Load())
		}
		fsys.Remove(ctx, "cas/lock")
		if err := fsys.ReplaceIfMatch(ctx, "cas/lock", []byte("v4"), tag2); !errors.Is(err, store.ErrNotExist) && !errors.Is(err, store.ErrPrecondition) {
			t.Errorf("ReplaceIfMatch of a removed object: %v, want store.ErrNotExist or store.ErrPrecondition", err)
		}
	})

	t.Run("streamed writer", func(t *testing.T) {
		for _, size := range []int{0, 1000, big} {
			name := fmt.Sprintf("stream/obj-%d.bin", size)
			data := make([]byte, size)
			rand.New(rand.NewSource(int64(size))).Read(data)
			w, err := fsys.Create(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			for off := 0; off < len(data); off += 1 << 20 {
				if _, err := w.Write(data[off:min(off+1<<20, len(data))]); err != nil {
					t.Fatal(err)
				}
			}
			// Nothing is visible before Commit.
			if _, err := fsys.Stat(ctx, name); !errors.Is(err, store.ErrNotExist) {
				t.Errorf("size %d: Stat before Commit: %v, want store.ErrNotExist", size, err)
			}
			if got := names(must(fsys.List(ctx, "stream/"))); len(got) != 0 {
				t.Errorf("size %d: List before Commit = %v", size, got)
			}
			if err := w.Commit(); err != nil {
				t.Fatalf("size %d: Commit: %v", size, err)
			}
			o, err := fsys.Open(ctx, name)
			if err != nil {
				t.Fatal(err)
			}
			if o.Size() != int64(size) {
				t.Errorf("size %d: Size() = %d", size, o.Size())
			}
			all, err := io.ReadAll(o)
			if err != nil || !bytes.Equal(all, data) {
				t.Errorf("size %d: read back %d bytes, err %v, equal %v", size, len(all), err, bytes.Equal(all, data))
			}
			if size > 10 {
				buf := make([]byte, 10)
				off := int64(size - 10)
				if _, err := o.ReadAt(buf, off); err != nil || !bytes.Equal(buf, data[off:]) {
					t.Errorf("size %d: ReadAt tail: %v", size, err)
				}
				if _, err := o.Seek(3, io.SeekStart); err != nil {
					t.Fatal(err)
				}
				if _, err := io.ReadFull(o, buf); err != nil || !bytes.Equal(buf, data[3:13]) {
					t.Errorf("size %d: Seek+Read: %v", size, err)
				}
			}
			o.Close()
			fsys.Remove(ctx, name)
		}
		w, err := fsys.Create(ctx, "stream/aborted")
		if err != nil {
			t.Fatal(err)
		}
		w.Write(make([]byte, big))
		if err := w.Abort(); err != nil {
			t.Fatal(err)
		}
		if err := w.Commit(); err != nil {
			t.Errorf("Commit after Abort: %v, want nil (no-op)", err)
		}
		if _, err := fsys.Stat(ctx, "stream/aborted"); !errors.Is(err, store.ErrNotExist) {
			t.Errorf("an aborted object exists: %v", err)
		}
	})
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}

func names(infos []store.Info) []string {
	var out []string
	for _, i := range infos {
		out = append(out, i.Name)
	}
	return out
}
