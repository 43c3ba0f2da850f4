package sparkemit

import (
	"strings"

	"github.com/nordisk/thund/ir"
	pb "github.com/nordisk/thund/sparkemit/connectpb"
)

// Nested types lower to Spark as they are written: the types by their DDL
// (ir.Type.SQL, through sparkType), the functions over them (array, map,
// named_struct, size, element_at, ...) as Spark's functions of the same
// name, a reference to a struct column's field (s.f, t.s.f) as the dotted
// attribute Spark resolves the same way, and GetField and Subscript as
// UnresolvedExtractValue, Spark's own x.f and x[i].

// nestedExpr lowers a GetField or a Subscript.
func (l *lowerer) nestedExpr(x ir.Expr) *pb.Expression {
	var child, extraction *pb.Expression
	switch n := x.(type) {
	case *ir.GetField:
		child, extraction = l.expr(n.X), strLit(n.Name)
	case *ir.Subscript:
		child, extraction = l.expr(n.X), l.expr(n.Index)
	}
	if child == nil || extraction == nil {
		return nil
	}
	return &pb.Expression{ExprType: &pb.Expression_UnresolvedExtractValue_{
		UnresolvedExtractValue: &pb.Expression_UnresolvedExtractValue{Child: child, Extraction: extraction}}}
}

// fieldRefAttr lowers a reference to a struct column's field: each part
// quoted on its own, so that Spark parses the dotted path.
func fieldRefAttr(n *ir.ColumnRef) *pb.Expression {
	parts := append(strings.Split(n.Qualifier, "."), n.Name)
	for i, p := range parts {
		parts[i] = quoteIdent(p)
	}
	return attr(strings.Join(parts, "."))
}

// sparkWidened is t with each unsigned integer, at any depth, replaced by
// the Spark type it widens to (sparkUnsigned).
func sparkWidened(t ir.Type) ir.Type {
	if w, ok := sparkUnsigned[t.Kind]; ok {
		return w
	}
	switch t.Kind {
	case ir.TArray:
		return ir.ArrayOf(sparkWidened(t.Elem()), t.ElemNullable())
	case ir.TMap:
		return ir.MapOf(sparkWidened(t.Key()), sparkWidened(t.Elem()), t.ElemNullable())
	case ir.TStruct:
		fs := append([]ir.StructField(nil), t.Fields()...)
		for i := range fs {
			fs[i].Type = sparkWidened(fs[i].Type)
		}
		return ir.StructOf(fs...)
	}
	return t
}

// csvColumns refuses a CSV source's nested columns, at their declarations:
// Spark's CSV reader refuses them (UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE on
// 4.1.4).
func (e *emitter) csvColumns(d *ir.Dataset) bool {
	ok := true
	for _, c := range d.Columns {
		if c.Type.IsNested() {
			e.refuse(c.Pos, "", d.Name, "the nested column "+c.Name+" ("+c.Type.String()+") of a csv source", "Spark's CSV reader refuses it (UNSUPPORTED_DATA_TYPE_FOR_DATASOURCE): read it from parquet or jsonl")
			ok = false
		}
	}
	return ok
}
