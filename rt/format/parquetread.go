package format

import (
	"context"
	"fmt"
	"io"
	"runtime"
	"slices"
	"sort"
	"sync"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/nordisk/thund/rt/format/pqfast"
	"github.com/nordisk/thund/rt/format/pqread"
	"github.com/nordisk/thund/rt/store"
)

// The Parquet reader decodes whole row groups, several at once (Options.Threads
// goroutines), ahead of the caller and in file order, then hands them out
// as batches of Options.BatchRows rows; it decodes only the columns the
// caller reads (Options.Columns). At most 2×Threads decoded row groups wait
// for the caller, which bounds the reader's memory.

// rowGroup is one decoded row group, or the error decoding it.
type rowGroup struct {
	tbl arrow.Table
	err error
}

// parquetSource produces a file's row groups as batches, in order.
type parquetSource struct {
	queue  chan chan rowGroup // in file order
	cancel context.CancelFunc
	wg     sync.WaitGroup
	batch  int64
	tr     *array.TableReader
	tbl    arrow.Table
	filter *rowFilter // applied to each row group as it is decoded; nil: none
}

func newParquetReader(obj store.Object, name string, schema *arrow.Schema, opts Options, mem memory.Allocator) (_ BatchReader, err error) {
	var pf *file.Reader
	defer func() {
		if p := recover(); p != nil { // arrow-go, on a malformed footer (parquetcheck.go)
			if pf != nil {
				pf.Close()
			}
			err = fmt.Errorf("%s: %w", name, parquetPanic("the footer", p))
		}
	}()
	// pqread reads column chunks through a small buffer rather than
	// whole: a whole chunk is a fresh allocation of megabytes per row group
	// and column, whose zeroing and page faults cost more than the reads
	// (the fast decoder, rt/format/pqfast, reads them whole into reused buffers).
	// With Options.Reuse, the decoded buffers come from readPool.
	dmem := mem
	if opts.Reuse {
		dmem = &readPool
	}
	props := parquet.NewReaderProperties(dmem)
	props.BufferedStreamEnabled = true
	props.BufferSize = 256 << 10
	guard := &pageGuard{Object: obj} // parquetpages.go
	pf, err = file.NewParquetReader(guard, file.WithReadProps(props))
	if err != nil {
		return nil, fmt.Errorf("%s: not a readable Parquet file: %w", name, err)
	}
	if v := pf.MetaData().KeyValueMetadata().FindValue("ARROW:schema"); v != nil {
		// pqread decodes it with arrow-go's ipc package (ipcverify.go)
		if err := checkArrowSchemaValue(*v); err != nil {
			pf.Close()
			return nil, fmt.Errorf("%s: the Arrow schema in the footer (ARROW:schema) is malformed: %w", name, err)
		}
	}
	fr, err := pqread.NewFileReader(pf, pqread.ArrowReadProperties{BatchSize: int64(opts.batchRows())}, dmem)
	if err != nil {
		pf.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	fileSchema, err := fr.Schema()
	if err != nil {
		pf.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	fidx, conv, err := plan(name, fileSchema, schema, mem)
	if err != nil {
		pf.Close()
		return nil, err
	}
	// string bounds: their columns are read as dictionaries (rowfilter.go)
	var texts []int
	for _, b := range opts.Bounds {
		if b.Col >= 0 && b.Col < len(fidx) && opts.reads(b.Col) && b.Op == "=" &&
			schema.Field(b.Col).Type.ID() == arrow.STRING && fileSchema.Field(fidx[b.Col]).Type.ID() == arrow.STRING {
			texts = append(texts, b.Col)
		}
	}
	if len(texts) > 0 {
		props := pqread.ArrowReadProperties{BatchSize: int64(opts.batchRows())}
		for _, c := range texts {
			props.SetReadDict(fr.Manifest.Fields[fidx[c]].ColIndex, true)
		}
		if fr, err = pqread.NewFileReader(pf, props, dmem); err == nil {
			fileSchema, err = fr.Schema()
		}
		if err == nil {
			fidx, conv, err = plan(name, fileSchema, schema, mem)
		}
		if err != nil {
			pf.Close()
			return nil, fmt.Errorf("%s: %w", name, err)
		}
	}
	// The decoded table holds the read fields in file order.
	sel := map[int]bool{}
	for i, fi := range fidx {
		if opts.reads(i) {
			sel[fi] = true
		}
	}
	if len(sel) == 0 && len(fidx) > 0 {
		// no column read: decode one all the same, for the row counts
		sel[fidx[0]] = true
	}
	var order []int
	for fi := range sel {
		order = append(order, fi)
	}
	sort.Ints(order)
	var leaves []int
	for _, fi := range order {
		leaves = pqfast.FieldLeaves(&fr.Manifest.Fields[fi], leaves)
	}
	maxCompressed, maxUncompressed, err := checkParquetFooter(pf.MetaData(), obj.Size(), leaves, guard)
	if err != nil {
		pf.Close()
		return nil, fmt.Errorf("%s: %w", name, err)
	}
	// pqarrow's page reader allocates a page's stated sizes before it
	// reads the page: no page is bigger than its chunk says
	props.MaxCompressedPageSize = maxCompressed
	props.MaxUncompressedPageSize = min(maxUncompressed, parquet.DefaultMaxUncompressedPageSize)
	pos := make([]int, len(fidx))
	for i, fi := range fidx {
		pos[i] = -1
		if opts.reads(i) {
			pos[i] = sort.SearchInts(order, fi)
		}
	}
	threads := opts.Threads
	if threads <= 0 {
		threads = runtime.GOMAXPROCS(0)
	}
	ctx, cancel := context.WithCancel(context.Background())
	ps := &parquetSource{queue: make(chan chan rowGroup, 2*threads), cancel: cancel, batch: int64(opts.batchRows())}
	if len(texts) > 0 {
		ps.filter = &rowFilter{mem: dmem} // the rows kept go to pooled buffers too, with Options.Reuse
		for _, b := range opts.Bounds {
			if b.Col < 0 || b.Col >= len(fidx) || pos[b.Col] < 0 {
				continue
			}
			want, have := schema.Field(b.Col).Type, fileSchema.Field(fidx[b.Col]).Type
			text := slices.Contains(texts, b.Col)
			if text || (want.ID() == arrow.INT64 || want.ID() == arrow.INT32) && arrow.TypeEqual(want, have) {
				ps.filter.bounds = append(ps.filter.bounds, &rowBound{pos: pos[b.Col], b: b})
			}
		}
	}
	var fast *pqfast.Reader
	if !opts.noFastParquet {
		fast = pqfast.NewReader(name, obj, obj.Size(), pf.MetaData(), fr, order, dmem)
	}
	ps.start(ctx, guard, fr, fast, leaves, pruneGroups(pf, fr, fileSchema, schema, fidx, opts.Bounds), threads)
	cr := &conformReader{name: name, schema: schema, pos: pos, conv: conv, src: ps.next,
		close: func() error { ps.stop(); pf.Close(); return obj.Close() }}
	return cr, nil
}

// start decodes the row groups, threads at a time, queueing them in order:
// through the fast decoder (rt/format/pqfast) when there is one, else pqread.
func (ps *parquetSource) start(ctx context.Context, guard *pageGuard, fr *pqread.FileReader, fast *pqfast.Reader, leaves []int, groups []int, threads int) {
	sem := make(chan struct{}, threads)
	ps.wg.Add(1)
	go func() {
		defer ps.wg.Done()
		defer close(ps.queue)
		for _, g := range groups {
			ch := make(chan rowGroup, 1)
			select {
			case ps.queue <- ch:
			case <-ctx.Done():
				return
			}
			select {
			case sem <- struct{}{}:
			case <-ctx.Done():
				ch <- rowGroup{err: ctx.Err()}
				return
			}
			ps.wg.Add(1)
			go func() {
				defer ps.wg.Done()
				var tbl arrow.Table
				what := fmt.Sprintf("row group %d", g)
				err := guardParquet(what, func() error {
					if err := guard.prove(g); err != nil {
						return err
					}
					var err error
					if fast != nil {
						tbl, err = fast.ReadRowGroup(ctx, g)
					} else if tbl, err = fr.ReadRowGroups(ctx, leaves, []int{g}); err == nil {
						err = validateNested(tbl)
					}
					if err != nil {
						if tbl != nil {
							tbl.Release()
							tbl = nil
						}
						return parquetErr(what, err)
					}
					if ps.filter != nil {
						tbl = ps.filter.clone().table(tbl, ps.batch)
					}
					return nil
				})
				if err != nil {
					tbl = nil // after a panic, in whatever state it was left
				}
				<-sem
				ch <- rowGroup{tbl: tbl, err: err}
			}()
		}
	}()
}

// next returns the next batch (borrowed: valid until the next call), or
// io.EOF.
func (ps *parquetSource) next() (arrow.RecordBatch, error) {
	for {
		if ps.tr != nil {
			if ps.tr.Next() {
				return ps.tr.RecordBatch(), nil
			}
			err := ps.tr.Err()
			ps.release()
			if err != nil && err != io.EOF {
				return nil, err
			}
		}
		ch, ok := <-ps.queue
		if !ok {
			return nil, io.EOF
		}
		rg := <-ch
		if rg.err != nil {
			return nil, rg.err
		}
		ps.tbl = rg.tbl
		ps.tr = array.NewTableReader(rg.tbl, ps.batch)
	}
}

func (ps *parquetSource) release() {
	if ps.tr != nil {
		ps.tr.Release()
		ps.tr = nil
	}
	if ps.tbl != nil {
		ps.tbl.Release()
		ps.tbl = nil
	}
}

// stop cancels the decoding still running and waits for it.
func (ps *parquetSource) stop() {
	ps.cancel()
	ps.release()
	for ch := range ps.queue {
		if rg := <-ch; rg.tbl != nil {
			rg.tbl.Release()
		}
	}
	ps.wg.Wait()
}

// pruneGroups lists the row groups to read: those whose column statistics
// do not exclude every row by one of the bounds. A bound counts only on a
// column the file holds with exactly the declared int32 or int64 type, and
// only where the row group has min/max statistics for it.
func pruneGroups(pf *file.Reader, fr *pqread.FileReader, fileSchema, schema *arrow.Schema, fidx []int, bounds []Bound) []int {
	var lbs []leafBound
	for _, b := range bounds {
		if b.Col < 0 || b.Col >= len(fidx) {
			continue
		}
		want, have := schema.Field(b.Col).Type, fileSchema.Field(fidx[b.Col]).Type
		if (want.ID() == arrow.INT64 || want.ID() == arrow.INT32) && arrow.TypeEqual(want, have) {
			lbs = append(lbs, leafBound{fr.Manifest.Fields[fidx[b.Col]].ColIndex, b})
		}
	}
	var groups []int
	for g := 0; g < pf.NumRowGroups(); g++ {
		if !groupExcluded(pf.MetaData().RowGroup(g), lbs) {
			groups = append(groups, g)
		}
	}
	return groups
}

// leafBound is a Bound on one Parquet leaf column.
type leafBound struct {
	leaf int
	b    Bound
}

// groupExcluded reports whether a row group's statistics exclude every row.
func groupExcluded(rg *metadata.RowGroupMetaData, lbs []leafBound) bool {
	for _, lb := range lbs {
		cc, err := rg.ColumnChunk(lb.leaf)
		if err != nil {
			continue
		}
		if set, err := cc.StatsSet(); err != nil || !set {
			continue
		}
		st, err := cc.Statistics()
		if err != nil || st == nil || !st.HasMinMax() {
			continue
		}
		switch s := st.(type) {
		case *metadata.Int64Statistics:
			if lb.b.excludes(s.Min(), s.Max()) {
				return true
			}
		case *metadata.Int32Statistics:
			if lb.b.excludes(int64(s.Min()), int64(s.Max())) {
				return true
			}
		}
	}
	return false
}

// validateNested checks the nested columns of tbl (lists, maps, structs)
// with arrow's structural validation, which costs a few checks an array:
// the levels of a corrupt file can describe children the pages do not
// hold, and an array whose offsets reach past its children must not leave
// the reader.
func validateNested(tbl arrow.Table) error {
	for i := range int(tbl.NumCols()) {
		col := tbl.Column(i)
		if _, nested := col.DataType().(arrow.NestedType); !nested {
			continue
		}
		for _, c := range col.Data().Chunks() {
			if err := array.Validate(c); err != nil {
				return fmt.Errorf("corrupt column %q: %w", col.Name(), err)
			}
		}
	}
	return nil
}
