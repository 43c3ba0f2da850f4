package passes

import "github.com/nordisk/thund/ir"

// The native backend has no runtime for nested values (ARRAY, MAP, STRUCT)
// yet: the types, both frontends' syntax, typing and the Spark lowering are
// built, and the plan pass refuses every nested column and value here, at
// its position, so that codegen never meets one.

// refuseNested refuses an expression of a nested type, or a reference to
// a struct column's field, and reports whether it did.
func (p *planner) refuseNested(x ir.Expr) bool {
	if t := p.u.Types[x]; t.IsNested() {
		p.refuse(x.Position(), "a value of the nested type %s is not supported yet: target spark-4.1 or spark-4.2", t)
		return true
	}
	if c, ok := x.(*ir.ColumnRef); ok && p.u.FieldRefs[c] > 0 {
		p.refuse(c.Pos, "the struct field reference %s is not supported yet: target spark-4.1 or spark-4.2", exprString(c))
		return true
	}
	return false
}

// nestedColumns refuses each declared dataset column of a nested type, at
// its declaration, and each nested column of a source, declared or not (at
// the source). A column a flow computes is refused at its expression
// (planner.expressions), so each nested value is refused where it enters.
// A CSV source says that CSV cannot hold the column, whatever the backend.
func nestedColumns(u *Unit) {
	p := &planner{u: u, native: true}
	for _, d := range u.Pipeline.Datasets {
		for _, f := range u.Datasets[d] {
			if !f.Type.IsNested() {
				continue
			}
			pos, declared := d.Pos, false
			for _, c := range d.Columns {
				if c.Name == f.Name {
					pos, declared = c.Pos, true
				}
			}
			if !declared && d.Source == nil {
				continue
			}
			if d.Source != nil && d.Source.Format == ir.FormatCSV {
				p.refuse(pos, "a csv source cannot hold the nested column %s (%s): read it from parquet, jsonl or arrow", f.Name, f.Type)
				continue
			}
			p.refuse(pos, "column %s of %s has the nested type %s, which is not supported yet: target spark-4.1 or spark-4.2", f.Name, d.Name, f.Type)
		}
	}
}
