package format

import (
	"errors"
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The bad-record modes against what Spark does with the same files. The
// expected rows are those Spark 4.1.4 and 4.2.1 return (identical on both)
// for
//
//	spark.read.schema("a INT, b STRING, c DOUBLE[, _corrupt_record STRING]")
//	  .option("mode", MODE).option("multiLine", "true").csv(path)   // or .json(path)
//
// over Spark Connect (multiLine: Þund's CSV reader lets a quoted field span
// lines, and the Spark lowering sets multiLine, sparkemit.readerOptions).
// FAILFAST fails on Spark with FAILED_READ_FILE.NO_HINT (SQLSTATE KD001),
// caused by MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION ("Malformed
// records are detected in record parsing: [null,y,2.5]"). The cmd/thundc
// Spark lane (testdata/spark/badrecords) compares the same files on the
// real servers.

// badCSV has, in order: a good row; a value that does not parse as INT; too
// few fields; too many; an empty line (skipped); empty fields (NULLs); an
// empty field for the INT column; a quoted field spanning two lines; a
// quoted value spanning two lines that does not parse as INT; a DOUBLE
// that does not parse.
const badCSV = "a,b,c\n1,x,1.5\nnotint,y,2.5\n3,z\n4,w,4.5,extra\n\n5,,\n,v,6.5\n\"7\",\"q\nr\",7.5\n\"bad\nint\",s,8.5\n9,t,nan!\n"

// Spark's PERMISSIVE rows of badCSV, with _corrupt_record last.
var badCSVPermissive = []string{
	"1 | x | 1.5 | NULL",
	"NULL | y | 2.5 | notint,y,2.5",
	"3 | z | NULL | 3,z",
	"4 | w | 4.5 | 4,w,4.5,extra",
	"5 | NULL | NULL | NULL",
	"NULL | v | 6.5 | NULL",
	"7 | q\nr | 7.5 | NULL",
	"NULL | s | 8.5 | \"bad\nint\",s,8.5",
	"9 | t | NULL | 9,t,nan!",
}

// Spark's DROPMALFORMED rows of badCSV.
var badCSVDrop = []string{
	"1 | x | 1.5",
	"5 | NULL | NULL",
	"NULL | v | 6.5",
	"7 | q\nr | 7.5",
}

// badJSON has, in order: a good line; a string for INT; a number with a
// fraction for INT; a number for STRING (its text); a malformed line; an
// empty line (skipped); a missing key (NULL); an array; a number; true for
// DOUBLE; an object for STRING (its text, as written); text after the
// object (ignored); a key given twice (the last counts).
const badJSON = `{"a":1,"b":"x","c":1.5}
{"a":"notint","b":"y","c":2.5}
{"a":1.5,"b":"w","c":4.5}
{"a":5,"b":6,"c":5.5}
{"a":6,"b":"v",

{"a":7,"b":null}
[1,2]
7
{"a":9,"b":"t","c":true}
{"a":10,"b":{"k" : [1, 2.0] }}
{"a":11} trailing
{"a":13,"a":14}
`

// Spark's PERMISSIVE rows of badJSON, with _corrupt_record last.
var badJSONPermissive = []string{
	"1 | x | 1.5 | NULL",
	`NULL | y | 2.5 | {"a":"notint","b":"y","c":2.5}`,
	`NULL | w | 4.5 | {"a":1.5,"b":"w","c":4.5}`,
	"5 | 6 | 5.5 | NULL",
	`NULL | NULL | NULL | {"a":6,"b":"v",`,
	"7 | NULL | NULL | NULL",
	"NULL | NULL | NULL | [1,2]",
	"NULL | NULL | NULL | 7",
	`9 | t | NULL | {"a":9,"b":"t","c":true}`,
	`10 | {"k" : [1, 2.0] } | NULL | NULL`,
	"11 | NULL | NULL | NULL",
	"14 | NULL | NULL | NULL",
}

// Spark's DROPMALFORMED rows of badJSON.
var badJSONDrop = []string{
	"1 | x | 1.5",
	"5 | 6 | 5.5",
	"7 | NULL | NULL",
	`10 | {"k" : [1, 2.0] } | NULL`,
	"11 | NULL | NULL",
	"14 | NULL | NULL",
}

func badSchema(corrupt bool, notNullA bool) *arrow.Schema {
	fs := []arrow.Field{
		{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: !notNullA},
		{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "c", Type: arrow.PrimitiveTypes.Float64, Nullable: true},
	}
	if corrupt {
		fs = append(fs, arrow.Field{Name: DefaultCorruptColumn, Type: arrow.BinaryTypes.String, Nullable: true})
	}
	return arrow.NewSchema(fs, nil)
}

// readBad reads data in a mode at several batch sizes (a dropped record
// may end a batch early) and checks every size gives the same rows, the
// same counts, and leaks nothing.
func readBad(t *testing.T, f Format, data string, schema *arrow.Schema, csv *CSVOptions, mode Mode) (rows []string, kept, dropped int64, err error) {
	t.Helper()
	first := true
	for _, batch := range []int{1, 2, 3, 0} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		var m Malformed
		opts := Options{CSV: csv, BatchRows: batch, Mem: mem, Mode: mode, CorruptColumn: DefaultCorruptColumn, Malformed: &m}
		recs, rerr := readBytes([]byte(data), "in."+f.Ext()[1:], f, schema, opts)
		got := render(t, recs)
		release(recs)
		mem.AssertSize(t, 0)
		if first {
			rows, kept, dropped, err, first = got, m.Kept.Load(), m.Dropped.Load(), rerr, false
			continue
		}
		if strings.Join(got, "\n") != strings.Join(rows, "\n") || m.Kept.Load() != kept || m.Dropped.Load() != dropped || fmt.Sprint(rerr) != fmt.Sprint(err) {
			t.Errorf("batch rows %d: %q (%d kept, %d dropped, %v); batch rows 1: %q (%d, %d, %v)", batch, got, m.Kept.Load(), m.Dropped.Load(), rerr, rows, kept, dropped, err)
		}
	}
	return rows, kept, dropped, err
}

func TestBadRecordModes(t *testing.T) {
	noHeader := DefaultCSV()
	noHeader.Header = false
	csvBody := badCSV[strings.IndexByte(badCSV, '\n')+1:]
	without := func(rows []string) []string { // the rows without the corrupt column
		var out []string
		for _, r := range rows {
			out = append(out, r[:strings.LastIndex(r, " | ")])
		}
		return out
	}
	for _, c := range []struct {
		name          string
		f             Format
		data          string
		csv           *CSVOptions
		permissive    []string
		drop          []string
		kept, dropped int64
		failfast      string
	}{
		{"csv header", CSV, badCSV, nil, badCSVPermissive, badCSVDrop, 5, 5, `in.csv:3:1: column a: want int32, got "notint"`},
		{"csv no header", CSV, csvBody, &noHeader, badCSVPermissive, badCSVDrop, 5, 5, `in.csv:2:1: column a: want int32, got "notint"`},
		{"json", JSONL, badJSON, nil, badJSONPermissive, badJSONDrop, 6, 6, `in.jsonl:2:6: column a: want int32, got "notint"`},
	} {
		t.Run(c.name, func(t *testing.T) {
			rows, kept, dropped, err := readBad(t, c.f, c.data, badSchema(true, false), c.csv, Permissive)
			if err != nil || strings.Join(rows, "\n") != strings.Join(c.permissive, "\n") || kept != c.kept || dropped != 0 {
				t.Errorf("PERMISSIVE: %v\n%s\n(%d kept, %d dropped)\nwant (%d kept):\n%s", err, strings.Join(rows, "\n"), kept, dropped, c.kept, strings.Join(c.permissive, "\n"))
			}
			// without a corrupt-record column: the same rows
			rows, kept, _, err = readBad(t, c.f, c.data, badSchema(false, false), c.csv, Permissive)
			if err != nil || strings.Join(rows, "\n") != strings.Join(without(c.permissive), "\n") || kept != c.kept {
				t.Errorf("PERMISSIVE without _corrupt_record: %v\n%s", err, strings.Join(rows, "\n"))
			}
			// DROPMALFORMED: the corrupt-record column is NULL in every row kept
			rows, kept, dropped, err = readBad(t, c.f, c.data, badSchema(true, false), c.csv, DropMalformed)
			var want []string
			for _, r := range c.drop {
				want = append(want, r+" | NULL")
			}
			if err != nil || strings.Join(rows, "\n") != strings.Join(want, "\n") || kept != 0 || dropped != c.dropped {
				t.Errorf("DROPMALFORMED: %v\n%s\n(%d kept, %d dropped)", err, strings.Join(rows, "\n"), kept, dropped)
			}
			_, _, _, err = readBad(t, c.f, c.data, badSchema(false, false), c.csv, FailFast)
			var de *DataError
			if err == nil || err.Error() != c.failfast || !errors.As(err, &de) {
				t.Errorf("FAILFAST: %v, want %s", err, c.failfast)
			}
		})
	}
}

// TestBadRecordsNotNull: native enforces NOT NULL, Spark's file sources do
// not (they read a NOT NULL column as nullable), so a malformed record
// whose NOT NULL column would be NULL cannot be kept in PERMISSIVE: it is
// dropped and counted as dropped (docs/dsl.md, "Bad records"). A well
// formed record with a NULL there is malformed too.
func TestBadRecordsNotNull(t *testing.T) {
	schema := badSchema(true, true)
	rows, kept, dropped, err := readBad(t, CSV, badCSV, schema, nil, Permissive)
	want := []string{
		"1 | x | 1.5 | NULL",
		"3 | z | NULL | 3,z",
		"4 | w | 4.5 | 4,w,4.5,extra",
		"5 | NULL | NULL | NULL",
		"7 | q\nr | 7.5 | NULL",
		"9 | t | NULL | 9,t,nan!",
	}
	// dropped: notint (a), the empty a, "bad\nint" (a)
	if err != nil || strings.Join(rows, "\n") != strings.Join(want, "\n") || kept != 3 || dropped != 3 {
		t.Errorf("csv: %v\n%s\n(%d kept, %d dropped)", err, strings.Join(rows, "\n"), kept, dropped)
	}
	rows, kept, dropped, err = readBad(t, JSONL, badJSON, schema, nil, Permissive)
	want = []string{
		"1 | x | 1.5 | NULL",
		"5 | 6 | 5.5 | NULL",
		"7 | NULL | NULL | NULL",
		`9 | t | NULL | {"a":9,"b":"t","c":true}`,
		`10 | {"k" : [1, 2.0] } | NULL | NULL`,
		"11 | NULL | NULL | NULL",
		"14 | NULL | NULL | NULL",
	}
	if err != nil || strings.Join(rows, "\n") != strings.Join(want, "\n") || kept != 1 || dropped != 5 {
		t.Errorf("json: %v\n%s\n(%d kept, %d dropped)", err, strings.Join(rows, "\n"), kept, dropped)
	}
	_, _, _, err = readBad(t, CSV, "a,b,c\n,x,1\n", schema, nil, FailFast)
	if err == nil || err.Error() != "in.csv:2:1: column a: NULL in a NOT NULL column" {
		t.Errorf("FAILFAST: %v", err)
	}
	_, _, _, err = readBad(t, JSONL, "{\"b\":\"x\"}\n", schema, nil, FailFast)
	if err == nil || err.Error() != "in.jsonl:1: column a: missing in a NOT NULL column" {
		t.Errorf("FAILFAST: %v", err)
	}
}

// TestBadRecordsNested: a nested value that fails part way (a list with
// an element that does not parse) leaves the record NULL in that column
// (PERMISSIVE) or drops it, and the rows before and after are whole.
func TestBadRecordsNested(t *testing.T) {
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "xs", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
		{Name: DefaultCorruptColumn, Type: arrow.BinaryTypes.String, Nullable: true},
	}, nil)
	data := "{\"id\":1,\"xs\":[1,2]}\n{\"id\":2,\"xs\":[3,\"x\"]}\n{\"id\":3,\"xs\":[4]}\n"
	rows, kept, dropped, err := readBad(t, JSONL, data, schema, nil, Permissive)
	want := "1 | [1, 2] | NULL\n2 | NULL | {\"id\":2,\"xs\":[3,\"x\"]}\n3 | [4] | NULL"
	if err != nil || strings.Join(rows, "\n") != want || kept != 1 || dropped != 0 {
		t.Errorf("PERMISSIVE: %v\n%s\n(%d kept, %d dropped)", err, strings.Join(rows, "\n"), kept, dropped)
	}
	rows, kept, dropped, err = readBad(t, JSONL, data, schema, nil, DropMalformed)
	if err != nil || strings.Join(rows, "\n") != "1 | [1, 2] | NULL\n3 | [4] | NULL" || kept != 0 || dropped != 1 {
		t.Errorf("DROPMALFORMED: %v\n%s\n(%d kept, %d dropped)", err, strings.Join(rows, "\n"), kept, dropped)
	}
}

// TestBadRecordsScanErrors: records Þund's RFC 4180 scanner cannot split
// (a quote inside an unquoted field, text after a closing quote, an
// unterminated quote) are malformed: every value NULL in PERMISSIVE.
// Spark's CSV parser is lenient there and reads a value (ab"c, "ab"c, and
// the rest of the file as the open field): a deviation, docs/dsl.md.
func TestBadRecordsScanErrors(t *testing.T) {
	data := "a,b,c\n1,ab\"c,1\n2,\"ab\"c,2\n3,ok,3\n4,\"open,4\n5,y,5\n"
	rows, kept, _, err := readBad(t, CSV, data, badSchema(true, false), nil, Permissive)
	want := []string{
		"NULL | NULL | NULL | 1,ab\"c,1",
		"NULL | NULL | NULL | 2,\"ab\"c,2",
		"3 | ok | 3.0 | NULL",
		"NULL | NULL | NULL | 4,\"open,4\n5,y,5",
	}
	if err != nil || strings.Join(rows, "\n") != strings.Join(want, "\n") || kept != 3 {
		t.Errorf("%v\n%s\n(%d kept)", err, strings.Join(rows, "\n"), kept)
	}
}

func TestParseSourceOptions(t *testing.T) {
	o, err := ParseSourceOptions(CSV, [][2]string{{"Mode", "dropMalformed"}, {"columnNameOfCorruptRecord", "bad"}, {"header", "false"}})
	if err != nil || o.Mode != DropMalformed || o.CorruptColumn != "bad" || o.CSV == nil || o.CSV.Header {
		t.Errorf("got %+v, %v", o, err)
	}
	o, err = ParseSourceOptions(JSONL, nil)
	if err != nil || o.Mode != Permissive || o.CorruptColumn != DefaultCorruptColumn {
		t.Errorf("default: %+v, %v", o, err)
	}
	for _, c := range []struct {
		f    Format
		kv   [][2]string
		want string
	}{
		{CSV, [][2]string{{"mode", "lenient"}}, `option mode: want PERMISSIVE, DROPMALFORMED, FAILFAST, got "lenient"`},
		{JSONL, [][2]string{{"header", "true"}}, `unknown jsonl option "header" (want mode, columnNameOfCorruptRecord, rescuedDataColumn, schemaEvolutionMode)`},
		{CSV, [][2]string{{"mdoe", "FAILFAST"}}, `unknown csv option "mdoe" (want mode, columnNameOfCorruptRecord, rescuedDataColumn, schemaEvolutionMode, header, delimiter, quote, escape, null)`},
		{Parquet, [][2]string{{"mode", "FAILFAST"}}, `option "mode" is not read for parquet files (they take no options)`},
	} {
		if _, err := ParseSourceOptions(c.f, c.kv); err == nil || err.Error() != c.want {
			t.Errorf("%v: %v, want %s", c.kv, err, c.want)
		}
	}
	// a corrupt-record column that is not a nullable string
	for _, f := range []Format{CSV, JSONL} {
		schema := arrow.NewSchema([]arrow.Field{{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
			{Name: DefaultCorruptColumn, Type: arrow.PrimitiveTypes.Int32, Nullable: true}}, nil)
		_, err := readBytes([]byte("a\n1\n"), "in", f, schema, Options{Mode: Permissive, CorruptColumn: DefaultCorruptColumn})
		if err == nil || !strings.Contains(err.Error(), "column _corrupt_record holds malformed records' text: want a nullable string, got int32") {
			t.Errorf("%s: %v", f, err)
		}
	}
}
