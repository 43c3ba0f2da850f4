package main

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/nordisk/thund/internal/testenv"
	"github.com/rogpeppe/go-internal/diff"
	"github.com/rogpeppe/go-internal/testscript"
)

// TestMain lets the test binary stand in for thundc: a script's
// `exec thundc ...` re-executes this binary as the command, which calls
// main, and so run, without a go build. The scripts run 4×GOMAXPROCS at a
// time unless -parallel says otherwise: they wait on thundc, the
// executables and the disk's fsyncs far more than they compute.
func TestMain(m *testing.M) {
	testscript.Main(waitingM{m}, map[string]func(){"thundc": main})
}

// envPyiceberg names a python with pyiceberg and pyarrow (unset: the
// scripts that need it are skipped).
const envPyiceberg = "THUND_TEST_PYICEBERG"

// waitingM is the test binary's testing.M with testenv.WaitingParallel's
// default -parallel. (testscript.Main calls Run only when the binary runs
// as the test binary, not as thundc, whose arguments are not test flags.)
type waitingM struct{ m *testing.M }

func (w waitingM) Run() int { return testenv.WaitingParallel(w.m, 4) }

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
			// PYICEBERG is THUND_TEST_PYICEBERG, a python with pyiceberg
			// and pyarrow, for the scripts whose Iceberg tables another
			// engine writes ([pyiceberg] is true when it is set).
			env.Vars = append(env.Vars, "PYICEBERG="+os.Getenv(envPyiceberg))
			return nil
		},
		Condition: func(cond string) (bool, error) {
			if cond == "pyiceberg" {
				return os.Getenv(envPyiceberg) != "", nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Cmds: map[string]func(ts *testscript.TestScript, neg bool, args []string){
			"exitcode":    cmdExitcode,
			"example":     cmdExample,
			"nexmark":     cmdNexmark,
			"replace":     cmdReplace,
			"cr":          cmdCR,
			"unescape":    cmdUnescape,
			"sparkserver": cmdSparkServer,
			"eventually":  cmdEventually,
			"signal":      cmdSignal,
			"cmpsorted":   cmdCmpSorted,
			"udiff":       cmdUdiff,
			"targetdiff":  cmdTargetDiff,
			"icepublish":  cmdIcePublish,
		},
	})
}

// cmdCmpSorted is the script command
//
//	cmpsorted FILE1 FILE2
//
// which compares two CSV outputs (stdout, or files) as a header line and
// a multiset of rows: the rows of a dataset without order by come in the
// order its parallel workers wrote them.
func cmdCmpSorted(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: cmpsorted FILE1 FILE2")
	}
	rows := func(name string) []string {
		lines := strings.Split(strings.TrimSuffix(ts.ReadFile(name), "\n"), "\n")
		slices.Sort(lines[1:])
		return lines
	}
	a, b := rows(args[0]), rows(args[1])
	if !slices.Equal(a, b) {
		ts.Fatalf("%s and %s differ as multisets of rows:\n%s\n---\n%s", args[0], args[1], strings.Join(a, "\n"), strings.Join(b, "\n"))
	}
}

// cmdUdiff is the script command
//
//	udiff FILE1 FILE2
//
// which writes the unified diff from FILE1 to FILE2 to stdout, and nothing
// when they are equal. A script keeps the expected diff as a golden (cmp
// stdout want/x.diff, refreshed by THUNDC_UPDATE=1 like any other), so that
// two outputs that must differ in a few known places are one golden and a
// short, reviewable list of those places, not two goldens.
func cmdUdiff(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: udiff FILE1 FILE2")
	}
	writeDiff(ts, args[0], ts.ReadFile(args[0]), args[1], ts.ReadFile(args[1]))
}

// cmdTargetDiff is the script command
//
//	targetdiff FILE41 FILE42
//
// which is udiff from an output for spark-4.1 to the same output for
// spark-4.2, with each file's own target name read as "spark-4.x": what
// is left is what the two targets do differently (a field that only 4.2
// has, a refusal that only one makes), and nothing when they differ by
// name alone. A name of the other target stays as written, so an output
// that names the wrong target shows.
func cmdTargetDiff(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: targetdiff FILE41 FILE42")
	}
	const either = "spark-4.x"
	a := strings.ReplaceAll(ts.ReadFile(args[0]), "spark-4.1", either)
	b := strings.ReplaceAll(ts.ReadFile(args[1]), "spark-4.2", either)
	writeDiff(ts, args[0], a, args[1], b)
}

func writeDiff(ts *testscript.TestScript, name1, text1, name2, text2 string) {
	_, err := ts.Stdout().Write(diff.Diff(name1, []byte(text1), name2, []byte(text2)))
	ts.Check(err)
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

// cmdExample is the script command
//
//	example NAME [DIR]
//
// which copies the folder examples/NAME of the repository into $WORK/NAME
// (or into DIR), so that a script runs the real example rather than a copy
// that can drift.
func cmdExample(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 || len(args) > 2 {
		ts.Fatalf("usage: example NAME [DIR]")
	}
	src := filepath.Join("..", "..", "examples", args[0])
	dst := ts.MkAbs(args[0])
	if len(args) == 2 {
		dst = ts.MkAbs(args[1])
	}
	err := filepath.WalkDir(src, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		if d.IsDir() {
			if d.Name() == "warehouse" || d.Name() == "pipeline-storage" {
				return filepath.SkipDir // left by someone running the example in place
			}
			return os.MkdirAll(filepath.Join(dst, rel), 0o755)
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		return os.WriteFile(filepath.Join(dst, rel), data, 0o644)
	})
	if err != nil {
		ts.Fatalf("example %s: %v", args[0], err)
	}
}

// cmdReplace is the script command
//
//	replace FILE OLD NEW
//
// which replaces the one occurrence of OLD in FILE with NEW (an edit of a
// copied example); it fails unless OLD occurs exactly once.
func cmdReplace(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: replace FILE OLD NEW")
	}
	path := ts.MkAbs(args[0])
	data, err := os.ReadFile(path)
	ts.Check(err)
	if n := strings.Count(string(data), args[1]); n != 1 {
		ts.Fatalf("replace: %q occurs %d times in %s, want once", args[1], n, args[0])
	}
	ts.Check(os.WriteFile(path, []byte(strings.Replace(string(data), args[1], args[2], 1)), 0o644))
}

// cmdCR is the script command
//
//	cr SRC DST
//
// which writes SRC to DST with each line feed turned into a carriage
// return: a file with old Mac line ends, which a txtar cannot hold
// readably.
func cmdCR(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: cr SRC DST")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), []byte(strings.ReplaceAll(string(data), "\n", "\r")), 0o644))
}

// cmdUnescape is the script command
//
//	unescape SRC DST
//
// which writes SRC to DST with each \xNN turned into that byte and each
// \uNNNN into that character in UTF-8 (\\ is a backslash): a file with
// NUL bytes, control characters or bytes that are not UTF-8, which a txtar
// cannot hold readably.
func cmdUnescape(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: unescape SRC DST")
	}
	data, err := os.ReadFile(ts.MkAbs(args[0]))
	ts.Check(err)
	var out []byte
	for i := 0; i < len(data); i++ {
		if data[i] == '\\' && i+1 < len(data) {
			n := map[byte]int{'x': 2, 'u': 4, '\\': 0}
			if digits, ok := n[data[i+1]]; ok && i+2+digits <= len(data) {
				v, err := strconv.ParseUint(string(data[i+2:i+2+digits]), 16, 32)
				switch {
				case digits == 0:
					out = append(out, '\\')
				case err != nil:
					ts.Fatalf("unescape: bad escape %q", data[i:i+2+digits])
				case digits == 2:
					out = append(out, byte(v))
				default:
					out = utf8.AppendRune(out, rune(v))
				}
				i += 1 + digits
				continue
			}
		}
		out = append(out, data[i])
	}
	ts.Check(os.WriteFile(ts.MkAbs(args[1]), out, 0o644))
}

// cmdEventually is the script command
//
//	eventually REGEXP PROGRAM [ARGS...]
//
// which runs PROGRAM like exec, again every 100ms, until it succeeds with
// a stdout that matches REGEXP; it fails after a minute. It waits for a
// process running in the background (etl run --follow) to do something.
func cmdEventually(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: eventually REGEXP PROGRAM [ARGS...]")
	}
	re, err := regexp.Compile(args[0])
	ts.Check(err)
	retry(ts, args[1:], func(stdout string) string {
		if re.MatchString(stdout) {
			return ""
		}
		return fmt.Sprintf("never printed a match for %q", args[0])
	})
}

// retry runs prog (a program and its arguments) like exec, again every
// 100ms, until it succeeds with a stdout that check accepts (returns "");
// after a minute it fails the script with the last run's complaint and
// stdout.
func retry(ts *testscript.TestScript, prog []string, check func(stdout string) string) {
	deadline := time.Now().Add(time.Minute)
	for {
		err := ts.Exec(prog[0], prog[1:]...)
		out := ts.ReadFile("stdout")
		why := ""
		if err != nil {
			why = err.Error()
		} else if why = check(out); why == "" {
			return
		}
		if time.Now().After(deadline) {
			ts.Fatalf("eventually: %s: %s; last stdout:\n%s", strings.Join(prog, " "), why, out)
		}
		time.Sleep(100 * time.Millisecond)
	}
}

// cmdSignal is the script command
//
//	signal TERM|INT PIDFILE
//
// which sends the signal to the process whose id PIDFILE holds (testscript's
// kill sends only INT and KILL, and only to its own background commands; a
// script starts the process with sh -c 'echo $$ >PIDFILE; exec PROGRAM').
func cmdSignal(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: signal TERM|INT PIDFILE")
	}
	sig := map[string]syscall.Signal{"TERM": syscall.SIGTERM, "INT": syscall.SIGINT}[args[0]]
	if sig == 0 {
		ts.Fatalf("signal: unknown signal %q (want TERM or INT)", args[0])
	}
	pid, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(args[1])))
	if err != nil {
		ts.Fatalf("signal: %s holds no process id", args[1])
	}
	ts.Check(syscall.Kill(pid, sig))
}
