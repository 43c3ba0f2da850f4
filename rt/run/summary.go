package run

import (
	"fmt"
	"slices"

	"github.com/nordisk/thund/rt/events"
	"io"
	"strings"
	"sync"
	"sync/atomic"
	"time"
)

// Action is what an expectation does with a violating row.
type Action int

const (
	Warn Action = iota // keep the row, count it
	Drop               // drop the row, count it
	Fail               // fail the run: nothing of it is committed
)

var actionNames = [...]string{"warn", "drop", "fail"}

func (a Action) String() string { return actionNames[a] }

// ParseAction parses warn, drop or fail.
func ParseAction(s string) (Action, error) {
	for i, n := range actionNames {
		if strings.EqualFold(s, n) {
			return Action(i), nil
		}
	}
	return 0, fmt.Errorf("unknown expectation action %q (want warn, drop or fail)", s)
}

// Expectation counts one expectation's rows. Generated loops call Add once
// per batch; it is atomic, so threads may share it.
type Expectation struct {
	Name    string
	Dataset string
	Flow    string
	Action  Action

	passed, failed atomic.Int64
}

// Add counts rows that passed and rows that violated the expectation.
func (e *Expectation) Add(passed, failed int64) {
	e.passed.Add(passed)
	e.failed.Add(failed)
}

// Passed is the number of rows that met the expectation.
func (e *Expectation) Passed() int64 { return e.passed.Load() }

// Failed is the number of rows that violated it (whatever the action).
func (e *Expectation) Failed() int64 { return e.failed.Load() }

// Dropped is the number of rows dropped for it (Failed, for Drop).
func (e *Expectation) Dropped() int64 {
	if e.Action == Drop {
		return e.failed.Load()
	}
	return 0
}

// Err is an *ExpectationError when a Fail expectation saw a violation.
func (e *Expectation) Err() error {
	if e.Action == Fail && e.failed.Load() > 0 {
		return &ExpectationError{Name: e.Name, Dataset: e.Dataset, Flow: e.Flow, Failed: e.failed.Load()}
	}
	return nil
}

// ExpectationError fails a run: an expectation with "on violation fail" saw
// violating rows.
type ExpectationError struct {
	Name, Dataset, Flow string
	Failed              int64
}

func (e *ExpectationError) Error() string {
	rows := "rows"
	if e.Failed == 1 {
		rows = "row"
	}
	return fmt.Sprintf("expectation %s on dataset %s failed: %d %s violated it (on violation fail)", e.Name, e.Dataset, e.Failed, rows)
}

// Flow counts one flow's rows.
type Flow struct {
	Name   string
	Target string

	in, out, late atomic.Int64
	spilled       atomic.Int64 // AddSpilled

	mu           sync.Mutex
	expectations []*Expectation
	malformed    []Malformed
	drift        drift // drift.go
	start, end   time.Time
	status       string
	run          *Run
	edges        func() []events.Edge // SetEdges
	isolated     bool                 // Isolate (outcome.go)
	sourceReads  []SourceRead         // AddSourceRead
}

// SourceRead says what a flow read of a source whose reads are worth a
// line of their own (an Iceberg table's snapshots, files and rows).
type SourceRead struct {
	Source string
	What   string
}

// AddSourceRead records what the flow read of source.
func (f *Flow) AddSourceRead(source, what string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sourceReads = append(f.sourceReads, SourceRead{Source: source, What: what})
}

// SourceReads lists AddSourceRead's records, in order.
func (f *Flow) SourceReads() []SourceRead {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.sourceReads)
}

// AddIn counts rows read by the flow.
func (f *Flow) AddIn(n int64) { f.in.Add(n) }

// AddOut counts rows the flow wrote to its target.
func (f *Flow) AddOut(n int64) { f.out.Add(n) }

// AddSpilled counts bytes the flow's operators wrote to spill files.
func (f *Flow) AddSpilled(n int64) { f.spilled.Add(n) }

// Spilled is how many bytes the flow spilled.
func (f *Flow) Spilled() int64 { return f.spilled.Load() }

// AddLate counts late rows dropped.
func (f *Flow) AddLate(n int64) { f.late.Add(n) }

// Malformed counts the malformed records of one source a flow read.
type Malformed struct {
	Source        string
	Kept, Dropped int64
	// QuarantineTable is the source's quarantine table ("" for none), and
	// Quarantined how many of the records the flow's read put in it
	// (a record already there, or put there by another flow, is not counted).
	QuarantineTable string
	Quarantined     int64
}

// AddMalformed counts malformed records of a source the flow read: kept
// with NULLs, and dropped.
func (f *Flow) AddMalformed(source string, kept, dropped int64) {
	if kept == 0 && dropped == 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.malformed {
		if f.malformed[i].Source == source {
			f.malformed[i].Kept += kept
			f.malformed[i].Dropped += dropped
			return
		}
	}
	f.malformed = append(f.malformed, Malformed{Source: source, Kept: kept, Dropped: dropped})
}

// AddQuarantined counts n malformed records of source put in its
// quarantine table by the flow.
func (f *Flow) AddQuarantined(source, table string, n int64) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.malformed {
		if f.malformed[i].Source == source {
			f.malformed[i].QuarantineTable = table
			f.malformed[i].Quarantined += n
			return
		}
	}
	f.malformed = append(f.malformed, Malformed{Source: source, QuarantineTable: table, Quarantined: n})
}

// Malformed lists the flow's malformed-record counts per source, in the
// order the sources were first counted.
func (f *Flow) Malformed() []Malformed {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]Malformed(nil), f.malformed...)
}

// RowsIn, RowsOut and Late read the counters.
func (f *Flow) RowsIn() int64  { return f.in.Load() }
func (f *Flow) RowsOut() int64 { return f.out.Load() }
func (f *Flow) Late() int64    { return f.late.Load() }

// Status is running, completed or failed ("" before Start).
func (f *Flow) Status() string {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.status
}

// Expect registers an expectation of the flow's target (once per name).
func (f *Flow) Expect(name string, action Action) *Expectation {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, e := range f.expectations {
		if e.Name == name {
			return e
		}
	}
	e := &Expectation{Name: name, Dataset: f.Target, Flow: f.Name, Action: action}
	f.expectations = append(f.expectations, e)
	return e
}

// Expectations lists the flow's expectations in registration order.
func (f *Flow) Expectations() []*Expectation {
	f.mu.Lock()
	defer f.mu.Unlock()
	return append([]*Expectation(nil), f.expectations...)
}

// Summary is what a run did: per flow, rows in and out, expectation counts
// and late drops. It prints a human summary and feeds the event log.
type Summary struct {
	RunID    string
	Pipeline string
	Start    time.Time
	End      time.Time
	// Status is running, completed, partial (some datasets failed, the
	// others were committed: outcome.go) or failed.
	Status string
	Epoch  int64 // committed epoch (0: nothing committed)
	// NothingToDo: completed without a change, so nothing was committed;
	// Head is the epoch that stands (0: none).
	NothingToDo bool
	Head        int64
	Err         error

	mu       sync.Mutex
	flows    []*Flow
	outcomes []DatasetOutcome // outcome.go
}

// Flows lists the flows in registration order.
func (s *Summary) Flows() []*Flow {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]*Flow(nil), s.flows...)
}

// Rows adds up rows in and out over the flows.
func (s *Summary) Rows() (in, out int64) {
	for _, f := range s.Flows() {
		in += f.RowsIn()
		out += f.RowsOut()
	}
	return
}

// standing says which commit stands after a run that committed nothing.
func (s *Summary) standing() string {
	if s.Head == 0 {
		return "the warehouse has no commit yet"
	}
	return fmt.Sprintf("epoch %d stands", s.Head)
}

// printOutcomes says which datasets were updated, which failed (with the
// error) and which were skipped.
func (s *Summary) printOutcomes(w io.Writer) {
	var updated []string
	for _, o := range s.Outcomes() {
		if o.Status == "updated" {
			updated = append(updated, o.Dataset)
		}
	}
	if len(updated) > 0 {
		verb := "updated"
		if s.Status != "partial" {
			verb = "built, not committed"
		}
		fmt.Fprintf(w, "  %s: %s\n", verb, strings.Join(updated, ", "))
	}
	for _, o := range s.failures() {
		if o.Status == "failed" && o.Err == s.Err {
			continue // the error line says it
		}
		if o.Status == "failed" {
			msg, _, _ := strings.Cut(o.Err.Error(), "\n")
			fmt.Fprintf(w, "  failed: %s: %s\n", o.Dataset, msg)
		} else {
			fmt.Fprintf(w, "  skipped: %s (upstream %s failed)\n", o.Dataset, o.Upstream)
		}
	}
}

// Print writes the human summary, for stderr.
func (s *Summary) Print(w io.Writer) {
	d := s.End.Sub(s.Start).Round(time.Millisecond)
	switch s.Status {
	case "completed":
		if s.NothingToDo {
			fmt.Fprintf(w, "run %s of %s: completed in %s, nothing to do; nothing committed (%s)\n", s.RunID, s.Pipeline, d, s.standing())
			break
		}
		fmt.Fprintf(w, "run %s of %s: completed in %s, committed epoch %d\n", s.RunID, s.Pipeline, d, s.Epoch)
	case "partial":
		fmt.Fprintf(w, "run %s of %s: PARTIALLY FAILED after %s; committed epoch %d with the datasets that succeeded\n", s.RunID, s.Pipeline, d, s.Epoch)
		s.printOutcomes(w)
	case "failed":
		fmt.Fprintf(w, "run %s of %s: FAILED after %s; nothing was committed\n", s.RunID, s.Pipeline, d)
		if s.Err != nil {
			fmt.Fprintf(w, "  error: %v\n", s.Err)
		}
		s.printOutcomes(w)
	default:
		fmt.Fprintf(w, "run %s of %s: %s\n", s.RunID, s.Pipeline, s.Status)
	}
	for _, f := range s.Flows() {
		name := f.Name
		if f.Target != "" && f.Target != f.Name {
			name += " -> " + f.Target
		}
		status := ""
		if st := f.Status(); st != "" && st != "completed" {
			status = " (" + st + ")"
		}
		fmt.Fprintf(w, "  flow %s%s: %d rows in, %d rows out\n", name, status, f.RowsIn(), f.RowsOut())
		for _, r := range f.SourceReads() {
			fmt.Fprintf(w, "    read %s: %s\n", r.Source, r.What)
		}
		for _, e := range f.Expectations() {
			switch e.Action {
			case Drop:
				fmt.Fprintf(w, "    expect %s (drop): %d passed, %d dropped\n", e.Name, e.Passed(), e.Failed())
			case Fail:
				fmt.Fprintf(w, "    expect %s (fail): %d passed, %d failed\n", e.Name, e.Passed(), e.Failed())
			default:
				fmt.Fprintf(w, "    expect %s (warn): %d passed, %d violated\n", e.Name, e.Passed(), e.Failed())
			}
		}
		if n := f.Late(); n > 0 {
			fmt.Fprintf(w, "    late rows dropped: %d\n", n)
		}
		for _, m := range f.Malformed() {
			q := ""
			if m.QuarantineTable != "" {
				q = fmt.Sprintf("; %d new in quarantine table %s", m.Quarantined, m.QuarantineTable)
			}
			fmt.Fprintf(w, "    malformed rows from %s: %d kept with NULLs, %d dropped%s\n", m.Source, m.Kept, m.Dropped, q)
		}
		for _, r := range f.Rescued() {
			fmt.Fprintf(w, "    rescued rows from %s: %d (values in %s)\n", r.Source, r.Rows, r.Column)
		}
		for _, n := range f.NewColumns() {
			if n.Into != "" {
				fmt.Fprintf(w, "    new columns in %s, rescued into %s: %s\n", n.Source, n.Into, strings.Join(n.Columns, ", "))
			} else {
				fmt.Fprintf(w, "    warning: new columns in %s, not declared and ignored (schemaEvolutionMode none): %s\n", n.Source, strings.Join(n.Columns, ", "))
			}
		}
	}
}
