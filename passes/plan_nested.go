package passes

import (
	"regexp"
	"strings"

	"github.com/nordisk/thund/ir"
)

// The native backend runs nested values (ARRAY, MAP, STRUCT) through
// scans, filters and projections, and computes them with the expressions
// codegen/nested.go generates. The plan pass refuses the rest here, at its
// position, so that codegen never meets it.

// refuseNested refuses an expression over nested values that the native
// backend does not compute, and reports whether it did (the caller then
// skips the expression's operands). Field references, GetField, Subscript,
// IS NULL, casts (which the cast check judges) and the nested functions
// are computed; any other expression of a nested type, or with an operand
// of one, is refused.
func (p *planner) refuseNested(x ir.Expr) bool {
	nested := func(e ir.Expr) bool { return p.u.Types[e].IsNested() }
	switch x := x.(type) {
	case *ir.ColumnRef, *ir.GetField, *ir.IsNull, *ir.Cast:
		return false
	case *ir.Subscript:
		if t := p.u.Types[x.X]; t.Kind == ir.TMap {
			return p.refuseConversion(x.Index, t.Key(), "a key of "+t.String())
		}
		return false
	case *ir.Call:
		if f := p.u.Calls[x]; f != nil && isNestedFunc(f.Name) {
			return p.refuseNestedCall(x, f.Name)
		}
		if f := p.u.Calls[x]; f != nil && jsonNestedResults[f.Name] {
			return false // funcs_json.go: computed natively
		}
	}
	if nested(x) {
		p.refuse(x.Position(), "%s, of the nested type %s, is not supported yet: target spark-4.1 or spark-4.2", exprString(x), p.u.Types[x])
		return true
	}
	for _, c := range ir.ExprChildren(x) {
		if nested(c) {
			p.refuse(x.Position(), "%s over the nested value %s is not supported yet: target spark-4.1 or spark-4.2", exprString(x), exprString(c))
			return true
		}
	}
	return false
}

// refuseNestedCall refuses a nested function's argument that the native
// backend would have to convert in a way it does not: each constructor's
// part is cast to its place's type, a map key to the map's key type, and
// array_contains's value to the element type, which must be the wider.
func (p *planner) refuseNestedCall(x *ir.Call, name string) bool {
	t := p.u.Types[x]
	switch name {
	case "array", "struct", "named_struct", "map":
		for i, a := range x.Args {
			var to ir.Type
			switch {
			case name == "array":
				to = t.Elem()
			case name == "struct":
				to = t.Fields()[i].Type
			case name == "named_struct" && i%2 == 1:
				to = t.Fields()[i/2].Type
			case name == "map" && i%2 == 0:
				to = t.Key()
			case name == "map":
				to = t.Elem()
			default:
				continue
			}
			if p.refuseConversion(a, to, "a part of "+t.String()) {
				return true
			}
		}
	case "split":
		if pos, why := nativeSplitPattern(x.Args[1]); why != "" {
			p.refuse(pos, "split with %s is not supported yet: split by a string literal whose regex reads the same in Java and Go's RE2 (no lookaround, possessive quantifiers, back-references, \\p{...}, \\Q...\\E or class intersections), or target spark-4.1 or spark-4.2", why)
			return true
		}
	case "element_at":
		if m := p.u.Types[x.Args[0]]; m.Kind == ir.TMap {
			return p.refuseConversion(x.Args[1], m.Key(), "a key of "+m.String())
		}
	case "array_contains":
		arr, vt := p.u.Types[x.Args[0]], p.u.Types[x.Args[1]]
		elem := arr.Elem()
		if c, ok := commonType(elem, vt); ok && !SameType(c, elem) && !isUnknown(elem) {
			p.refuse(x.Pos, "array_contains(%s, %s) compares as %s, which is not supported yet: cast the array to array<%s>", arr, vt, c, c)
			return true
		}
		return p.refuseConversion(x.Args[1], elem, "an element of "+arr.String())
	}
	return false
}

// refuseConversion refuses an operand the native backend would have to cast
// to type to with a cast it does not run; place says where the operand
// goes, for the message.
func (p *planner) refuseConversion(e ir.Expr, to ir.Type, place string) bool {
	from := p.u.Types[e]
	if NativeCast(from, to) {
		return false
	}
	p.refuse(e.Position(), "%s as %s (a cast from %s to %s) is not supported yet", exprString(e), place, from, to)
	return true
}

// nestedOperators refuses an operator other than a scan, a filter or a
// projection whose output holds a nested column.
func (p *planner) nestedOperators() {
	walkAll(p.fp.Flow.Query, func(r ir.Rel) {
		switch r.(type) {
		case *ir.Scan, *ir.Filter, *ir.Project:
			return
		}
		for _, f := range p.u.Schemas[r] {
			if f.Type.IsNested() {
				p.refuse(r.Position(), "%s over the nested column %s (%s) is not supported yet: target spark-4.1 or spark-4.2", ir.NodeKindName(r), f.Name, f.Type)
				return
			}
		}
	})
}

// nestedColumns refuses a nested column of a CSV source, at its
// declaration: CSV cannot hold one.
func nestedColumns(u *Unit) {
	p := &planner{u: u, native: true}
	for _, d := range u.Pipeline.Datasets {
		if d.Source == nil || d.Source.Format != ir.FormatCSV {
			continue
		}
		for _, c := range d.Columns {
			if c.Type.IsNested() {
				p.refuse(c.Pos, "a csv source cannot hold the nested column %s (%s): read it from parquet, jsonl or arrow", c.Name, c.Type)
			}
		}
	}
}

// sameNestedRep reports whether two nested types hold their values alike in
// generated code: the same shape with parts of the same types (SameType),
// names and nullability aside.
func sameNestedRep(a, b ir.Type) bool {
	parts, _, ok := nestedParts(a, b)
	if !ok {
		return false
	}
	for _, p := range parts {
		if !SameType(p[0], p[1]) {
			return false
		}
	}
	return true
}

// javaOnly are the regex constructs whose meaning Java (Spark's split) and
// Go's RE2 do not share, or that RE2 lacks.
var javaOnly = []string{"&&", "(?", `\p`, `\P`, `\Q`, `\E`, `\G`, `\Z`, `\z`, `\A`, `\h`, `\H`, `\R`, `\X`, `\k`, `\v`, `\V`,
	"++", "*+", "?+", "}+", `\1`, `\2`, `\3`, `\4`, `\5`, `\6`, `\7`, `\8`, `\9`, `\0`}

// nativeSplitPattern says why split's pattern e cannot run natively ("" when
// it can): it must be a string literal that RE2 compiles and that holds no
// construct of javaOnly.
func nativeSplitPattern(e ir.Expr) (ir.Pos, string) {
	l, ok := e.(*ir.Literal)
	if !ok || l.Kind != ir.LitString {
		return e.Position(), "a pattern that is not a string literal (" + exprString(e) + ")"
	}
	for _, j := range javaOnly {
		if strings.Contains(l.Text, j) {
			return l.Pos, "the pattern '" + l.Text + "', which holds " + j
		}
	}
	if _, err := regexp.Compile(l.Text); err != nil {
		return l.Pos, "the pattern '" + l.Text + "', which RE2 does not read"
	}
	return ir.Pos{}, ""
}
