package main

import (
	"errors"
	"os/exec"
	"strconv"
	"testing"

	"github.com/nordisk/thund/internal/testenv"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary stand in for thundc: a script's
// `exec thundc ...` re-executes this binary as the command, which calls
// main, and so run, without a go build.
func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){"thundc": main})
}

// TestScripts runs testdata/scripts/*.txtar. THUNDC_UPDATE=1 (or -update)
// rewrites the cmp goldens inside the scripts from the actual output; a
// reviewer reads that diff before it is committed.
func TestScripts(t *testing.T) {
	testscript.Run(t, testscript.Params{
		Dir:                 "../../testdata/scripts",
		RequireExplicitExec: true,
		RequireUniqueNames:  true,
		UpdateScripts:       testenv.Update(),
		Setup: func(env *testscript.Env) error {
			// HOME stays /no-home; keep the Go caches warm for scripts
			// that build (see internal/testenv).
			env.Vars = append(env.Vars, testenv.GoEnv()...)
			env.Vars = append(env.Vars, "THUND_CACHE="+testenv.ThundCache())
			return nil
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":    cmdExitcode,
			"sparkserver": cmdSparkServer,
		},
	})
}

// cmdExitcode is the script command
//
//	exitcode N PROGRAM [ARGS...]
//
// which runs PROGRAM like exec, keeping its stdout and stderr for the
// commands that follow, and fails unless it exits with status N. exec tells
// only zero from non-zero, and thundc's contract tells 1 (diagnostics) from
// 2 (usage).
func cmdExitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exitcode")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exitcode N PROGRAM [ARGS...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: bad status %q", args[0])
	}
	got := 0
	if err := ts.Exec(args[1], args[2:]...); err != nil {
		var ee *exec.ExitError
		if !errors.As(err, &ee) {
			ts.Fatalf("exitcode: %v", err)
		}
		got = ee.ExitCode()
	}
	if got != want {
		ts.Fatalf("%s exited with status %d, want %d", args[1], got, want)
	}
}
