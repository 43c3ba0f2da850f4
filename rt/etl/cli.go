package etl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"runtime"
	"runtime/pprof"
	"strconv"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/stream"
	"github.com/nordisk/thund/rt/warehouse"
)

// RuntimeVersion is this runtime's version. It is part of every
// fingerprint, so a runtime that writes different results for the same input
// makes every dataset stale: bump it when that happens.
const RuntimeVersion = "0.1.0"

// Exit statuses of the executable (DESIGN.md).
const (
	ExitOK     = 0 // success
	ExitFailed = 1 // the pipeline failed: an expectation, bad data, a held lock
	ExitUsage  = 2 // a usage error
)

// Main is the generated program's main: it runs the command line and exits.
//
// With THUND_CPUPROFILE=FILE in the environment, the command writes a Go CPU
// profile to FILE (for `go tool pprof`); with THUND_MEMPROFILE=FILE, a heap
// profile (every allocation sampled, so that -sample_index=alloc_space
// shows where the run allocated) when the command ends.
func Main(p *Pipeline) {
	if f := os.Getenv("THUND_MEMPROFILE"); f != "" {
		runtime.MemProfileRate = 64 << 10
		code := Run(p, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
		if out, err := os.Create(f); err == nil {
			pprof.Lookup("allocs").WriteTo(out, 0)
			out.Close()
		}
		os.Exit(code)
	}
	if f := os.Getenv("THUND_CPUPROFILE"); f != "" {
		out, err := os.Create(f)
		if err == nil && pprof.StartCPUProfile(out) == nil {
			code := Run(p, os.Args[1:], os.Stdin, os.Stdout, os.Stderr)
			pprof.StopCPUProfile()
			out.Close()
			os.Exit(code)
		}
		fmt.Fprintf(os.Stderr, "THUND_CPUPROFILE: cannot profile to %s\n", f)
	}
	os.Exit(Run(p, os.Args[1:], os.Stdin, os.Stdout, os.Stderr))
}

// Run runs one command line (without the program name) and returns the exit
// status. SIGINT and SIGTERM cancel a run, which then fails cleanly:
// nothing of it is committed, and a second signal kills the process as
// usual. Under `run --follow` the first signal is a clean stop instead (the
// epoch in flight commits, then the run ends, status 0); a second one
// interrupts that epoch (nothing of it is committed, status 1), and a
// third kills the process.
func Run(p *Pipeline, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM)
	defer signal.Stop(sigs)
	ctx, stop := context.WithCancel(context.Background())
	abort, interrupt := context.WithCancel(context.Background())
	defer stop()
	defer interrupt()
	c := &cli{p: p, stdin: stdin, stdout: stdout, stderr: stderr, abort: abort}
	go func() {
		select {
		case <-sigs:
		case <-abort.Done():
			return // returned
		}
		stop()
		if !c.following.Load() {
			signal.Stop(sigs)
			return
		}
		select {
		case <-sigs:
			interrupt()
		case <-abort.Done():
		}
		signal.Stop(sigs)
	}()
	return c.main(ctx, args)
}

// RunContext is Run under ctx: cancelling it interrupts a run (or, under
// `run --follow`, stops it cleanly after the epoch in flight).
func RunContext(ctx context.Context, p *Pipeline, args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	c := &cli{p: p, stdin: stdin, stdout: stdout, stderr: stderr}
	return c.main(ctx, args)
}

// cli is one invocation's surroundings; tests set the hooks.
type cli struct {
	p              *Pipeline
	stdin          io.Reader
	stdout, stderr io.Writer

	now   func() time.Time // the clock; nil means time.Now
	runID string           // a fixed run id; "" generates one
	live  int              // progress display: 0 decides by stderr, 1 forces live, -1 forces plain lines
	mem   memory.Allocator // nil means memory.DefaultAllocator

	// run --follow: the processing-time clock (nil: the wall clock), the
	// context whose end interrupts the epoch in flight (nil: never), and
	// whether the command follows (Run's signal handling asks).
	clock     stream.Clock
	abort     context.Context
	following atomic.Bool
	// beforeWrite runs before each batch a flow's target writes (tests: a
	// slow sink).
	beforeWrite func()
	// kafkaPublished: per Kafka sink, the last epoch this process
	// committed to Kafka (run --follow: the next epoch need not look).
	kafkaPublished map[string]int64
}

// flagSpec is one flag. The parser reads these, so what help shows is what
// is accepted.
type flagSpec struct {
	name   string
	arg    string // the value's placeholder; "" for a boolean flag
	list   bool   // comma-separated and repeatable: the values add up
	def    string // the default, for help
	values []string
	usage  string
}

var (
	flagWarehouse = &flagSpec{name: "warehouse", arg: "DIR|s3://BUCKET/PREFIX", def: "./warehouse",
		usage: "the warehouse: a folder, or a bucket and key prefix on S3 (configured by AWS_* and THUND_S3_*: see docs/warehouse.md)"}
	flagRoot = &flagSpec{name: "root", arg: "DIR", def: "the working directory",
		usage: "where relative source and sink paths resolve"}
	flagJSON         = &flagSpec{name: "json", usage: "machine-readable output on stdout"}
	flagSelect       = &flagSpec{name: "select", arg: "SPEC,...", list: true, usage: "only these datasets: NAME, +NAME (with its ancestors), NAME+ (with its descendants)"}
	flagRefresh      = &flagSpec{name: "refresh", arg: "NAME,...", list: true, usage: "refresh these datasets (only these, unless --select adds more), even when fresh"}
	flagFullRefresh  = &flagSpec{name: "full-refresh", arg: "NAME,...", list: true, usage: "clear these datasets (a new, empty version; stream offsets reset) and recompute them"}
	flagFullAll      = &flagSpec{name: "full-refresh-all", usage: "fully refresh every selected dataset"}
	flagOnce         = &flagSpec{name: "once", usage: "process what is available now, then stop (the default)"}
	flagFollow       = &flagSpec{name: "follow", usage: "keep running epochs as input arrives, honouring triggers, until SIGINT or SIGTERM; then stop cleanly at a commit point"}
	flagPoll         = &flagSpec{name: "poll-interval", arg: "DURATION", def: "1s", usage: "with --follow: how often to look for new input"}
	flagEdgeRows     = &flagSpec{name: "edge-rows", arg: "N", def: "the read's bound, else 262144", usage: "bound every edge between concurrent stages (reader, flow, writer) to N rows; 0: unbounded"}
	flagEdgeBytes    = &flagSpec{name: "edge-bytes", arg: "SIZE", def: "the read's bound, else 64MiB", usage: "bound every edge to SIZE bytes (e.g. 16MiB); 0: unbounded"}
	flagAllOrNothing = &flagSpec{name: "all-or-nothing", usage: "commit nothing when a flow fails (by default the datasets that succeeded are committed, the failed ones and those downstream keep their previous versions)"}
	flagThreads      = &flagSpec{name: "threads", arg: "N", def: "GOMAXPROCS", usage: "threads a flow may use"}
	flagMemLimit     = &flagSpec{name: "memory-limit", arg: "SIZE", usage: "bound what a flow's operators keep (e.g. 512MiB): past it hash joins' build sides, hash aggregates (GROUP BY), DISTINCT, UNION's distinct, ORDER BY and window partitions spill to --spill-dir and finish; a top-N, INTERSECT/EXCEPT, grouping sets, global aggregates' kept values, one window partition alone past the limit and stream state stop the flow with an error naming the operator"}
	flagSpillDir     = &flagSpec{name: "spill-dir", arg: "DIR", def: "thund-spill in the system's temporary folder", usage: "where operators past --memory-limit write their spill files (a folder per run, removed at its end; a killed run's, at the next run)"}
	flagFingerprint  = &flagSpec{name: "fingerprint", arg: "auto|stat|content", def: "auto", values: []string{"auto", "stat", "content"},
		usage: "how a source file is told unchanged since the last run read it: auto (size and modification time, and the content of files up to 1 MiB outside watched folders), stat (size and modification time only), content (the content of every file, read at every run)"}
	flagFormat  = &flagSpec{name: "format", arg: "FORMAT", def: "csv", values: []string{"csv", "jsonl", "parquet"}, usage: "the output format"}
	flagVersion = &flagSpec{name: "version", arg: "N", usage: "an older committed version (default: the current one)"}
	flagLimit   = &flagSpec{name: "limit", arg: "N", usage: "show only the N newest runs"}
)

var commonFlags = []*flagSpec{flagWarehouse, flagRoot, flagJSON}

var selectionFlags = []*flagSpec{flagSelect, flagRefresh, flagFullRefresh, flagFullAll}

// command documents one subcommand.
type command struct {
	name    string
	args    string
	minArgs int
	maxArgs int
	summary string
	text    string
	flags   []*flagSpec
	example string
}

func flags(groups ...[]*flagSpec) []*flagSpec {
	var out []*flagSpec
	for _, g := range groups {
		out = append(out, g...)
	}
	return out
}

// commands is the command table, in the order help lists it.
var commands = []*command{
	{
		name: "run", summary: "bring every selected dataset up to date",
		text: `Run takes the warehouse lock, decides per dataset whether it is fresh or
stale (see plan), and runs, in dependency order, the flows of every selected
stale dataset; a dataset downstream of a rebuilt one is stale too. A
materialized view is recomputed into a new version; a streaming table gets
what its flows produce from input that is new since their last run (stream
reads see only new files and new rows); a sink writes a new file (or JSON
lines on stdout) once the run has committed. Temporary views and views are
computed in memory when a dataset that reads them is built; they are never
stored.

Before any flow runs, every source the selection reads is checked: its
patterns match files (a watched folder may be empty), the files it will read
have the declared columns (Parquet and Arrow schemas, CSV headers), standard
input is there when read. Every problem is listed, and nothing runs.

What the run built is committed at once at its end, in one commit record.
When a dataset's flows fail (an expectation with "on violation fail" sees a
violating row, bad input data: the error names file, row and column), that
dataset keeps its previous version, the datasets downstream of it are
skipped, and the independent ones go on; the record commits the others and
marks the failed and skipped ones, the summary lists them, and the run exits
1 (status partial). --all-or-nothing commits nothing when anything fails.
An interrupt (Ctrl-C) or a failed commit commits nothing.

--once (the default) is one such run; a run with nothing to do (every
selected dataset fresh) commits nothing and writes no event file. A source
file is unchanged when its size and modification time are, and, for the
files --fingerprint hashes (by default those up to 1 MiB outside watched
folders; content: every file), its content too. --follow keeps going: every
--poll-interval it looks for new input (new files, batches on standard
input) and, when a selected dataset is stale, runs an epoch: one run as
above, one commit, one event file; a poll with nothing new commits nothing.
Materialized views downstream of a stream are rebuilt in the epoch their
inputs changed. Flows honour their triggers: "trigger every N" runs at most
once per N, "trigger available now" only in the first epoch; the others run
as soon as input lands. A stateful flow whose watermark idle timeout passed
gets one epoch without new input. The first SIGINT or SIGTERM lets the
epoch in flight commit and exits 0; a second abandons it (nothing of it is
committed) and exits 1. Standard input is read as it arrives, its batches
become epochs, and its end ends the run; it cannot be replayed, so it is
at-most-once across a crash.

The checkpoint interval: with --follow, --poll-interval and the triggers
set how often an epoch commits. --max-files-per-epoch N also bounds an
epoch by input: each stream read of a source takes at most the N new files
that come first in name order, and the rest waits. A --once run then
commits epoch after epoch (one commit, one event file and one line each, as
under --follow) until no selected dataset is stale; --follow starts the next
epoch at once while files wait. A crash costs at most the epoch in flight.
Materialized views downstream of a stream are rebuilt in every epoch; a
stateful flow's watermark advances at every epoch, so a small epoch can make
a row late that one large epoch would not (as under --follow); a flow whose
stream reads all read bounded sources (not "stream" sources) reads its whole
backlog in one epoch. The first SIGINT or SIGTERM stops such a --once run
after the epoch in flight commits, exit status 1; the next run goes on.

--keep-checkpoints N removes, after every commit, what "etl vacuum --keep N"
removes: commits older than the last N, and the dataset files, event logs
and checkpoint objects only they need; never anything the latest commit
references. Without it every commit is kept.

With more than one thread, a flow's inputs are decoded and its output
written on goroutines of their own, joined by edges bounded by rows and
bytes (a read's "bound N rows bound M bytes", else the defaults below):
a slow sink slows its sources instead of growing memory.

Recovery: a run resumes from the latest commit (its dataset versions, the
source offsets consumed and the operators' state), and the event log records
the epoch (resume_from_epoch). A killed run (kill -9, a crash, a lost
machine) committed nothing: the next run redoes its work from that commit.
Every state object carries a sha256 in the commit; when the latest commit's
record is corrupt or one of its state objects is missing or fails its
checksum, run stops and names the object. --allow-older-checkpoint then
resumes from the newest older commit that verifies instead: what came after
it is computed again.

Progress goes to stderr, then a summary (with --follow, a line per epoch).
With --json the event records go to stdout as JSON lines, as they are
emitted.`,
		flags:   flags(commonFlags, selectionFlags, []*flagSpec{flagOnce, flagFollow, flagPoll, flagThreads, flagMemLimit, flagSpillDir, flagEdgeRows, flagEdgeBytes, flagAllowOlder, flagMaxFiles, flagKeepCheckpoints, flagFingerprint, flagAllOrNothing}),
		example: "etl run\netl run --select +top_bids --threads 4\netl run --memory-limit 512MiB\netl run --full-refresh bids_per_window\netl run --follow --poll-interval 500ms\netl run --threads 4 --edge-rows 100000 --edge-bytes 16MiB\netl run --max-files-per-epoch 100 --keep-checkpoints 5\netl run --all-or-nothing",
	},
	{
		name: "plan", summary: "show what a run would rebuild, and why",
		text: `Plan prints, per dataset, NAME, fresh or stale, and the reason, without running
anything:

    never built, definition changed, input X changed (...), new files in X (...),
    full refresh requested, refresh requested, runtime changed (...)

A source is fresh when its files are those the last run read: the same
paths, sizes and modification times, and, for files whose content is hashed,
the same content (--fingerprint, as for run; the last line says which). A
dataset that is stale but not selected says "(not selected)"; a run would
leave it as it is. It accepts the selection flags of run. Exit status 1 when a dataset
cannot be built (a source pattern matches no file, an input was never built).`,
		flags:   flags(commonFlags, selectionFlags, []*flagSpec{flagFingerprint}),
		example: "etl plan\netl plan --select high_bids+ --json\netl plan --fingerprint content",
	},
	{
		name: "history", summary: "list past runs, newest first",
		text: `History lists the runs recorded in the warehouse's event log, newest first:
run id, start (UTC), status, committed epoch, duration, rows in and out,
expectation violations, late rows dropped, what was rebuilt and why, and the
error of a failed run.`,
		flags:   flags(commonFlags, []*flagSpec{flagLimit}),
		example: "etl history\netl history --limit 5 --json",
	},
	{
		name: "read", args: "NAME", minArgs: 1, maxArgs: 1,
		summary: "write a dataset's committed rows to stdout",
		text: `Read writes the committed version of dataset NAME (or, with --version N, an
older one) to stdout, rows in stored order. CSV has a header row, an empty
field for NULL, timestamps as YYYY-MM-DD HH:MM:SS[.ffffff] in UTC and floats
in the shortest form that round-trips. --json is --format jsonl.`,
		flags:   flags(commonFlags, []*flagSpec{flagFormat, flagVersion}),
		example: "etl read high_bids\netl read high_bids --version 2 --format jsonl",
	},
	cmdVacuum, // vacuum.go
	{
		name: "version", summary: "print the versions of this program",
		text:    `Version prints the pipeline's name and the versions of thundc, of the runtime and of Go.`,
		flags:   flags(commonFlags),
		example: "etl version",
	},
	{
		name: "help", args: "[COMMAND]", maxArgs: 1, summary: "show help for a command",
		text:    `Help lists the commands, or documents one.`,
		example: "etl help run",
	},
}

func lookupCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

func commandNames() string {
	var names []string
	for _, c := range commands {
		names = append(names, c.name)
	}
	return strings.Join(names, ", ")
}

// allFlags is every flag of every command (to find the command in a line
// whose flags come first).
func allFlags() map[string]*flagSpec {
	m := map[string]*flagSpec{}
	for _, c := range commands {
		for _, f := range c.flags {
			m[f.name] = f
		}
	}
	return m
}

// invocation is a parsed command line.
type invocation struct {
	cmd   *command
	args  []string
	vals  map[string]string
	lists map[string][]string
	help  bool
}

func (inv *invocation) str(name string) string { return inv.vals[name] }
func (inv *invocation) isSet(name string) bool {
	_, ok := inv.vals[name]
	return ok
}
func (inv *invocation) bool(name string) bool { return inv.vals[name] == "true" }

// usageError is a command-line mistake: exit status 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error { return &usageError{fmt.Sprintf(format, args...)} }

// splitCommand finds the command: the first argument that is neither a
// flag nor a flag's value. It returns the command name ("" when there is
// none) and the other arguments.
func splitCommand(args []string) (string, []string) {
	known := allFlags()
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			if i+1 < len(args) {
				return args[i+1], append(append([]string{}, args[:i]...), args[i+2:]...)
			}
			break
		}
		if len(a) < 2 || a[0] != '-' {
			return a, append(append([]string{}, args[:i]...), args[i+1:]...)
		}
		name, _, hasVal := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		if f := known[name]; f != nil && f.arg != "" && !hasVal {
			i++ // skip the value
		}
	}
	return "", args
}

// parseArgs parses a command's arguments. Flags may come before, between or
// after the positional arguments, with one dash or two, and a value either
// as the next argument or after "=". "--" ends the flags. A later value of a
// flag overrides an earlier one, except for list flags, whose values add up.
func parseArgs(c *command, args []string) (*invocation, error) {
	inv := &invocation{cmd: c, vals: map[string]string{}, lists: map[string][]string{}}
	for i := 0; i < len(args); i++ {
		a := args[i]
		if a == "--" {
			inv.args = append(inv.args, args[i+1:]...)
			break
		}
		if len(a) < 2 || a[0] != '-' {
			inv.args = append(inv.args, a)
			continue
		}
		name, val, hasVal := strings.Cut(strings.TrimPrefix(a[1:], "-"), "=")
		if name == "h" || name == "help" {
			inv.help = true
			return inv, nil
		}
		var f *flagSpec
		for _, cf := range c.flags {
			if cf.name == name {
				f = cf
			}
		}
		if f == nil {
			shown, _, _ := strings.Cut(a, "=")
			if allFlags()[name] != nil {
				return nil, usagef("flag %s does not apply to %s", shown, c.name)
			}
			return nil, usagef("unknown flag %s", shown)
		}
		if f.arg == "" {
			if hasVal {
				b, err := strconv.ParseBool(val)
				if err != nil {
					return nil, usagef("--%s takes no value, or true or false; got %q", f.name, val)
				}
				val = strconv.FormatBool(b)
			} else {
				val = "true"
			}
		} else if !hasVal {
			if i+1 == len(args) {
				return nil, usagef("--%s needs a value (%s)", f.name, f.arg)
			}
			i++
			val = args[i]
		}
		if f.values != nil && !contains(f.values, val) {
			return nil, usagef("bad --%s %q: want %s", f.name, val, strings.Join(f.values, ", "))
		}
		inv.vals[f.name] = val
		if f.list {
			inv.lists[f.name] = append(inv.lists[f.name], val)
		}
	}
	switch {
	case len(inv.args) < c.minArgs:
		return nil, usagef("missing %s", c.args)
	case len(inv.args) > c.maxArgs:
		return nil, usagef("unexpected argument %q", inv.args[c.maxArgs])
	}
	return inv, nil
}

func contains(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func (c *cli) main(ctx context.Context, args []string) int {
	if err := validatePipeline(c.p); err != nil {
		fmt.Fprintf(c.stderr, "etl: this program's pipeline is invalid (a thundc bug): %v\n", err)
		return ExitFailed
	}
	name, rest := splitCommand(args)
	if name == "" {
		for _, a := range rest {
			if a == "-h" || a == "--help" || a == "-help" {
				c.printUsage(c.stdout)
				return ExitOK
			}
		}
		c.printUsage(c.stderr)
		return ExitUsage
	}
	cmd := lookupCommand(name)
	if cmd == nil {
		fmt.Fprintf(c.stderr, "etl: unknown command %q (want %s)\nRun 'etl help' for usage.\n", name, commandNames())
		return ExitUsage
	}
	inv, err := parseArgs(cmd, rest)
	if err != nil {
		return c.usage(cmd, err)
	}
	if inv.help {
		c.printHelp(c.stdout, cmd)
		return ExitOK
	}
	switch cmd.name {
	case "run":
		return c.runCmd(ctx, inv)
	case "plan":
		return c.planCmd(ctx, inv)
	case "history":
		return c.historyCmd(ctx, inv)
	case "read":
		return c.readCmd(ctx, inv)
	case "version":
		return c.versionCmd(inv)
	case "vacuum":
		return c.vacuumCmd(ctx, inv)
	}
	// help
	if len(inv.args) == 1 {
		h := lookupCommand(inv.args[0])
		if h == nil {
			return c.usage(cmd, usagef("unknown command %q (want %s)", inv.args[0], commandNames()))
		}
		c.printHelp(c.stdout, h)
		return ExitOK
	}
	c.printUsage(c.stdout)
	return ExitOK
}

// usage reports a usage error: exit status 2.
func (c *cli) usage(cmd *command, err error) int {
	fmt.Fprintf(c.stderr, "etl %s: %v\nRun 'etl help %s' for usage.\n", cmd.name, err, cmd.name)
	return ExitUsage
}

// failf reports a failure: exit status 1.
func (c *cli) fail(cmd string, err error) int {
	fmt.Fprintf(c.stderr, "etl %s: %v\n", cmd, err)
	return ExitFailed
}

func (c *cli) printUsage(w io.Writer) {
	fmt.Fprintf(w, "etl runs the pipeline %s", c.p.Name)
	if c.p.File != "" {
		fmt.Fprintf(w, " (%s)", c.p.File)
	}
	fmt.Fprintf(w, ".\n\nUsage:\n\n    etl COMMAND [ARGS] [FLAGS]\n\nCommands:\n\n")
	for _, cmd := range commands {
		fmt.Fprintf(w, "    %-8s %s\n", cmd.name, cmd.summary)
	}
	fmt.Fprintf(w, "\nCommon flags (every command but help):\n\n")
	printFlags(w, commonFlags)
	fmt.Fprintf(w, "\nExit status: 0 success, 1 the pipeline failed, 2 a usage error.\nRun 'etl help COMMAND' for a command's flags.\n")
}

func printFlags(w io.Writer, fs []*flagSpec) {
	for _, f := range fs {
		left := "--" + f.name
		if f.arg != "" {
			left += " " + f.arg
		}
		line := f.usage
		if f.def != "" {
			line += " (default " + f.def + ")"
		}
		fmt.Fprintf(w, "    %-26s %s\n", left, line)
	}
}

func (c *cli) printHelp(w io.Writer, cmd *command) {
	fmt.Fprintf(w, "usage: etl %s", cmd.name)
	if cmd.args != "" {
		fmt.Fprintf(w, " %s", cmd.args)
	}
	if len(cmd.flags) > 0 {
		fmt.Fprintf(w, " [FLAGS]")
	}
	fmt.Fprintf(w, "\n\n%s\n", cmd.text)
	if len(cmd.flags) > 0 {
		fmt.Fprintf(w, "\nFlags:\n\n")
		printFlags(w, cmd.flags)
	}
	if cmd.example != "" {
		fmt.Fprintf(w, "\nExamples:\n\n")
		for _, l := range strings.Split(cmd.example, "\n") {
			fmt.Fprintf(w, "    %s\n", l)
		}
	}
}

// place is where a command works: the warehouse and the root.
type place struct {
	dir  string   // the warehouse folder, absolute ("" on S3)
	s3   store.FS // the warehouse on S3 (Pipeline.OpenS3), nil for a folder
	root string   // --root, absolute
}

// resolvePlace reads --warehouse and --root.
func (c *cli) resolvePlace(inv *invocation) (place, error) {
	for _, f := range []string{"warehouse", "root"} {
		if v := inv.str(f); strings.IndexByte(v, 0) >= 0 {
			return place{}, usagef("--%s %s: contains a NUL byte, which no path can hold", f, strconv.Quote(v))
		}
	}
	wh := inv.str("warehouse")
	if wh == "" {
		wh = "./warehouse"
		if inv.isSet("warehouse") {
			return place{}, usagef("--warehouse: empty")
		}
	}
	var pl place
	if i := strings.Index(wh, "://"); i > 0 {
		if !strings.HasPrefix(wh, "s3://") {
			return place{}, usagef("--warehouse %s: unsupported URL scheme %q (want a local folder or s3://BUCKET/PREFIX)", wh, wh[:i])
		}
		fs, err := c.openS3Warehouse(wh)
		if err != nil {
			return place{}, usagef("--warehouse %s: %v", wh, err)
		}
		pl.s3 = fs
	} else {
		dir, err := filepath.Abs(wh)
		if err != nil {
			return place{}, err
		}
		pl.dir = dir
	}
	var err error
	root := inv.str("root")
	if root == "" {
		if inv.isSet("root") {
			return place{}, usagef("--root: empty")
		}
		if root, err = os.Getwd(); err != nil {
			return place{}, err
		}
	}
	if root, err = filepath.Abs(root); err != nil {
		return place{}, err
	}
	if st, err := os.Stat(root); err != nil || !st.IsDir() {
		return place{}, usagef("--root %s: not a folder", inv.str("root"))
	}
	pl.root = root
	return pl, nil
}

func (c *cli) versionCmd(inv *invocation) int {
	compiler := c.p.Compiler
	if compiler == "" {
		compiler = "(unknown)"
	}
	if inv.bool("json") {
		b, _ := json.Marshal(map[string]string{"pipeline": c.p.Name, "thundc": compiler, "runtime": RuntimeVersion, "go": runtime.Version()})
		fmt.Fprintf(c.stdout, "%s\n", b)
		return ExitOK
	}
	fmt.Fprintf(c.stdout, "etl (pipeline %s) compiled by thundc %s; runtime %s; go %s\n", c.p.Name, compiler, RuntimeVersion, runtime.Version())
	return ExitOK
}

// validatePipeline checks what generated code promises: unique names, inputs
// declared before their readers, flows with Run functions, sources with
// files, sinks with a place to write.
func validatePipeline(p *Pipeline) error {
	if p == nil {
		return errors.New("no pipeline")
	}
	var errs []error
	seen := map[string]*Dataset{}
	for _, d := range p.Datasets {
		if d.Name == "" {
			errs = append(errs, errors.New("a dataset without a name"))
			continue
		}
		if seen[d.Name] != nil {
			errs = append(errs, fmt.Errorf("dataset %s is declared twice", d.Name))
		}
		if d.Schema == nil {
			errs = append(errs, fmt.Errorf("dataset %s has no schema", d.Name))
		}
		if err := warehouse.ValidDatasetName(d.Name); err != nil && stored(d.Kind) {
			errs = append(errs, err)
		}
		switch {
		case d.Kind == Source:
			if d.Source == nil {
				errs = append(errs, fmt.Errorf("source %s says nothing of where its rows come from", d.Name))
			}
			if len(d.Flows) > 0 {
				errs = append(errs, fmt.Errorf("source %s has flows", d.Name))
			}
		case d.Kind == Sink:
			switch sinkFormat(d) {
			case "stdout", kafkaFormat:
			case "parquet", "csv", "jsonl":
				if sinkOption(d, "path") == "" {
					errs = append(errs, fmt.Errorf("sink %s has no path option", d.Name))
				}
			default:
				errs = append(errs, fmt.Errorf("sink %s: format %q (want parquet, csv, jsonl, stdout or kafka)", d.Name, d.Format))
			}
		}
		exps := map[string]bool{}
		for _, e := range d.Expectations {
			if exps[e.Name] {
				errs = append(errs, fmt.Errorf("dataset %s: expectation %s is declared twice", d.Name, e.Name))
			}
			exps[e.Name] = true
		}
		for _, f := range d.Flows {
			if f.Run == nil {
				errs = append(errs, fmt.Errorf("flow %s of %s has no Run function", f.Name, d.Name))
			}
			for _, in := range f.Inputs {
				x := seen[in.Name]
				switch {
				case x == nil:
					errs = append(errs, fmt.Errorf("flow %s of %s reads %s, which is not declared before it", f.Name, d.Name, in.Name))
				case x.Kind == Sink:
					errs = append(errs, fmt.Errorf("flow %s of %s reads sink %s: sinks are written, not read", f.Name, d.Name, in.Name))
				}
			}
		}
		seen[d.Name] = d
	}
	return errors.Join(errs...)
}
