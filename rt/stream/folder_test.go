package stream

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"sort"
	"syscall"
	"testing"
	"time"

	"github.com/nordisk/thund/rt/store"
)

func newLocal(t *testing.T) (*store.Local, string) {
	t.Helper()
	dir := t.TempDir()
	l, err := store.NewLocal(dir)
	if err != nil {
		t.Fatal(err)
	}
	return l, dir
}

// land writes name under root the way a writer following the rule does:
// a temporary name first, then a rename.
func land(t *testing.T, root, name, data string) {
	t.Helper()
	p := filepath.Join(root, filepath.FromSlash(name))
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(p+".tmp", []byte(data), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(p+".tmp", p); err != nil {
		t.Fatal(err)
	}
}

func names(infos []store.Info) []string {
	var out []string
	for _, i := range infos {
		out = append(out, i.Name)
	}
	return out
}

func TestIgnored(t *testing.T) {
	for _, tc := range []struct {
		rel  string
		want bool
	}{
		{"a.parquet", false},
		{"sub/a.csv", false},
		{"a.parquet.tmp", true},
		{".a.parquet", true},
		{"_SUCCESS", true},
		{"_temporary/0/a.parquet", true},
		{"sub/.hidden/a.csv", true},
		{"part-0.crc", true},
		{".part-0.parquet.crc", true},
		{"a_b.csv", false},
		{"tmp", false},
		{"a.tmpx", false},
	} {
		if got := Ignored(tc.rel); got != tc.want {
			t.Errorf("Ignored(%q) = %v, want %v", tc.rel, got, tc.want)
		}
	}
}

func TestFolderPollTable(t *testing.T) {
	ctx := context.Background()
	fsys, root := newLocal(t)
	land(t, root, "in/b.parquet", "b")
	land(t, root, "in/a.parquet", "a")
	land(t, root, "in/sub/c.parquet", "c")
	land(t, root, "in/_SUCCESS", "")
	land(t, root, "in/x.csv", "x")
	land(t, root, "other/z.parquet", "z")
	land(t, root, "input/y.parquet", "y") // shares the string prefix "in"
	os.WriteFile(filepath.Join(root, "in/d.parquet.tmp"), []byte("half"), 0o644)

	f, err := NewFolder(fsys, FolderOptions{Dir: "in", Pattern: "*.parquet"}, FolderOffset{})
	if err != nil {
		t.Fatal(err)
	}
	got, err := f.Poll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if want := []string{"in/a.parquet", "in/b.parquet"}; fmt.Sprint(names(got)) != fmt.Sprint(want) {
		t.Fatalf("first poll = %v, want %v (sub/c.parquet does not match *.parquet)", names(got), want)
	}
	if got, _ := f.Poll(ctx); len(got) != 0 {
		t.Fatalf("second poll yielded %v again", names(got))
	}
	// The writer renames its temporary file: now it is read.
	os.Rename(filepath.Join(root, "in/d.parquet.tmp"), filepath.Join(root, "in/d.parquet"))
	land(t, root, "in/0-early.parquet", "late-landing low name")
	got, _ = f.Poll(ctx)
	if want := []string{"in/0-early.parquet", "in/d.parquet"}; fmt.Sprint(names(got)) != fmt.Sprint(want) {
		t.Fatalf("third poll = %v, want %v", names(got), want)
	}
	off := f.Offset()
	if off.HighWater() != "in/d.parquet" || len(off.Consumed) != 4 {
		t.Fatalf("offset = %+v", off)
	}
	if _, err := NewFolder(fsys, FolderOptions{Pattern: "["}, FolderOffset{}); err == nil {
		t.Fatal("bad pattern accepted")
	}
}

func TestFolderSettle(t *testing.T) {
	ctx := context.Background()
	fsys, root := newLocal(t)
	f, _ := NewFolder(fsys, FolderOptions{Dir: "in", Settle: true}, FolderOffset{})
	p := filepath.Join(root, "in", "grow.csv")
	os.MkdirAll(filepath.Dir(p), 0o755)
	os.WriteFile(p, []byte("a\n"), 0o644)
	if got, _ := f.Poll(ctx); len(got) != 0 || f.Deferred() != 1 {
		t.Fatalf("first sight of a file yielded %v (deferred %d)", names(got), f.Deferred())
	}
	// Still being written: size changes between listings.
	os.WriteFile(p, []byte("a\nb\n"), 0o644)
	if got, _ := f.Poll(ctx); len(got) != 0 {
		t.Fatalf("a growing file was yielded: %v", names(got))
	}
	got, _ := f.Poll(ctx)
	if len(got) != 1 || got[0].Size != 4 {
		t.Fatalf("a settled file: got %+v", got)
	}
}

func TestFolderListFailureConsumesNothing(t *testing.T) {
	ctx := context.Background()
	local, root := newLocal(t)
	fsys := store.NewFaulty(local, store.Fault{Op: store.OpList, Nth: 1, Err: syscall.EIO})
	land(t, root, "in/a.csv", "a")
	f, _ := NewFolder(fsys, FolderOptions{Dir: "in"}, FolderOffset{})
	if _, err := f.Poll(ctx); !errors.Is(err, syscall.EIO) {
		t.Fatalf("want EIO, got %v", err)
	}
	if len(f.Offset().Consumed) != 0 {
		t.Fatal("a failed listing consumed files")
	}
	got, err := f.Poll(ctx)
	if err != nil || len(got) != 1 {
		t.Fatalf("after the fault: %v, %v", names(got), err)
	}
}

func TestFolderNextWaitsAndCancels(t *testing.T) {
	fsys, root := newLocal(t)
	clock := NewManualClock(time.Unix(0, 0))
	f, _ := NewFolder(fsys, FolderOptions{Dir: "in", PollInterval: 5 * time.Second, Clock: clock}, FolderOffset{})
	type res struct {
		files []store.Info
		err   error
	}
	done := make(chan res, 1)
	go func() {
		files, err := f.Next(context.Background())
		done <- res{files, err}
	}()
	clock.WaitForWaiters(1) // Next listed nothing and sleeps
	land(t, root, "in/a.csv", "a")
	clock.Advance(5 * time.Second)
	r := <-done
	if r.err != nil || len(r.files) != 1 || r.files[0].Name != "in/a.csv" {
		t.Fatalf("Next = %v, %v", names(r.files), r.err)
	}

	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		files, err := f.Next(ctx)
		done <- res{files, err}
	}()
	clock.WaitForWaiters(1)
	cancel()
	r = <-done
	if !errors.Is(r.err, context.Canceled) {
		t.Fatalf("cancelled Next = %v, %v", names(r.files), r.err)
	}
}

// TestFolderPropertyExactlyOnce lands random files (some ignored, some
// written in place and growing, some landing below the high-water mark),
// polls at random, and restarts the Folder from its serialized offset at
// random. Every eligible file is yielded exactly once, each poll in name
// order, never an ignored file, and with Settle never a file still growing.
func TestFolderPropertyExactlyOnce(t *testing.T) {
	for c := 0; c < 30; c++ {
		seed := uint64(1000 + c)
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			defer func() {
				if t.Failed() {
					t.Logf("seed %d", seed)
				}
			}()
			ctx := context.Background()
			fsys, root := newLocal(t)
			settle := rng.IntN(2) == 0
			opts := FolderOptions{Dir: "w", Settle: settle}
			f, _ := NewFolder(fsys, opts, FolderOffset{})
			eligible := map[string]int{} // name -> final size
			yielded := map[string]int{}
			growing := map[string]int{} // in-place writers: name -> steps left
			next := 100
			pollOnce := func() {
				got, err := f.Poll(ctx)
				if err != nil {
					t.Fatal(err)
				}
				if !sort.SliceIsSorted(got, func(i, j int) bool { return got[i].Name < got[j].Name }) {
					t.Fatalf("poll not in name order: %v", names(got))
				}
				for _, g := range got {
					yielded[g.Name]++
					want, ok := eligible[g.Name]
					if !ok {
						t.Fatalf("yielded %s, which is ignored or unfinished", g.Name)
					}
					if g.Size != int64(want) {
						t.Fatalf("yielded %s at size %d, final size %d (half-written)", g.Name, g.Size, want)
					}
				}
			}
			for step := 0; step < 60; step++ {
				// Growing in-place writers append at each step.
				for n, left := range growing {
					p := filepath.Join(root, "w", n)
					fh, _ := os.OpenFile(p, os.O_APPEND|os.O_WRONLY, 0)
					fh.WriteString("x")
					fh.Close()
					if left == 1 {
						delete(growing, n)
						st, _ := os.Stat(p)
						eligible["w/"+n] = int(st.Size())
					} else {
						growing[n] = left - 1
					}
				}
				switch op := rng.IntN(10); {
				case op < 4:
					name := fmt.Sprintf("f%04d.csv", next)
					if rng.IntN(4) == 0 && next > 100 {
						name = fmt.Sprintf("f%04d-low.csv", rng.IntN(next-100)+100)
					}
					next++
					if _, dup := eligible["w/"+name]; dup {
						continue
					}
					land(t, root, "w/"+name, "data")
					eligible["w/"+name] = 4
				case op == 4:
					land(t, root, fmt.Sprintf("w/_tmp%d", step), "x")
					os.WriteFile(filepath.Join(root, "w", fmt.Sprintf("g%d.csv.tmp", step)), []byte("x"), 0o644)
					land(t, root, fmt.Sprintf("w/g%d.crc", step), "x")
				case op == 5 && settle:
					name := fmt.Sprintf("grow%04d.csv", step)
					os.MkdirAll(filepath.Join(root, "w"), 0o755)
					os.WriteFile(filepath.Join(root, "w", name), []byte("x"), 0o644)
					growing[name] = 1 + rng.IntN(3)
				case op < 9:
					pollOnce()
				default:
					data, err := json.Marshal(f.Offset())
					if err != nil {
						t.Fatal(err)
					}
					var off FolderOffset
					if err := json.Unmarshal(data, &off); err != nil {
						t.Fatal(err)
					}
					f, _ = NewFolder(fsys, opts, off)
				}
			}
			// Finish the writers and drain.
			for n := range growing {
				st, _ := os.Stat(filepath.Join(root, "w", n))
				eligible["w/"+n] = int(st.Size())
			}
			for i := 0; i < 3; i++ {
				pollOnce()
			}
			for n := range eligible {
				if yielded[n] != 1 {
					t.Errorf("%s yielded %d times", n, yielded[n])
				}
			}
		})
	}
}
