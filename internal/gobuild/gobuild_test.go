package gobuild

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"testing/fstest"
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
