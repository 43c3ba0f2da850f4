// Package gobuild turns generated Go source into a standalone executable:
// it lays out a module that links the runtime embedded in thundc (with
// dependency versions pinned to thundc's own go.mod and go.sum), runs
// `go build`, and caches the result by content. The runtime's sources are
// written once per runtime version under the cache's runtime/ folder and
// shared by every build, so that the go build cache compiles them only once.
// A Progress hears what go build compiles, after an announcement of a cold
// go build cache (progress.go).
// It is the only part of the compiler, with cmd/thundc, that touches the
// disk or runs the go command.
package gobuild

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"sort"
	"strconv"
	"strings"
	"time"
)

// RuntimeModule is the module path of the embedded runtime.
const RuntimeModule = "github.com/nordisk/thund"

// RuntimeDirs are the folders of RuntimeModule that a generated program
// links: rt/ and the one leaf package outside it that rt imports,
// internal/glob (shared with the compiler). runtime.go embeds the same list.
var RuntimeDirs = []string{"rt", "internal/glob", "internal/kafkaopt"}

// ProgramModule is the module path of a generated program: codegen's
// import paths of the program's own packages start with it.
const ProgramModule = "thundpipeline"

// Request says what to build.
type Request struct {
	// Files are the generated program's files, by name relative to the module root.
	Files map[string][]byte
	// Runtime is the embedded source tree of this module: go.mod, go.sum and the RuntimeDirs.
	Runtime fs.FS
	// Out is where the executable goes.
	Out string
	// CacheDir holds content-addressed builds; "" means the user cache dir.
	CacheDir string
	// Stderr receives the go command's output when a build fails.
	Stderr io.Writer
	// Progress hears what the build compiles; nil hears nothing.
	Progress Progress
	// AssumeCold skips the record of earlier builds and asks the go command
	// which packages it must compile, announcing them as Progress.Cold does
	// on a cold build cache, even when it has them all: a test of the cold
	// path without a cold cache (THUNDC_ASSUME_COLD in cmd/thundc).
	AssumeCold bool
}

// Result reports what Build did.
type Result struct {
	Key    string // the content hash of the build
	Cached bool   // the executable came from the cache
	// Compiled is how many packages go build compiled (none from the go
	// build cache), the program's own included; 0 for a cached build.
	Compiled int
}

// DefaultCacheDir returns $THUND_CACHE, or the user cache dir's thund folder.
func DefaultCacheDir() (string, error) {
	if d := os.Getenv("THUND_CACHE"); d != "" {
		return d, nil
	}
	d, err := os.UserCacheDir()
	if err != nil {
		return "", fmt.Errorf("no cache directory: set THUND_CACHE (%v)", err)
	}
	return filepath.Join(d, "thund"), nil
}

// Build lays out the module (cached by content), builds it and copies the
// executable to r.Out.
func Build(ctx context.Context, r Request) (*Result, error) {
	cache := r.CacheDir
	if cache == "" {
		var err error
		if cache, err = DefaultCacheDir(); err != nil {
			return nil, err
		}
	}
	files, err := ModuleFiles(r.Files, r.Runtime)
	if err != nil {
		return nil, err
	}
	env, err := goEnv(ctx, "GOVERSION", "GOCACHE")
	if err != nil {
		return nil, err
	}
	goVersion, goCache := env[0], env[1]
	key := hashFiles(files, goVersion+" "+runtime.GOOS+"/"+runtime.GOARCH)
	dir := filepath.Join(cache, "builds", key[:24])
	bin := filepath.Join(dir, "bin", "etl")
	res := &Result{Key: key}
	if _, err := os.Stat(bin); err == nil {
		res.Cached = true
		return res, copyFile(bin, r.Out)
	}
	tmp, release, err := workFolder(cache, key)
	if err != nil {
		return nil, err
	}
	defer release()
	rtDir, err := writeModule(cache, tmp, files)
	if err != nil {
		return nil, err
	}
	warm := filepath.Join(cache, "warm", warmKey(goVersion, goCache, rtDir, files))
	cold := &coldState{}
	if _, err := os.Stat(warm); err != nil || r.AssumeCold {
		// No build of this runtime and import set has succeeded with this
		// go build cache (or a test says to ask): ask the go command what it
		// must compile, once per key (half a second on a warm cache).
		c := staleDeps(ctx, tmp)
		c.Estimate, c.Measured = estimate(cache, c.Files)
		if c.Packages > 0 || r.AssumeCold {
			cold.announced, cold.info = true, c
			if r.Progress != nil {
				r.Progress.Cold(c)
			}
		}
	}
	started := time.Now()
	var out bytes.Buffer
	// -s -w: no symbol table and no DWARF, which a warm build's link spends
	// much of its time writing (docs/performance.md); stack traces and CPU
	// profiles do not need them (they read the pclntab), only a debugger does
	// (--emit-go DIR, then go build). -json -v: one event per package as it
	// is compiled (none for a package found in the go build cache), for
	// Progress.
	cmd := exec.CommandContext(ctx, "go", "build", "-json", "-v", "-ldflags=-s -w", "-o", filepath.Join("bin", "etl"), ".")
	cmd.Dir = tmp
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	events, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	cmd.Stderr = &out
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	// The compiler's messages come as events, the go command's own (a
	// module it cannot load) on stderr: two buffers, as exec copies stderr
	// from a goroutine of its own.
	var msgs bytes.Buffer
	res.Compiled = readEvents(events, &msgs, r.Progress, cold)
	if err := cmd.Wait(); err != nil {
		text := append(msgs.Bytes(), out.Bytes()...)
		if r.Stderr != nil {
			r.Stderr.Write(text)
		}
		return nil, fmt.Errorf("go build of the generated program failed: %v\n%s", err, strings.TrimSpace(string(text)))
	}
	if cold.announced && cold.info.Files >= calibrationMinFiles {
		calibrate(cache, time.Since(started), cold.info.Files)
	}
	writeOnce(warm, nil) // best effort: a missing record costs one go list
	if err := publish(filepath.Join(tmp, "bin", "etl"), dir); err != nil {
		return nil, err
	}
	return res, copyFile(bin, r.Out)
}

// workSlots is how many reusable folders under the cache's work/ builds take
// (one each, at a time).
const workSlots = 4

// workFolder returns an empty folder to build key's program in, held until
// release. It is one of workSlots folders under cache/work reused build
// after build: the go command's build cache keys a package of the
// program's own module by its folder and its content, so in the same folder
// the flows whose package did not change since the last build are not
// compiled again (a fresh folder for every build would compile them all).
// When every slot is held (builds in parallel), or folders cannot be locked
// on this system, it is a fresh folder, removed on release.
func workFolder(cache, key string) (string, func(), error) {
	work := filepath.Join(cache, "work")
	if err := os.MkdirAll(work, 0o755); err != nil {
		return "", nil, err
	}
	for i := range workSlots {
		lock, err := os.OpenFile(filepath.Join(work, fmt.Sprintf("%d.lock", i)), os.O_CREATE|os.O_RDWR, 0o644)
		if err != nil {
			return "", nil, err
		}
		if ok, _ := tryLock(lock); !ok {
			lock.Close()
			continue
		}
		dir := filepath.Join(work, fmt.Sprint(i))
		if err := os.RemoveAll(dir); err != nil {
			lock.Close()
			return "", nil, err
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			lock.Close()
			return "", nil, err
		}
		return dir, func() { lock.Close() }, nil
	}
	dir, err := os.MkdirTemp(work, key[:24]+".tmp-")
	if err != nil {
		return "", nil, err
	}
	return dir, func() { os.RemoveAll(dir) }, nil
}

// publish moves the executable built to dir/bin/etl, the cache's entry of
// its key, through a temporary folder renamed into place, so that a reader
// never sees a partial executable. Another build of the same key may have
// published first; its executable is the same.
func publish(built, dir string) error {
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(tmp)
	if err := os.Mkdir(filepath.Join(tmp, "bin"), 0o755); err != nil {
		return err
	}
	if err := os.Rename(built, filepath.Join(tmp, "bin", "etl")); err != nil {
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(filepath.Join(dir, "bin", "etl")); statErr != nil {
			return err
		}
	}
	return nil
}

// WriteModule writes the module of files (as ModuleFiles returns them) to
// dir as Build lays it out: the runtime's sources go to a folder of their
// own under cache (runtime/HASH, written once), shared by every program
// with the same runtime, and go.mod points there. Without -trimpath (go
// vet in the tests) the go command's build cache keys a package outside the
// module cache by its folder, so a runtime written beside each program would
// be compiled again every time; with it (Build) the runtime's files are
// still written once rather than for every build.
func WriteModule(cache, dir string, files map[string][]byte) error {
	_, err := writeModule(cache, dir, files)
	return err
}

// writeModule is WriteModule, returning the runtime's folder.
func writeModule(cache, dir string, files map[string][]byte) (string, error) {
	rtFiles := map[string][]byte{}
	prog := map[string][]byte{}
	for name, data := range files {
		if rest, ok := strings.CutPrefix(name, "thund/"); ok {
			rtFiles[rest] = data
		} else {
			prog[name] = data
		}
	}
	rtDir, err := filepath.Abs(filepath.Join(cache, "runtime", hashFiles(rtFiles, "runtime")[:24]))
	if err != nil {
		return "", err
	}
	if err := writeOnce(rtDir, rtFiles); err != nil {
		return "", err
	}
	prog["go.mod"] = bytes.Replace(prog["go.mod"], []byte("=> ./thund\n"), []byte("=> "+strconv.Quote(rtDir)+"\n"), 1)
	return rtDir, WriteFiles(dir, prog)
}

// ModuleFiles returns every file of the program module: the generated files,
// a go.mod that requires the runtime module with thundc's pinned versions and
// replaces it with the embedded copy under thund/, go.sum, and the runtime's
// non-test Go sources (RuntimeDirs).
func ModuleFiles(gen map[string][]byte, rtfs fs.FS) (map[string][]byte, error) {
	files := map[string][]byte{}
	for name, data := range gen {
		files[name] = data
	}
	rtMod, err := fs.ReadFile(rtfs, "go.mod")
	if err != nil {
		return nil, fmt.Errorf("embedded runtime has no go.mod: %v", err)
	}
	sum, err := fs.ReadFile(rtfs, "go.sum")
	if err != nil {
		return nil, fmt.Errorf("embedded runtime has no go.sum: %v", err)
	}
	goLine, requires := parseGoMod(string(rtMod))
	var mod strings.Builder
	fmt.Fprintf(&mod, "// Code generated by thundc. DO NOT EDIT.\n\nmodule %s\n\n%s\n\nrequire %s v0.0.0-00010101000000-000000000000\n\n", ProgramModule, goLine, RuntimeModule)
	if len(requires) > 0 {
		mod.WriteString("require (\n")
		for _, r := range requires {
			fmt.Fprintf(&mod, "\t%s\n", r)
		}
		mod.WriteString(")\n\n")
	}
	fmt.Fprintf(&mod, "replace %s => ./thund\n", RuntimeModule)
	files["go.mod"] = []byte(mod.String())
	files["go.sum"] = sum
	files["thund/go.mod"] = rtMod
	for _, dir := range RuntimeDirs {
		err = fs.WalkDir(rtfs, dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if d.IsDir() {
				if d.Name() == "testdata" {
					return fs.SkipDir
				}
				return nil
			}
			if !strings.HasSuffix(path, ".go") || strings.HasSuffix(path, "_test.go") {
				return nil
			}
			data, err := fs.ReadFile(rtfs, path)
			if err != nil {
				return err
			}
			files["thund/"+path] = data
			return nil
		})
		if err != nil {
			return nil, fmt.Errorf("reading the embedded runtime: %v", err)
		}
	}
	return files, nil
}

// parseGoMod returns the go directive line and every requirement line
// ("path version") of a go.mod, indirect ones included.
func parseGoMod(mod string) (goLine string, requires []string) {
	inBlock := false
	for _, line := range strings.Split(mod, "\n") {
		line = strings.TrimSpace(line)
		if i := strings.Index(line, "//"); i >= 0 {
			line = strings.TrimSpace(line[:i])
		}
		switch {
		case strings.HasPrefix(line, "go "):
			goLine = line
		case line == "require (":
			inBlock = true
		case inBlock && line == ")":
			inBlock = false
		case inBlock && line != "":
			requires = append(requires, line)
		case strings.HasPrefix(line, "require "):
			requires = append(requires, strings.TrimSpace(strings.TrimPrefix(line, "require ")))
		}
	}
	return goLine, requires
}

// writeOnce writes files to dir unless dir exists: they go to a temporary
// sibling first, renamed into place, so dir is never seen half written.
func writeOnce(dir string, files map[string][]byte) error {
	if _, err := os.Stat(dir); err == nil {
		return nil
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		return err
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp-")
	if err != nil {
		return err
	}
	if err := WriteFiles(tmp, files); err != nil {
		os.RemoveAll(tmp)
		return err
	}
	if err := os.Rename(tmp, dir); err != nil {
		os.RemoveAll(tmp)
		if _, statErr := os.Stat(dir); statErr == nil {
			return nil // another build wrote it first
		}
		return err
	}
	return nil
}

// WriteFiles writes files under dir, creating folders.
func WriteFiles(dir string, files map[string][]byte) error {
	for name, data := range files {
		p := filepath.Join(dir, filepath.FromSlash(name))
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			return err
		}
		if err := os.WriteFile(p, data, 0o644); err != nil {
			return err
		}
	}
	return nil
}

func hashFiles(files map[string][]byte, salt string) string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	sort.Strings(names)
	h := sha256.New()
	fmt.Fprintf(h, "%s\n", salt)
	for _, n := range names {
		fmt.Fprintf(h, "%s %d\n", n, len(files[n]))
		h.Write(files[n])
	}
	return hex.EncodeToString(h.Sum(nil))
}

// goEnv returns the go command's values of keys, in order.
func goEnv(ctx context.Context, keys ...string) ([]string, error) {
	out, err := exec.CommandContext(ctx, "go", append([]string{"env"}, keys...)...).Output()
	if err != nil {
		return nil, fmt.Errorf("the go command is needed to build pipelines: %v", err)
	}
	lines := strings.Split(strings.TrimRight(string(out), "\n"), "\n")
	if len(lines) != len(keys) {
		return nil, fmt.Errorf("go env %s: got %q", strings.Join(keys, " "), out)
	}
	return lines, nil
}

// copyFile copies the executable src to dst through a temporary sibling
// renamed into place. The copy is file to file (copy_file_range on Linux:
// in the kernel, without reading 40-70 MB into memory and writing it back).
func copyFile(src, dst string) error {
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	tmp := dst + ".tmp"
	out, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_TRUNC, 0o755)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		os.Remove(tmp)
		return err
	}
	if err := out.Close(); err != nil {
		os.Remove(tmp)
		return err
	}
	return os.Rename(tmp, dst)
}
