package codegen

import (
	"go/ast"
	"go/parser"
	"go/token"
	"maps"
	"slices"
	"strconv"
	"testing"
)

// TestIcebergSpec: etl.Dataset.Iceberg is set for each materialized view,
// streaming table and late table the native build publishes as an Iceberg
// table (passes/tableformat.go), and for nothing else: not a table of
// format parquet, nor one with a column Iceberg cannot hold, nor sources,
// sinks and temporary views.
func TestIcebergSpec(t *testing.T) {
	const src = `pipeline formats
source clicks stream from csv "c/*.csv" options ("header" = "true") {
  user string, n uint32, t timestamp(ms, "UTC")
  watermark t delay 2s
}
source ev from csv "e/*.csv" options ("header" = "true") { id int64, big uint64, at timestamp(us) }
materialized view plain = from ev | select id, at
materialized view said_iceberg format ICEBERG = from ev | select id
materialized view said_parquet format parquet = from ev | select id
materialized view wide = from ev | select id, big
streaming table st = from stream clicks | select user, t
streaming table per10
  = from stream clicks
  | window tumble(t, 10s)
  | group by user, window_start aggregate count(*) as c
  emit on window close
  late table per10_late
streaming table narrow
  = from stream clicks
  | select user, cast(n as int64) as n, t
  | window tumble(t, 10s)
  | group by user, window_start aggregate sum(n) as s
  emit on window close
  late table narrow_late
temporary view tv = from ev | select id
sink out options ("path" = "out")
flow f into out = from tv | select id
`
	files := generate(t, "formats.thund", []byte(src))
	fset := token.NewFileSet()
	f, err := parser.ParseFile(fset, "pipeline.go", files["pipeline.go"], 0)
	if err != nil {
		t.Fatal(err)
	}
	// each etl.Dataset literal: its Name, and whether it sets Iceberg: true
	iceberg := map[string]bool{}
	ast.Inspect(f, func(n ast.Node) bool {
		lit, ok := n.(*ast.CompositeLit)
		if !ok {
			return true
		}
		fields := map[string]ast.Expr{}
		for _, e := range lit.Elts {
			if kv, ok := e.(*ast.KeyValueExpr); ok {
				if k, ok := kv.Key.(*ast.Ident); ok {
					fields[k.Name] = kv.Value
				}
			}
		}
		name, ok := fields["Name"].(*ast.BasicLit)
		if _, kind := fields["Kind"]; !ok || !kind {
			return true
		}
		s, _ := strconv.Unquote(name.Value)
		v, set := fields["Iceberg"].(*ast.Ident)
		iceberg[s] = set && v.Name == "true"
		return true
	})
	want := map[string]bool{
		"clicks": false, "ev": false, "tv": false, "out": false,
		"plain": true, "said_iceberg": true, "said_parquet": false, "wide": false, "st": true,
		"per10": true, "per10_late": false, // its rows have n uint32
		"narrow": true, "narrow_late": true,
	}
	if !maps.Equal(iceberg, want) {
		var got, exp []string
		for k, v := range iceberg {
			if v {
				got = append(got, k)
			}
		}
		for k, v := range want {
			if v {
				exp = append(exp, k)
			}
		}
		slices.Sort(got)
		slices.Sort(exp)
		t.Errorf("datasets %v; Iceberg set on %v, want %v", slices.Sorted(maps.Keys(iceberg)), got, exp)
	}
}
