package warehouse

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"hash"
	"slices"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/store"
)

// DefaultMaxFileRows is when a dataset writer starts a new file: once the
// current one holds this many rows (4 Parquet row groups).
const DefaultMaxFileRows = 4 * format.ParquetRowGroupRows

// Txn stages one epoch: new dataset versions are written as files in version
// folders no reader looks at, and Commit publishes them all with one
// create-if-absent write of the commit record. Until then nothing is visible;
// if the run fails, the staged files are garbage that Collect removes.
// A Txn is safe for concurrent use by writers of different datasets.
type Txn struct {
	w        *Warehouse
	base     *State
	epoch    int64
	runID    string
	tag      string
	pipeline string

	mu       sync.Mutex
	datasets map[string]*Dataset
	changed  map[string]bool
	seq      map[string]int
	writing  map[string]bool
	staged   []string
	offsets  map[string]json.RawMessage
	state    map[string]json.RawMessage
	fps      map[string]json.RawMessage
	done     bool
}

// Begin starts the transaction for epoch st.NextEpoch. Every dataset of the
// head commit is carried forward unchanged unless written or dropped.
// runID names the run in the record; its last 8 characters tag file names.
func (w *Warehouse) Begin(st *State, runID, pipeline string) *Txn {
	t := &Txn{w: w, base: st, epoch: st.NextEpoch, runID: runID, pipeline: pipeline,
		datasets: map[string]*Dataset{}, changed: map[string]bool{}, seq: map[string]int{}, writing: map[string]bool{},
		offsets: map[string]json.RawMessage{}, state: map[string]json.RawMessage{}, fps: map[string]json.RawMessage{}}
	t.tag = runID
	if len(t.tag) > 8 {
		t.tag = t.tag[len(t.tag)-8:]
	}
	if h := st.Head; h != nil {
		for n, d := range h.Datasets {
			c := *d
			t.datasets[n] = &c
		}
		for k, v := range h.SourceOffsets {
			t.offsets[k] = v
		}
		for k, v := range h.State {
			if !strings.HasPrefix(k, OutcomePrefix) {
				t.state[k] = v // outcome marks describe the head's epoch only
			}
		}
		for k, v := range h.Fingerprints {
			t.fps[k] = v
		}
	}
	return t
}

// Epoch is the epoch this transaction commits.
func (t *Txn) Epoch() int64 { return t.epoch }

// Base is the state the transaction started from.
func (t *Txn) Base() *State { return t.base }

// SetSourceOffset records the offsets consumed from a source (replacing the
// previous commit's entry).
func (t *Txn) SetSourceOffset(source string, v json.RawMessage) { t.set(t.offsets, source, v) }

// SetState records a state snapshot entry.
func (t *Txn) SetState(key string, v json.RawMessage) { t.set(t.state, key, v) }

// State returns a state entry as this transaction sees it.
func (t *Txn) State(key string) (json.RawMessage, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	v, ok := t.state[key]
	return v, ok
}

// SetFingerprint records a fingerprint.
func (t *Txn) SetFingerprint(key string, v json.RawMessage) { t.set(t.fps, key, v) }

func (t *Txn) set(m map[string]json.RawMessage, k string, v json.RawMessage) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if v == nil {
		delete(m, k)
		return
	}
	m[k] = v
}

// WriteState stages a state snapshot object under _thund/checkpoints/<epoch>/
// and records it under key in the commit's state map as a StateRef: its
// name, size and sha256, which ReadState checks before anything loads it.
// AnnotateState adds a caller's own fields to the entry.
func (t *Txn) WriteState(ctx context.Context, key string, data []byte) error {
	name := fmt.Sprintf("%s/%012d/%s-%s", CheckpointsDir, t.epoch, key, t.tag)
	if err := store.ValidName(name); err != nil {
		return err
	}
	t.mu.Lock()
	t.staged = append(t.staged, name)
	t.mu.Unlock()
	if err := t.w.FS.WriteFile(ctx, name, data); err != nil {
		return err
	}
	sum := sha256.Sum256(data)
	size := int64(len(data))
	ref, _ := json.Marshal(StateRef{Object: name, SHA256: hex.EncodeToString(sum[:]), Bytes: &size})
	t.SetState(key, ref)
	return nil
}

// StateWriter streams a state snapshot object too large to hold in memory
// (a Kafka sink's staged rows): Txn.CreateState starts it, Close records it
// under its key as WriteState does.
type StateWriter struct {
	t    *Txn
	key  string
	name string
	w    store.Writer
	h    hash.Hash
	n    int64
}

// CreateState starts a state snapshot object under
// _thund/checkpoints/<epoch>/, its name ending in ext; nothing is recorded
// until Close. The transaction's Abort removes it.
func (t *Txn) CreateState(ctx context.Context, key, ext string) (*StateWriter, error) {
	name := fmt.Sprintf("%s/%012d/%s-%s%s", CheckpointsDir, t.epoch, key, t.tag, ext)
	if err := store.ValidName(name); err != nil {
		return nil, err
	}
	t.mu.Lock()
	t.staged = append(t.staged, name)
	t.mu.Unlock()
	w, err := t.w.FS.Create(ctx, name)
	if err != nil {
		return nil, err
	}
	return &StateWriter{t: t, key: key, name: name, w: w, h: sha256.New()}, nil
}

// Name is the object's name.
func (s *StateWriter) Name() string { return s.name }

func (s *StateWriter) Write(p []byte) (int, error) {
	n, err := s.w.Write(p)
	s.h.Write(p[:n])
	s.n += int64(n)
	return n, err
}

// Close publishes the object and records it under its key (replacing the
// entry) with its size and sha256.
func (s *StateWriter) Close() error {
	if err := s.w.Commit(); err != nil {
		return err
	}
	size := s.n
	ref, _ := json.Marshal(StateRef{Object: s.name, SHA256: hex.EncodeToString(s.h.Sum(nil)), Bytes: &size})
	s.t.SetState(s.key, ref)
	return nil
}

// Abort discards the object.
func (s *StateWriter) Abort() { s.w.Abort() }

// AnnotateState adds fields (a struct or map that encodes as a JSON object)
// to the state entry under key, keeping the entry's other fields: a caller
// records what it checks on the next load (a fingerprint, counters) beside
// the StateRef that WriteState recorded. The StateRef's own fields cannot be
// overwritten.
func (t *Txn) AnnotateState(key string, fields any) error {
	add, err := json.Marshal(fields)
	if err != nil {
		return err
	}
	var extra map[string]json.RawMessage
	if err := json.Unmarshal(add, &extra); err != nil {
		return fmt.Errorf("state %q: annotation is not a JSON object: %w", key, err)
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	entry := map[string]json.RawMessage{}
	if cur, ok := t.state[key]; ok {
		if err := json.Unmarshal(cur, &entry); err != nil {
			return fmt.Errorf("state %q: %w", key, err)
		}
	}
	for k, v := range extra {
		switch k {
		case "object", "sha256", "bytes":
			if _, set := entry[k]; set {
				continue
			}
		}
		entry[k] = v
	}
	raw, err := json.Marshal(entry)
	if err != nil {
		return err
	}
	t.state[key] = raw
	return nil
}

// Drop removes a dataset from the head (a tombstone keeps its version
// number, so a later dataset of the same name continues the numbering and old
// versions stay readable with --version).
func (t *Txn) Drop(name string) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if d, ok := t.datasets[name]; ok && !d.Dropped {
		c := *d
		c.Dropped, c.Epoch, c.Files, c.Rows, c.Bytes = true, t.epoch, []File{}, 0, 0
		t.datasets[name] = &c
		t.changed[name] = true
	}
}

// Dataset returns the dataset's entry as this transaction sees it.
func (t *Txn) Dataset(name string) (*Dataset, bool) {
	t.mu.Lock()
	defer t.mu.Unlock()
	d, ok := t.datasets[name]
	return d, ok && !d.Dropped
}

// WriteOptions configure a dataset version.
type WriteOptions struct {
	Format      format.Format // of the data files; the zero value is Parquet
	PartitionBy []string      // hive-style partition columns, in folder order
	// Append makes the new version the previous version's files plus the new
	// ones (streaming tables); otherwise the new version replaces the old.
	Append      bool
	MaxFileRows int64            // 0 means DefaultMaxFileRows
	Mem         memory.Allocator // nil means memory.DefaultAllocator
}

// Write starts a new version of dataset name with the given schema. Write
// batches to the DatasetWriter, then Close it; the version joins the commit
// only after Close returns nil.
func (t *Txn) Write(ctx context.Context, name string, schema *arrow.Schema, o WriteOptions) (*DatasetWriter, error) {
	if err := ValidDatasetName(name); err != nil {
		return nil, err
	}
	if err := format.CheckSchema(schema); err != nil {
		return nil, fmt.Errorf("dataset %s: %w", name, err)
	}
	var partIdx []int
	for _, p := range o.PartitionBy {
		idx := schema.FieldIndices(p)
		if len(idx) != 1 {
			return nil, fmt.Errorf("dataset %s: partition column %q is not in the schema", name, p)
		}
		partIdx = append(partIdx, idx[0])
	}
	if o.MaxFileRows <= 0 {
		o.MaxFileRows = DefaultMaxFileRows
	}
	if o.Mem == nil {
		o.Mem = memory.DefaultAllocator
	}
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done {
		return nil, errors.New("transaction already finished")
	}
	if t.writing[name] {
		return nil, fmt.Errorf("dataset %s: already being written in this run", name)
	}
	prev := t.datasets[name]
	version := int64(1)
	if prev != nil {
		version = prev.Version + 1
		if t.changed[name] {
			version = prev.Version // a second write in the same epoch
		}
	}
	fields := format.EncodeSchema(schema)
	if o.Append && prev != nil && !prev.Dropped {
		if !slices.Equal(prev.Schema, fields) {
			return nil, fmt.Errorf("dataset %s: cannot append: its schema changed (a full refresh rewrites it)", name)
		}
		if !slices.Equal(prev.PartitionBy, o.PartitionBy) && !(len(prev.PartitionBy) == 0 && len(o.PartitionBy) == 0) {
			return nil, fmt.Errorf("dataset %s: cannot append: its partitioning changed (a full refresh rewrites it)", name)
		}
	}
	t.writing[name] = true
	return &DatasetWriter{t: t, ctx: ctx, name: name, version: version, prev: prev, schema: schema, opts: o,
		partIdx: partIdx, open: map[string]*partFile{}}, nil
}

// DatasetWriter writes one dataset version's files.
type DatasetWriter struct {
	t       *Txn
	ctx     context.Context
	name    string
	version int64
	prev    *Dataset
	schema  *arrow.Schema
	opts    WriteOptions
	partIdx []int
	open    map[string]*partFile
	order   []string // open keys in first-seen order
	files   []File
	err     error
	closed  bool
}

type partFile struct {
	dir    string // the folder below the version folder ("" or "a=1/b=x")
	values map[string]*string
	sw     store.Writer
	count  countingWriter
	fw     format.Writer
	path   string
	rows   int64
}

type countingWriter struct {
	w store.Writer
	n int64
}

func (c *countingWriter) Write(p []byte) (int, error) {
	n, err := c.w.Write(p)
	c.n += int64(n)
	return n, err
}

// Version is the version being written.
func (d *DatasetWriter) Version() int64 { return d.version }

func (d *DatasetWriter) newFile(dir string, values map[string]*string) (*partFile, error) {
	d.t.mu.Lock()
	seq := d.t.seq[d.name]
	d.t.seq[d.name] = seq + 1
	d.t.mu.Unlock()
	path := VersionDir(d.name, d.version)
	if dir != "" {
		path += "/" + dir
	}
	path += fmt.Sprintf("/part-%05d-%s%s", seq, d.t.tag, d.opts.Format.Ext())
	sw, err := d.t.w.FS.Create(d.ctx, path)
	if err != nil {
		return nil, fmt.Errorf("dataset %s: %w", d.name, err)
	}
	d.t.mu.Lock()
	d.t.staged = append(d.t.staged, path)
	d.t.mu.Unlock()
	pf := &partFile{dir: dir, values: values, sw: sw, path: path}
	pf.count.w = sw
	fw, err := format.NewWriter(&pf.count, d.opts.Format, d.schema, format.WriteOptions{Mem: d.opts.Mem})
	if err != nil {
		sw.Abort()
		return nil, fmt.Errorf("dataset %s: %w", d.name, err)
	}
	pf.fw = fw
	return pf, nil
}

// finish closes a file and publishes it (it is still unreferenced until the
// commit).
func (d *DatasetWriter) finish(pf *partFile) error {
	if err := pf.fw.Close(); err != nil {
		pf.sw.Abort()
		return fmt.Errorf("dataset %s: %s: %w", d.name, pf.path, err)
	}
	if err := pf.sw.Commit(); err != nil {
		return fmt.Errorf("dataset %s: %w", d.name, err)
	}
	d.files = append(d.files, File{Path: pf.path, Rows: pf.rows, Bytes: pf.count.n, Partition: pf.values})
	return nil
}

func (d *DatasetWriter) writeTo(key, dir string, values map[string]*string, rec arrow.RecordBatch) error {
	pf := d.open[key]
	if pf == nil {
		var err error
		if pf, err = d.newFile(dir, values); err != nil {
			return err
		}
		d.open[key] = pf
		d.order = append(d.order, key)
	}
	if err := pf.fw.Write(rec); err != nil {
		return fmt.Errorf("dataset %s: %s: %w", d.name, pf.path, err)
	}
	pf.rows += rec.NumRows()
	if pf.rows >= d.opts.MaxFileRows {
		delete(d.open, key)
		d.order = slices.DeleteFunc(d.order, func(k string) bool { return k == key })
		return d.finish(pf)
	}
	return nil
}

// Write adds a batch. After an error the writer is broken; Abort it (the run
// fails and its staged files are garbage).
func (d *DatasetWriter) Write(rec arrow.RecordBatch) error {
	if d.err != nil {
		return d.err
	}
	if d.closed {
		return errors.New("dataset writer closed")
	}
	if rec.NumRows() == 0 {
		return nil
	}
	if len(d.partIdx) == 0 {
		d.err = d.writeTo("", "", nil, rec)
		return d.err
	}
	d.err = d.writePartitioned(rec)
	return d.err
}

type partGroup struct {
	dir    string
	values map[string]*string
	slices []arrow.RecordBatch
}

func (d *DatasetWriter) writePartitioned(rec arrow.RecordBatch) error {
	fmts := make([]format.TextFormatter, len(d.partIdx))
	for i, ci := range d.partIdx {
		f, err := format.NewTextFormatter(rec.Column(ci))
		if err != nil {
			return err
		}
		fmts[i] = f
	}
	groups := map[string]*partGroup{}
	var order []string
	var keyBuf, text []byte
	rowKey := func(r int) string {
		keyBuf = keyBuf[:0]
		for i, ci := range d.partIdx {
			col := rec.Column(ci)
			if col.IsNull(r) {
				keyBuf = append(keyBuf, 0) // NULL: distinct from every text
			} else {
				keyBuf = append(keyBuf, 1)
				keyBuf = fmts[i](keyBuf, r)
			}
			keyBuf = append(keyBuf, 0xff)
		}
		return string(keyBuf)
	}
	n := int(rec.NumRows())
	for start := 0; start < n; {
		key := rowKey(start)
		end := start + 1
		for end < n && rowKey(end) == key {
			end++
		}
		g := groups[key]
		if g == nil {
			g = &partGroup{values: map[string]*string{}}
			var segs []string
			for i, ci := range d.partIdx {
				col := rec.Column(ci)
				name := d.schema.Field(ci).Name
				if col.IsNull(start) {
					g.values[name] = nil
					segs = append(segs, name+"="+DefaultPartition)
					continue
				}
				text = fmts[i](text[:0], start)
				v := string(text)
				g.values[name] = &v
				segs = append(segs, name+"="+EscapePartitionValue(v))
			}
			g.dir = strings.Join(segs, "/")
			groups[key] = g
			order = append(order, key)
		}
		g.slices = append(g.slices, rec.NewSlice(int64(start), int64(end)))
		start = end
	}
	defer func() {
		for _, g := range groups {
			for _, s := range g.slices {
				s.Release()
			}
		}
	}()
	for _, key := range order {
		g := groups[key]
		batch, err := concatBatches(g.slices, d.schema, d.opts.Mem)
		if err != nil {
			return err
		}
		err = d.writeTo(key, g.dir, g.values, batch)
		batch.Release()
		if err != nil {
			return err
		}
	}
	return nil
}

// concatBatches joins batches of one schema into one.
func concatBatches(recs []arrow.RecordBatch, schema *arrow.Schema, mem memory.Allocator) (arrow.RecordBatch, error) {
	if len(recs) == 1 {
		recs[0].Retain()
		return recs[0], nil
	}
	cols := make([]arrow.Array, schema.NumFields())
	var rows int64
	for _, r := range recs {
		rows += r.NumRows()
	}
	for c := range cols {
		parts := make([]arrow.Array, len(recs))
		for i, r := range recs {
			parts[i] = r.Column(c)
		}
		col, err := array.Concatenate(parts, mem)
		if err != nil {
			for _, done := range cols[:c] {
				done.Release()
			}
			return nil, err
		}
		cols[c] = col
	}
	out := array.NewRecordBatch(schema, cols, rows)
	for _, c := range cols {
		c.Release()
	}
	return out, nil
}

// Close finishes every file and adds the version to the transaction.
func (d *DatasetWriter) Close() error {
	if d.closed {
		return d.err
	}
	if d.err != nil {
		d.Abort()
		return d.err
	}
	d.closed = true
	for _, key := range d.order {
		if err := d.finish(d.open[key]); err != nil {
			d.err = err
			d.abortOpen()
			return err
		}
		delete(d.open, key)
	}
	d.order = nil
	if len(d.files) == 0 && len(d.partIdx) == 0 && !(d.opts.Append && d.prev != nil && !d.prev.Dropped) {
		// An empty dataset still gets one (empty) file, so that other
		// engines reading the folder see its schema.
		pf, err := d.newFile("", nil)
		if err == nil {
			err = d.finish(pf)
		}
		if err != nil {
			d.err = err
			return err
		}
	}
	ds := &Dataset{Version: d.version, Epoch: d.t.epoch, Format: d.opts.Format.String(),
		Schema: format.EncodeSchema(d.schema), PartitionBy: append([]string{}, d.opts.PartitionBy...)}
	t := d.t
	t.mu.Lock()
	defer t.mu.Unlock()
	delete(t.writing, d.name)
	if d.opts.Append && d.prev != nil && !d.prev.Dropped {
		ds.Files = append(ds.Files, d.prev.Files...)
	}
	ds.Files = append(ds.Files, d.files...)
	for _, f := range ds.Files {
		ds.Rows += f.Rows
		ds.Bytes += f.Bytes
	}
	t.datasets[d.name] = ds
	t.changed[d.name] = true
	return nil
}

func (d *DatasetWriter) abortOpen() {
	for key, pf := range d.open {
		pf.fw.Close()
		pf.sw.Abort()
		delete(d.open, key)
	}
	d.order = nil
}

// Abort drops the version; its files are left for Txn.Abort or Collect.
func (d *DatasetWriter) Abort() {
	if d.closed && d.err == nil {
		return
	}
	d.closed = true
	d.abortOpen()
	d.t.mu.Lock()
	delete(d.t.writing, d.name)
	d.t.mu.Unlock()
}

// ConflictError: another run committed the epoch first.
type ConflictError struct {
	Epoch    int64
	OtherRun string
	Location string
}

func (e *ConflictError) Error() string {
	who := "another run"
	if e.OtherRun != "" {
		who = "run " + e.OtherRun
	}
	return fmt.Sprintf("%s committed epoch %d of the warehouse first (%s); nothing of this run was committed", who, e.Epoch, e.Location)
}

// Changed reports whether a commit would record anything: a dataset
// written or dropped, a source offset, state entry or fingerprint that the
// base commit does not hold as it is, or a base that is not the latest
// record (a run that fell back to an older commit, or past invalid
// records, commits to supersede them). A run that changed nothing need not
// commit: its record would repeat the last one.
func (t *Txn) Changed() bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	h := t.base.Head
	switch {
	case len(t.changed) > 0:
		return true
	case h == nil:
		return len(t.offsets)+len(withoutOutcomes(t.state))+len(t.fps) > 0
	case h.Epoch != t.epoch-1:
		return true
	}
	// Outcome marks (outcome.go) alone are no reason to commit.
	return !sameRaw(t.offsets, h.SourceOffsets) || !sameRaw(withoutOutcomes(t.state), withoutOutcomes(h.State)) ||
		!sameRaw(t.fps, h.Fingerprints)
}

// sameRaw compares two maps of JSON values by their compact bytes.
func sameRaw(a, b map[string]json.RawMessage) bool {
	if len(a) != len(b) {
		return false
	}
	var ca, cb bytes.Buffer
	for k, v := range a {
		w, ok := b[k]
		if !ok {
			return false
		}
		ca.Reset()
		cb.Reset()
		if json.Compact(&ca, v) != nil || json.Compact(&cb, w) != nil || !bytes.Equal(ca.Bytes(), cb.Bytes()) {
			return false
		}
	}
	return true
}

// Commit publishes the epoch: one create-if-absent write of the commit
// record. On success everything staged is visible at once; on any error
// nothing is, except when the store reports an error for a write it did
// apply: Commit then reads the record back and succeeds if it is this run's.
func (t *Txn) Commit(ctx context.Context) (*Commit, error) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.done {
		return nil, errors.New("transaction already finished")
	}
	if len(t.writing) > 0 {
		var names []string
		for n := range t.writing {
			names = append(names, n)
		}
		slices.Sort(names)
		return nil, fmt.Errorf("cannot commit: dataset writers still open: %s", strings.Join(names, ", "))
	}
	c := &Commit{Format: RecordFormat, Epoch: t.epoch, RunID: t.runID, Pipeline: t.pipeline,
		CommittedAt: t.w.now().Format("2006-01-02T15:04:05.000000Z07:00"),
		Datasets:    t.datasets, SourceOffsets: t.offsets, State: t.state, Fingerprints: t.fps}
	if t.base.Head != nil {
		c.Previous = t.base.Head.Epoch
	}
	data, err := c.Marshal()
	if err != nil {
		return nil, err
	}
	name := CommitName(t.epoch)
	err = t.w.FS.CreateIfAbsent(ctx, name, data)
	if err == nil {
		t.done = true
		return c, nil
	}
	conflict := errors.Is(err, store.ErrExist)
	// Whatever the error, the record may be there: read it back.
	got, rerr := t.w.ReadCommit(ctx, t.epoch)
	switch {
	case rerr == nil && got.RunID == t.runID && got.Checksum == c.Checksum:
		t.done = true
		return c, nil
	case rerr == nil || conflict:
		other := ""
		if got != nil {
			other = got.RunID
		}
		return nil, &ConflictError{Epoch: t.epoch, OtherRun: other, Location: t.w.FS.Location(name)}
	case errors.Is(rerr, store.ErrNotExist):
		return nil, fmt.Errorf("writing the commit record %s: %w (nothing was committed)", t.w.FS.Location(name), err)
	}
	return nil, fmt.Errorf("writing the commit record %s: %w; reading it back: %v (the outcome is unknown: the next run will see)", t.w.FS.Location(name), err, rerr)
}

// Abort ends the transaction without committing and removes what it staged
// (best effort: Collect removes anything left).
func (t *Txn) Abort(ctx context.Context) {
	t.mu.Lock()
	if t.done {
		t.mu.Unlock()
		return
	}
	t.done = true
	staged := t.staged
	t.staged = nil
	t.mu.Unlock()
	for _, name := range staged {
		t.w.FS.Remove(ctx, name)
	}
}
