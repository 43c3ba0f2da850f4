package etl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"runtime"
	"runtime/debug"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/run"
	"github.com/nordisk/thund/rt/spill"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/warehouse"
)

// The run command (`etl run`): its flags, and one epoch (Begin, the
// executor's body, Commit, then publishing sinks) for --once, --follow
// (follow.go) and --max-files-per-epoch (epochs.go) alike.

// errInterrupted fails a run that was interrupted (SIGINT, SIGTERM).
var errInterrupted = errors.New("interrupted: the run stopped before its commit")

// selectionFromFlags parses the selection flags of run and plan.
func (c *cli) selectionFromFlags(inv *invocation) (*selection, error) {
	return parseSelection(newGraph(c.p), inv.lists["select"], inv.lists["refresh"], inv.lists["full-refresh"], inv.bool("full-refresh-all"))
}

// runCmd implements `etl run`.
func (c *cli) runCmd(ctx context.Context, inv *invocation) int {
	pl, err := c.resolvePlace(inv)
	if err != nil {
		return c.usage(inv.cmd, err)
	}
	follow := inv.bool("follow")
	if follow && inv.bool("once") {
		return c.usage(inv.cmd, usagef("--once and --follow exclude each other"))
	}
	threads := runtime.GOMAXPROCS(0)
	if inv.isSet("threads") {
		n, err := strconv.Atoi(inv.str("threads"))
		if err != nil || n < 1 {
			return c.usage(inv.cmd, usagef("--threads %q: want a positive number", inv.str("threads")))
		}
		threads = n
	}
	budget := &memBudget{}
	if inv.isSet("memory-limit") {
		n, err := ParseBytes(inv.str("memory-limit"))
		if err != nil {
			return c.usage(inv.cmd, usagef("--memory-limit %v", err))
		}
		budget.limit = n
		debug.SetMemoryLimit(softMemoryLimit(n))
	}
	// the run's spill folder, and what killed runs left in its root
	area := spill.Open(inv.str(flagSpillDir.name))
	defer area.Close()
	if _, err := area.Sweep(); err != nil {
		return c.fail("run", err)
	}
	edges, err := edgeFlags(inv)
	if err != nil {
		return c.usage(inv.cmd, err)
	}
	poll := defaultPollInterval
	if inv.isSet("poll-interval") {
		if !follow {
			return c.usage(inv.cmd, usagef("--poll-interval applies to --follow only"))
		}
		d, err := time.ParseDuration(inv.str("poll-interval"))
		if err != nil || d <= 0 {
			return c.usage(inv.cmd, usagef("--poll-interval %q: want a positive duration such as 500ms or 2s", inv.str("poll-interval")))
		}
		poll = d
	}
	maxFiles, keep, err := epochFlags(inv)
	if err != nil {
		return c.usage(inv.cmd, err)
	}
	sel, err := c.selectionFromFlags(inv)
	if err != nil {
		return c.usage(inv.cmd, err)
	}
	jsonOut := inv.bool("json")
	if jsonOut {
		for _, d := range c.p.Datasets {
			if d.Kind == Sink && sinkFormat(d) == "stdout" && sel.has(d.Name) {
				return c.usage(inv.cmd, usagef("--json and sink %s both write to stdout; leave %s out of the selection, or drop --json", d.Name, d.Name))
			}
		}
	}
	fs, err := pl.writeFS()
	if err != nil {
		return c.fail("run", fmt.Errorf("opening the warehouse: %w", err))
	}
	mem := c.mem
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	rc := &runConfig{place: pl, fs: fs, threads: threads, budget: budget, spill: area, sel: sel, mem: mem, edges: edges,
		jsonOut: jsonOut, allowOlder: inv.bool(flagAllowOlder.name), args: append([]string{"etl", "run"}, inv.rawArgs()...),
		maxFiles: maxFiles, keep: keep, fp: fingerprintFlag(inv), allOrNothing: inv.bool(flagAllOrNothing.name)}
	if follow {
		c.following.Store(true)
		return c.follow(ctx, rc, poll)
	}
	if maxFiles > 0 || c.cappedKafka(sel) {
		c.following.Store(true) // the first signal stops at a commit point
		return c.catchUp(ctx, rc)
	}
	r, ex, err := c.epoch(ctx, rc, nil)
	if r == nil {
		return c.fail("run", err)
	}
	r.Summary.Print(c.stderr)
	ex.printFooter(r)
	c.epochErrors(r, err)
	if r.Summary.Epoch > 0 {
		c.keepCheckpoints(ctx, rc)
	}
	return run.ExitCode(err)
}

// runConfig is what every epoch of one `etl run` shares.
type runConfig struct {
	place   place
	fs      store.FS
	threads int
	budget  *memBudget
	spill   *spill.Area
	sel     *selection
	mem     memory.Allocator
	edges   edgeConfig
	jsonOut bool
	args    []string
	// allowOlder: --allow-older-checkpoint (resume from the newest commit
	// that verifies when the latest does not).
	allowOlder bool
	outMu      sync.Mutex // --json lines from several epochs' events
	// maxFiles: --max-files-per-epoch (0: no limit); keep:
	// --keep-checkpoints (0: keep every commit). See epochs.go.
	maxFiles, keep int
	// fp: --fingerprint, how source files are compared (plan.go).
	fp fingerprintMode
	// allOrNothing: --all-or-nothing (isolate.go).
	allOrNothing bool
}

// fingerprintFlag reads --fingerprint (the parser checked its value).
func fingerprintFlag(inv *invocation) fingerprintMode {
	if inv.isSet("fingerprint") {
		return fingerprintMode(inv.str("fingerprint"))
	}
	return fpAuto
}

// epochErrors says what the summary does not: a failure to write the event
// log, or a sink file that could not be published after the commit.
func (c *cli) epochErrors(r *run.Run, err error) {
	if err == nil && r.Summary.Err != nil {
		fmt.Fprintf(c.stderr, "warning: %v\n", r.Summary.Err)
	}
	if err != nil && r.Summary.Status == "completed" {
		// Committed, but a sink file could not be published: the next run
		// publishes it.
		fmt.Fprintf(c.stderr, "error: %v\n", err)
	}
}

// epoch runs one epoch, one commit (or none, on failure): a whole `run
// --once`, or one micro-batch of `run --follow` (fl says which flows are
// due and feeds standard input). ctx interrupts the epoch. r is nil when the
// run could not begin (err says why).
func (c *cli) epoch(ctx context.Context, rc *runConfig, fl *follower) (*run.Run, *executor, error) {
	ex := &executor{c: c, ctx: ctx, p: c.p, place: rc.place, threads: rc.threads, budget: rc.budget, spill: rc.spill, sel: rc.sel, mem: rc.mem,
		edges: rc.edges, maxFiles: rc.maxFiles, fp: rc.fp, allOrNothing: rc.allOrNothing, prog: c.newProgress(), views: map[string]*viewTarget{}, kafka: map[string]*kafkaRef{}, stdin: map[string]*stdinData{}, srcRead: map[string]bool{}}
	if fl != nil {
		ex.due, ex.force, ex.feed = fl.dueNow, fl.forced, fl.feed
		ex.prog = quietProgress{ex.prog, ex}
	}
	prog := ex.prog
	defer ex.release()
	if c.kafkaPublished == nil {
		c.kafkaPublished = map[string]int64{}
	}
	cfg := run.Config{Pipeline: c.p.Name, Warehouse: rc.fs, Root: rc.place.root, Lease: warehouse.DefaultLease,
		Args: rc.args, Threads: rc.threads, Runtime: RuntimeVersion,
		RunID: c.runID, Now: c.now, AllowOlderCheckpoint: rc.allowOlder, Iceberg: icebergTables(c.p),
		OnEvent: func(e events.Event) {
			switch e.EventType {
			case events.TypeWarning:
				var w events.Warning
				if e.Payload(&w) == nil {
					prog.note("warning: " + w.Message)
				}
			case events.TypeLockTakenOver:
				var t events.LockTakenOver
				if e.Payload(&t) == nil {
					prog.note("warning: " + t.Reason)
				}
			}
			if rc.jsonOut {
				b, _ := json.Marshal(e)
				rc.outMu.Lock()
				c.stdout.Write(append(b, '\n'))
				rc.outMu.Unlock()
			}
		}}
	if fl != nil && c.runID != "" {
		cfg.RunID = fmt.Sprintf("%s-%d", c.runID, fl.epochs+1) // one event file per epoch
	}
	// The run's own bookkeeping (event log, lock, commit) must finish even
	// after an interrupt: only the flows see the cancellation.
	r, err := run.Execute(context.WithoutCancel(ctx), cfg, ex.body)
	prog.close()
	if r == nil {
		return nil, ex, err
	}
	if r.Summary.Epoch > 0 {
		// committed (a partial run too: its sinks are those that succeeded)
		for _, s := range ex.sinks {
			if perr := s.publish(c.stdout); perr != nil && err == nil {
				err = perr
			}
		}
	} else {
		for _, s := range ex.sinks {
			s.discard()
		}
	}
	return r, ex, err
}

// printFooter adds what run.Summary does not say: threads, what was rebuilt,
// late rows in total, and malformed rows, rescued rows, ignored new columns
// and bytes spilled past --memory-limit in total when there were any.
func (ex *executor) printFooter(r *run.Run) {
	var late, kept, dropped, quarantined, spilled int64
	for _, f := range r.Summary.Flows() {
		late += f.Late()
		spilled += f.Spilled()
		for _, m := range f.Malformed() {
			kept += m.Kept
			dropped += m.Dropped
			quarantined += m.Quarantined
		}
	}
	rebuilt := "nothing"
	if len(ex.built) > 0 {
		rebuilt = strings.Join(ex.built, ", ")
	}
	malformed := malformedText(kept, dropped, quarantined)
	spill := ""
	if spilled > 0 {
		spill = "; spilled to disk: " + FormatBytes(spilled)
	}
	fmt.Fprintf(ex.c.stderr, "  threads %d; rebuilt: %s; late rows dropped: %d%s%s%s\n", ex.threads, rebuilt, late, malformed, driftText(r.Summary.Flows()), spill)
}

// rawArgs are the invocation's arguments as given (for the event log).
func (inv *invocation) rawArgs() []string {
	var out []string
	for _, f := range inv.cmd.flags {
		if f.list {
			for _, v := range inv.lists[f.name] {
				out = append(out, "--"+f.name+"="+v)
			}
			continue
		}
		if v, ok := inv.vals[f.name]; ok {
			out = append(out, "--"+f.name+"="+v)
		}
	}
	return append(out, inv.args...)
}

// icebergTables names the datasets published as Apache Iceberg tables
// (Dataset.Iceberg; rt/iceberg).
func icebergTables(p *Pipeline) map[string]bool {
	out := map[string]bool{}
	for _, ds := range p.Datasets {
		if ds.Iceberg {
			out[ds.Name] = true
		}
	}
	return out
}
