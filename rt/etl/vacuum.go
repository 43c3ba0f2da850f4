package etl

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strconv"
	"time"

	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/iceberg"
	"github.com/nordisk/thund/rt/warehouse"
)

// DefaultVacuumKeep is how many commits `etl vacuum` keeps by default.
const DefaultVacuumKeep = 10

var flagKeep = &flagSpec{name: "keep", arg: "N", def: strconv.Itoa(DefaultVacuumKeep), usage: "keep the last N commits (at least 1)"}

var cmdVacuum = &command{
	name: "vacuum", summary: "remove old dataset versions, event logs and checkpoints",
	text: `Vacuum keeps the last N commits and removes what only older commits need:
their commit records, dataset files that no kept commit lists, the event logs
of runs that started before the oldest kept commit's run, and checkpoint
objects of older epochs; and, as the start of a run does, what failed or
killed runs left: files they staged that no commit lists, and temporary
files of writes they were killed in; in the file sinks' folders (with a
warehouse folder), the temporary files of runs that died before publishing
and a replace sink's earlier output (an append or streaming sink's files
are its output and stay). The latest commit is always kept, so nothing it
references is removed; read --version reaches the versions of the kept
commits only. Each dataset's Iceberg table loses the snapshots of the
versions vacuum retires before any of their files goes, and then the
manifests and metadata files no kept snapshot needs. Vacuum takes the warehouse lock, like run. It works on a folder
and on S3 alike. It is safe to kill: it retires the old commit records,
oldest first, before it removes any file, so every version a remaining
record lists still reads back, and the next vacuum finishes the job.`,
	flags:   flags(commonFlags, []*flagSpec{flagKeep}),
	example: "etl vacuum\netl vacuum --keep 3 --warehouse s3://bucket/wh",
}

// vacuumCmd implements `etl vacuum`.
func (c *cli) vacuumCmd(ctx context.Context, inv *invocation) int {
	pl, err := c.resolvePlace(inv)
	if err != nil {
		return c.usage(inv.cmd, err)
	}
	keep := DefaultVacuumKeep
	if inv.isSet("keep") {
		if keep, err = strconv.Atoi(inv.str("keep")); err != nil || keep < 1 {
			return c.usage(inv.cmd, usagef("--keep %q: want a positive number", inv.str("keep")))
		}
	}
	res, err := c.vacuum(ctx, pl, keep)
	if res != nil && inv.bool("json") {
		b, _ := json.Marshal(res)
		fmt.Fprintf(c.stdout, "%s\n", b)
	} else if res != nil {
		if len(res.Kept) == 0 {
			fmt.Fprintf(c.stdout, "vacuum: the warehouse %s has no commits; nothing removed\n", warehouse.New(pl.readFS()).Location(""))
		} else {
			fmt.Fprintf(c.stdout, "vacuum: %s\n", vacuumLine(res))
		}
	}
	if err != nil {
		return c.fail("vacuum", err)
	}
	return ExitOK
}

// vacuum keeps the last keep commits of the warehouse at pl and removes
// what only older ones need (warehouse.Vacuum), under the warehouse lock:
// `etl vacuum` and `etl run --keep-checkpoints`.
func (c *cli) vacuum(ctx context.Context, pl place, keep int) (*warehouse.VacuumResult, error) {
	wh := warehouse.New(pl.readFS())
	wh.Now = c.now
	id := c.runID
	if id == "" {
		now := time.Now()
		if c.now != nil {
			now = c.now()
		}
		id = events.NewRunID(now)
	}
	lock, err := wh.Acquire(ctx, id, c.p.Name, warehouse.DefaultLease)
	if err != nil {
		return nil, err
	}
	lock.Keep(ctx)
	// Iceberg snapshots of the versions vacuum retires expire before any
	// file goes (rt/iceberg.Expire); the manifests and metadata files no
	// snapshot reaches any more go after the data files.
	// The tables first catch up with the warehouse (a run killed before it
	// published), so that expiring cannot leave a current snapshot whose
	// files go.
	if st, err := wh.Load(ctx); err == nil && st.Head != nil {
		if _, err := iceberg.Publish(ctx, wh, st.Head, icebergTables(c.p)); err != nil {
			lock.Release(context.WithoutCancel(ctx))
			return nil, fmt.Errorf("vacuum: publishing the Iceberg tables first: %w (nothing was removed)", err)
		}
	}
	res, err := wh.VacuumWith(ctx, keep, func(ctx context.Context, kept []*warehouse.Commit) error {
		_, err := iceberg.Expire(ctx, wh, kept)
		return err
	})
	if err == nil && len(res.Kept) > 0 {
		var head *warehouse.Commit
		if head, err = wh.ReadCommit(ctx, res.Kept[0]); err == nil {
			names := make([]string, 0, len(head.Datasets))
			for n := range head.Datasets {
				names = append(names, n)
			}
			sort.Strings(names)
			res.TableFiles, err = iceberg.CleanMetadata(ctx, wh.FS, names)
		}
	}
	if err == nil {
		// The garbage of failed and killed runs, as a run's start removes it.
		var st *warehouse.State
		if st, err = wh.Load(ctx); err == nil {
			res.Staged, err = wh.Collect(ctx, st)
			if res.Staged == nil {
				res.Staged = []string{}
			}
			var terr error
			res.TempFiles, terr = wh.CleanTemp(ctx, lock)
			err = errors.Join(err, terr)
			if pl.dir != "" {
				// the file sinks' folders (sinks.go); the file sinks write
				// local folders only, so not with a warehouse on S3
				var serr error
				res.SinkFiles, serr = vacuumSinks(c.p, pl.root, st.Head)
				if res.SinkFiles == nil {
					res.SinkFiles = []string{}
				}
				err = errors.Join(err, serr)
			}
		}
	}
	if rerr := lock.Release(context.WithoutCancel(ctx)); err == nil && rerr != nil {
		err = fmt.Errorf("releasing the warehouse lock: %w", rerr)
	}
	return res, err
}

// vacuumLine says what a vacuum kept and removed.
func vacuumLine(res *warehouse.VacuumResult) string {
	line := fmt.Sprintf("kept %d commits (epochs %d to %d); removed %d objects, %d bytes: %d commit records, %d data files, %d event logs, %d checkpoint objects",
		len(res.Kept), res.Kept[len(res.Kept)-1], res.Kept[0], res.Removed(), res.Bytes,
		len(res.Commits), len(res.DataFiles), len(res.EventLogs), len(res.Checkpoints))
	if n, m := len(res.Staged), res.TempFiles; n+m > 0 {
		line += fmt.Sprintf("; and what failed runs left: %d staged files, %d temporary files", n, m)
	}
	if n := len(res.TableFiles); n > 0 {
		line += fmt.Sprintf("; and %d Iceberg metadata files no kept snapshot needs", n)
	}
	if n := len(res.SinkFiles); n > 0 {
		line += fmt.Sprintf("; and %d sink files no kept version needs (sink temporary files of dead runs, a replace sink's earlier output)", n)
	}
	return line
}
