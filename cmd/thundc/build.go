package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"time"

	thund "github.com/nordisk/thund"
	"github.com/nordisk/thund/codegen"
	"github.com/nordisk/thund/internal/gobuild"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// generate compiles the input for the native target and returns the
// generated program's files. A nil map with exitDiags means diagnostics were
// printed.
func generate(c *cli, inv *invocation) (map[string][]byte, int) {
	paths := inv.pipelinePaths()
	u, diags, err := compile(c, inv, passes.Options{Target: passes.Native})
	if err != nil {
		return nil, fail(c, inv.cmd, err)
	}
	asJSON := inv.bool("json")
	if diags.HasErrors() {
		return nil, report(c, asJSON, diags)
	}
	if !asJSON {
		writeDiags(c.stderr, diags) // warnings
	}
	var bases []string
	for _, p := range paths {
		bases = append(bases, filepath.Base(p))
	}
	opts := codegen.Options{SourceFile: strings.Join(bases, ", "), Compiler: compilerVersion(), S3: wantS3(inv)}
	files, err := codegen.Generate(u, opts)
	if err != nil {
		var list ir.Diagnostics
		if errors.As(err, &list) {
			addSource(list, paths[0], nil)
			return nil, report(c, asJSON, list)
		}
		fmt.Fprintf(c.stderr, "thundc %s: %v\n", inv.cmd.name, err)
		return nil, exitDiags
	}
	return files, exitOK
}

// s3Default says whether `thundc build` links S3 support when neither --s3
// nor the pipeline's storage asks for it. It is on: DESIGN.md's executable
// takes --warehouse DIR|s3://BUCKET/PREFIX, and an executable is built once
// and deployed where its warehouse is chosen. --s3=false builds a lighter
// one (faster to build: docs/performance.md, build latency) that refuses S3
// warehouses with a message naming --s3.
// `thundc run` knows where its executable's warehouse is: it links S3 only
// when its ETL arguments name an s3:// warehouse (wantS3).
const s3Default = true

// wantS3 reports whether the program links S3 support (the AWS SDK): as
// --s3 says when it is given, else for `run` when its ETL arguments give an
// s3:// --warehouse, else for `build` s3Default. (The pipeline's storage,
// a Spark target's, plays no part: the executable never reads it.)
func wantS3(inv *invocation) bool {
	if inv.isSet("s3") {
		return inv.bool("s3")
	}
	if inv.cmd.name != "run" {
		return s3Default
	}
	etl := inv.args[1:]
	for i, a := range etl {
		switch {
		case a == "--":
			return false
		case (a == "--warehouse" || a == "-warehouse") && i+1 < len(etl):
			if isS3(etl[i+1]) {
				return true
			}
		case strings.HasPrefix(a, "--warehouse=") || strings.HasPrefix(a, "-warehouse="):
			if isS3(a[strings.IndexByte(a, '=')+1:]) {
				return true
			}
		}
	}
	return false
}

// isS3 reports whether a --warehouse value is on S3, as the executable
// tells (rt/etl: the prefix s3://).
func isS3(u string) bool { return strings.HasPrefix(u, "s3://") }

// compilerVersion names thundc and the runtime it embeds.
func compilerVersion() string {
	return currentVersion().Thundc + " runtime " + thund.RuntimeVersion()
}

// buildProgram generates and builds the program for the invocation's
// pipeline into out, and writes its module to --emit-go's folder when given.
// rep, unless nil (--quiet), hears the build's progress.
func buildProgram(c *cli, inv *invocation, out string, rep *buildReport) (*gobuild.Result, int) {
	files, st := generate(c, inv)
	if files == nil {
		return nil, st
	}
	if st := emitGo(c, inv, files); st != exitOK {
		return nil, st
	}
	req := gobuild.Request{Files: files, Runtime: thund.Runtime, Out: out, AssumeCold: os.Getenv(assumeColdEnv) == "1"}
	if rep != nil {
		req.Progress = rep
	}
	res, err := gobuild.Build(context.Background(), req)
	if rep != nil {
		rep.done()
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "thundc %s: %v\n", inv.cmd.name, err)
		return nil, exitDiags
	}
	return res, exitOK
}

// emitGo writes the generated program as a module that builds on its own
// (the runtime beside it) to the folder --emit-go names, if any.
func emitGo(c *cli, inv *invocation, files map[string][]byte) int {
	dir := inv.str("emit-go")
	if dir == "" {
		return exitOK
	}
	mod, err := gobuild.ModuleFiles(files, thund.Runtime)
	if err == nil {
		err = gobuild.WriteFiles(dir, mod)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "thundc %s: --emit-go %s: %v\n", inv.cmd.name, dir, err)
		return exitDiags
	}
	return exitOK
}

// runBuild implements `thundc build PATH -o BIN [--emit-go DIR]`, and
// `thundc build PATH --emit-go DIR`, which only generates: it writes the
// module and runs no go build.
func runBuild(c *cli, inv *invocation) int {
	start := time.Now()
	out := inv.str("o")
	if out == "" && inv.str("emit-go") == "" {
		return fail(c, inv.cmd, usagef("missing -o BIN: the executable to write (or --emit-go DIR alone, to only generate the Go)"))
	}
	if out == "" {
		files, st := generate(c, inv)
		if files == nil {
			return st
		}
		if st := emitGo(c, inv, files); st != exitOK || !inv.bool("json") {
			return st
		}
		return writeJSON(c, emitJSON{OK: true, EmitGo: inv.str("emit-go"), Files: generatedNames(files), Diagnostics: []diagJSON{}})
	}
	rep := buildReporter(c, inv, start)
	res, st := buildProgram(c, inv, out, rep)
	if st == exitOK && rep != nil {
		rep.wrote("wrote", out, out, res.Cached)
	}
	if st == exitOK && inv.bool("json") {
		return writeJSON(c, buildJSON{OK: true, Binary: out, Cached: res.Cached, Key: res.Key, Diagnostics: []diagJSON{}})
	}
	return st
}

// buildReporter is the build's progress report on stderr, or nil with --quiet.
func buildReporter(c *cli, inv *invocation, start time.Time) *buildReport {
	if inv.bool("quiet") {
		return nil
	}
	return newBuildReport(c.stderr, start)
}

// buildJSON is the --json output of a successful build.
type buildJSON struct {
	OK          bool       `json:"ok"`
	Binary      string     `json:"binary"`
	Cached      bool       `json:"cached"` // the executable came from thundc's build cache
	Key         string     `json:"key"`    // the content hash of the build
	Diagnostics []diagJSON `json:"diagnostics"`
}

// emitJSON is the --json output of a build that only generates (--emit-go
// without -o).
type emitJSON struct {
	OK          bool       `json:"ok"`
	EmitGo      string     `json:"emit_go"` // the folder written
	Files       []string   `json:"files"`   // the generated program's files, sorted (the runtime beside them aside)
	Diagnostics []diagJSON `json:"diagnostics"`
}

// generatedNames lists the generated program's file names, sorted.
func generatedNames(files map[string][]byte) []string {
	names := make([]string, 0, len(files))
	for n := range files {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// runRun implements `thundc run PATH [-- ETL-ARGS]`: it builds (cached) and
// runs the executable from the pipeline's folder, with ETL-ARGS (default
// "run"). The executable's exit status is thundc's.
func runRun(c *cli, inv *invocation) int {
	start := time.Now()
	path := inv.args[0]
	cache, err := gobuild.DefaultCacheDir()
	if err == nil {
		cache, err = filepath.Abs(cache)
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "thundc run: %v\n", err)
		return exitDiags
	}
	if err := os.MkdirAll(filepath.Join(cache, "bin"), 0o755); err != nil {
		fmt.Fprintf(c.stderr, "thundc run: %v\n", err)
		return exitDiags
	}
	bin, err := os.CreateTemp(filepath.Join(cache, "bin"), "etl-*")
	if err != nil {
		fmt.Fprintf(c.stderr, "thundc run: %v\n", err)
		return exitDiags
	}
	bin.Close()
	defer os.Remove(bin.Name())
	rep := buildReporter(c, inv, start)
	res, st := buildProgram(c, inv, bin.Name(), rep)
	if st != exitOK {
		return st
	}
	if rep != nil {
		rep.wrote("built", strings.Join(inv.pipelinePaths(), " "), bin.Name(), res.Cached)
	}
	args := inv.args[1:]
	if len(args) == 0 {
		args = []string{"run"}
	}
	if inv.bool("json") {
		args = append(args, "--json")
	}
	cmd := exec.Command(bin.Name(), args...)
	cmd.Dir = filepath.Dir(path)
	if st, err := os.Stat(path); err == nil && st.IsDir() {
		cmd.Dir = path // a spark-pipeline.yml project runs from its own folder
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = c.stdin, c.stdout, c.stderr
	// Interrupts go to the executable, which stops cleanly at a commit point;
	// thundc waits for it.
	sig := make(chan os.Signal, 1)
	signal.Notify(sig, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sig)
	if err := cmd.Start(); err != nil {
		fmt.Fprintf(c.stderr, "thundc run: %v\n", err)
		return exitDiags
	}
	go func() {
		for s := range sig {
			if cmd.Process != nil {
				cmd.Process.Signal(s)
			}
		}
	}()
	err = cmd.Wait()
	var ee *exec.ExitError
	if errors.As(err, &ee) {
		if code := ee.ExitCode(); code >= 0 {
			return code
		}
		return exitDiags
	}
	if err != nil {
		fmt.Fprintf(c.stderr, "thundc run: %v\n", err)
		return exitDiags
	}
	return exitOK
}
