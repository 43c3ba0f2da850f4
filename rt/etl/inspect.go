package etl

import (
	"bufio"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/warehouse"
)

// planJSON is plan's --json output.
type planJSON struct {
	Pipeline  string `json:"pipeline"`
	Warehouse string `json:"warehouse"`
	HeadEpoch int64  `json:"head_epoch"` // 0: nothing committed yet
	// Fingerprint is how source files were compared: auto, stat or
	// content (--fingerprint).
	Fingerprint string        `json:"fingerprint"`
	Datasets    []planDataset `json:"datasets"`
}

type planDataset struct {
	Name        string `json:"name"`
	Kind        string `json:"kind"`
	Decision    string `json:"decision"` // fresh | stale | error
	Reason      string `json:"reason"`
	Selected    bool   `json:"selected"`
	Build       bool   `json:"build"`        // a run would build it
	FullRefresh bool   `json:"full_refresh"` // ... from the start
}

// planCmd implements `etl plan`: the decisions of a run, without running.
func (c *cli) planCmd(ctx context.Context, inv *invocation) int {
	pl, err := c.resolvePlace(inv)
	if err != nil {
		return c.usage(inv.cmd, err)
	}
	sel, err := c.selectionFromFlags(inv)
	if err != nil {
		return c.usage(inv.cmd, err)
	}
	wh := warehouse.New(pl.readFS())
	st, err := wh.Load(ctx)
	if err != nil {
		return c.fail("plan", fmt.Errorf("reading the warehouse: %w", err))
	}
	p := newPlanner(c.p, pl.root, st.Head, sel)
	p.predict = true
	p.epoch = st.NextEpoch
	p.fp = fingerprintFlag(inv)
	out := planJSON{Pipeline: c.p.Name, Warehouse: wh.Location(""), Datasets: []planDataset{}, Fingerprint: string(p.fp)}
	if st.Head != nil {
		out.HeadEpoch = st.Head.Epoch
	}
	status := ExitOK
	for _, ds := range c.p.Datasets {
		d := p.evaluate(ds)
		out.Datasets = append(out.Datasets, planDataset{Name: ds.Name, Kind: ds.Kind.String(), Decision: d.Decision,
			Reason: d.Reason(), Selected: d.Selected, Build: d.Build, FullRefresh: d.Build && (d.Full || recomputed(ds))})
		if d.Err != nil && d.Selected && buildable(ds.Kind) {
			status = ExitFailed
		}
	}
	if inv.bool("json") {
		b, _ := json.MarshalIndent(out, "", "  ")
		fmt.Fprintf(c.stdout, "%s\n", b)
		return status
	}
	tw := tabwriter.NewWriter(c.stdout, 0, 0, 2, ' ', 0)
	for _, d := range out.Datasets {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", d.Name, d.Decision, d.Reason)
	}
	tw.Flush()
	if readsFiles(c.p) {
		fmt.Fprintln(c.stdout, p.fp.describe())
	}
	return status
}

// readsFiles reports whether a pipeline has a source that reads files.
func readsFiles(p *Pipeline) bool {
	for _, ds := range p.Datasets {
		if ds.Kind == Source && ds.Source != nil && !ds.Source.Stdin && !isKafka(ds) && !isIceberg(ds) {
			return true
		}
	}
	return false
}

// historyEntry is one run as `history` shows it.
type historyEntry struct {
	RunID      string `json:"run_id"`
	Pipeline   string `json:"pipeline"`
	Start      string `json:"start"`
	Status     string `json:"status"` // completed | partial | failed | unknown
	Epoch      int64  `json:"epoch"`  // committed epoch, 0 if none
	DurationMS int64  `json:"duration_ms"`
	runCounts
	// NewColumns: the columns sources' files held that their schemas lack
	// (drift.go)
	NewColumns []events.NewColumns `json:"new_columns,omitempty"`
	Rebuilt    []rebuilt           `json:"rebuilt"`
	Error      string              `json:"error,omitempty"`
}

// runCounts are what a run's flows counted, in all (historyEntry) or for
// one dataset (rebuilt); their JSON fields stand in both.
type runCounts struct {
	RowsIn                int64 `json:"rows_in"`
	RowsOut               int64 `json:"rows_out"`
	ExpectationViolations int64 `json:"expectation_violations"`
	ExpectationDropped    int64 `json:"expectation_dropped"`
	LateRowsDropped       int64 `json:"late_rows_dropped"`
	// MalformedKept and MalformedDropped: malformed records of CSV and
	// JSON lines sources, kept with NULLs and dropped (their mode option)
	MalformedKept    int64 `json:"malformed_rows_kept,omitempty"`
	MalformedDropped int64 `json:"malformed_rows_dropped,omitempty"`
	// MalformedQuarantined: of those, how many went to quarantine tables
	MalformedQuarantined int64 `json:"malformed_rows_quarantined,omitempty"`
	// RescuedRows: records kept with a rescued-data value
	RescuedRows int64 `json:"rescued_rows,omitempty"`
}

// add counts an expectation, late-rows, malformed-records or
// rescued-records event.
func (c *runCounts) add(e events.Event) {
	switch e.EventType {
	case events.TypeExpectation:
		var p events.Expectation
		if e.Payload(&p) == nil {
			c.ExpectationViolations += p.Failed
			c.ExpectationDropped += p.Dropped
		}
	case events.TypeLateRowsDropped:
		var p events.LateRowsDropped
		if e.Payload(&p) == nil {
			c.LateRowsDropped += p.Count
		}
	case events.TypeMalformedRecords:
		var p events.MalformedRecords
		if e.Payload(&p) == nil {
			c.MalformedKept += p.Kept
			c.MalformedDropped += p.Dropped
			c.MalformedQuarantined += p.Quarantined
		}
	case events.TypeRescuedRecords:
		var p events.RescuedRecords
		if e.Payload(&p) == nil {
			c.RescuedRows += p.Count
		}
	}
}

// rebuilt is a dataset a run built, why, and the counts of its flows.
type rebuilt struct {
	Dataset string `json:"dataset"`
	Reason  string `json:"reason"`
	runCounts
	// Edges: the occupancy of its flows' bounded edges (back-pressure).
	Edges []events.Edge `json:"edges,omitempty"`
	// Outcome is the dataset_outcome of a run that did not complete (in
	// one that did, every dataset it rebuilt was updated): updated,
	// not_committed, failed (Error says why) or skipped (Reason says which
	// failed dataset upstream).
	Outcome string `json:"outcome,omitempty"`
	Error   string `json:"error,omitempty"`
}

// summarizeRun reads what history shows from one run's events.
func summarizeRun(ri events.RunInfo, evs []events.Event) historyEntry {
	h := historyEntry{RunID: ri.RunID, Pipeline: ri.Pipeline, Status: ri.Status, Epoch: ri.Epoch, Error: ri.Error, Rebuilt: []rebuilt{}}
	if !ri.Start.IsZero() {
		h.Start = ri.Start.UTC().Format(events.TimeFormat)
	}
	worked := map[string]bool{}
	outcomes := map[string]events.DatasetOutcome{}
	var stale []rebuilt
	per := map[string]*rebuilt{} // counts per dataset
	of := func(name string) *rebuilt {
		if per[name] == nil {
			per[name] = &rebuilt{}
		}
		return per[name]
	}
	for _, e := range evs {
		switch e.EventType {
		case events.TypeFlowEnd:
			var p events.FlowEnd
			if e.Payload(&p) == nil {
				r := of(e.Origin.Dataset)
				r.RowsIn += p.RowsIn
				r.RowsOut += p.RowsOut
				r.Edges = append(r.Edges, p.Edges...)
			}
		case events.TypeRunEnd:
			var p events.RunEnd
			if e.Payload(&p) == nil {
				h.DurationMS, h.RowsIn, h.RowsOut = p.DurationMS, p.RowsIn, p.RowsOut
			}
		case events.TypeExpectation, events.TypeLateRowsDropped, events.TypeMalformedRecords, events.TypeRescuedRecords:
			h.runCounts.add(e)
			of(e.Origin.Dataset).runCounts.add(e)
		case events.TypeNewColumns:
			var p events.NewColumns
			if e.Payload(&p) == nil {
				h.NewColumns = addNewColumns(h.NewColumns, p)
			}
		case events.TypeFlowStart:
			worked[e.Origin.Dataset] = true
		case events.TypeStaleness:
			var p events.Staleness
			if e.Payload(&p) == nil && (p.Decision == decisionStale || p.Decision == decisionSkipped || p.Decision == decisionError) {
				stale = append(stale, rebuilt{Dataset: e.Origin.Dataset, Reason: p.Reason})
			}
		case events.TypeDatasetOutcome:
			var p events.DatasetOutcome
			if e.Payload(&p) == nil {
				outcomes[e.Origin.Dataset] = p
			}
		}
	}
	for _, s := range stale {
		o, ok := outcomes[s.Dataset]
		if ok && h.Status != "completed" {
			// a completed run updated everything it rebuilt
			s.Outcome, s.Error = o.Status, o.Error
		}
		if worked[s.Dataset] || ok {
			if c := per[s.Dataset]; c != nil {
				s.runCounts, s.Edges = c.runCounts, c.Edges
			}
			h.Rebuilt = append(h.Rebuilt, s)
		}
	}
	return h
}

// historyCmd implements `etl history`: past runs, newest first.
func (c *cli) historyCmd(ctx context.Context, inv *invocation) int {
	pl, err := c.resolvePlace(inv)
	if err != nil {
		return c.usage(inv.cmd, err)
	}
	limit := -1
	if inv.isSet("limit") {
		n, err := strconv.Atoi(inv.str("limit"))
		if err != nil || n < 1 {
			return c.usage(inv.cmd, usagef("--limit %q: want a positive number", inv.str("limit")))
		}
		limit = n
	}
	fs := pl.readFS()
	runs, err := events.ListRuns(ctx, fs)
	if err != nil {
		return c.fail("history", fmt.Errorf("reading the event log: %w", err))
	}
	var entries []historyEntry
	for i := len(runs) - 1; i >= 0 && (limit < 0 || len(entries) < limit); i-- {
		evs, _ := events.LoadRun(ctx, fs, runs[i].RunID)
		entries = append(entries, summarizeRun(runs[i], evs))
	}
	w := bufio.NewWriter(c.stdout)
	defer w.Flush()
	if inv.bool("json") {
		for _, h := range entries {
			b, _ := json.Marshal(h)
			fmt.Fprintf(w, "%s\n", b)
		}
		return ExitOK
	}
	if len(entries) == 0 {
		fmt.Fprintf(w, "no runs recorded in %s\n", fs.Location(""))
		return ExitOK
	}
	for i, h := range entries {
		if i > 0 {
			fmt.Fprintln(w)
		}
		writeHistoryEntry(w, h)
	}
	return ExitOK
}

// malformedText is "; malformed rows: K kept with NULLs, D dropped", or ""
// when there were none.
func malformedText(kept, dropped, quarantined int64) string {
	if kept+dropped == 0 {
		return ""
	}
	q := ""
	if quarantined > 0 {
		q = fmt.Sprintf(", %d quarantined", quarantined)
	}
	return fmt.Sprintf("; malformed rows: %d kept with NULLs, %d dropped%s", kept, dropped, q)
}

func writeHistoryEntry(w io.Writer, h historyEntry) {
	start := h.Start
	if t, err := time.Parse(time.RFC3339Nano, h.Start); err == nil {
		start = t.UTC().Format("2006-01-02 15:04:05 UTC")
	}
	committed := "nothing committed"
	if h.Epoch > 0 {
		committed = fmt.Sprintf("epoch %d", h.Epoch)
	}
	dur := (time.Duration(h.DurationMS) * time.Millisecond).String()
	fmt.Fprintf(w, "%s  %s  %s  %s  %s\n", h.RunID, start, h.Status, committed, dur)
	fmt.Fprintf(w, "  rows %d in, %d out; expectations: %d violated (%d dropped); late rows dropped: %d%s\n",
		h.RowsIn, h.RowsOut, h.ExpectationViolations, h.ExpectationDropped, h.LateRowsDropped, malformedText(h.MalformedKept, h.MalformedDropped, h.MalformedQuarantined)+rescuedText(h.RescuedRows))
	for _, n := range h.NewColumns {
		if n.Action == "rescued" {
			fmt.Fprintf(w, "  new columns in %s, rescued into %s: %s\n", n.Source, n.RescuedColumn, strings.Join(n.Columns, ", "))
		} else {
			fmt.Fprintf(w, "  warning: new columns in %s, not declared and ignored: %s\n", n.Source, strings.Join(n.Columns, ", "))
		}
	}
	verb := "rebuilt"
	if h.Status != "completed" {
		verb = "tried to rebuild"
	}
	if len(h.Rebuilt) == 0 {
		fmt.Fprintf(w, "  %s nothing\n", verb)
	}
	perDataset := false
	for _, r := range h.Rebuilt {
		v := verb
		switch r.Outcome {
		case "updated":
			v = "rebuilt"
		case "not_committed":
			v = "tried to rebuild"
		case "failed":
			v = "failed to rebuild"
		case "skipped":
			fmt.Fprintf(w, "  skipped %s: %s\n", r.Dataset, r.Reason)
			continue
		}
		fmt.Fprintf(w, "  %s %s: %s\n", v, r.Dataset, r.Reason)
		fmt.Fprintf(w, "    rows %d in, %d out", r.RowsIn, r.RowsOut)
		if r.ExpectationViolations > 0 {
			fmt.Fprintf(w, "; expectations: %d violated (%d dropped)", r.ExpectationViolations, r.ExpectationDropped)
		}
		if r.LateRowsDropped > 0 {
			fmt.Fprintf(w, "; late rows dropped: %d", r.LateRowsDropped)
		}
		fmt.Fprint(w, malformedText(r.MalformedKept, r.MalformedDropped, r.MalformedQuarantined))
		fmt.Fprint(w, rescuedText(r.RescuedRows))
		fmt.Fprintln(w)
		if r.Error != "" {
			msg, _, _ := strings.Cut(r.Error, "\n")
			fmt.Fprintf(w, "    error: %s\n", msg)
			perDataset = true
		}
	}
	if h.Error != "" && !perDataset {
		msg, _, _ := strings.Cut(h.Error, "\n")
		fmt.Fprintf(w, "  error: %s\n", msg)
	}
}

// readCmd implements `etl read NAME`.
func (c *cli) readCmd(ctx context.Context, inv *invocation) int {
	pl, err := c.resolvePlace(inv)
	if err != nil {
		return c.usage(inv.cmd, err)
	}
	name := inv.args[0]
	var ds *Dataset
	for _, d := range c.p.Datasets {
		if d.Name == name {
			ds = d
		}
	}
	readable := newGraph(c.p).validNames(stored)
	switch {
	case ds == nil:
		return c.usage(inv.cmd, usagef("no dataset %q in this pipeline (datasets you can read: %s)", name, readable))
	case ds.Kind == Source:
		return c.usage(inv.cmd, usagef("%s is a source: its rows are its input files, not stored in the warehouse (datasets you can read: %s)", name, readable))
	case isView(ds.Kind):
		return c.usage(inv.cmd, usagef("%s is a %s: it is computed in memory while a run builds a dataset that reads it, and never stored (datasets you can read: %s)", name, ds.Kind, readable))
	case ds.Kind == Sink:
		where := "stdout"
		if isKafkaSink(ds) {
			where = "Kafka"
		} else if p := sinkOption(ds, "path"); p != "" {
			where = p
		}
		return c.usage(inv.cmd, usagef("%s is a sink: its rows are written to %s, not stored in the warehouse (datasets you can read: %s)", name, where, readable))
	}
	fname := inv.str("format")
	if inv.bool("json") {
		if fname != "" && fname != "jsonl" {
			return c.usage(inv.cmd, usagef("--json conflicts with --format %s", fname))
		}
		fname = "jsonl"
	}
	if fname == "" {
		fname = "csv"
	}
	f, err := format.ParseFormat(fname)
	if err != nil {
		return c.usage(inv.cmd, err)
	}
	var version int64
	if inv.isSet("version") {
		v, err := strconv.ParseInt(inv.str("version"), 10, 64)
		if err != nil || v < 1 {
			return c.usage(inv.cmd, usagef("--version %q: want a version number (1, 2, ...)", inv.str("version")))
		}
		version = v
	}
	wh := warehouse.New(pl.readFS())
	st, err := wh.Load(ctx)
	if err != nil {
		return c.fail("read", fmt.Errorf("reading the warehouse: %w", err))
	}
	if st.Head == nil || st.Head.Datasets[name] == nil {
		return c.fail("read", fmt.Errorf("dataset %s has no committed version; run first", name))
	}
	r, d, err := wh.ReadDataset(ctx, name, version, format.Options{})
	if err != nil {
		return c.fail("read", err)
	}
	defer r.Close()
	schema, err := d.ArrowSchema()
	if err != nil {
		return c.fail("read", err)
	}
	bw := bufio.NewWriterSize(c.stdout, 1<<16)
	w, err := format.NewWriter(bw, f, schema, format.WriteOptions{})
	if err != nil {
		return c.fail("read", err)
	}
	for {
		rec, err := r.Next()
		if errors.Is(err, io.EOF) {
			break
		}
		if err != nil {
			return c.fail("read", err)
		}
		err = w.Write(rec)
		rec.Release()
		if err != nil {
			return c.fail("read", err)
		}
	}
	if err := w.Close(); err != nil {
		return c.fail("read", err)
	}
	if err := bw.Flush(); err != nil {
		return c.fail("read", err)
	}
	return ExitOK
}
