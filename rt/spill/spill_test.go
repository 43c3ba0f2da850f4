package spill

import (
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestRoundTrip(t *testing.T) {
	a := Open(t.TempDir())
	defer a.Close()
	var counted int64
	w, err := a.Create("group by at p.thund:3:5", func(n int64) { counted += n })
	if err != nil {
		t.Fatal(err)
	}
	for i := range 1000 {
		w.PutInt64(int64(i) - 500)
		w.PutString(strings.Repeat("x", i%7))
		w.PutBool(i%2 == 0)
		w.PutFloat64(float64(i) / 3)
		w.PutBytes([]byte{byte(i)})
		w.PutUint64(uint64(i) << 40)
	}
	f, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	if a.Bytes() != f.Len() || counted != f.Len() || f.Len() == 0 {
		t.Fatalf("area counts %d bytes, the writer's count %d, the file has %d", a.Bytes(), counted, f.Len())
	}
	for pass := range 2 { // a file reads again from its start
		r, err := f.Reader()
		if err != nil {
			t.Fatal(err)
		}
		i := 0
		for r.More() {
			if v := r.GetInt64(); v != int64(i)-500 {
				t.Fatalf("pass %d row %d: int %d", pass, i, v)
			}
			if s := r.GetString(); s != strings.Repeat("x", i%7) {
				t.Fatalf("row %d: string %q", i, s)
			}
			if b := r.GetBool(); b != (i%2 == 0) {
				t.Fatalf("row %d: bool %v", i, b)
			}
			if v := r.GetFloat64(); v != float64(i)/3 {
				t.Fatalf("row %d: float %v", i, v)
			}
			if b := r.GetBytes(); len(b) != 1 || b[0] != byte(i) {
				t.Fatalf("row %d: bytes %v", i, b)
			}
			if v := r.GetUint64(); v != uint64(i)<<40 {
				t.Fatalf("row %d: uint %v", i, v)
			}
			i++
		}
		if r.Err() != nil || i != 1000 {
			t.Fatalf("read %d rows, err %v", i, r.Err())
		}
		if r.GetInt64() != 0 || r.Err() == nil {
			t.Fatalf("a read past the end: err %v", r.Err())
		}
	}
	if err := f.Remove(); err != nil {
		t.Fatal(err)
	}
}

func TestCloseRemovesFolder(t *testing.T) {
	root := t.TempDir()
	a := Open(root)
	w, err := a.Create("x", nil)
	if err != nil {
		t.Fatal(err)
	}
	w.PutString("kept until close")
	if _, err := w.Finish(); err != nil {
		t.Fatal(err)
	}
	if n := entries(t, root); n != 1 {
		t.Fatalf("%d folders under the root, want 1", n)
	}
	if err := a.Close(); err != nil {
		t.Fatal(err)
	}
	if n := entries(t, root); n != 0 {
		t.Fatalf("%d folders after Close, want 0", n)
	}
	if _, err := a.Create("y", nil); err == nil {
		t.Fatal("a closed area made a file")
	}
}

func entries(t *testing.T, dir string) int {
	t.Helper()
	ents, err := os.ReadDir(dir)
	if err != nil {
		t.Fatal(err)
	}
	return len(ents)
}

// TestSweep: a folder whose process was killed is removed by the next
// area's Sweep; a live one (another Area's, which holds its lock) is not.
func TestSweep(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no flock")
	}
	root := t.TempDir()
	if os.Getenv("THUND_SPILL_CHILD") != "" {
		a := Open(os.Getenv("THUND_SPILL_CHILD"))
		w, err := a.Create("child", nil)
		if err != nil {
			os.Exit(3)
		}
		w.PutString("left behind")
		if _, err := w.Finish(); err != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString("ready\n")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestSweep$")
	cmd.Env = append(os.Environ(), "THUND_SPILL_CHILD="+root)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 6)
	if _, err := out.Read(buf); err != nil || string(buf) != "ready\n" {
		cmd.Process.Kill()
		t.Fatalf("child: %q %v", buf, err)
	}
	live := Open(root)
	defer live.Close()
	if _, err := live.Create("live", nil); err != nil {
		t.Fatal(err)
	}
	// the child is alive: nothing to sweep
	if n, err := Open(root).Sweep(); err != nil || n != 0 {
		t.Fatalf("swept %d folders of live processes (%v)", n, err)
	}
	cmd.Process.Kill() // SIGKILL
	cmd.Wait()
	if n, err := Open(root).Sweep(); err != nil || n != 1 {
		t.Fatalf("swept %d folders after the kill, want 1 (%v)", n, err)
	}
	left, _ := filepath.Glob(filepath.Join(root, "p*"))
	if len(left) != 1 || left[0] != live.dir {
		t.Fatalf("left %v, want only the live area's %s", left, live.dir)
	}
}
