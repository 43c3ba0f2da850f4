package etl

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"sort"
	"strings"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/run"
	"github.com/nordisk/thund/rt/stream"
	"github.com/nordisk/thund/rt/warehouse"
)

// A flow's reads: sources (their files, or only those a stream read has
// not consumed), stored datasets (the version this run sees), temporary
// views (computed in memory once per run) and standard input; each read
// decoded ahead of the flow through a bounded edge with more than one
// thread, and stopped when the run is interrupted.

// memReader reads batches held in memory (views, stdin).
type memReader struct {
	schema  *arrow.Schema
	batches []arrow.RecordBatch
}

func (m *memReader) Schema() *arrow.Schema { return m.schema }

func (m *memReader) Next() (arrow.RecordBatch, error) {
	if len(m.batches) == 0 {
		return nil, io.EOF
	}
	b := m.batches[0]
	m.batches = m.batches[1:]
	b.Retain()
	return b, nil
}

func (m *memReader) Close() error {
	m.batches = nil
	return nil
}

// view computes a temporary view (once per run) and returns it.
func (ex *executor) view(v *Dataset, full bool) (*viewTarget, error) {
	if t := ex.views[v.Name]; t != nil {
		return t, nil
	}
	t := &viewTarget{schema: v.Schema}
	for _, f := range v.Flows {
		if err := ex.runFlow(v, f, t, full); err != nil {
			t.release()
			return nil, err
		}
	}
	ex.views[v.Name] = t
	ex.r.Txn.SetFingerprint(v.Name, ex.pl.fingerprint(v, nil))
	return t, nil
}

// stdinData is an Arrow IPC stream on stdin, read once and kept for every
// flow that reads it (it cannot be read twice).
type stdinData struct {
	batches []arrow.RecordBatch
	err     error
}

func (ex *executor) stdinReader(src *Dataset) (format.BatchReader, error) {
	s := ex.stdin[src.Name]
	if s == nil {
		s = &stdinData{}
		ex.stdin[src.Name] = s
		if ex.feed != nil {
			// --follow: the batches that arrived since the last epoch.
			s.batches, s.err = ex.feed.take(src.Name)
		} else if ex.c.stdin == nil {
			s.err = fmt.Errorf("source %s reads standard input, and there is none", src.Name)
		} else if r, err := format.OpenStream(ex.c.stdin, "stdin", src.Schema, format.Options{Mem: ex.mem}); err != nil {
			s.err = err
		} else {
			s.batches, s.err = format.ReadAll(r)
		}
	}
	if s.err != nil {
		return nil, s.err
	}
	return &memReader{schema: src.Schema, batches: s.batches}, nil
}

// sourceOptions are a source's reader options (thundc check refuses what
// format.ParseSourceOptions would: this is the safety net).
func sourceOptions(src *Dataset, mem memory.Allocator) (format.Format, format.Options, error) {
	opts := format.Options{Mem: mem}
	f, err := format.ParseFormat(src.Source.Format)
	if err != nil {
		return 0, opts, fmt.Errorf("source %s: %w", src.Name, err)
	}
	o, err := format.ParseSourceOptions(f, src.Source.Options)
	if err != nil {
		return 0, opts, fmt.Errorf("source %s: %w", src.Name, err)
	}
	o.Apply(&opts)
	return f, opts, nil
}

// flowReads serves one flow's reads.
type flowReads struct {
	mu      sync.Mutex // Read is safe for concurrent use by a flow's goroutines
	ex      *executor
	ds      *Dataset
	f       *Flow
	full    bool
	streams map[string]*streamRead
	readers []*ctxReader
	// malformed counts each source's malformed records (countMalformed)
	malformed map[string]*format.Malformed
	// quar holds the malformed records of the sources with a quarantine
	// table that the flow read (quarRead), until it succeeds (quarantine.go)
	quar     flowQuarantine
	quarRead map[string]bool
	// iceReads are the flow's reads of Iceberg sources (iceberg_source.go)
	iceReads []events.IcebergRead

	edgeMu sync.Mutex
	edges  []flowEdge
}

// addEdge records one of the flow's edges for its events.
func (fr *flowReads) addEdge(name string, stats func() stream.EdgeStats) {
	fr.edgeMu.Lock()
	fr.edges = append(fr.edges, flowEdge{name: name, stats: stats})
	fr.edgeMu.Unlock()
}

// edgeEvents is the occupancy of the flow's edges (run.Flow.SetEdges).
func (fr *flowReads) edgeEvents() []events.Edge {
	fr.edgeMu.Lock()
	defer fr.edgeMu.Unlock()
	if len(fr.edges) == 0 {
		return nil
	}
	return edgeEvents(fr.edges)
}

// streamRead is a stream read's input for this run and the offset to
// record once the flow succeeded.
type streamRead struct {
	key      string
	srcFiles []format.File
	whFiles  []warehouse.File
	kafka    *kafkaPlan
	iceberg  *icebergPlan
	next     offset
}

func (fr *flowReads) read(name string) (format.BatchReader, error) {
	return fr.readColumns(name, nil, nil)
}

// readColumns is read, decoding only the columns cols of a Parquet source
// (nil: all of them) and skipping its row groups that bounds exclude.
func (fr *flowReads) readColumns(name string, cols []int, bounds []format.Bound) (format.BatchReader, error) {
	fr.mu.Lock()
	defer fr.mu.Unlock()
	var in *Input
	for i := range fr.f.Inputs {
		if fr.f.Inputs[i].Name == name {
			in = &fr.f.Inputs[i]
			break
		}
	}
	if in == nil {
		var names []string
		for _, i := range fr.f.Inputs {
			names = append(names, i.Name)
		}
		return nil, fmt.Errorf("reads %s, which is not one of its inputs (%s)", name, strings.Join(names, ", "))
	}
	ex := fr.ex
	x := ex.pl.byName[name]
	stream := streamInput(fr.ds, *in)
	var (
		br  format.BatchReader
		err error
	)
	switch {
	case x.Kind == Source && x.Source.Stdin:
		br, err = ex.stdinReader(x)
	case isKafka(x):
		br, err = fr.kafkaReader(x, stream, cols)
	case isIceberg(x):
		br, err = fr.icebergReader(x, stream, cols)
	case x.Kind == Source:
		f, opts, oerr := sourceOptions(x, ex.mem)
		if oerr != nil {
			return nil, oerr
		}
		l := ex.pl.listing(x)
		if l.err != nil {
			return nil, l.err
		}
		files := l.files
		if stream {
			files = fr.streamSource(x, l).srcFiles
		}
		ex.srcRead[x.Name] = true
		opts.Columns, opts.Threads, opts.Bounds, opts.Reuse = cols, ex.threads, bounds, true
		if fr.malformed == nil {
			fr.malformed = map[string]*format.Malformed{}
		}
		if fr.malformed[x.Name] == nil {
			fr.malformed[x.Name] = &format.Malformed{}
			if quarantined(x) != "" {
				fr.malformed[x.Name].Quarantine = fr.quar.catch(x.Name)
				if fr.quarRead == nil {
					fr.quarRead = map[string]bool{}
				}
				fr.quarRead[x.Name] = true
			}
		}
		opts.Malformed = fr.malformed[x.Name]
		br = format.OpenFiles(files, f, x.Schema, opts)
	case stored(x.Kind):
		cur, ok := ex.r.Txn.Dataset(name)
		if !ok {
			return nil, fmt.Errorf("dataset %s has no committed version yet; run it first", name)
		}
		if stream {
			sub := *cur
			sub.Files = fr.streamStored(x, cur).whFiles
			cur = &sub
		}
		br, err = ex.r.WH.Open(ex.ctx, cur, format.Options{Mem: ex.mem, Threads: ex.threads})
	case isView(x.Kind):
		var v *viewTarget
		if v, err = ex.view(x, fr.full); err == nil {
			br = &memReader{schema: v.schema, batches: v.batches}
		}
	default:
		err = fmt.Errorf("cannot read %s %s", x.Kind, name)
	}
	if err != nil {
		return nil, err
	}
	if ex.threads > 1 && (x.Kind == Source && !x.Source.Stdin && !isKafka(x) || stored(x.Kind)) {
		// Decode on a goroutine of its own, ahead of the flow, into a
		// bounded edge.
		er := newEdgeReader(ex.ctx, br, ex.edges.bounds(in.Bounds))
		fr.addEdge(name+" -> "+fr.f.Name, er.edge.Stats)
		br = er
	}
	cr := &ctxReader{ctx: ex.ctx, r: br}
	fr.readers = append(fr.readers, cr)
	return cr, nil
}

// streamSource is a stream read of a source: the files the flow has not
// consumed (all of them on a full refresh).
func (fr *flowReads) streamSource(src *Dataset, l *sourceListing) *streamRead {
	if sr := fr.streams[src.Name]; sr != nil {
		return sr
	}
	key := offsetKey(fr.ds.Name, fr.f.Name, src.Name)
	var consumed []fileStamp
	if !fr.full {
		consumed = fr.ex.pl.offset(fr.ds.Name, fr.f.Name, src.Name).Files
	}
	files, stamps, changed := unconsumed(l, consumed)
	files, stamps = fr.capFiles(files, stamps)
	if len(changed) > 0 {
		fr.ex.r.Warn(fmt.Sprintf("source %s: %s changed after flow %s read it; a stream read does not read a file twice (--full-refresh %s reads everything again)",
			src.Name, someNames(changed), fr.f.Name, fr.ds.Name))
	}
	now := map[string]fileStamp{}
	for _, s := range l.stamps {
		now[s.Path] = s
	}
	var next []fileStamp
	for _, s := range consumed {
		if cur, ok := now[s.Path]; ok {
			s = cur // warn once about a changed file
		}
		next = append(next, s)
	}
	next = append(next, stamps...)
	for i := range next {
		// An offset names the files read, by path; their hashes would
		// only make every commit record longer.
		next[i].SHA256 = ""
	}
	sort.Slice(next, func(i, j int) bool { return next[i].Path < next[j].Path })
	sr := &streamRead{key: key, srcFiles: files, next: offset{Files: next}}
	fr.streams[src.Name] = sr
	return sr
}

// streamStored is a stream read of a stored dataset: the files appended
// since the flow's offset (all of them after a rewrite or on a full refresh).
func (fr *flowReads) streamStored(x *Dataset, cur *warehouse.Dataset) *streamRead {
	if sr := fr.streams[x.Name]; sr != nil {
		return sr
	}
	var off offset
	if !fr.full {
		off = fr.ex.pl.offset(fr.ds.Name, fr.f.Name, x.Name)
	}
	files, rewritten := streamFiles(cur, off)
	if rewritten {
		fr.ex.r.Warn(fmt.Sprintf("flow %s: %s was rewritten, not appended to, since the flow last read it; reading all of it", fr.f.Name, x.Name))
	}
	next := offset{Version: cur.Version, Count: len(cur.Files)}
	if n := len(cur.Files); n > 0 {
		next.Last = cur.Files[n-1].Path
	}
	sr := &streamRead{key: offsetKey(fr.ds.Name, fr.f.Name, x.Name), whFiles: files, next: next}
	fr.streams[x.Name] = sr
	return sr
}

// saveOffsets records the flow's new stream offsets in the transaction.
func (fr *flowReads) saveOffsets() {
	for _, sr := range fr.streams {
		raw, _ := json.Marshal(sr.next)
		fr.ex.r.Txn.SetSourceOffset(sr.key, raw)
		fr.ex.pl.offsets[sr.key] = raw
	}
}

// countMalformed adds the malformed records of the flow's source reads to
// its counts, in the order of the flow's inputs.
func (fr *flowReads) countMalformed(stats *run.Flow) {
	for _, in := range fr.f.Inputs {
		if m := fr.malformed[in.Name]; m != nil {
			stats.AddMalformed(in.Name, m.Kept.Load(), m.Dropped.Load())
			stats.AddRescued(in.Name, m.RescuedColumn(), m.Rescued.Load())
			cols, into := m.NewColumns()
			stats.AddNewColumns(in.Name, cols, into)
			delete(fr.malformed, in.Name)
		}
	}
}

func (fr *flowReads) closeReaders() {
	for _, r := range fr.readers {
		r.Close()
	}
}

// ctxReader stops reading once the run is interrupted.
type ctxReader struct {
	ctx    context.Context
	r      format.BatchReader
	closed bool
}

func (c *ctxReader) Schema() *arrow.Schema { return c.r.Schema() }

func (c *ctxReader) Next() (arrow.RecordBatch, error) {
	if c.closed {
		return nil, io.EOF
	}
	if err := c.ctx.Err(); err != nil {
		return nil, err
	}
	return c.r.Next()
}

func (c *ctxReader) Close() error {
	if c.closed {
		return nil
	}
	c.closed = true
	return c.r.Close()
}
