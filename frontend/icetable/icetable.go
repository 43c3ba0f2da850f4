// Package icetable reads, at compile time, what the frontends need of an
// Iceberg source's table: its options are judged (internal/iceopt), its
// metadata is read from the location (a folder, relative to the pipeline's
// folder, or s3://bucket/prefix with the warehouse's S3 settings), the
// snapshot a time travel names is found, and that snapshot's schema (the
// current one without time travel) becomes the source's columns through
// rt/iceberg.ArrowType and ir.FromArrow. It reads and never writes; every
// problem is a diagnostic at the option or the source that causes it.
//
// It imports rt (rt/iceberg, rt/store/s3store), which STYLE keeps the
// compiler from doing but to embed its source: the compiler must choose
// the snapshot and read the schema exactly as the program's run will
// (rt/iceberg.OpenLocation, SnapshotAsOf, ArrowType), and one reader of
// the metadata for both is worth the exception.
package icetable

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nordisk/thund/internal/iceopt"
	"github.com/nordisk/thund/internal/suggest"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/rt/iceberg"
	"github.com/nordisk/thund/rt/store/s3store"
)

// Timeout bounds the reads of one table's metadata on S3.
const Timeout = 30 * time.Second

// Columns judges the options of the Iceberg source name (spec, whose one
// path is the table's location; relative to dir) and returns the columns
// of the snapshot it reads. It writes the options' names as Spark spells
// them into spec (they are taken in any case). On any problem the columns
// are nil and the diagnostics say why.
func Columns(dir, name string, spec *ir.SourceSpec) ([]*ir.Column, ir.Diagnostics) {
	var diags ir.Diagnostics
	if len(spec.Paths) != 1 || spec.Stdin {
		return nil, nil // ir.Validate says so
	}
	loc := spec.Paths[0]
	var snapshotID, asOf *int64
	var snapP, asOfP ir.Pos
	for i := range spec.Options {
		kv := &spec.Options[i]
		p := kv.Pos
		if !p.IsValid() {
			p = spec.Pos
		}
		o, ok := iceopt.Lookup(kv.Key)
		if !ok {
			switch {
			case iceopt.SparkOnly(kv.Key):
				diags.Add(p, ir.CodeBadDataset, "Iceberg source %s: option %s is Spark's, which Þund does not take (want %s)", name, kv.Key, suggest.OrList(iceopt.Names()))
			default:
				if s, ok := suggest.Closest(kv.Key, iceopt.Names()); ok {
					diags.Add(p, ir.CodeBadDataset, "Iceberg source %s: unknown option %s (did you mean %s?)", name, kv.Key, s)
				} else {
					diags.Add(p, ir.CodeBadDataset, "Iceberg source %s: unknown option %s (want %s)", name, kv.Key, suggest.OrList(iceopt.Names()))
				}
			}
			continue
		}
		kv.Key = o.Name
		if err := iceopt.CheckValue(o, kv.Value, spec.Unbounded); err != nil {
			diags.Add(p, ir.CodeBadDataset, "Iceberg source %s: option %s: %v", name, o.Name, err)
			continue
		}
		if o.Values != nil {
			kv.Value = strings.ToLower(kv.Value)
		}
		n := iceopt.Int(kv.Value)
		switch o.Name {
		case iceopt.SnapshotID:
			snapshotID, snapP = &n, p
		case iceopt.AsOfTimestamp:
			asOf, asOfP = &n, p
		}
	}
	if snapshotID != nil && asOf != nil {
		diags.Add(asOfP, ir.CodeBadDataset, "Iceberg source %s: options snapshot-id and as-of-timestamp are two time travels: give one", name)
	}
	if diags.HasErrors() {
		return nil, diags
	}
	m, err := readMetadata(dir, loc)
	if err != nil {
		diags.Add(spec.Pos, ir.CodeBadDataset, "Iceberg source %s: %v", name, err)
		return nil, diags
	}
	var snap *iceberg.Snapshot
	switch {
	case snapshotID != nil:
		if snap = m.Snapshot(*snapshotID); snap == nil {
			diags.Add(snapP, ir.CodeBadDataset, "Iceberg source %s: the table at %q has no snapshot %d (%s)", name, loc, *snapshotID, snapshotIDs(m))
			return nil, diags
		}
	case asOf != nil:
		if snap = asOfSnapshot(m, *asOf); snap == nil {
			diags.Add(asOfP, ir.CodeBadDataset, "Iceberg source %s: the table at %q has no snapshot as old as %s (%s)", name, loc, millisText(*asOf), snapshotList(m))
			return nil, diags
		}
	}
	schema := m.CurrentSchema()
	if snap != nil {
		schema = m.SnapshotSchema(snap)
	}
	if schema == nil {
		diags.Add(spec.Pos, ir.CodeBadDataset, "Iceberg source %s: the metadata of the table at %q has no schema %d", name, loc, m.CurrentSchemaID)
		return nil, diags
	}
	var cols []*ir.Column
	for _, f := range schema.Fields() {
		at, err := iceberg.ArrowType(f.Type)
		if err != nil {
			diags.Add(spec.Pos, ir.CodeBadDataset, "Iceberg source %s: column %s: %v", name, f.Name, err)
			continue
		}
		t, err := ir.FromArrow(at)
		if err != nil {
			diags.Add(spec.Pos, ir.CodeBadDataset, "Iceberg source %s: column %s: %v", name, f.Name, err)
			continue
		}
		cols = append(cols, &ir.Column{Pos: spec.Pos, Name: f.Name, Type: t, NotNull: f.Required, Comment: f.Doc})
	}
	if diags.HasErrors() {
		return nil, diags
	}
	return cols, nil
}

// readMetadata reads the newest metadata of the table at loc, opened as
// the runtime opens it (rt/iceberg.OpenLocation): a local folder
// (file:/ prefixes allowed; relative to dir), or s3://bucket/prefix with
// the warehouse's S3 settings.
func readMetadata(dir, loc string) (*iceberg.Metadata, error) {
	ctx, cancel := context.WithTimeout(context.Background(), Timeout)
	defer cancel()
	switch {
	case strings.HasPrefix(loc, "s3://"):
	case strings.Contains(loc, "://") && !strings.HasPrefix(loc, "file://"):
		return nil, fmt.Errorf("location %q: want a folder path or s3://bucket/prefix", loc)
	default:
		p := filepath.FromSlash(strings.TrimPrefix(strings.TrimPrefix(loc, "file://"), "file:"))
		if !filepath.IsAbs(p) {
			p = filepath.Join(dir, p)
		}
		st, err := os.Stat(p)
		switch {
		case errors.Is(err, os.ErrNotExist):
			return nil, fmt.Errorf("no Iceberg table at %q: no such folder", loc)
		case err != nil:
			return nil, fmt.Errorf("cannot read the Iceberg table at %q: %v", loc, err)
		case !st.IsDir():
			return nil, fmt.Errorf("no Iceberg table at %q: want the table's folder (the one holding metadata/), not a file", loc)
		}
	}
	t, err := iceberg.OpenLocation(ctx, dir, loc, s3store.Open)
	switch {
	case errors.Is(err, iceberg.ErrNoTable):
		return nil, fmt.Errorf("no Iceberg table at %q: no metadata/*.metadata.json there", loc)
	case err != nil:
		return nil, fmt.Errorf("cannot read the Iceberg table at %q: %v", loc, err)
	}
	return t.Meta, nil
}

// asOfSnapshot is the snapshot that was current at ms, as Spark's Iceberg
// source picks it and the runtime does (rt/iceberg's SnapshotAsOf: the
// last entry of the snapshot log at or before ms); nil when there is none.
func asOfSnapshot(m *iceberg.Metadata, ms int64) *iceberg.Snapshot {
	s, err := (&iceberg.Table{Meta: m}).SnapshotAsOf(ms)
	if err != nil {
		return nil
	}
	return s
}

// snapshotList says which snapshots a table has, for an error message.
func snapshotList(m *iceberg.Metadata) string {
	if len(m.Snapshots) == 0 {
		return "it has none"
	}
	snaps := make([]iceberg.Snapshot, len(m.Snapshots))
	copy(snaps, m.Snapshots)
	sort.Slice(snaps, func(i, j int) bool { return snaps[i].TimestampMs < snaps[j].TimestampMs })
	const most = 5
	var parts []string
	for i, s := range snaps {
		if len(snaps) > most && i == 2 {
			parts = append(parts, "...")
		}
		if len(snaps) > most && i >= 2 && i < len(snaps)-(most-2) {
			continue
		}
		parts = append(parts, fmt.Sprintf("%d at %s", s.SnapshotID, millisText(s.TimestampMs)))
	}
	return "its snapshots: " + strings.Join(parts, ", ")
}

// millisText prints ms since the epoch as a UTC time.
func millisText(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000") + " UTC"
}

// snapshotIDs lists a table's snapshot ids, oldest first, for an error
// message.
func snapshotIDs(m *iceberg.Metadata) string {
	if len(m.Snapshots) == 0 {
		return "it has none"
	}
	snaps := make([]iceberg.Snapshot, len(m.Snapshots))
	copy(snaps, m.Snapshots)
	sort.Slice(snaps, func(i, j int) bool { return snaps[i].TimestampMs < snaps[j].TimestampMs })
	var ids []string
	for i, s := range snaps {
		if len(snaps) > 8 && i >= 3 && i < len(snaps)-4 {
			if i == 3 {
				ids = append(ids, "...")
			}
			continue
		}
		ids = append(ids, strconv.FormatInt(s.SnapshotID, 10))
	}
	return "its snapshots: " + strings.Join(ids, ", ")
}
