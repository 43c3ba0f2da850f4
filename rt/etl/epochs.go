package etl

import (
	"context"
	"errors"
	"fmt"
	"strconv"

	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/warehouse"
)

// The checkpoint interval and the checkpoints kept: `etl run
// --max-files-per-epoch N` and `--keep-checkpoints N`.
//
// --max-files-per-epoch N bounds an epoch by input files (Spark's
// maxFilesPerTrigger): each stream read of a source (a watched folder, or a
// bounded source read with `from stream`) takes at most the N files it has
// not consumed that come first in name order; the rest stays unconsumed, so
// its reader is still stale afterwards. With --once the run then commits
// epoch after epoch, each one commit and one event file as under --follow
// (the same loop, follower, without triggers, idle timeouts or polls),
// until no selected dataset is stale; with --follow each epoch takes at most
// N, and an epoch that left files behind is followed at once by the next one,
// without waiting for the poll interval. A crash costs at most the epoch in
// flight: the next run reads again at most N files per stream read.
//
// What the epochs produce equals one epoch over the whole backlog, except
// where the micro-batches themselves are visible:
//   - materialized views downstream of a stream are rebuilt in every epoch
//     in which their inputs changed (reconciliation decides, as under
//     --follow): each commit is a consistent snapshot of the pipeline, at the
//     price of recomputing a view once per epoch (an incremental view only
//     reads what is new);
//   - a stateful flow's watermark advances at the end of every epoch, so a
//     row out of order by more than the watermark delay plus the allowed
//     lateness can be late in a small epoch and on time in one large epoch,
//     exactly as with --follow; update-mode changelogs record each epoch's
//     upserts; a CSV or JSON sink writes a file per epoch;
//   - a flow whose stream reads all read bounded sources (files replayed as a
//     stream) is not split: its generated code ends its input at the end of
//     every run, closing every window, so it reads its whole backlog in one
//     epoch (the first).
//
// Standard input is not bounded by files: the first epoch of a --once run
// takes all of it.
//
// --keep-checkpoints N removes, after every commit, what `etl vacuum --keep
// N` removes (the same code, under the warehouse lock, taken again after the
// commit): commit records older than the last N, the dataset files, event
// logs and checkpoint objects only they need. The latest commit is always
// kept, with everything it references. Without the flag every commit is
// kept; --allow-older-checkpoint can only fall back to a kept commit.

var (
	flagMaxFiles = &flagSpec{name: "max-files-per-epoch", arg: "N", def: "no limit",
		usage: "an epoch's stream read of a source takes at most N new files, in name order; --once commits epochs until all are read"}
	flagKeepCheckpoints = &flagSpec{name: "keep-checkpoints", arg: "N", def: "keep all",
		usage: "after each commit, keep the last N commits and remove what only older ones need (as etl vacuum --keep N)"}
)

// epochFlags reads --max-files-per-epoch and --keep-checkpoints (0: unset).
func epochFlags(inv *invocation) (maxFiles, keep int, err error) {
	for _, f := range []struct {
		flag *flagSpec
		into *int
	}{{flagMaxFiles, &maxFiles}, {flagKeepCheckpoints, &keep}} {
		if !inv.isSet(f.flag.name) {
			continue
		}
		n, err := strconv.Atoi(inv.str(f.flag.name))
		if err != nil || n < 1 {
			return 0, 0, usagef("--%s %q: want a positive number", f.flag.name, inv.str(f.flag.name))
		}
		*f.into = n
	}
	return maxFiles, keep, nil
}

// boundedReplay reports whether every stream read of f reads a bounded
// source (files replayed as a stream, neither a watched folder nor standard
// input): the generated code of such a flow, when it is stateful, ends its
// input at the end of every run (codegen's streamFlow.bounded), so its
// reads are never split into epochs.
func boundedReplay(byName map[string]*Dataset, f *Flow) bool {
	n := 0
	for _, in := range f.Inputs {
		if !in.Stream {
			continue
		}
		x := byName[in.Name]
		if x == nil || x.Kind != Source || x.Source == nil || x.Source.Unbounded || x.Source.Stdin {
			return false
		}
		n++
	}
	return n > 0
}

// capFiles keeps the first max of a stream read's unconsumed files (they
// come in name order, as listed) and records how many wait.
func (fr *flowReads) capFiles(files []format.File, stamps []fileStamp) ([]format.File, []fileStamp) {
	n := fr.ex.maxFiles
	if n <= 0 || len(files) <= n || boundedReplay(fr.ex.pl.byName, fr.f) {
		return files, stamps
	}
	fr.ex.backlog = max(fr.ex.backlog, len(files)-n)
	return files[:n], stamps[:n]
}

// catchUp is `etl run --once --max-files-per-epoch N`: epochs, each one
// commit, until no selected dataset is stale (see above). The first SIGINT
// or SIGTERM (stop) lets the epoch in flight commit and ends the run, exit
// status 1 (what is left waits for the next run); a second (c.abort)
// abandons the epoch in flight.
func (c *cli) catchUp(stop context.Context, rc *runConfig) int {
	fl := newFollower(c, rc, 0)
	fl.once = true
	abort := c.abort
	if abort == nil {
		abort = context.Background()
	}
	if fl.feed != nil {
		defer fl.feed.close()
		fl.feed.wait() // the first epoch takes all of standard input
	}
	for {
		code, done := fl.runEpoch(abort)
		if done {
			return code
		}
		if stop.Err() != nil {
			fmt.Fprintf(c.stderr, "interrupted after %s, committed; input is left for the next run, which goes on from epoch %d\n",
				plural(int64(fl.epochs), "epoch", "epochs"), fl.lastEpoch)
			return ExitFailed
		}
		work, err := fl.pending(stop)
		if err != nil {
			return c.fail("run", err)
		}
		if !work {
			break
		}
		if !fl.progressed {
			// Nothing was built, yet a dataset is still stale: stop rather
			// than commit empty epochs forever.
			return c.fail("run", errors.New("an epoch built nothing, yet the plan still finds stale datasets (run 'etl plan' to see them)"))
		}
	}
	fmt.Fprintf(c.stderr, "caught up after %s\n", plural(int64(fl.epochs), "epoch", "epochs"))
	return ExitOK
}

// keepCheckpoints applies --keep-checkpoints after a commit: what `etl
// vacuum --keep N` removes. It fails nothing: the commit stands, and a
// failure is a warning (etl vacuum can finish the job).
func (c *cli) keepCheckpoints(ctx context.Context, rc *runConfig) {
	if rc.keep <= 0 {
		return
	}
	res, err := c.vacuum(context.WithoutCancel(ctx), rc.place, rc.keep)
	if err != nil {
		var le *warehouse.LockedError
		if errors.As(err, &le) {
			fmt.Fprintf(c.stderr, "warning: --keep-checkpoints %d: skipped, %v\n", rc.keep, err)
			return
		}
		fmt.Fprintf(c.stderr, "warning: --keep-checkpoints %d: %v (the commit stands; etl vacuum --keep %d finishes the job)\n", rc.keep, err, rc.keep)
		return
	}
	if res != nil && res.Removed() > 0 {
		fmt.Fprintf(c.stderr, "checkpoints: %s\n", vacuumLine(res))
	}
}
