package gobuild

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"testing/fstest"
	"time"
)

func TestBuildCachesByContent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	rt := fstest.MapFS{
		"go.mod":                        {Data: []byte("module github.com/nordisk/thund\n\ngo 1.26.8\n")},
		"go.sum":                        {Data: []byte("")},
		"rt/rt.go":                      {Data: []byte("package rt\n\nfunc Hello() string { return \"hello from rt\" }\n")},
		"rt/rt_test.go":                 {Data: []byte("package rt\n\nthis is not go and must not be copied\n")},
		"rt/testdata/x":                 {Data: []byte("skipped")},
		"frontend/x.go":                 {Data: []byte("not part of the runtime")},
		"internal/glob/glob.go":         {Data: []byte("package glob\n")},
		"internal/kafkaopt/kafkaopt.go": {Data: []byte("package kafkaopt\n")},
	}
	gen := map[string][]byte{"main.go": []byte(`package main

import (
	"fmt"

	"github.com/nordisk/thund/rt"
)

func main() { fmt.Println(rt.Hello()) }
`)}
	dir := t.TempDir()
	cache := filepath.Join(dir, "cache")
	out := filepath.Join(dir, "etl")
	res, err := Build(context.Background(), Request{Files: gen, Runtime: rt, Out: out, CacheDir: cache})
	if err != nil {
		t.Fatal(err)
	}
	if res.Cached {
		t.Fatal("first build reported cached")
	}
	got, err := exec.Command(out).Output()
	if err != nil || strings.TrimSpace(string(got)) != "hello from rt" {
		t.Fatalf("running the build: %q %v", got, err)
	}
	res2, err := Build(context.Background(), Request{Files: gen, Runtime: rt, Out: out, CacheDir: cache})
	if err != nil || !res2.Cached || res2.Key != res.Key {
		t.Fatalf("second build: cached=%v key same=%v err=%v", res2.Cached, res2.Key == res.Key, err)
	}
	gen["main.go"] = []byte(strings.Replace(string(gen["main.go"]), "rt.Hello()", "rt.Hello(), 2", 1))
	res3, err := Build(context.Background(), Request{Files: gen, Runtime: rt, Out: out, CacheDir: cache})
	if err != nil || res3.Cached || res3.Key == res.Key {
		t.Fatalf("changed source: cached=%v err=%v", res3.Cached, err)
	}
}

func TestBuildReportsCompileErrors(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build")
	}
	rt := fstest.MapFS{
		"go.mod":                        {Data: []byte("module github.com/nordisk/thund\n\ngo 1.26.8\n")},
		"go.sum":                        {Data: []byte("")},
		"rt/rt.go":                      {Data: []byte("package rt\n")},
		"internal/glob/glob.go":         {Data: []byte("package glob\n")},
		"internal/kafkaopt/kafkaopt.go": {Data: []byte("package kafkaopt\n")},
	}
	dir := t.TempDir()
	_, err := Build(context.Background(), Request{Files: map[string][]byte{"main.go": []byte("package main\nfunc main() { undefined() }\n")}, Runtime: rt, Out: filepath.Join(dir, "etl"), CacheDir: dir})
	if err == nil || !strings.Contains(err.Error(), "undefined") {
		t.Fatalf("want the compiler's error, got %v", err)
	}
}

func TestParseGoMod(t *testing.T) {
	g, reqs := parseGoMod("module x\n\ngo 1.26.8\n\nrequire a v1.0.0\n\nrequire (\n\tb v1.2.3 // indirect\n\tc v0.1.0\n)\n")
	if g != "go 1.26.8" || strings.Join(reqs, ",") != "a v1.0.0,b v1.2.3,c v0.1.0" {
		t.Fatalf("%q %q", g, reqs)
	}
}

// recorder is a Progress that keeps what it hears.
type recorder struct {
	colds    []Cold
	compiled []string
}

func (r *recorder) Cold(c Cold)                { r.colds = append(r.colds, c) }
func (r *recorder) Compiled(importPath string) { r.compiled = append(r.compiled, importPath) }

// TestBuildAnnouncesColdCache builds on a go build cache of its own, empty:
// the first build announces the packages it must compile (the standard
// library's among them) and reports each as go build compiles it; a second
// program with the same imports, the cache now warm, announces nothing and
// compiles only its packages that changed (as codegen lays a program out: a
// main package, and a package per flow), although every build writes the
// program to a new folder.
func TestBuildAnnouncesColdCache(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go build on an empty go build cache")
	}
	rt := fstest.MapFS{
		"go.mod":                        {Data: []byte("module github.com/nordisk/thund\n\ngo 1.26.8\n")},
		"go.sum":                        {Data: []byte("")},
		"rt/rt.go":                      {Data: []byte("package rt\n\nimport \"strconv\"\n\nfunc Hello(n int) string { return \"hello \" + strconv.Itoa(n) }\n")},
		"internal/glob/glob.go":         {Data: []byte("package glob\n")},
		"internal/kafkaopt/kafkaopt.go": {Data: []byte("package kafkaopt\n")},
	}
	flow := func(name string, n int) []byte {
		return fmt.Appendf(nil, "package %s\n\nimport \"github.com/nordisk/thund/rt\"\n\nfunc Run() string { return rt.Hello(%d) }\n", name, n)
	}
	// flow_a changes with n, flow_b never does
	prog := func(n int) map[string][]byte {
		return map[string][]byte{
			"main.go":        fmt.Appendf(nil, "package main\n\nimport (\n\t\"%[1]s/flow_a\"\n\t\"%[1]s/flow_b\"\n)\n\nfunc main() { println(flow_a.Run(), flow_b.Run(), %[2]d) }\n", ProgramModule, n),
			"flow_a/flow.go": flow("flow_a", n),
			"flow_b/flow.go": flow("flow_b", 0),
		}
	}
	dir := t.TempDir()
	t.Setenv("GOCACHE", filepath.Join(dir, "gocache"))
	cache := filepath.Join(dir, "cache")
	var first recorder
	res, err := Build(context.Background(), Request{Files: prog(1), Runtime: rt, Out: filepath.Join(dir, "etl"), CacheDir: cache, Progress: &first})
	if err != nil {
		t.Fatal(err)
	}
	if len(first.colds) != 1 {
		t.Fatalf("a build on an empty go build cache announced %d times, want once: %+v", len(first.colds), first.colds)
	}
	c := first.colds[0]
	if c.Late || c.Packages < 10 || c.Total != c.Packages+3 || c.Files < c.Packages || c.Estimate <= 0 {
		t.Fatalf("cold build announced %+v: want the standard library's packages and rt, and the program's three in Total", c)
	}
	if len(first.compiled) != c.Total || res.Compiled != c.Total {
		t.Fatalf("compiled %d packages (result %d), announced %d: %v", len(first.compiled), res.Compiled, c.Total, first.compiled)
	}
	for _, want := range []string{"runtime", "strconv", RuntimeModule + "/rt", ProgramModule, ProgramModule + "/flow_a", ProgramModule + "/flow_b"} {
		if !slices.Contains(first.compiled, want) {
			t.Errorf("compiled %v: no %s", first.compiled, want)
		}
	}
	var second recorder
	if _, err := Build(context.Background(), Request{Files: prog(2), Runtime: rt, Out: filepath.Join(dir, "etl"), CacheDir: cache, Progress: &second}); err != nil {
		t.Fatal(err)
	}
	slices.Sort(second.compiled)
	if want := []string{ProgramModule, ProgramModule + "/flow_a"}; len(second.colds) != 0 || !slices.Equal(second.compiled, want) {
		t.Fatalf("warm build: announced %+v, compiled %v; want nothing announced and only %v compiled", second.colds, second.compiled, want)
	}
	// The test knob: the same build announced even when warm.
	var forced recorder
	if _, err := Build(context.Background(), Request{Files: prog(3), Runtime: rt, Out: filepath.Join(dir, "etl"), CacheDir: cache, Progress: &forced, AssumeCold: true}); err != nil {
		t.Fatal(err)
	}
	if len(forced.colds) != 1 || forced.colds[0].Packages != 0 || forced.colds[0].Total != 2 || len(forced.compiled) != 2 {
		t.Fatalf("AssumeCold on a warm cache: announced %+v, compiled %v; want one Cold of 0 packages, Total 2", forced.colds, forced.compiled)
	}
	// Every work folder held (builds in parallel): a fresh folder of its
	// own, where every package of the program is compiled, then removed.
	for i := range workSlots {
		f, err := os.OpenFile(filepath.Join(cache, "work", fmt.Sprintf("%d.lock", i)), os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		if ok, err := tryLock(f); !ok {
			t.Skipf("cannot lock work folders here (%v)", err)
		}
	}
	var busy recorder
	if _, err := Build(context.Background(), Request{Files: prog(4), Runtime: rt, Out: filepath.Join(dir, "etl"), CacheDir: cache, Progress: &busy}); err != nil {
		t.Fatal(err)
	}
	if slices.Sort(busy.compiled); !slices.Equal(busy.compiled, []string{ProgramModule, ProgramModule + "/flow_a", ProgramModule + "/flow_b"}) {
		t.Errorf("a build with every work folder held compiled %v, want the program's three packages", busy.compiled)
	}
	if left, _ := filepath.Glob(filepath.Join(cache, "work", "*.tmp-*")); len(left) > 0 {
		t.Errorf("left behind: %v", left)
	}
	if out, err := exec.Command(filepath.Join(dir, "etl")).CombinedOutput(); err != nil || !strings.Contains(string(out), "hello 4 hello 0 4") {
		t.Errorf("the executable printed %q (%v), want hello 4 hello 0 4", out, err)
	}
}

// TestReadEvents reads a go build -json -v stream: a package compiled is
// an output of its import path alone; a compiler error is other output, kept
// for the error message; a dependency compiled when nothing was announced
// announces a late Cold first (a trimmed go build cache).
func TestReadEvents(t *testing.T) {
	stream := `{"ImportPath":"thundpipeline","Action":"build-output","Output":"thundpipeline\n"}
{"ImportPath":"github.com/x/y","Action":"build-output","Output":"github.com/x/y\n"}
{"ImportPath":"github.com/x/z","Action":"build-output","Output":"github.com/x/z\n"}
{"ImportPath":"thundpipeline","Action":"build-output","Output":"# thundpipeline\n./main.go:3:1: undefined: x\n"}
{"ImportPath":"thundpipeline","Action":"build-fail"}
not json
`
	var rec recorder
	var errOut bytes.Buffer
	n := readEvents(strings.NewReader(stream), &errOut, &rec, &coldState{})
	if n != 3 || !slices.Equal(rec.compiled, []string{"thundpipeline", "github.com/x/y", "github.com/x/z"}) {
		t.Fatalf("compiled %d: %v", n, rec.compiled)
	}
	if len(rec.colds) != 1 || !rec.colds[0].Late {
		t.Fatalf("announced %+v, want one late Cold, at the first dependency", rec.colds)
	}
	if got := errOut.String(); got != "# thundpipeline\n./main.go:3:1: undefined: x\nnot json\n" {
		t.Fatalf("error text %q", got)
	}
	// Announced before the build: no late Cold.
	rec = recorder{}
	readEvents(strings.NewReader(stream), &errOut, &rec, &coldState{announced: true})
	if len(rec.colds) != 0 || len(rec.compiled) != 3 {
		t.Fatalf("announced %+v, compiled %v", rec.colds, rec.compiled)
	}
}

func TestParseStale(t *testing.T) {
	c := parseStale("internal/cpu 3 0\n\nruntime/cgo 10 4\nthundpipeline 5 0\n")
	if c.Packages != 2 || c.Total != 3 || c.Files != 17 {
		t.Fatalf("%+v: want 2 packages of 17 files, 3 with the program", c)
	}
}

// TestEstimate: the default rate until a cold build on this machine
// records its own, then that one.
func TestEstimate(t *testing.T) {
	dir := t.TempDir()
	d, measured := estimate(dir, 1000)
	if measured || d <= 0 {
		t.Fatalf("no calibration: %v measured=%v", d, measured)
	}
	calibrate(dir, 300*time.Second, 1000)
	d, measured = estimate(dir, 2000)
	if !measured || d != 600*time.Second {
		t.Fatalf("after a cold build of 1000 files in 300 s, 2000 files: %v measured=%v, want 10m0s measured", d, measured)
	}
}
