package format

import (
	"fmt"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

// The rescued-data column and schema drift (rescue.go). The rescued value
// has the shape Lakeflow documents for its rescued data column: a JSON
// object of the rescued fields under their names in the file, and the
// record's file path under _file_path.

// rescueRead reads data with opts at several batch sizes, checks that each
// gives the same rows, counts and error, and leaks nothing.
type rescueResult struct {
	rows                   []string
	kept, dropped, rescued int64
	newCols                []string
	into                   string
	err                    string // "" for none
}

func rescueRead(t *testing.T, f Format, data string, schema *arrow.Schema, opts Options) rescueResult {
	t.Helper()
	var first rescueResult
	for i, batch := range []int{1, 2, 0} {
		mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
		var m Malformed
		o := opts
		o.BatchRows, o.Mem, o.Malformed = batch, mem, &m
		if o.CorruptColumn == "" {
			o.CorruptColumn = DefaultCorruptColumn
		}
		recs, err := readBytes([]byte(data), "in."+f.Ext()[1:], f, schema, o)
		got := rescueResult{rows: render(t, recs), kept: m.Kept.Load(), dropped: m.Dropped.Load(), rescued: m.Rescued.Load()}
		if err != nil {
			got.err = err.Error()
		}
		got.newCols, got.into = m.NewColumns()
		release(recs)
		mem.AssertSize(t, 0)
		if i == 0 {
			first = got
			continue
		}
		if fmt.Sprint(got) != fmt.Sprint(first) {
			t.Errorf("batch rows %d: %v\nbatch rows 1: %v", batch, got, first)
		}
	}
	return first
}

func rescueSchema(rescued string, cols ...arrow.Field) *arrow.Schema {
	if rescued != "" {
		cols = append(cols, arrow.Field{Name: rescued, Type: arrow.BinaryTypes.String, Nullable: true})
	}
	return arrow.NewSchema(cols, nil)
}

var (
	colA = arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int32, Nullable: true}
	colB = arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true}
	colC = arrow.Field{Name: "c", Type: arrow.PrimitiveTypes.Float64, Nullable: true}
)

// rescueCSV has a new column d, a column B that differs from b only in
// case, values that do not parse (a, c), a record with too few fields and
// an empty (NULL) new value.
const rescueCSV = "a,b,c,d,B\n1,x,1.5,new1,\nnotint,y,2.5,,caseB\n3,z,nan!,\"n,3\",\n4,w\n"

func TestRescuedCSV(t *testing.T) {
	schema := rescueSchema(DefaultRescuedColumn, colA, colB, colC)
	want := []string{
		`1 | x | 1.5 | {"d":"new1","_file_path":"in.csv"}`,
		`NULL | y | 2.5 | {"a":"notint","B":"caseB","_file_path":"in.csv"}`,
		`3 | z | NULL | {"c":"nan!","d":"n,3","_file_path":"in.csv"}`,
		`4 | w | NULL | NULL`,
	}
	// Type mismatches are rescued in every mode; only the short record is
	// malformed.
	for _, c := range []struct {
		mode          Mode
		kept, dropped int64
		rows          []string
	}{
		{Permissive, 1, 0, want},
		{DropMalformed, 0, 1, want[:3]},
	} {
		for _, e := range []Evolution{EvolveNone, EvolveRescue} {
			got := rescueRead(t, CSV, rescueCSV, schema, Options{Mode: c.mode, RescuedColumn: DefaultRescuedColumn, Evolution: e})
			if got.err != "" || strings.Join(got.rows, "\n") != strings.Join(c.rows, "\n") || got.kept != c.kept || got.dropped != c.dropped || got.rescued != 3 ||
				fmt.Sprint(got.newCols) != "[d]" || got.into != DefaultRescuedColumn {
				t.Errorf("%s, %s: %v\n%s\nwant\n%s", c.mode, e, got, strings.Join(got.rows, "\n"), strings.Join(c.rows, "\n"))
			}
		}
	}
	// FAILFAST fails at the short record, not at a rescued value.
	got := rescueRead(t, CSV, rescueCSV, schema, Options{Mode: FailFast, RescuedColumn: DefaultRescuedColumn})
	if got.err != "in.csv:5:2: want 5 fields, got 2" {
		t.Errorf("FAILFAST: %v", got.err)
	}
	// A rescued column named otherwise, without a header: values that do
	// not parse are rescued under their columns' names.
	noHeader := DefaultCSV()
	noHeader.Header = false
	got = rescueRead(t, CSV, "x,1,2\n", rescueSchema("rescued", colA, colB, colC), Options{Mode: FailFast, RescuedColumn: "rescued", CSV: &noHeader})
	if got.err != "" || fmt.Sprint(got.rows) != `[NULL | 1 | 2.0 | {"a":"x","_file_path":"in.csv"}]` || got.rescued != 1 {
		t.Errorf("no header: %v", got)
	}
}

func TestNewColumnsCSV(t *testing.T) {
	schema := rescueSchema("", colA, colB, colC)
	// none (the default): ignored, counted; the value that does not parse
	// is malformed, as without the option.
	got := rescueRead(t, CSV, rescueCSV, schema, Options{Mode: Permissive})
	if got.err != "" || len(got.rows) != 4 || got.kept != 3 || fmt.Sprint(got.newCols) != "[d B]" || got.into != "" || got.rescued != 0 {
		t.Errorf("none: %v", got)
	}
	got = rescueRead(t, CSV, rescueCSV, schema, Options{Mode: Permissive, Evolution: EvolveFailOnNewColumns})
	if got.err != "in.csv:1:4: new columns not in the declared schema: d, B (schemaEvolutionMode failOnNewColumns)" || got.rows != nil {
		t.Errorf("failOnNewColumns: %v", got)
	}
	got = rescueRead(t, CSV, "a,b,c,d,my col\n1,x,1.5,2,3\n", schema, Options{Mode: Permissive, Evolution: EvolveAddNewColumns})
	if got.err != "in.csv:1:4: new columns d, my col (schemaEvolutionMode addNewColumns): add them to the source's declared schema, as `d string, `my col` string` (or with the types they hold), rebuild and run again; nothing of this run was committed, so nothing is lost" {
		t.Errorf("addNewColumns: %v", got)
	}
	// with a rescued column, failOnNewColumns still fails on d, but B (b
	// in another case) is rescued, not new
	got = rescueRead(t, CSV, rescueCSV, rescueSchema(DefaultRescuedColumn, colA, colB, colC), Options{Mode: Permissive, RescuedColumn: DefaultRescuedColumn, Evolution: EvolveFailOnNewColumns})
	if got.err != "in.csv:1:4: new columns not in the declared schema: d (schemaEvolutionMode failOnNewColumns)" {
		t.Errorf("failOnNewColumns, rescued: %v", got)
	}
	// addNewColumns: a file from before a column was declared reads NULL
	// there (a NOT NULL column must still be in the header)
	got = rescueRead(t, CSV, "a,b\n1,x\n", schema, Options{Mode: Permissive, Evolution: EvolveAddNewColumns})
	if got.err != "" || fmt.Sprint(got.rows) != "[1 | x | NULL]" {
		t.Errorf("addNewColumns, old file: %v", got)
	}
	got = rescueRead(t, CSV, "a,b\n1,x\n", schema, Options{Mode: Permissive})
	if got.err != "in.csv:1: column c: not in the header (header has: a, b)" {
		t.Errorf("none, old file: %v", got)
	}
	// no new column: nothing to say
	got = rescueRead(t, CSV, "a,b,c\n1,x,1.5\n", schema, Options{Mode: Permissive, Evolution: EvolveFailOnNewColumns})
	if got.err != "" || len(got.rows) != 1 || got.newCols != nil {
		t.Errorf("no new column: %v", got)
	}
	// a header column only in another case is NULL when data is rescued
	got = rescueRead(t, CSV, "A,b,c\n1,x,1.5\n", rescueSchema(DefaultRescuedColumn, colA, colB, colC), Options{Mode: Permissive, RescuedColumn: DefaultRescuedColumn})
	if got.err != "" || fmt.Sprint(got.rows) != `[NULL | x | 1.5 | {"A":"1","_file_path":"in.csv"}]` || got.newCols != nil {
		t.Errorf("case: %v", got)
	}
}

// rescueJSON: a new key n (an object, then null), a string and a fraction
// for the int column a, a key A that differs from a only in case, a key
// given twice, and a line that is not JSON.
const rescueJSON = `{"a":1,"b":"x","n":{"k":[1, 2]}}
{"a":"notint","b":"y","A":5}
{"a":1.5,"b":"z","n":null}
not json
{"a":2,"m":"one","m":"two"}
`

func TestRescuedJSON(t *testing.T) {
	schema := rescueSchema(DefaultRescuedColumn, colA, colB)
	want := []string{
		`1 | x | {"n":{"k":[1, 2]},"_file_path":"in.jsonl"}`,
		`NULL | y | {"a":"notint","A":5,"_file_path":"in.jsonl"}`,
		`NULL | z | {"a":1.5,"_file_path":"in.jsonl"}`,
		`NULL | NULL | NULL`,
		`2 | NULL | {"m":"two","_file_path":"in.jsonl"}`,
	}
	got := rescueRead(t, JSONL, rescueJSON, schema, Options{Mode: Permissive, RescuedColumn: DefaultRescuedColumn, Evolution: EvolveRescue})
	if got.err != "" || strings.Join(got.rows, "\n") != strings.Join(want, "\n") || got.kept != 1 || got.rescued != 4 ||
		fmt.Sprint(got.newCols) != "[n m]" || got.into != DefaultRescuedColumn {
		t.Errorf("%v\n%s", got, strings.Join(got.rows, "\n"))
	}
	// FAILFAST fails at the line that is not JSON, not before
	got = rescueRead(t, JSONL, rescueJSON, schema, Options{Mode: FailFast, RescuedColumn: DefaultRescuedColumn})
	if !strings.HasPrefix(got.err, "in.jsonl:4:3: invalid JSON") {
		t.Errorf("FAILFAST: %v", got.err)
	}
	// a nested column whose value fails part way is rescued whole
	nested := rescueSchema(DefaultRescuedColumn, arrow.Field{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true})
	got = rescueRead(t, JSONL, "{\"l\":[1,2]}\n{\"l\":[3,\"x\"]}\n", nested, Options{Mode: FailFast, RescuedColumn: DefaultRescuedColumn})
	if got.err != "" || fmt.Sprint(got.rows) != `[[1, 2] | NULL NULL | {"l":[3,"x"],"_file_path":"in.jsonl"}]` || got.rescued != 1 {
		t.Errorf("nested: %v", got)
	}
}

func TestNewColumnsJSON(t *testing.T) {
	schema := rescueSchema("", colA, colB)
	got := rescueRead(t, JSONL, rescueJSON, schema, Options{Mode: Permissive})
	if got.err != "" || len(got.rows) != 5 || fmt.Sprint(got.newCols) != "[n m]" || got.into != "" {
		t.Errorf("none: %v", got)
	}
	got = rescueRead(t, JSONL, rescueJSON, schema, Options{Mode: Permissive, Evolution: EvolveFailOnNewColumns})
	if got.err != "in.jsonl:1:20: new columns not in the declared schema: n (schemaEvolutionMode failOnNewColumns)" || got.rows != nil {
		t.Errorf("failOnNewColumns: %v", got)
	}
	// addNewColumns names the new keys of the whole file at once
	got = rescueRead(t, JSONL, rescueJSON, schema, Options{Mode: Permissive, Evolution: EvolveAddNewColumns})
	if !strings.HasPrefix(got.err, "in.jsonl:1:20: new columns n, m (schemaEvolutionMode addNewColumns): add them to the source's declared schema, as `n string, m string`") {
		t.Errorf("addNewColumns: %v", got)
	}
}

func TestRescuedOptions(t *testing.T) {
	o, err := ParseSourceOptions(JSONL, [][2]string{{"schemaEvolutionMode", "RESCUE"}})
	if err != nil || o.Evolution != EvolveRescue || o.RescuedColumn != DefaultRescuedColumn {
		t.Errorf("rescue: %+v, %v", o, err)
	}
	o, err = ParseSourceOptions(CSV, [][2]string{{"rescuedDataColumn", "r"}, {"schemaevolutionmode", "failOnNewColumns"}})
	if err != nil || o.Evolution != EvolveFailOnNewColumns || o.RescuedColumn != "r" {
		t.Errorf("failOnNewColumns: %+v, %v", o, err)
	}
	if _, err := ParseSourceOptions(CSV, [][2]string{{"schemaEvolutionMode", "merge"}}); err == nil ||
		err.Error() != `option schemaEvolutionMode: want none, addNewColumns, rescue, failOnNewColumns, got "merge"` {
		t.Errorf("bad value: %v", err)
	}
	// the rescued column must be declared, a nullable string, and not the
	// corrupt-record column
	for _, c := range []struct {
		schema  *arrow.Schema
		rescued string
		want    string
	}{
		{rescueSchema("", colA), "r", "in.csv: rescuedDataColumn r: the schema does not declare it (declare r string)"},
		{rescueSchema("", colA, arrow.Field{Name: "r", Type: arrow.BinaryTypes.String}), "r", "in.csv: column r holds rescued data: want a nullable string, got string not null"},
		{rescueSchema(DefaultCorruptColumn, colA), DefaultCorruptColumn, "in.csv: column _corrupt_record cannot be both the rescued-data column and the corrupt-record column"},
	} {
		_, err := readBytes([]byte("a\n1\n"), "in.csv", CSV, c.schema, Options{Mode: Permissive, CorruptColumn: DefaultCorruptColumn, RescuedColumn: c.rescued})
		if err == nil || err.Error() != c.want {
			t.Errorf("%s: %v, want %s", c.rescued, err, c.want)
		}
	}
}
