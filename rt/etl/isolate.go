package etl

import (
	"context"
	"errors"
	"maps"

	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/warehouse"
)

// Per-dataset failure isolation (Lakeflow's per-flow isolation). When the
// flows of a dataset fail (bad data, an expectation "on violation fail", a
// runtime error, a write that fails), the executor rolls back what building
// it staged, in the transaction (its version, its late table, the stream
// offsets and state of its flows, fingerprints) and in the run (sink files,
// temporary views it computed), records it as failed, and goes on: the
// datasets downstream of it (through views and late tables too) are skipped,
// the independent ones are built. A dataset with several flows commits all
// of them or none. The commit record then holds the new versions of the
// datasets that succeeded and marks the others (rt/run's outcome.go,
// rt/warehouse's outcome.go); the run exits 1.
//
// Not isolated: an interrupt, and anything after the flows (the commit
// itself): then nothing is committed, as with --all-or-nothing, which turns
// every failure into the whole run's.
//
// Under --follow every epoch is a run: an epoch in which a dataset failed
// commits what succeeded, then the loop stops, exit status 1, as it does
// after a failed epoch.

// decisionSkipped is the staleness decision (event log) of a dataset not
// built because a dataset upstream of it failed.
const decisionSkipped = "skipped"

// savepoint is what the executor holds before it builds a dataset.
type savepoint struct {
	txn     *warehouse.Savepoint
	offsets map[string][]byte
	srcRead map[string]bool
	views   map[string]*viewTarget
	sinks   int
	ran     int
	flows   int
}

func (ex *executor) savepoint() *savepoint {
	sp := &savepoint{txn: ex.r.Txn.Savepoint(), offsets: map[string][]byte{}, srcRead: maps.Clone(ex.srcRead),
		views: maps.Clone(ex.views), sinks: len(ex.sinks), ran: len(ex.ran), flows: len(ex.r.Summary.Flows())}
	for k, v := range ex.pl.offsets {
		sp.offsets[k] = v
	}
	return sp
}

// rollback undoes what was built since sp.
func (ex *executor) rollback(sp *savepoint) {
	ex.r.Txn.RollbackTo(context.WithoutCancel(ex.ctx), sp.txn)
	clear(ex.pl.offsets)
	for k, v := range sp.offsets {
		ex.pl.offsets[k] = v
	}
	ex.srcRead = sp.srcRead
	for name, v := range ex.views {
		if sp.views[name] == nil {
			v.release() // computed by the failed build: readers compute it again
			delete(ex.views, name)
		}
	}
	for _, s := range ex.sinks[sp.sinks:] {
		s.discard()
	}
	ex.sinks = ex.sinks[:sp.sinks]
	ex.ran = ex.ran[:sp.ran]
	for _, f := range ex.r.Summary.Flows()[sp.flows:] {
		f.Isolate()
	}
}

// isolate handles the failure err of building ds: with --all-or-nothing, or
// for an interrupt, it returns err, which fails the run; otherwise it rolls
// back to sp (nil: nothing was built), records the failure and returns nil.
func (ex *executor) isolate(ds *Dataset, sp *savepoint, err error) error {
	if errors.Is(err, errInterrupted) || ex.ctx.Err() != nil {
		return err
	}
	ex.r.DatasetFailed(ds.Name, err)
	if ex.allOrNothing {
		return err
	}
	if sp != nil {
		ex.rollback(sp)
	}
	ex.markFailed(ds.Name, ds.Name)
	return nil
}

// markFailed records that name failed or was skipped because of root, and
// so did the late tables its flows write.
func (ex *executor) markFailed(name, root string) {
	if ex.failed == nil {
		ex.failed = map[string]string{}
	}
	ex.failed[name] = root
	if ds := ex.pl.byName[name]; ds != nil {
		for _, f := range ds.Flows {
			if f.LateTable != "" {
				ex.failed[f.LateTable] = root
			}
		}
	}
}

// failedUpstream is the failed dataset upstream of ds ("" when none): one
// of its inputs failed or was skipped (a dataset that is not selected, not
// built, does not count: its readers read its committed version), or a
// view it reads reads one.
func (ex *executor) failedUpstream(ds *Dataset, seen map[string]bool) string {
	if len(ex.failed) == 0 || seen[ds.Name] {
		return ""
	}
	seen[ds.Name] = true
	for _, f := range ds.Flows {
		for _, in := range f.Inputs {
			if root, ok := ex.failed[in.Name]; ok {
				return root
			}
			if x := ex.pl.byName[in.Name]; x != nil && isView(x.Kind) {
				if root := ex.failedUpstream(x, seen); root != "" {
					return root
				}
			}
		}
	}
	return ""
}

// skipDownstream records that ds, selected, is not built because upstream
// failed.
func (ex *executor) skipDownstream(ds *Dataset, upstream string) {
	ex.markFailed(ds.Name, upstream)
	reason := "upstream " + upstream + " failed"
	ex.r.Log.Emit(events.Warn, events.TypeStaleness, ds.Name, "", events.Staleness{Decision: decisionSkipped, Reason: reason})
	for _, f := range ds.Flows {
		ex.skipped(ds, f)
	}
	ex.prog.note("skipped " + ds.Name + ": " + reason)
	ex.r.DatasetSkipped(ds.Name, upstream)
}
