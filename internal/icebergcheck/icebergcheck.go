package icebergcheck

import (
	"bytes"
	"context"
	_ "embed"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
)

//go:embed icebergcheck.py
var script []byte

// At selects the snapshot a reader reads: the zero value is the table's
// current snapshot.
type At struct {
	SnapshotID  int64 // a snapshot id, when not 0
	TimestampMS int64 // else, when not 0, the snapshot current at this time (Unix ms), as Iceberg's as-of-timestamp reads
}

// Current is the table's current snapshot.
var Current = At{}

// Snapshot reads the snapshot of this id.
func Snapshot(id int64) At { return At{SnapshotID: id} }

// AsOf reads the snapshot that was current at t (Iceberg's time travel by
// timestamp, to the millisecond).
func AsOf(t time.Time) At { return At{TimestampMS: t.UnixMilli()} }

func (a At) String() string {
	switch {
	case a.SnapshotID != 0:
		return "snapshot " + strconv.FormatInt(a.SnapshotID, 10)
	case a.TimestampMS != 0:
		return "as of " + time.UnixMilli(a.TimestampMS).UTC().Format(time.RFC3339Nano)
	}
	return "the current snapshot"
}

func (a At) request() map[string]any {
	switch {
	case a.SnapshotID != 0:
		return map[string]any{"kind": "snapshot", "snapshot_id": a.SnapshotID}
	case a.TimestampMS != 0:
		return map[string]any{"kind": "timestamp", "timestamp_ms": a.TimestampMS}
	}
	return map[string]any{"kind": "current"}
}

// Result is a table as one reader read it.
type Result struct {
	Table
	Reader   string // pyiceberg, spark or thund
	Location string // the table's folder ("" for thund)
	Metadata string // the metadata file the reader was given, or found ("" for thund and for Spark on a Hadoop table)
	// SnapshotID is the snapshot read (0 for a table with none, and for
	// thund). Spark does not say which snapshot an as-of-timestamp read
	// chose: it is taken from Snapshots, as the newest at that time.
	SnapshotID int64
	// Types are the columns' types as the reader names them: Iceberg types
	// (pyiceberg: long, decimal(9, 2), list<int>, timestamptz, ...), Spark
	// SQL types (spark: bigint, array<int>, ...) or Arrow types (thund).
	Types []string
	// FieldIDs are the columns' Iceberg field ids (pyiceberg only).
	FieldIDs []int
	// Required says which columns Iceberg marks required (pyiceberg only).
	Required []bool
	// Spec is the table's current partition spec. Spark gives only the
	// partition fields' names (from its #partitions table).
	Spec []PartitionField
	// Snapshots are the table's snapshots, in the metadata's order.
	Snapshots []SnapshotInfo
	// FormatVersion is the table's Iceberg format version (pyiceberg only).
	FormatVersion int
}

// PartitionField is one field of a partition spec.
type PartitionField struct {
	Name      string `json:"name"`
	Transform string `json:"transform"` // identity, bucket[16], day, ... ("" from Spark)
	SourceID  int    `json:"source_id"`
	Source    string `json:"source"` // the source column's name
	FieldID   int    `json:"field_id"`
}

// SnapshotInfo is one snapshot of a table's metadata.
type SnapshotInfo struct {
	ID          int64             `json:"id"`
	Parent      *int64            `json:"parent"`
	Sequence    int64             `json:"sequence"` // -1 when the reader does not know it
	TimestampMS int64             `json:"timestamp_ms"`
	Operation   string            `json:"operation"` // append, overwrite, delete, replace
	Summary     map[string]string `json:"summary"`
}

// answer is the script's answer to a read.
type answer struct {
	SnapshotID int64 `json:"snapshot_id"`
	Columns    []struct {
		Name     string `json:"name"`
		Type     string `json:"type"`
		FieldID  int    `json:"field_id"`
		Required bool   `json:"required"`
	} `json:"columns"`
	Spec          []PartitionField `json:"spec"`
	Snapshots     []SnapshotInfo   `json:"snapshots"`
	FormatVersion int              `json:"format_version"`
}

// versionFile is a metadata file's name as Iceberg's writers spell it:
// v<N>.metadata.json (Hadoop tables) or <NNNNN>-<uuid>.metadata.json
// (pyiceberg's and the Java catalogs'), optionally compressed.
var versionFile = regexp.MustCompile(`^v?(\d+)(-[0-9a-fA-F-]+)?(\.gz)?\.metadata\.json(\.gz)?$`)

// MetadataFile returns the current metadata file of the table in the
// folder location: the one metadata/version-hint.text names (a Hadoop
// table: metadata/v<N>.metadata.json), else the metadata file of the
// highest version number. Two files of the highest number, or none, are
// errors.
func MetadataFile(location string) (string, error) {
	md := filepath.Join(location, "metadata")
	if hint, err := os.ReadFile(filepath.Join(md, "version-hint.text")); err == nil {
		n, err := strconv.Atoi(strings.TrimSpace(string(hint)))
		if err != nil {
			return "", fmt.Errorf("%s: version-hint.text holds %q, not a version number", md, hint)
		}
		f := filepath.Join(md, "v"+strconv.Itoa(n)+".metadata.json")
		if _, err := os.Stat(f); err != nil {
			return "", fmt.Errorf("%s: version-hint.text names version %d: %w", md, n, err)
		}
		return f, nil
	} else if !errors.Is(err, os.ErrNotExist) {
		return "", err
	}
	entries, err := os.ReadDir(md)
	if err != nil {
		return "", fmt.Errorf("%s is not an Iceberg table: %w", location, err)
	}
	best, bestN, ties := "", -1, 0
	for _, e := range entries {
		m := versionFile.FindStringSubmatch(e.Name())
		if m == nil {
			continue
		}
		n, err := strconv.Atoi(m[1])
		if err != nil {
			continue
		}
		switch {
		case n > bestN:
			best, bestN, ties = e.Name(), n, 1
		case n == bestN:
			ties++
		}
	}
	if best == "" {
		return "", fmt.Errorf("%s: no metadata file (metadata/*.metadata.json)", location)
	}
	if ties > 1 {
		return "", fmt.Errorf("%s: %d metadata files of version %d: which is current is the catalog's to say", location, ties, bestN)
	}
	return filepath.Join(md, best), nil
}

// hadoopTable reports whether location has a version-hint.text.
func hadoopTable(location string) bool {
	_, err := os.Stat(filepath.Join(location, "metadata", "version-hint.text"))
	return err == nil
}

// PyIceberg reads the table in the folder location with pyiceberg (the
// python of a venv that has it: testenv.PyIceberg) at a snapshot.
func PyIceberg(t testing.TB, python, location string, at At) *Result {
	t.Helper()
	md, err := MetadataFile(location)
	if err != nil {
		t.Fatal(err)
	}
	r := &Result{Reader: "pyiceberg", Location: location, Metadata: md}
	a := r.run(t, python, map[string]any{"op": "pyiceberg-read", "metadata": md, "at": at.request()}, at)
	r.SnapshotID = a.SnapshotID
	return r
}

// Spark reads the table in the folder location through a Spark Connect
// server with iceberg-spark-runtime on its class path (remote, and python
// with the server's pyspark: testenv.SparkIceberg), at a snapshot: a
// Hadoop table by its folder, as users load one, any other by its
// metadata file (Spark's path tables need version-hint.text).
func Spark(t testing.TB, remote, python, location string, at At) *Result {
	t.Helper()
	md, err := MetadataFile(location)
	if err != nil {
		t.Fatal(err)
	}
	r := &Result{Reader: "spark", Location: location}
	load := location
	if !hadoopTable(location) {
		load, r.Metadata = md, md
	}
	a := r.run(t, python, map[string]any{"op": "spark-read", "remote": remote, "load": load, "at": at.request()}, at)
	r.SnapshotID = a.SnapshotID
	if at.TimestampMS != 0 && at.SnapshotID == 0 {
		// the newest snapshot committed at or before the time
		var best *SnapshotInfo
		for i, s := range r.Snapshots {
			if s.TimestampMS <= at.TimestampMS && (best == nil || s.TimestampMS >= best.TimestampMS) {
				best = &r.Snapshots[i]
			}
		}
		if best != nil {
			r.SnapshotID = best.ID
		}
	}
	return r
}

// run runs a read request and fills r from its answer and Arrow file.
func (r *Result) run(t testing.TB, python string, req map[string]any, at At) answer {
	t.Helper()
	arrowFile := filepath.Join(t.TempDir(), "rows.arrow")
	req["arrow"] = arrowFile
	var a answer
	if err := json.Unmarshal(runScript(t, python, req), &a); err != nil {
		t.Fatalf("%s read of %s at %s: answer: %v", r.Reader, r.Location, at, err)
	}
	data, err := os.ReadFile(arrowFile)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.Table.addIPCFile(data); err != nil {
		t.Fatalf("%s read of %s at %s: %v", r.Reader, r.Location, at, err)
	}
	r.Types, r.FieldIDs, r.Required = nil, nil, nil
	for i, c := range a.Columns {
		if i < len(r.Columns) && c.Name != r.Columns[i] {
			t.Fatalf("%s read of %s: the schema names column %d %q, the rows %q", r.Reader, r.Location, i, c.Name, r.Columns[i])
		}
		r.Types = append(r.Types, c.Type)
		if r.Reader == "pyiceberg" {
			r.FieldIDs = append(r.FieldIDs, c.FieldID)
			r.Required = append(r.Required, c.Required)
		}
	}
	r.Spec, r.Snapshots, r.FormatVersion = a.Spec, a.Snapshots, a.FormatVersion
	return a
}

// addIPCFile adds the rows of an Arrow IPC file.
func (tb *Table) addIPCFile(data []byte) error {
	fr, err := ipc.NewFileReader(bytes.NewReader(data), ipc.WithAllocator(memory.DefaultAllocator))
	if err != nil {
		return err
	}
	defer fr.Close()
	tb.SetSchema(fr.Schema())
	for i := 0; i < fr.NumRecords(); i++ {
		rec, err := fr.RecordBatch(i)
		if err != nil {
			return err
		}
		tb.Add(rec)
	}
	return nil
}

// runScript runs icebergcheck.py with python on one request and returns
// its answer (stdout); a failure fails the test with its stderr.
func runScript(t testing.TB, python string, req map[string]any) []byte {
	t.Helper()
	dir := t.TempDir()
	py := filepath.Join(dir, "icebergcheck.py")
	reqFile := filepath.Join(dir, "request.json")
	body, err := json.MarshalIndent(req, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(py, script, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(reqFile, body, 0o644); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, python, py, reqFile)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("icebergcheck.py %s: %v\nrequest:\n%s\nstderr:\n%s", req["op"], err, body, tail(stderr.String(), 60))
	}
	return stdout.Bytes()
}

// tail is the last n lines of s.
func tail(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = append([]string{fmt.Sprintf("... (%d lines before)", len(lines)-n)}, lines[len(lines)-n:]...)
	}
	return strings.Join(lines, "\n")
}

// Thund reads a dataset with a built pipeline's executable: etl read NAME
// --format parquet [--version N] --warehouse W (version 0: the current
// one).
func Thund(t testing.TB, etl, warehouse, dataset string, version int64) *Result {
	t.Helper()
	args := []string{"read", dataset, "--format", "parquet", "--warehouse", warehouse}
	if version != 0 {
		args = append(args, "--version", strconv.FormatInt(version, 10))
	}
	cmd := exec.Command(etl, args...)
	var stdout, stderr bytes.Buffer
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("%s %s: %v\n%s", filepath.Base(etl), strings.Join(args, " "), err, stderr.Bytes())
	}
	r := &Result{Reader: "thund"}
	if err := r.Table.addParquet(stdout.Bytes()); err != nil {
		t.Fatalf("%s %s: %v", filepath.Base(etl), strings.Join(args, " "), err)
	}
	r.Types = r.ArrowTypes
	return r
}

// addParquet adds the rows of a Parquet file.
func (tb *Table) addParquet(data []byte) error {
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		return err
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return err
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		return err
	}
	defer tbl.Release()
	tb.SetSchema(tbl.Schema())
	tr := array.NewTableReader(tbl, 0)
	defer tr.Release()
	for tr.Next() {
		tb.Add(tr.RecordBatch())
	}
	return tr.Err()
}

// TableFromParquet is a Parquet file's rows as a Table; unordered are
// columns of lists whose element order is not defined
// (Table.UnorderedLists).
func TableFromParquet(data []byte, unordered []string) (*Table, error) {
	tb := &Table{UnorderedLists: unordered}
	return tb, tb.addParquet(data)
}

// TableFromIPCStreams is the rows of Arrow IPC streams (Spark Connect's
// batches) as a Table; unordered are columns of lists whose element order
// is not defined (Table.UnorderedLists).
func TableFromIPCStreams(streams [][]byte, unordered []string) (*Table, error) {
	tb := &Table{UnorderedLists: unordered}
	for _, s := range streams {
		r, err := ipc.NewReader(bytes.NewReader(s))
		if err != nil {
			return nil, err
		}
		if tb.Columns == nil {
			tb.SetSchema(r.Schema())
		}
		for r.Next() {
			tb.Add(r.RecordBatch())
		}
		err = r.Err()
		r.Release()
		if err != nil {
			return nil, err
		}
	}
	return tb, nil
}

// Equal fails the test when want and got differ in their column names
// (in order) or in their rows (as multisets), with a diff of the first
// differing rows; what names the comparison.
func Equal(t testing.TB, what string, want, got *Result) {
	t.Helper()
	if d := Compare(want, got); d != "" {
		t.Errorf("%s: %s (-) and %s (+) differ:\n%s", what, want.Reader, got.Reader, d)
	}
}

// Compare is Equal's diff: "" when want and got are equal.
func Compare(want, got *Result) string {
	if strings.Join(want.Columns, "\x1f") != strings.Join(got.Columns, "\x1f") {
		return fmt.Sprintf("columns: %s %v, %s %v\n", want.Reader, want.Columns, got.Reader, got.Columns)
	}
	return Diff(&want.Table, &got.Table, Options{Want: want.Reader, Got: got.Reader})
}
