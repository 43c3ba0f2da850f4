package etl

import (
	"errors"
	"fmt"
	"strconv"
	"strings"

	ice "github.com/apache/iceberg-go"
	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/iceberg"
	"github.com/nordisk/thund/rt/run"
)

// Iceberg sources (FileSource.Format "iceberg", Patterns[0] the table's
// folder or s3://bucket/prefix).
//
// The planner opens the table once per run (its newest metadata) and, when
// a dataset reads the source as a snapshot, plans that read: the live data
// files of the current snapshot, or of the one the options time travel to
// (snapshot-id, as-of-timestamp). The files are the source's stamps, so a
// snapshot reader is stale when the table has a new snapshot with other
// files. A source only stream reads read never lists the current
// snapshot's files: each run reads only the manifests of the snapshots it
// takes.
//
// A stream read is an incremental append scan (rt/iceberg.AppendScan):
// the data files added by the append snapshots after the one the flow
// consumed last, up to the current snapshot; a first read (or a full
// refresh) starts from the oldest snapshot of the current one's ancestry,
// read whole, as Spark's source does. The consumed snapshot (and the
// table's uuid) is the flow's offset in the commit record, so a stream
// read is exactly once across crashes. A snapshot that is an overwrite or
// a delete fails the read unless streaming-skip-overwrite-snapshots or
// streaming-skip-delete-snapshots skips it (thund.non-append = skip skips
// both); with thund.non-append = recompute, the reader is rebuilt from the
// current snapshot instead, and the plan says why. Replace snapshots
// (compaction) are skipped.

const icebergFormat = "iceberg"

// isIceberg reports whether a source reads an Iceberg table.
func isIceberg(src *Dataset) bool {
	return src.Kind == Source && src.Source != nil && strings.EqualFold(src.Source.Format, icebergFormat)
}

// Iceberg source options: Spark's names, and Thund's own thund.non-append.
const (
	iceSnapshotID    = "snapshot-id"
	iceAsOf          = "as-of-timestamp"
	iceSkipOverwrite = "streaming-skip-overwrite-snapshots"
	iceSkipDelete    = "streaming-skip-delete-snapshots"
	iceNonAppend     = "thund.non-append"
)

// icebergOpts are an Iceberg source's parsed options.
type icebergOpts struct {
	snapshotID *int64
	asOf       *int64 // milliseconds since the epoch
	scan       iceberg.ScanOptions
	nonAppend  string // fail | skip | recompute
}

// icebergOptions parses an Iceberg source's options, names and values in
// any case (thundc check refuses the same, internal/iceopt: this is the
// safety net).
func icebergOptions(src *Dataset) (icebergOpts, error) {
	o := icebergOpts{nonAppend: "fail"}
	var errs []error
	for _, kv := range src.Source.Options {
		k, v := strings.ToLower(kv[0]), strings.ToLower(strings.TrimSpace(kv[1]))
		switch k {
		case iceSnapshotID, iceAsOf:
			n, err := strconv.ParseInt(v, 10, 64)
			if err != nil {
				errs = append(errs, fmt.Errorf("option %s = %q: want an integer", k, kv[1]))
				continue
			}
			if k == iceSnapshotID {
				o.snapshotID = &n
			} else {
				o.asOf = &n
			}
		case iceSkipOverwrite, iceSkipDelete:
			b, err := strconv.ParseBool(v)
			if err != nil || v != "true" && v != "false" {
				errs = append(errs, fmt.Errorf("option %s = %q: want true or false", k, kv[1]))
				continue
			}
			if k == iceSkipOverwrite {
				o.scan.SkipOverwrite = b
			} else {
				o.scan.SkipDelete = b
			}
		case iceNonAppend:
			switch v {
			case "fail", "skip", "recompute":
				o.nonAppend = v
			default:
				errs = append(errs, fmt.Errorf("option %s = %q: want fail, skip or recompute", k, kv[1]))
			}
		default:
			errs = append(errs, fmt.Errorf("unknown option %q (an Iceberg source takes %s, %s, %s, %s and %s)", kv[0], iceSnapshotID, iceAsOf, iceSkipOverwrite, iceSkipDelete, iceNonAppend))
		}
	}
	if o.snapshotID != nil && o.asOf != nil {
		errs = append(errs, fmt.Errorf("options %s and %s both choose a snapshot: give one", iceSnapshotID, iceAsOf))
	}
	if o.nonAppend == "skip" {
		o.scan.SkipOverwrite, o.scan.SkipDelete = true, true
	}
	if len(src.Source.Patterns) != 1 {
		errs = append(errs, fmt.Errorf("want one table location, have %d", len(src.Source.Patterns)))
	}
	if err := errors.Join(errs...); err != nil {
		return o, fmt.Errorf("source %s: %w", src.Name, err)
	}
	return o, nil
}

// icebergListing is what the planner found of an Iceberg source.
type icebergListing struct {
	table *iceberg.Table
	opts  icebergOpts
	snap  *iceberg.Snapshot // a snapshot read's (nil: the table has none)
	// files are snap's live data files, planned (planned) only when a
	// dataset reads the source as a snapshot
	files   []iceberg.DataFile
	planned bool
	// filesErr: the snapshot's files cannot be read (a delete file); only
	// a snapshot read fails on it.
	filesErr error

	// scans memoizes appendScan (the metadata does not change within a
	// run; a run plans each stream read several times), cur currentFiles
	scans map[scanKey]scanResult
	cur   *scanResult
}

// columnsSchema is the schema the compiler declared the source's columns
// from: a time travel's snapshot schema, else nil (the current one).
func (il *icebergListing) columnsSchema() *ice.Schema {
	if il.snap == nil || (il.opts.snapshotID == nil && il.opts.asOf == nil) {
		return nil
	}
	return il.table.Meta.SnapshotSchema(il.snap)
}

type scanKey struct {
	from int64
	opts iceberg.ScanOptions
}

type scanResult struct {
	scan  *iceberg.Scan
	files []iceberg.DataFile
	err   error
}

// appendScan is the table's AppendScan from `from` to its current snapshot.
func (il *icebergListing) appendScan(pl *planner, from int64, o iceberg.ScanOptions) (*iceberg.Scan, error) {
	k := scanKey{from, o}
	if r, ok := il.scans[k]; ok {
		return r.scan, r.err
	}
	sc, err := il.table.AppendScan(pl.ctx, from, il.table.Meta.Current(), o)
	if il.scans == nil {
		il.scans = map[scanKey]scanResult{}
	}
	il.scans[k] = scanResult{scan: sc, err: err}
	return sc, err
}

// currentFiles is the live data files of the table's current snapshot.
func (il *icebergListing) currentFiles(pl *planner) ([]iceberg.DataFile, error) {
	if il.cur == nil {
		files, err := il.table.Files(pl.ctx, il.table.Meta.Current())
		il.cur = &scanResult{files: files, err: err}
	}
	return il.cur.files, il.cur.err
}

// icebergListing opens an Iceberg source's table and plans its snapshot
// read into l (once per run).
func (pl *planner) icebergListing(src *Dataset, l *sourceListing) {
	o, err := icebergOptions(src)
	if err != nil {
		l.err = err
		return
	}
	var openS3 iceberg.OpenS3
	if pl.p.OpenS3 != nil {
		openS3 = iceberg.OpenS3(pl.p.OpenS3)
	}
	tb, err := iceberg.OpenLocation(pl.ctx, pl.root, src.Source.Patterns[0], openS3)
	if err != nil {
		l.err = fmt.Errorf("source %s: %w", src.Name, err)
		return
	}
	il := &icebergListing{table: tb, opts: o}
	switch {
	case o.snapshotID != nil:
		il.snap, err = tb.SnapshotByID(*o.snapshotID)
	case o.asOf != nil:
		il.snap, err = tb.SnapshotAsOf(*o.asOf)
	default:
		il.snap = tb.Meta.Current()
	}
	if err != nil {
		l.err = fmt.Errorf("source %s: %w", src.Name, err)
		return
	}
	l.iceberg = il
	if !pl.snapshotRead(src) {
		// Only stream reads: they read the manifests of the snapshots
		// they take, not every manifest of the current snapshot.
		return
	}
	il.planned = true
	if il.files, err = tb.Files(pl.ctx, il.snap); err != nil {
		il.filesErr = fmt.Errorf("source %s: %w", src.Name, err)
	}
	for _, f := range il.files {
		l.stamps = append(l.stamps, fileStamp{Path: tb.Rel(f), Size: f.Size, MTime: "snapshot " + strconv.FormatInt(f.Snapshot, 10)})
	}
}

// snapshotRead reports whether a dataset of the pipeline reads src as a
// snapshot (not a stream read).
func (pl *planner) snapshotRead(src *Dataset) bool {
	for _, ds := range pl.p.Datasets {
		for _, f := range ds.Flows {
			for _, in := range f.Inputs {
				if in.Name == src.Name && !streamInput(ds, in) {
					return true
				}
			}
		}
	}
	return false
}

// icebergNext is an Iceberg stream read's offset in the commit record:
// the last snapshot read, of the table of that uuid.
type icebergNext struct {
	Snapshot int64  `json:"snapshot"`
	Table    string `json:"table,omitempty"`
}

// icebergPlan is what one stream read of an Iceberg source takes.
type icebergPlan struct {
	files []iceberg.DataFile
	next  icebergNext
	// recompute says why the read is the current snapshot whole rather
	// than what was appended (thund.non-append = recompute); "" otherwise.
	recompute string
	scan      *iceberg.Scan
	from      int64
}

func (ip *icebergPlan) rows() (n int64) {
	for _, f := range ip.files {
		n += f.Rows
	}
	return n
}

// icebergRead plans flow f of ds's stream read of the Iceberg source x:
// from the flow's offset (from the start when full).
func (pl *planner) icebergRead(ds *Dataset, f *Flow, x *Dataset, full bool) (*icebergPlan, error) {
	l := pl.listing(x)
	if l.err != nil {
		return nil, l.err
	}
	il := l.iceberg
	if il.opts.snapshotID != nil || il.opts.asOf != nil {
		return nil, fmt.Errorf("source %s: a stream read takes what is appended after the snapshot it read last, so it does not time travel (%s, %s): read it as a snapshot, or drop the option", x.Name, iceSnapshotID, iceAsOf)
	}
	tb := il.table
	cur := tb.Meta.Current()
	ip := &icebergPlan{next: icebergNext{Table: tb.Meta.TableUUID}}
	if !full {
		if off := pl.offset(ds.Name, f.Name, x.Name).Iceberg; off != nil {
			if off.Table != "" && tb.Meta.TableUUID != "" && off.Table != tb.Meta.TableUUID {
				return nil, fmt.Errorf("source %s: Iceberg table %s was replaced (table uuid %s, the stream read %s); --full-refresh %s reads the new table from the start",
					x.Name, tb.Name, tb.Meta.TableUUID, off.Table, ds.Name)
			}
			ip.from = off.Snapshot
		}
	}
	scan := il.opts.scan
	if ds.Incremental {
		scan = iceberg.ScanOptions{} // a view equals its recompute: nothing is skipped
	}
	sc, err := il.appendScan(pl, ip.from, scan)
	var na *iceberg.NonAppendError
	switch {
	case errors.As(err, &na) && (il.opts.nonAppend == "recompute" || ds.Incremental):
		// An incremental materialized view recomputes in full when an
		// input was rewritten rather than appended to, whatever the option.
		files, ferr := il.currentFiles(pl)
		if ferr != nil {
			return nil, fmt.Errorf("source %s: %w", x.Name, ferr)
		}
		ip.files, ip.next.Snapshot = files, cur.SnapshotID
		why := "thund.non-append = recompute"
		if ds.Incremental {
			why = "an incremental view recomputes in full"
		}
		ip.recompute = fmt.Sprintf("snapshot %d of %s is a%s %s, not an append (%s: reading its current snapshot %d whole)",
			na.Snapshot, x.Name, article(na.Operation), na.Operation, why, cur.SnapshotID)
		return ip, nil
	case err != nil:
		var lost *iceberg.LostError
		if errors.As(err, &lost) {
			return nil, fmt.Errorf("source %s: %w; --full-refresh %s reads the table again from the start", x.Name, err, ds.Name)
		}
		return nil, fmt.Errorf("source %s: %w", x.Name, err)
	}
	ip.scan, ip.files, ip.next.Snapshot = sc, sc.Files, sc.To
	return ip, nil
}

func article(s string) string {
	if s != "" && strings.ContainsRune("aeiou", rune(s[0])) {
		return "n"
	}
	return ""
}

// describe says what a stream read takes, for plan reasons.
func (ip *icebergPlan) describe(src string) string {
	if ip.recompute != "" {
		return ip.recompute
	}
	s := fmt.Sprintf("new snapshots in %s (%s, %s", src, plural(int64(len(ip.files)), "file", "files"), plural(ip.rows(), "row", "rows"))
	if sc := ip.scan; sc != nil {
		var ids []string
		if sc.Base != 0 {
			ids = append(ids, fmt.Sprintf("%d (whole)", sc.Base))
		}
		for _, id := range sc.Snapshots {
			ids = append(ids, strconv.FormatInt(id, 10))
		}
		if len(ids) > 0 {
			s += "; snapshot " + someNames(ids)
		}
		if len(sc.Skipped) > 0 {
			s += "; skipped " + someNames(sc.Skipped)
		}
	}
	return s + ")"
}

// pending reports whether the read takes anything (files, or a snapshot
// to move the offset past).
func (ip *icebergPlan) pending() bool {
	return len(ip.files) > 0 || ip.recompute != ""
}

// describeIceberg says what an Iceberg source holds, for plan.
func describeIceberg(il *icebergListing) string {
	if il.snap == nil {
		return "Iceberg table " + il.table.Name + ": no snapshot yet"
	}
	if !il.planned {
		return fmt.Sprintf("Iceberg table %s: snapshot %d", il.table.Name, il.snap.SnapshotID)
	}
	var rows int64
	for _, f := range il.files {
		rows += f.Rows
	}
	return fmt.Sprintf("Iceberg table %s: snapshot %d (%s, %s)", il.table.Name, il.snap.SnapshotID,
		plural(int64(len(il.files)), "file", "files"), plural(rows, "row", "rows"))
}

// icebergReader reads flow fr's input x, an Iceberg source: a stream read
// takes the files the flow's scan planned, a snapshot read the snapshot's.
func (fr *flowReads) icebergReader(x *Dataset, stream bool, cols []int) (format.BatchReader, error) {
	ex := fr.ex
	l := ex.pl.listing(x)
	if l.err != nil {
		return nil, l.err
	}
	files := l.iceberg.files
	ev := events.IcebergRead{Source: x.Name, Table: l.iceberg.table.Name, Stream: stream}
	if stream {
		sr, err := fr.streamIceberg(x)
		if err != nil {
			return nil, err
		}
		ip := sr.iceberg
		files = ip.files
		ev.From, ev.To, ev.Recompute = ip.from, ip.next.Snapshot, ip.recompute
		if sc := ip.scan; sc != nil {
			ev.Base, ev.Snapshots, ev.Skipped = sc.Base, sc.Snapshots, sc.Skipped
		}
	} else if l.iceberg.filesErr != nil {
		return nil, l.iceberg.filesErr
	} else if l.iceberg.snap != nil {
		ev.Snapshot = l.iceberg.snap.SnapshotID
	}
	ev.Files = len(files)
	for _, f := range files {
		ev.Rows += f.Rows
	}
	ex.r.Log.Emit(events.Info, events.TypeIcebergRead, fr.ds.Name, fr.f.Name, ev)
	fr.iceReads = append(fr.iceReads, ev)
	ex.srcRead[x.Name] = true
	br, err := l.iceberg.table.Reader(ex.ctx, files, x.Schema, l.iceberg.columnsSchema(), format.Options{Mem: ex.mem, Columns: cols, Threads: ex.threads, Reuse: true})
	if err != nil {
		return nil, fmt.Errorf("source %s: %w", x.Name, err)
	}
	return br, nil
}

// countIcebergReads puts the flow's Iceberg reads in the run summary:
// "read ev: Iceberg snapshots 2 to 3 (2 appends): 2 files, 3 rows".
func (fr *flowReads) countIcebergReads(stats *run.Flow) {
	for _, ev := range fr.iceReads {
		var what string
		switch {
		case !ev.Stream:
			what = fmt.Sprintf("Iceberg snapshot %d", ev.Snapshot)
		case ev.Recompute != "":
			what = fmt.Sprintf("Iceberg snapshot %d whole (thund.non-append = recompute)", ev.To)
		case ev.From == ev.To:
			what = fmt.Sprintf("Iceberg snapshot %d, nothing new", ev.To)
		default:
			n := len(ev.Snapshots)
			if ev.Base != 0 {
				n++
			}
			what = fmt.Sprintf("Iceberg snapshots after %d up to %d (%s read", ev.From, ev.To, plural(int64(n), "snapshot", "snapshots"))
			if ev.From == 0 {
				what = fmt.Sprintf("Iceberg snapshots up to %d (%s read", ev.To, plural(int64(n), "snapshot", "snapshots"))
			}
			if len(ev.Skipped) > 0 {
				what += fmt.Sprintf(", %d skipped", len(ev.Skipped))
			}
			what += ")"
		}
		stats.AddSourceRead(ev.Source, fmt.Sprintf("%s: %s, %s", what, plural(int64(ev.Files), "file", "files"), plural(ev.Rows, "row", "rows")))
	}
	fr.iceReads = nil
}

// streamIceberg is a stream read of an Iceberg source (once per flow and
// run): the scan from the flow's offset, and the offset after it.
func (fr *flowReads) streamIceberg(src *Dataset) (*streamRead, error) {
	if sr := fr.streams[src.Name]; sr != nil {
		return sr, nil
	}
	ip, err := fr.ex.pl.icebergRead(fr.ds, fr.f, src, fr.full)
	if err != nil {
		return nil, err
	}
	next := ip.next
	sr := &streamRead{key: offsetKey(fr.ds.Name, fr.f.Name, src.Name), iceberg: ip, next: offset{Iceberg: &next}}
	fr.streams[src.Name] = sr
	return sr, nil
}

// checkIceberg opens an Iceberg source's table (preflight), finds the
// declared columns in it, and plans each read the run may make: a snapshot read's files hold no delete file, a
// stream read's consumed snapshot is still in the table's history and no
// snapshot since is a non-append that the options do not handle.
func (ex *executor) checkIceberg(src *Dataset, reads []sourceRead) []error {
	l := ex.pl.listing(src)
	if l.err != nil {
		return []error{l.err}
	}
	var errs []error
	if err := l.iceberg.table.CheckColumns(src.Schema, l.iceberg.columnsSchema()); err != nil {
		errs = append(errs, fmt.Errorf("source %s: %w", src.Name, err))
	}
	snapshot := false
	for _, r := range reads {
		if !r.stream {
			snapshot = true
			continue
		}
		if _, err := ex.pl.icebergRead(r.reader, r.flow, src, ex.sel.full[r.reader.Name]); err != nil {
			errs = append(errs, err)
		}
	}
	if snapshot && l.iceberg.filesErr != nil {
		errs = append(errs, l.iceberg.filesErr)
	}
	return errs
}
