package sparkemit

import (
	"testing"

	"github.com/nordisk/thund/ir"
)

// TestViewSQL: a persisted view's SQL element sets its conf, restores the
// USE state its query was written under, and then names the view in the
// graph's defaults (which USE would otherwise replace).
func TestViewSQL(t *testing.T) {
	cases := []struct {
		name string
		d    *ir.Dataset
		f    *ir.Flow
		want string
	}{
		{
			name: "plain",
			d:    &ir.Dataset{Kind: ir.KindView, Name: "v"},
			f:    &ir.Flow{SQL: &ir.SQLText{Query: "SELECT * FROM t"}},
			want: "CREATE VIEW `v`\nAS SELECT * FROM t\n",
		},
		{
			name: "conf, comment and properties",
			d: &ir.Dataset{Kind: ir.KindView, Name: "my view", Comment: "it's", Conf: []ir.KV{{Key: "a.b", Value: "1"}},
				Properties: []ir.KV{{Key: "k", Value: "v"}}},
			f:    &ir.Flow{Conf: []ir.KV{{Key: "odd key", Value: "x;y"}}, SQL: &ir.SQLText{Query: "SELECT 1"}},
			want: "SET a.b = 1;\nSET `odd key` = `x;y`;\nCREATE VIEW `my view`\nCOMMENT 'it\\'s'\nTBLPROPERTIES ('k' = 'v')\nAS SELECT 1\n",
		},
		{
			name: "under USE, qualified with the defaults",
			d:    &ir.Dataset{Kind: ir.KindView, Name: "v"},
			f:    &ir.Flow{SQL: &ir.SQLText{Query: "SELECT * FROM t", Catalog: "c2", Database: "s2"}},
			want: "USE CATALOG `c2`;\nUSE SCHEMA `s2`;\nCREATE VIEW `cat`.`db`.`v`\nAS SELECT * FROM t\n",
		},
		{
			name: "a qualified name stays qualified",
			d:    &ir.Dataset{Kind: ir.KindView, Name: "v", Database: "s3"},
			f:    &ir.Flow{SQL: &ir.SQLText{Query: "SELECT 2"}},
			want: "CREATE VIEW `s3`.`v`\nAS SELECT 2\n",
		},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if got := viewSQL(c.d, c.f, "cat", "db"); got != c.want {
				t.Errorf("got\n%s\nwant\n%s", got, c.want)
			}
		})
	}
}
