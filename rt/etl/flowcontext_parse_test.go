package etl

import (
	"context"
	"reflect"
	"testing"

	"github.com/nordisk/thund/rt/jsonfn"
	"github.com/nordisk/thund/rt/run"
)

// TestCountParses: a from_json parser registered with the flow
// (CountParses, as generated code does) has its malformed values, rescued
// values and new keys added to the flow's counts when the flow ends, under
// its position, once.
func TestCountParses(t *testing.T) {
	stats := &run.Flow{Name: "f", Target: "f"}
	fc := NewFlowContext(context.Background(), nil, 1, stats, nil, nil, nil)
	str := &jsonfn.Type{Kind: jsonfn.String}
	schema := &jsonfn.Type{Kind: jsonfn.Struct, Fields: []jsonfn.Field{{Name: "n", Type: &jsonfn.Type{Kind: jsonfn.Int, Bits: 32}}, {Name: "r", Type: str}}}
	p := jsonfn.NewParser(schema, "from_json at p.thund:3:10", jsonfn.Options{Corrupt: -1, Rescued: 1, Evolution: jsonfn.EvolveNone})
	fc.CountParses(p)
	for _, v := range []string{`{"n":1}`, `nope`, `{"n":"x"}`, `{"n":2,"k":true}`, `[]`} {
		if _, _, err := p.Parse(v); err != nil {
			t.Fatal(err)
		}
	}
	fc.countParses()
	fc.countParses() // counted once
	if got, want := stats.Malformed(), []run.Malformed{{Source: "from_json at p.thund:3:10", Kept: 2}}; !reflect.DeepEqual(got, want) {
		t.Errorf("malformed %+v, want %+v", got, want)
	}
	if got, want := stats.Rescued(), []run.Rescued{{Source: "from_json at p.thund:3:10", Column: "r", Rows: 2}}; !reflect.DeepEqual(got, want) {
		t.Errorf("rescued %+v, want %+v", got, want)
	}
	if got, want := stats.NewColumns(), []run.NewColumns{{Source: "from_json at p.thund:3:10", Columns: []string{"k"}, Into: "r"}}; !reflect.DeepEqual(got, want) {
		t.Errorf("new columns %+v, want %+v", got, want)
	}
}
