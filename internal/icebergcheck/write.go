package icebergcheck

import (
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"
)

// Column is a column of a fixture table: its name and Iceberg type in the
// spec's spelling (boolean, int, long, float, double, decimal(P, S),
// string, binary, fixed[N], date, time, timestamp, timestamptz,
// list<T>, map<K, V>, struct<a: T, b: U>).
type Column struct {
	Name     string
	Type     string
	Required bool
}

// OpKind is what an Op does.
type OpKind string

const (
	Create    OpKind = "create"    // create the table: Columns, PartitionBy (identity)
	Append    OpKind = "append"    // append Rows
	Overwrite OpKind = "overwrite" // replace the rows Filter matches (all without one) with Rows
	Delete    OpKind = "delete"    // delete the rows Filter matches
)

// Op is one change to a fixture table.
//
// A row holds one value per column, in the columns' order, as Go values:
// nil (NULL), bool, integers, float32 and float64 (NaN and the infinities
// too), string (also for decimals, "12.30", dates, "2024-01-31", times,
// "13:04:05.000001", and timestamps in RFC 3339: with an offset for
// timestamptz, without one for timestamp), []byte (binary and fixed),
// []any (a list), [][2]any (a map's entries) and map[string]any (a
// struct). Filter is a pyiceberg row filter ("id > 3 and region = 'eu'").
type Op struct {
	Kind        OpKind
	Columns     []Column // Create
	PartitionBy []string // Create: identity partition fields on these columns
	Rows        [][]any  // Append, Overwrite
	Filter      string   // Overwrite, Delete
}

// Written is a fixture table as its writer left it.
type Written struct {
	Location string // the table's folder
	Metadata string // its current metadata file
	// Snapshots are the table's current snapshot id after each operation,
	// in order (0 after a Create: a new table has no snapshot).
	Snapshots []int64
}

// PyIcebergWrite creates the table db.t with pyiceberg, in a SQL catalog
// over sqlite in the folder dir, and applies ops in order (the first
// must be a Create). The table's folder is dir/db/t, with pyiceberg's own
// metadata files (NNNNN-<uuid>.metadata.json, no version-hint.text).
func PyIcebergWrite(t testing.TB, python, dir string, ops []Op) *Written {
	t.Helper()
	var jops []map[string]any
	for _, op := range ops {
		j := map[string]any{"kind": string(op.Kind)}
		switch op.Kind {
		case Create:
			var cols []map[string]any
			for _, c := range op.Columns {
				cols = append(cols, map[string]any{"name": c.Name, "type": c.Type, "required": c.Required})
			}
			j["columns"], j["partition_by"] = cols, op.PartitionBy
		case Append, Overwrite, Delete:
			rows := make([][]any, len(op.Rows))
			for i, r := range op.Rows {
				rows[i] = make([]any, len(r))
				for k, v := range r {
					rows[i][k] = jsonValue(v)
				}
			}
			j["rows"], j["filter"] = rows, op.Filter
		default:
			t.Fatalf("PyIcebergWrite: unknown operation %q", op.Kind)
		}
		jops = append(jops, j)
	}
	dir, err := filepath.Abs(dir)
	if err != nil {
		t.Fatal(err)
	}
	out := runScript(t, python, map[string]any{"op": "pyiceberg-write", "dir": dir, "table": "db.t", "ops": jops})
	var a struct {
		Location  string  `json:"location"`
		Metadata  string  `json:"metadata"`
		Snapshots []int64 `json:"snapshots"`
	}
	if err := json.Unmarshal(out, &a); err != nil {
		t.Fatalf("PyIcebergWrite: %v\n%s", err, out)
	}
	return &Written{Location: localPath(a.Location), Metadata: localPath(a.Metadata), Snapshots: a.Snapshots}
}

// localPath is a file: URL's path.
func localPath(s string) string {
	s = strings.TrimPrefix(s, "file://")
	return strings.TrimPrefix(s, "file:")
}

// SparkSQL runs SQL statements, one after the other, on a Spark Connect
// server (remote, with python of the server's pyspark). On the Spark
// lane's server, a table ice.db.t (CREATE TABLE ice.db.t ... USING
// iceberg) lies in $THUND_TEST_SPARK_ICEBERG_WAREHOUSE/db/t.
func SparkSQL(t testing.TB, remote, python string, stmts ...string) {
	t.Helper()
	runScript(t, python, map[string]any{"op": "spark-sql", "remote": remote, "statements": stmts})
}

// jsonValue is a row value as the script reads it: bytes in hex, the
// floats JSON cannot spell as words, the rest as it is.
func jsonValue(v any) any {
	switch x := v.(type) {
	case []byte:
		return hex.EncodeToString(x)
	case float32:
		return jsonValue(float64(x))
	case float64:
		switch {
		case math.IsNaN(x):
			return "NaN"
		case math.IsInf(x, 1):
			return "+Inf"
		case math.IsInf(x, -1):
			return "-Inf"
		case x == 0 && math.Signbit(x):
			return "-0"
		}
		return x
	case []any:
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = jsonValue(e)
		}
		return out
	case [][2]any:
		out := make([][2]any, len(x))
		for i, e := range x {
			out[i] = [2]any{jsonValue(e[0]), jsonValue(e[1])}
		}
		return out
	case map[string]any:
		out := map[string]any{}
		for k, e := range x {
			out[k] = jsonValue(e)
		}
		return out
	}
	return v
}

// Expect returns rows written to a table of these columns as a reader
// should return them, in canonical form (Row), computed from the Go values
// alone: what a round trip through a writer and a reader must give.
func Expect(t testing.TB, cols []Column, rows [][]any) []Row {
	t.Helper()
	out := make([]Row, len(rows))
	for i, r := range rows {
		if len(r) != len(cols) {
			t.Fatalf("Expect: row %d has %d values for %d columns", i, len(r), len(cols))
		}
		out[i] = make(Row, len(r))
		for c, v := range r {
			s, err := expectCell(cols[c].Type, v)
			if err != nil {
				t.Fatalf("Expect: row %d, column %s: %v", i, cols[c].Name, err)
			}
			out[i][c] = s
		}
	}
	return out
}

// expectCell is the canonical text of the Go value v of an Iceberg type.
func expectCell(typ string, v any) (string, error) {
	if v == nil {
		return "NULL", nil
	}
	typ = strings.TrimSpace(typ)
	head, args := typ, ""
	if i := strings.IndexAny(typ, "<(["); i >= 0 {
		head, args = typ[:i], typ[i+1:len(typ)-1]
	}
	bad := func() (string, error) { return "", fmt.Errorf("%T %v is not a value of %s", v, v, typ) }
	switch head {
	case "boolean":
		if b, ok := v.(bool); ok {
			return strconv.FormatBool(b), nil
		}
	case "int", "long":
		switch x := v.(type) {
		case int:
			return strconv.Itoa(x), nil
		case int32:
			return strconv.FormatInt(int64(x), 10), nil
		case int64:
			return strconv.FormatInt(x, 10), nil
		}
	case "float", "double":
		bits := 64
		if head == "float" {
			bits = 32
		}
		switch x := v.(type) {
		case float32:
			return Float(float64(x), bits), nil
		case float64:
			if bits == 32 {
				x = float64(float32(x))
			}
			return Float(x, bits), nil
		case int:
			return Float(float64(x), bits), nil
		}
	case "decimal":
		s, ok := v.(string)
		if !ok {
			return bad()
		}
		_, sc, _ := strings.Cut(args, ",")
		scale, err := strconv.Atoi(strings.TrimSpace(sc))
		if err != nil {
			return "", fmt.Errorf("type %s: %v", typ, err)
		}
		whole, frac, _ := strings.Cut(s, ".")
		if len(frac) > scale {
			return "", fmt.Errorf("decimal %s has more than %d fraction digits", s, scale)
		}
		if scale == 0 {
			return whole, nil
		}
		return whole + "." + frac + strings.Repeat("0", scale-len(frac)), nil
	case "string", "uuid":
		if s, ok := v.(string); ok {
			return strconv.Quote(s), nil
		}
	case "binary", "fixed":
		if b, ok := v.([]byte); ok {
			return Binary(b), nil
		}
	case "date":
		if s, ok := v.(string); ok {
			d, err := time.Parse(time.DateOnly, s)
			if err != nil {
				return "", err
			}
			return d.Format(time.DateOnly), nil
		}
	case "time":
		if s, ok := v.(string); ok {
			d, err := time.Parse("15:04:05.999999", s)
			if err != nil {
				return "", err
			}
			return clock(d), nil
		}
	case "timestamp", "timestamptz":
		if s, ok := v.(string); ok {
			layout := "2006-01-02T15:04:05.999999"
			if head == "timestamptz" {
				layout = time.RFC3339Nano
			}
			d, err := time.Parse(layout, s)
			if err != nil {
				return "", err
			}
			return Timestamp(d, head == "timestamptz"), nil
		}
	case "list":
		xs, ok := v.([]any)
		if !ok {
			return bad()
		}
		parts := make([]string, len(xs))
		for i, x := range xs {
			s, err := expectCell(args, x)
			if err != nil {
				return "", err
			}
			parts[i] = s
		}
		return "[" + strings.Join(parts, ", ") + "]", nil
	case "map":
		es, ok := v.([][2]any)
		if !ok {
			return bad()
		}
		parts := splitTop(args)
		if len(parts) != 2 {
			return "", fmt.Errorf("type %s: want map<K, V>", typ)
		}
		var entries [][2]string
		for _, e := range es {
			k, err := expectCell(parts[0], e[0])
			if err != nil {
				return "", err
			}
			x, err := expectCell(parts[1], e[1])
			if err != nil {
				return "", err
			}
			entries = append(entries, [2]string{k, x})
		}
		return MapText(entries), nil
	case "struct":
		m, ok := v.(map[string]any)
		if !ok {
			return bad()
		}
		var parts []string
		for _, f := range splitTop(args) {
			name, ft, ok := strings.Cut(f, ":")
			if !ok {
				return "", fmt.Errorf("type %s: field %q has no type", typ, f)
			}
			name = strings.TrimSpace(name)
			s, err := expectCell(ft, m[name])
			if err != nil {
				return "", err
			}
			parts = append(parts, name+": "+s)
		}
		return "{" + strings.Join(parts, ", ") + "}", nil
	default:
		return "", fmt.Errorf("unknown type %s", typ)
	}
	return bad()
}

// splitTop splits s at its commas outside <>, () and [].
func splitTop(s string) []string {
	var out []string
	depth, start := 0, 0
	for i, c := range s {
		switch c {
		case '<', '(', '[':
			depth++
		case '>', ')', ']':
			depth--
		case ',':
			if depth == 0 {
				out = append(out, strings.TrimSpace(s[start:i]))
				start = i + 1
			}
		}
	}
	return append(out, strings.TrimSpace(s[start:]))
}
