package etl

import (
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/run"
	"github.com/nordisk/thund/rt/warehouse"
)

// Quarantine tables: a CSV or JSON lines source may name a streaming table
// of the pipeline (FileSource.QuarantineTable) that receives its malformed
// records, kept (PERMISSIVE) or dropped (DROPMALFORMED), with the source,
// file, line, reason and text of each (QuarantineSchema).
//
//   - A flow's reads of the source hand their malformed records over
//     (format.Malformed.Quarantine); the flow holds them until it succeeds,
//     then the run takes those it has not seen (flowReads.quarantine).
//   - A record is put in the table once: the run skips a record (source,
//     file, line, text) that the table already holds, or that another flow
//     of the run put there. So a source read by two flows, a materialized
//     view that reads the whole source every run, or a stream re-read after
//     a full refresh of its reader add nothing twice; a record whose line
//     was edited (and is still malformed) is new.
//   - The run appends the new records after its other datasets are built
//     (writeQuarantines), in the same commit as the flows' outputs and
//     offsets: nothing is lost or doubled across a crash. A flow that reads
//     the table sees the records of earlier runs.
//   - A full refresh of the table (--full-refresh NAME, --full-refresh-all)
//     starts it empty: it then holds the records of the run's reads.

// QuarantineSchema is the shape of a quarantine table (passes.
// QuarantineColumns; check refuses any other, though it lets every column
// but record be NOT NULL).
var QuarantineSchema = arrow.NewSchema([]arrow.Field{
	{Name: "source", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "file", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "line", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "reason", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "record", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "epoch", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
}, nil)

// badRecord is one quarantined record of a source.
type badRecord struct {
	source string
	format.BadRecord
}

// quarKey is what makes a quarantined record the same one again.
type quarKey struct {
	source, file string
	line         int64
	record       string
	text         bool
}

func (b *badRecord) key() quarKey {
	return quarKey{source: b.source, file: b.File, line: b.Line, record: b.Record, text: b.Text}
}

// quarTable is one quarantine table during a run.
type quarTable struct {
	ds     *Dataset
	seen   map[quarKey]bool // loaded from the table (loadSeen), plus this run's
	loaded bool
	read   bool // a flow of the run read one of its sources
	rows   []badRecord
}

// quarantineTable is the quarantine table named name, for the run.
func (ex *executor) quarantineTable(name string) (*quarTable, error) {
	ex.quarMu.Lock()
	defer ex.quarMu.Unlock()
	if q := ex.quar[name]; q != nil {
		return q, nil
	}
	ds := ex.pl.byName[name]
	if ds == nil || ds.Kind != StreamingTable {
		return nil, fmt.Errorf("quarantine table %s is not a streaming table of the pipeline", name)
	}
	if ex.quar == nil {
		ex.quar = map[string]*quarTable{}
	}
	q := &quarTable{ds: ds, seen: map[quarKey]bool{}}
	ex.quar[name] = q
	return q, nil
}

// quarantined is the name of the quarantine table of a source, "" for none.
func quarantined(src *Dataset) string {
	if src.Kind != Source || src.Source == nil {
		return ""
	}
	return src.Source.QuarantineTable
}

// quarantineOf names the sources of p whose quarantine table ds is (none
// when it is not one).
func quarantineOf(p *Pipeline, ds *Dataset) []string {
	var out []string
	for _, d := range p.Datasets {
		if quarantined(d) == ds.Name {
			out = append(out, d.Name)
		}
	}
	return out
}

// flowQuarantine holds a flow's malformed records until it succeeds.
type flowQuarantine struct {
	mu   sync.Mutex
	rows map[string][]badRecord // by source
}

// catch is the Malformed.Quarantine function of the flow's reads of src.
func (q *flowQuarantine) catch(src string) func(format.BadRecord) {
	return func(b format.BadRecord) {
		q.mu.Lock()
		defer q.mu.Unlock()
		if q.rows == nil {
			q.rows = map[string][]badRecord{}
		}
		q.rows[src] = append(q.rows[src], badRecord{source: src, BadRecord: b})
	}
}

// quarantine hands the malformed records of the flow's reads, once it has
// succeeded, to the run's quarantine tables, and counts per source those
// that were new.
func (fr *flowReads) quarantine(stats *run.Flow) error {
	for _, in := range fr.f.Inputs {
		src := fr.ex.pl.byName[in.Name]
		if src == nil || !fr.quarRead[in.Name] {
			continue
		}
		name := quarantined(src)
		q, err := fr.ex.quarantineTable(name)
		if err != nil {
			return err
		}
		fr.quar.mu.Lock()
		rows := fr.quar.rows[in.Name]
		delete(fr.quar.rows, in.Name)
		fr.quar.mu.Unlock()
		n, err := fr.ex.addQuarantined(q, rows)
		if err != nil {
			return fmt.Errorf("quarantine table %s: %w", name, err)
		}
		stats.AddQuarantined(in.Name, name, n)
	}
	return nil
}

// addQuarantined adds the records of rows that q does not hold yet, and
// returns how many.
func (ex *executor) addQuarantined(q *quarTable, rows []badRecord) (int64, error) {
	ex.quarMu.Lock()
	defer ex.quarMu.Unlock()
	q.read = true
	if len(rows) == 0 {
		return 0, nil
	}
	if err := ex.loadSeen(q); err != nil {
		return 0, err
	}
	// The readers of a source hand records over from several goroutines:
	// the table gets them in file and line order.
	sort.SliceStable(rows, func(i, j int) bool {
		if rows[i].File != rows[j].File {
			return rows[i].File < rows[j].File
		}
		return rows[i].Line < rows[j].Line
	})
	var n int64
	for _, r := range rows {
		k := r.key()
		if q.seen[k] {
			continue
		}
		q.seen[k] = true
		q.rows = append(q.rows, r)
		n++
	}
	return n, nil
}

// quarFull reports a full refresh of quarantine table q in this run.
func (ex *executor) quarFull(q *quarTable) bool {
	return ex.sel != nil && ex.sel.full[q.ds.Name]
}

// loadSeen reads the records q holds (none on its full refresh), once per
// run.
func (ex *executor) loadSeen(q *quarTable) error {
	if q.loaded {
		return nil
	}
	q.loaded = true
	if ex.quarFull(q) {
		return nil
	}
	cur, ok := ex.r.Txn.Dataset(q.ds.Name)
	if !ok {
		return nil
	}
	rd, err := ex.r.WH.Open(ex.ctx, cur, format.Options{Mem: ex.mem, Threads: ex.threads})
	if err != nil {
		return err
	}
	defer rd.Close()
	for {
		rec, err := rd.Next()
		if errors.Is(err, io.EOF) {
			return nil
		}
		if err != nil {
			return err
		}
		if rec.NumCols() != int64(QuarantineSchema.NumFields()) {
			return fmt.Errorf("version %d has %d columns, want %d", cur.Version, rec.NumCols(), QuarantineSchema.NumFields())
		}
		src, file, rtext := rec.Column(0).(*array.String), rec.Column(1).(*array.String), rec.Column(4).(*array.String)
		line := rec.Column(2).(*array.Int64)
		for i := 0; i < int(rec.NumRows()); i++ {
			k := quarKey{source: src.Value(i), file: file.Value(i), line: line.Value(i)}
			if rtext.IsValid(i) {
				k.record, k.text = rtext.Value(i), true
			}
			q.seen[k] = true
		}
		rec.Release()
	}
}

// writeQuarantines appends the run's new malformed records to the
// quarantine tables of the sources its flows read (a new version, empty or
// not, on a table's full refresh or first run), after every other dataset.
func (ex *executor) writeQuarantines() error {
	for _, ds := range ex.p.Datasets {
		if ex.sel != nil && ex.sel.full[ds.Name] && len(quarantineOf(ex.p, ds)) > 0 {
			// emptied, even when no flow reads its sources this run
			q, err := ex.quarantineTable(ds.Name)
			if err != nil {
				return err
			}
			q.read = true
		}
	}
	names := make([]string, 0, len(ex.quar))
	for n := range ex.quar {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, name := range names {
		q := ex.quar[name]
		if !q.read {
			continue
		}
		cur, exists := ex.r.Txn.Dataset(name)
		full := ex.quarFull(q)
		if len(q.rows) == 0 && exists && !full {
			continue
		}
		if exists && !full && !slices.Equal(cur.Schema, format.EncodeSchema(q.ds.Schema)) {
			return fmt.Errorf("quarantine table %s: its declaration changed since version %d, so the run cannot append to it; run with --full-refresh %s to start it again",
				name, cur.Version, name)
		}
		t := &storedTarget{ex: ex, ds: q.ds, create: true, opts: warehouse.WriteOptions{Append: exists && !full, Mem: ex.mem}}
		for start := 0; start < len(q.rows); start += quarBatch {
			rec, err := ex.quarBatch(q, q.rows[start:min(start+quarBatch, len(q.rows))])
			if err == nil {
				err = checkBatch(name, q.ds.Schema, rec)
			}
			if err == nil {
				err = t.emit(rec)
			}
			if rec != nil {
				rec.Release()
			}
			if err != nil {
				t.abort()
				return fmt.Errorf("quarantine table %s: %w", name, err)
			}
		}
		if err := t.close(); err != nil {
			return fmt.Errorf("quarantine table %s: %w", name, err)
		}
		ex.r.Txn.SetFingerprint(name, ex.pl.fingerprint(q.ds, nil))
		ex.pl.rebuilt[name] = true
		if len(q.rows) > 0 || full || !exists {
			ex.built = append(ex.built, name)
		}
	}
	return nil
}

// quarBatch is how many records a batch of a quarantine table holds.
const quarBatch = 4096

// quarBatch makes one batch of the quarantine table's schema from rows.
func (ex *executor) quarBatch(q *quarTable, rows []badRecord) (arrow.RecordBatch, error) {
	b := array.NewRecordBuilder(ex.mem, q.ds.Schema)
	defer b.Release()
	if b.Schema().NumFields() != QuarantineSchema.NumFields() {
		return nil, fmt.Errorf("declares %d columns, want %d (%s)", b.Schema().NumFields(), QuarantineSchema.NumFields(), quarColumnNames())
	}
	for i, f := range QuarantineSchema.Fields() {
		if got := b.Schema().Field(i); got.Type.ID() != f.Type.ID() {
			return nil, fmt.Errorf("declares column %d (%s) as %s, want %s (%s)", i+1, got.Name, format.TypeString(got.Type), format.TypeString(f.Type), quarColumnNames())
		}
	}
	str := func(i int) *array.StringBuilder { return b.Field(i).(*array.StringBuilder) }
	i64 := func(i int) *array.Int64Builder { return b.Field(i).(*array.Int64Builder) }
	epoch := ex.r.Txn.Epoch()
	for _, r := range rows {
		str(0).Append(r.source)
		str(1).Append(r.File)
		i64(2).Append(r.Line)
		str(3).Append(r.Reason)
		if r.Text {
			str(4).Append(r.Record)
		} else {
			str(4).AppendNull()
		}
		i64(5).Append(epoch)
	}
	return b.NewRecordBatch(), nil
}

// quarColumnNames names QuarantineSchema's columns, for messages.
func quarColumnNames() string {
	var names []string
	for _, f := range QuarantineSchema.Fields() {
		names = append(names, f.Name)
	}
	return strings.Join(names, ", ")
}
