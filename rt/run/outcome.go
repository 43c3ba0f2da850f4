package run

import (
	"errors"
	"fmt"
	"strings"

	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/warehouse"
)

// Per-dataset failure isolation (Lakeflow's per-flow isolation): when a
// dataset's flows fail, the executor rolls its work back (Txn.RollbackTo)
// and records it with DatasetFailed; the datasets downstream of it are not
// built and are recorded with DatasetSkipped. Commit then commits what the
// other datasets built, in the run's one commit record, which marks the
// failed and skipped ones (warehouse.Outcome); the run ends "partial" and
// fails all the same (PartialError, exit status 1). When nothing else
// changed, nothing is committed and the run ends "failed", as a run without
// isolation does.

// DatasetOutcome is what a run did to one dataset it meant to build.
type DatasetOutcome struct {
	Dataset  string
	Status   string // updated | failed | skipped
	Err      error  // failed: why
	Upstream string // skipped: the failed dataset upstream
}

// PartialError fails a run that committed the datasets that succeeded and
// marked the others (Failed) in the same record.
type PartialError struct {
	Epoch  int64
	Failed []DatasetOutcome // failed and skipped, in the order recorded
}

func (e *PartialError) Error() string {
	var failed, skipped []string
	for _, o := range e.Failed {
		if o.Status == "failed" {
			failed = append(failed, fmt.Sprintf("%s (%v)", o.Dataset, o.Err))
		} else {
			skipped = append(skipped, o.Dataset)
		}
	}
	msg := fmt.Sprintf("%s failed: %s", plural(len(failed), "dataset", "datasets"), strings.Join(failed, "; "))
	if len(skipped) > 0 {
		msg += fmt.Sprintf("; skipped downstream: %s", strings.Join(skipped, ", "))
	}
	return msg + fmt.Sprintf("; the others were committed in epoch %d", e.Epoch)
}

func plural(n int, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

// DatasetFailed records that dataset's flows failed with err (the executor
// has rolled its work back, and marked the flows that ran with Isolate, so
// that Commit does not fail the run for their Fail expectations again).
func (r *Run) DatasetFailed(dataset string, err error) {
	r.outcome(DatasetOutcome{Dataset: dataset, Status: "failed", Err: err})
	r.Log.Emit(events.Error, events.TypeError, dataset, "", errorDetails(err))
}

// DatasetSkipped records that dataset was not built because upstream, a
// dataset it reads (directly or through views), failed or was skipped.
func (r *Run) DatasetSkipped(dataset, upstream string) {
	r.outcome(DatasetOutcome{Dataset: dataset, Status: "skipped", Upstream: upstream})
}

// DatasetUpdated records that dataset's new version is staged for the
// commit.
func (r *Run) DatasetUpdated(dataset string) {
	r.outcome(DatasetOutcome{Dataset: dataset, Status: "updated"})
}

func (r *Run) outcome(o DatasetOutcome) {
	s := r.Summary
	s.mu.Lock()
	s.outcomes = append(s.outcomes, o)
	s.mu.Unlock()
}

// Outcomes lists the datasets the run meant to build, in the order it
// decided their fate.
func (s *Summary) Outcomes() []DatasetOutcome {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]DatasetOutcome(nil), s.outcomes...)
}

// logged reports whether err is a failed dataset's, which DatasetFailed
// logged.
func (s *Summary) logged(err error) bool {
	for _, o := range s.Outcomes() {
		if o.Status == "failed" && o.Err == err {
			return true
		}
	}
	return false
}

// failures are the failed and skipped outcomes.
func (s *Summary) failures() []DatasetOutcome {
	var out []DatasetOutcome
	for _, o := range s.Outcomes() {
		if o.Status != "updated" {
			out = append(out, o)
		}
	}
	return out
}

// Isolate marks a flow whose failure belongs to a dataset recorded with
// DatasetFailed (it ran while that dataset was built, a temporary view's
// flow included): its Fail expectations no longer fail the whole run.
func (f *Flow) Isolate() {
	f.mu.Lock()
	f.isolated = true
	f.mu.Unlock()
}

func (f *Flow) isIsolated() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.isolated
}

// failuresErr is the error of a run that committed nothing because every
// dataset it built failed or was skipped: the failure's own error when
// one dataset failed, else each failed dataset's, one a line.
func failuresErr(fails []DatasetOutcome) error {
	var errs []error
	for _, o := range fails {
		if o.Status == "failed" {
			errs = append(errs, o.Err)
		}
	}
	if len(errs) == 1 {
		return errs[0]
	}
	return errors.Join(errs...)
}

// markOutcomes writes the failed and skipped datasets into the commit
// record (warehouse.Outcome).
func (r *Run) markOutcomes(fails []DatasetOutcome) {
	for _, o := range fails {
		m := warehouse.Outcome{Status: o.Status, Upstream: o.Upstream}
		if o.Err != nil {
			m.Error, _, _ = strings.Cut(o.Err.Error(), "\n")
		}
		r.Txn.SetOutcome(o.Dataset, m)
	}
}

// emitOutcomes records each dataset's outcome in the event log
// (dataset_outcome); epoch is the one committed (0: none, and the updated
// ones are not_committed).
func (r *Run) emitOutcomes(epoch int64) {
	for _, o := range r.Summary.Outcomes() {
		p := events.DatasetOutcome{Status: o.Status, Upstream: o.Upstream}
		level := events.Info
		switch o.Status {
		case "updated":
			if epoch == 0 {
				p.Status = "not_committed"
			}
			p.Epoch = epoch
		case "failed":
			level, p.Error = events.Error, o.Err.Error()
		case "skipped":
			level = events.Warn
		}
		r.Log.Emit(level, events.TypeDatasetOutcome, o.Dataset, "", p)
	}
}
