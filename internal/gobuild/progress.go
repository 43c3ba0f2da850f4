package gobuild

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"go/parser"
	"go/token"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Progress hears what a build that runs go build compiles. Build calls it
// from one goroutine, in order: Cold at most once, then Compiled per package.
type Progress interface {
	// Cold says that the go build cache lacks packages the program needs
	// beyond its own (the runtime, its dependencies, the standard library):
	// go build is about to compile them, once for this runtime version and
	// Go version.
	Cold(c Cold)
	// Compiled says that go build compiled the package (it found it in
	// none of its caches), the program's own package included.
	Compiled(importPath string)
}

// Cold describes the packages a build must compile besides the program's.
type Cold struct {
	// Packages is how many packages go build compiles besides the
	// program's, and Total with it (Total counts every package Compiled
	// will hear of). Both are 0 when the go command could not say before
	// building (Late).
	Packages, Total int
	// Files is how many Go files those packages have.
	Files int
	// Estimate is how long the build should take: Files at the rate this
	// machine's earlier cold builds went (Measured), or at the rate
	// measured for docs/performance.md, scaled to this machine's cores.
	Estimate time.Duration
	Measured bool
	// Late: the record of earlier builds said the cache was warm, but go
	// build compiles a dependency (the go build cache was trimmed or
	// cleaned); nothing is known of the rest.
	Late bool
}

// coldState is what Build announced.
type coldState struct {
	announced bool
	info      Cold
}

// warmKey names the record of a successful build: the Go version and build
// cache, the runtime's folder (its version) and the packages the program
// imports (which runtime packages and dependencies it links: S3, Kafka).
// With the same key, go build finds every package but the program's in its
// cache, unless that cache was trimmed since.
func warmKey(goVersion, goCache, rtDir string, files map[string][]byte) string {
	var imports []string
	for name, data := range files {
		if strings.HasPrefix(name, "thund/") || !strings.HasSuffix(name, ".go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), name, data, parser.ImportsOnly)
		if err != nil {
			continue // go build reports it
		}
		for _, im := range f.Imports {
			imports = append(imports, im.Path.Value)
		}
	}
	slices.Sort(imports)
	imports = slices.Compact(imports)
	key := map[string][]byte{"go": []byte(goVersion), "cache": []byte(goCache), "rt": []byte(rtDir), "imports": []byte(strings.Join(imports, "\n"))}
	return hashFiles(key, "warm")[:24]
}

// staleDeps asks the go command which packages of the module in dir it
// must compile (go list's Stale: not in the go build cache, or depending on
// one that is not). It returns a zero Cold when the go command cannot say
// (go build reports why).
func staleDeps(ctx context.Context, dir string) Cold {
	cmd := exec.CommandContext(ctx, "go", "list", "-deps", "-f", "{{if .Stale}}{{.ImportPath}} {{len .GoFiles}} {{len .CgoFiles}}{{end}}", ".")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	out, err := cmd.Output()
	if err != nil {
		return Cold{}
	}
	return parseStale(string(out))
}

// parseStale reads staleDeps's go list output: "PATH GOFILES CGOFILES" per
// stale package.
func parseStale(out string) Cold {
	var c Cold
	for _, line := range strings.Split(out, "\n") {
		f := strings.Fields(line)
		if len(f) != 3 {
			continue
		}
		c.Total++
		if isProgram(f[0]) {
			continue
		}
		c.Packages++
		for _, n := range f[1:] {
			k, _ := strconv.Atoi(n)
			c.Files += k
		}
	}
	return c
}

// isProgram reports whether the import path is the generated program's.
func isProgram(path string) bool {
	return path == ProgramModule || strings.HasPrefix(path, ProgramModule+"/")
}

// buildEvent is one event of go build -json (go help buildjson).
type buildEvent struct {
	ImportPath string
	Action     string
	Output     string
}

// readEvents reads go build -json -v's events until r ends: each package
// compiled is a build-output event whose output is its import path alone
// (-v); any other output (compiler errors) goes to errOut. It tells p of
// each package compiled, first announcing a late Cold when a dependency is
// compiled that nothing announced, and returns how many were compiled.
func readEvents(r io.Reader, errOut *bytes.Buffer, p Progress, cold *coldState) int {
	n := 0
	br := bufio.NewReader(r)
	dec := json.NewDecoder(br)
	for {
		var e buildEvent
		if err := dec.Decode(&e); err != nil {
			if err != io.EOF {
				// not JSON: keep the rest as text for the error message
				rest, _ := io.ReadAll(io.MultiReader(dec.Buffered(), br))
				errOut.Write(bytes.TrimLeft(rest, "\n"))
			}
			return n
		}
		if e.Action != "build-output" {
			continue
		}
		if e.Output != e.ImportPath+"\n" {
			errOut.WriteString(e.Output)
			continue
		}
		n++
		if p == nil {
			continue
		}
		if !cold.announced && !isProgram(e.ImportPath) {
			cold.announced = true
			cold.info = Cold{Late: true}
			p.Cold(cold.info)
		}
		p.Compiled(e.ImportPath)
	}
}

// Estimates. The default rate was measured on a cold go build cache on a
// 2-core machine shared with other work (docs/performance.md, the first
// run): compiling thundc and its dependencies (3,762 Go files) took 0.13,
// 0.067 and 0.053 s a file of wall time at loads of 14, 11 and 8, and a cold
// thundc build of the quickstart (587 packages) 0.053 s a file. A build that
// compiles at least calibrationMinFiles files records its own rate in the
// cache's calibration file, which later estimates use instead.
const (
	defaultSecondsPerFile = 0.06
	defaultCores          = 2
	calibrationMinFiles   = 100
	calibrationFile       = "calibration"
)

// estimate returns how long compiling files Go files should take on this
// machine, and whether a build on it measured the rate.
func estimate(cache string, files int) (time.Duration, bool) {
	if data, err := os.ReadFile(filepath.Join(cache, calibrationFile)); err == nil {
		if rate, err := strconv.ParseFloat(strings.TrimSpace(string(data)), 64); err == nil && rate > 0 {
			return time.Duration(rate * float64(files) * float64(time.Second)), true
		}
	}
	rate := defaultSecondsPerFile * defaultCores / float64(min(runtime.NumCPU(), 16))
	return time.Duration(rate * float64(files) * float64(time.Second)), false
}

// calibrate records the rate of a cold build that compiled files Go files
// in elapsed, for later estimates. It is best effort.
func calibrate(cache string, elapsed time.Duration, files int) {
	rate := elapsed.Seconds() / float64(files)
	tmp, err := os.CreateTemp(cache, calibrationFile+".tmp-")
	if err != nil {
		return
	}
	tmp.WriteString(strconv.FormatFloat(rate, 'g', 4, 64) + "\n")
	if tmp.Close() != nil || os.Rename(tmp.Name(), filepath.Join(cache, calibrationFile)) != nil {
		os.Remove(tmp.Name())
	}
}
