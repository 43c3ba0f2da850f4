package thund

import (
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
	"github.com/nordisk/thund/rt/etl"
)

// TestQuarantineColumns holds the columns thundc check wants of a
// quarantine table (passes.QuarantineColumns) equal to those the runtime
// writes (etl.QuarantineSchema): the compiler may not import rt, so each
// keeps its own list, and this test is where they meet.
func TestQuarantineColumns(t *testing.T) {
	arrowOf := map[ir.TypeKind]arrow.Type{ir.TString: arrow.STRING, ir.TInt64: arrow.INT64}
	fs := etl.QuarantineSchema.Fields()
	if len(fs) != len(passes.QuarantineColumns) {
		t.Fatalf("check wants %d columns, the runtime writes %d", len(passes.QuarantineColumns), len(fs))
	}
	for i, c := range passes.QuarantineColumns {
		want, ok := arrowOf[c.Type.Kind]
		if !ok {
			t.Fatalf("column %s: type %s has no entry here", c.Name, c.Type)
		}
		if fs[i].Name != c.Name || fs[i].Type.ID() != want {
			t.Errorf("column %d: check wants %s %s, the runtime writes %s %s", i+1, c.Name, c.Type, fs[i].Name, fs[i].Type)
		}
	}
}
