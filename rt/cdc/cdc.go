package cdc

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The names of the change schema's last two columns and of SCD 2's history
// columns.
const (
	SeqColumn    = "__seq"
	DeleteColumn = "__delete"
	StartColumn  = "__START_AT"
	EndColumn    = "__END_AT"
)

// Spec describes one change flow's target.
type Spec struct {
	// Target is the target's schema: its data columns, and for SCD 2
	// __START_AT and __END_AT last (typed like the sequence).
	Target *arrow.Schema
	// Keys are the key columns' indices among the data columns.
	Keys []int
	// Sequence is the sequence value's type (for SCD 2, that of __START_AT).
	Sequence arrow.DataType
	// SCD is 1 or 2.
	SCD               int
	IgnoreNullUpdates bool
	// Tracked (SCD 2) are the data columns whose change opens a new version;
	// nil means every non-key column.
	Tracked []int
}

// DataColumns is the number of data columns (the target's, less the
// history columns of SCD 2).
func (s *Spec) DataColumns() int {
	n := s.Target.NumFields()
	if s.SCD == 2 {
		n -= 2
	}
	return n
}

// ChangeSchema is the schema of the change batches an Applier takes: the
// data columns, the sequence (never NULL) and the delete flag.
func (s *Spec) ChangeSchema() *arrow.Schema {
	var fs []arrow.Field
	for i := 0; i < s.DataColumns(); i++ {
		fs = append(fs, s.Target.Field(i))
	}
	fs = append(fs, arrow.Field{Name: SeqColumn, Type: s.Sequence}, arrow.Field{Name: DeleteColumn, Type: arrow.FixedWidthTypes.Boolean})
	return arrow.NewSchema(fs, nil)
}

// Check reports a Spec that cannot work.
func (s *Spec) Check() error {
	if s.SCD != 1 && s.SCD != 2 {
		return fmt.Errorf("scd type %d: want 1 or 2", s.SCD)
	}
	n := s.DataColumns()
	if n < 1 || len(s.Keys) == 0 {
		return errors.New("a change flow needs keys and data columns")
	}
	for _, k := range append(append([]int{}, s.Keys...), s.Tracked...) {
		if k < 0 || k >= n {
			return fmt.Errorf("column index %d out of range (%d data columns)", k, n)
		}
	}
	if s.SCD == 2 {
		for _, c := range []int{n, n + 1} {
			if !arrow.TypeEqual(s.Target.Field(c).Type, s.Sequence) {
				return fmt.Errorf("%s is %s, the sequence %s", s.Target.Field(c).Name, s.Target.Field(c).Type, s.Sequence)
			}
		}
	}
	if _, err := comparer(s.Sequence); err != nil {
		return fmt.Errorf("sequence by: %w", err)
	}
	return nil
}

// Fingerprint identifies what a state log means: a state recorded under
// another fingerprint does not fit this spec.
func (s *Spec) Fingerprint() string {
	var b strings.Builder
	for _, f := range s.ChangeSchema().Fields() {
		fmt.Fprintf(&b, "%s %s %v;", f.Name, f.Type, f.Nullable)
	}
	fmt.Fprintf(&b, "keys %v scd %d ignore-null %v tracked %v", s.Keys, s.SCD, s.IgnoreNullUpdates, s.Tracked)
	h := sha256.Sum256([]byte(b.String()))
	return "sha256:" + hex.EncodeToString(h[:])
}

// Applier collects a target's change log (the committed state, then a run's
// new changes) and computes the target and the new state from it.
type Applier struct {
	spec    *Spec
	mem     memory.Allocator
	schema  *arrow.Schema
	batches []arrow.RecordBatch
	state   int64 // rows that came from the state
	added   int64 // new change rows
}

// New starts an Applier.
func New(spec *Spec, mem memory.Allocator) (*Applier, error) {
	if err := spec.Check(); err != nil {
		return nil, err
	}
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	return &Applier{spec: spec, mem: mem, schema: spec.ChangeSchema()}, nil
}

// Release frees the batches the Applier holds.
func (a *Applier) Release() {
	for _, b := range a.batches {
		b.Release()
	}
	a.batches = nil
}

// Added is the number of new change rows.
func (a *Applier) Added() int64 { return a.added }

// LoadState adds a state log written by State (call it before Add).
func (a *Applier) LoadState(data []byte) error {
	r, err := ipc.NewFileReader(bytes.NewReader(data), ipc.WithAllocator(a.mem))
	if err != nil {
		return fmt.Errorf("reading the change state: %w", err)
	}
	defer r.Close()
	if !r.Schema().Equal(a.schema) {
		return fmt.Errorf("the change state has columns %s, the flow now %s", r.Schema(), a.schema)
	}
	for i := 0; i < r.NumRecords(); i++ {
		rec, err := r.RecordBatch(i)
		if err != nil {
			return fmt.Errorf("reading the change state: %w", err)
		}
		rec.Retain()
		a.batches = append(a.batches, rec)
		a.state += rec.NumRows()
	}
	return nil
}

// Add adds a batch of new changes (of ChangeSchema). The Applier retains it.
func (a *Applier) Add(rec arrow.RecordBatch) error {
	if !rec.Schema().Equal(a.schema) {
		return fmt.Errorf("change batch has columns %s, want %s", rec.Schema(), a.schema)
	}
	seq := rec.Column(a.spec.DataColumns())
	if seq.NullN() > 0 {
		return fmt.Errorf("%d change rows have a NULL sequence value: sequence by must not be NULL", seq.NullN())
	}
	if rec.Column(a.spec.DataColumns()+1).NullN() > 0 {
		return errors.New("change rows with a NULL delete flag")
	}
	rec.Retain()
	a.batches = append(a.batches, rec)
	a.added += rec.NumRows()
	return nil
}

// Result is what Apply computes.
type Result struct {
	Target arrow.RecordBatch // the target's rows (caller releases)
	State  []byte            // the compacted change log, an Arrow IPC file
	// LogRows is the number of changes the state keeps; Tombstones the
	// number of keys whose latest change is a delete.
	LogRows, Tombstones int64
}

// Apply computes the target from the whole log, and the state to keep.
func (a *Applier) Apply(ctx context.Context) (*Result, error) {
	cols, n, err := a.concat()
	if err != nil {
		return nil, err
	}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	sp := a.spec
	nd := sp.DataColumns()
	seqCmp, _ := comparer(sp.Sequence)
	seq := cols[nd]
	del := cols[nd+1].(*array.Boolean)

	// group rows by key, in order of first appearance
	keyCols := make([]arrow.Array, len(sp.Keys))
	for i, k := range sp.Keys {
		keyCols[i] = cols[k]
	}
	groups := map[string]int{}
	var order [][]int
	var kb []byte
	for r := 0; r < n; r++ {
		kb = kb[:0]
		for _, c := range keyCols {
			kb = appendKey(kb, c, r)
		}
		g, ok := groups[string(kb)]
		if !ok {
			g = len(order)
			groups[string(kb)] = g
			order = append(order, nil)
		}
		order[g] = append(order[g], r)
	}

	tracked := make([]bool, nd)
	if sp.Tracked == nil {
		for i := range tracked {
			tracked[i] = true
		}
	} else {
		for _, c := range sp.Tracked {
			tracked[c] = true
		}
	}
	isKey := make([]bool, nd)
	for _, k := range sp.Keys {
		isKey[k] = true
		tracked[k] = false
	}
	eq := make([]func(i, j int) bool, nd)
	for c := 0; c < nd; c++ {
		eq[c] = equaler(cols[c])
	}

	// the output, as per column the log row each value comes from (-1: NULL)
	out := make([][]int64, nd+2)
	addRow := func(vals []int, start, end int) {
		for c := 0; c < nd; c++ {
			out[c] = append(out[c], int64(vals[c]))
		}
		if sp.SCD == 2 {
			out[nd] = append(out[nd], int64(start))
			out[nd+1] = append(out[nd+1], int64(end))
		}
	}
	var keep []int64
	var tombstones int64
	for gi, rows := range order {
		if gi%1024 == 0 && ctx.Err() != nil {
			return nil, ctx.Err()
		}
		slices.SortStableFunc(rows, func(i, j int) int { return seqCmp(seq, i, seq, j) })
		merge := func(cur []int, r int) []int {
			next := make([]int, nd)
			for c := range next {
				switch {
				case cur == nil, !sp.IgnoreNullUpdates, isKey[c]:
					next[c] = r
				case cols[c].IsNull(r):
					next[c] = cur[c]
				default:
					next[c] = r
				}
				if next[c] >= 0 && cols[c].IsNull(next[c]) {
					next[c] = -1
				}
			}
			return next
		}
		lastDel := -1
		if sp.SCD == 1 {
			var cur []int
			for i, r := range rows {
				if del.Value(r) {
					cur, lastDel = nil, i
					continue
				}
				cur = merge(cur, r)
			}
			if cur != nil {
				addRow(cur, -1, -1)
			} else {
				tombstones++
			}
			switch {
			case !sp.IgnoreNullUpdates:
				keep = append(keep, int64(rows[len(rows)-1]))
			case lastDel >= 0:
				for _, r := range rows[lastDel:] {
					keep = append(keep, int64(r))
				}
			default:
				for _, r := range rows {
					keep = append(keep, int64(r))
				}
			}
			continue
		}
		// SCD 2
		var open []int
		start := -1
		for _, r := range rows {
			keep = append(keep, int64(r))
			if del.Value(r) {
				if open != nil {
					addRow(open, start, r)
					open = nil
				}
				continue
			}
			next := merge(open, r)
			if open == nil {
				open, start = next, r
				continue
			}
			changed := false
			for c := 0; c < nd && !changed; c++ {
				if tracked[c] && !sameValue(cols[c], eq[c], open[c], next[c]) {
					changed = true
				}
			}
			if changed {
				addRow(open, start, r)
				start = r
			}
			open = next
		}
		if open != nil {
			addRow(open, start, -1)
		} else {
			tombstones++
		}
	}

	res := &Result{LogRows: int64(len(keep)), Tombstones: tombstones}
	var outCols []arrow.Array
	defer func() {
		for _, c := range outCols {
			c.Release()
		}
	}()
	width := nd
	if sp.SCD == 2 {
		width += 2
	}
	for c := 0; c < width; c++ {
		src := seq
		if c < nd {
			src = cols[c]
		}
		outCols = append(outCols, take(a.mem, src, out[c]))
	}
	rows := int64(0)
	if width > 0 {
		rows = int64(len(out[0]))
	}
	res.Target = array.NewRecordBatch(sp.Target, outCols, rows)

	// the state
	var stateCols []arrow.Array
	defer func() {
		for _, c := range stateCols {
			c.Release()
		}
	}()
	for _, c := range cols {
		stateCols = append(stateCols, take(a.mem, c, keep))
	}
	st := array.NewRecordBatch(a.schema, stateCols, int64(len(keep)))
	defer st.Release()
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, ipc.WithSchema(a.schema), ipc.WithAllocator(a.mem))
	if err == nil {
		err = w.Write(st)
		if cerr := w.Close(); err == nil {
			err = cerr
		}
	}
	if err != nil {
		res.Target.Release()
		return nil, fmt.Errorf("writing the change state: %w", err)
	}
	res.State = buf.Bytes()
	return res, nil
}

// concat joins the log's batches column by column.
func (a *Applier) concat() ([]arrow.Array, int, error) {
	cols := make([]arrow.Array, a.schema.NumFields())
	n := 0
	for _, b := range a.batches {
		n += int(b.NumRows())
	}
	for c := range cols {
		parts := make([]arrow.Array, 0, len(a.batches))
		for _, b := range a.batches {
			parts = append(parts, b.Column(c))
		}
		var err error
		if len(parts) == 0 {
			cols[c] = array.MakeArrayOfNull(a.mem, a.schema.Field(c).Type, 0)
			continue
		}
		if cols[c], err = array.Concatenate(parts, a.mem); err != nil {
			for _, x := range cols[:c] {
				x.Release()
			}
			return nil, 0, err
		}
	}
	return cols, n, nil
}

// appendKey appends an unambiguous encoding of one key value.
func appendKey(b []byte, c arrow.Array, r int) []byte {
	if c.IsNull(r) {
		return append(b, 0)
	}
	switch a := c.(type) {
	case *array.Int64:
		return binary.LittleEndian.AppendUint64(append(b, 1), uint64(a.Value(r)))
	case *array.Int32:
		return binary.LittleEndian.AppendUint32(append(b, 1), uint32(a.Value(r)))
	case *array.String:
		v := a.Value(r)
		b = binary.AppendUvarint(append(b, 2), uint64(len(v)))
		return append(b, v...)
	}
	v := c.ValueStr(r)
	b = binary.AppendUvarint(append(b, 3), uint64(len(v)))
	return append(b, v...)
}

// sameValue compares two log rows' values of one column, NULL-safe (-1 is
// NULL).
func sameValue(col arrow.Array, eq func(i, j int) bool, i, j int) bool {
	ni, nj := i < 0 || col.IsNull(i), j < 0 || col.IsNull(j)
	if ni || nj {
		return ni && nj
	}
	return i == j || eq(i, j)
}

// equaler compares two non-NULL values of a column.
func equaler(col arrow.Array) func(i, j int) bool {
	if cmp, err := comparer(col.DataType()); err == nil {
		return func(i, j int) bool { return cmp(col, i, col, j) == 0 }
	}
	return func(i, j int) bool { return col.ValueStr(i) == col.ValueStr(j) }
}

// comparer orders non-NULL values of a type (NaN above every number and
// equal to itself, as Spark orders it).
func comparer(t arrow.DataType) (func(a arrow.Array, i int, b arrow.Array, j int) int, error) {
	switch t.ID() {
	case arrow.INT8:
		return cmpOf(func(a arrow.Array, i int) int8 { return a.(*array.Int8).Value(i) }), nil
	case arrow.INT16:
		return cmpOf(func(a arrow.Array, i int) int16 { return a.(*array.Int16).Value(i) }), nil
	case arrow.INT32:
		return cmpOf(func(a arrow.Array, i int) int32 { return a.(*array.Int32).Value(i) }), nil
	case arrow.INT64:
		return cmpOf(func(a arrow.Array, i int) int64 { return a.(*array.Int64).Value(i) }), nil
	case arrow.UINT8:
		return cmpOf(func(a arrow.Array, i int) uint8 { return a.(*array.Uint8).Value(i) }), nil
	case arrow.UINT16:
		return cmpOf(func(a arrow.Array, i int) uint16 { return a.(*array.Uint16).Value(i) }), nil
	case arrow.UINT32:
		return cmpOf(func(a arrow.Array, i int) uint32 { return a.(*array.Uint32).Value(i) }), nil
	case arrow.UINT64:
		return cmpOf(func(a arrow.Array, i int) uint64 { return a.(*array.Uint64).Value(i) }), nil
	case arrow.DATE32:
		return cmpOf(func(a arrow.Array, i int) arrow.Date32 { return a.(*array.Date32).Value(i) }), nil
	case arrow.DATE64:
		return cmpOf(func(a arrow.Array, i int) arrow.Date64 { return a.(*array.Date64).Value(i) }), nil
	case arrow.TIMESTAMP:
		return cmpOf(func(a arrow.Array, i int) arrow.Timestamp { return a.(*array.Timestamp).Value(i) }), nil
	case arrow.STRING:
		return cmpOf(func(a arrow.Array, i int) string { return a.(*array.String).Value(i) }), nil
	case arrow.LARGE_STRING:
		return cmpOf(func(a arrow.Array, i int) string { return a.(*array.LargeString).Value(i) }), nil
	case arrow.FLOAT32:
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			return cmpFloat(float64(a.(*array.Float32).Value(i)), float64(b.(*array.Float32).Value(j)))
		}, nil
	case arrow.FLOAT64:
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			return cmpFloat(a.(*array.Float64).Value(i), b.(*array.Float64).Value(j))
		}, nil
	case arrow.DECIMAL128:
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			return a.(*array.Decimal128).Value(i).Cmp(b.(*array.Decimal128).Value(j))
		}, nil
	case arrow.BOOL:
		return func(a arrow.Array, i int, b arrow.Array, j int) int {
			x, y := a.(*array.Boolean).Value(i), b.(*array.Boolean).Value(j)
			switch {
			case x == y:
				return 0
			case !x:
				return -1
			}
			return 1
		}, nil
	}
	return nil, fmt.Errorf("cannot order values of type %s", t)
}

func cmpOf[T int8 | int16 | int32 | int64 | uint8 | uint16 | uint32 | uint64 | arrow.Date32 | arrow.Date64 | arrow.Timestamp | string](get func(arrow.Array, int) T) func(a arrow.Array, i int, b arrow.Array, j int) int {
	return func(a arrow.Array, i int, b arrow.Array, j int) int {
		x, y := get(a, i), get(b, j)
		switch {
		case x < y:
			return -1
		case x > y:
			return 1
		}
		return 0
	}
}

func cmpFloat(x, y float64) int {
	xn, yn := math.IsNaN(x), math.IsNaN(y)
	switch {
	case xn && yn:
		return 0
	case xn:
		return 1
	case yn:
		return -1
	case x < y:
		return -1
	case x > y:
		return 1
	}
	return 0
}

// StateRef is what the commit record keeps of a target's change state.
type StateRef struct {
	Object      string `json:"object"`
	Fingerprint string `json:"fingerprint"`
	LogRows     int64  `json:"log_rows"`
	Tombstones  int64  `json:"tombstones"`
}

// ParseStateRef reads a StateRef from the commit record.
func ParseStateRef(raw json.RawMessage) (*StateRef, error) {
	var r StateRef
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, err
	}
	if r.Object == "" {
		return nil, io.ErrUnexpectedEOF
	}
	return &r, nil
}
