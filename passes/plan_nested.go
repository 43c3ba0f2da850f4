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
	case *ir.ColumnRef, *ir.GetField, *ir.IsNull, *ir.Cast, *ir.LambdaVar, *ir.Lambda: // a lambda: funcs_lambda.go
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
		if f := p.u.Calls[x]; f != nil && arrayForms[f.Name] && nested(x) { // funcs_arrays.go
			return p.refuseArrayForm(x)
		}
		if f := lookupFunc(x.Name); f != nil && f.result == resLambda {
			return p.refuseLambdaCall(x, f)
		}
		if f := lookupFunc(x.Name); f != nil && f.nativeNested {
			// computed natively: the JSON functions, regexp_extract_all, and
			// collect_list and collect_set (familyAccum checks their calls)
			return false
		}
	case *ir.Binary:
		if l, r := p.u.Types[x.L], p.u.Types[x.R]; x.Op.IsComparison() && orderable(l) && SameType(l, r) {
			return false // rt/nested.Compare, as Spark compares them (a join's key too)
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

// nestedOperators refuses an operator other than a scan, a filter, a
// projection, a derived table or a limit whose output holds a nested
// column the native backend does not run: over a stream any (a stream
// operator's state holds no nested value; an aggregate's items are judged
// with their calls), else those of batchNested.
func (p *planner) nestedOperators() {
	walkAll(p.fp.Flow.Query, func(r ir.Rel) {
		switch r.(type) {
		case *ir.Scan, *ir.Filter, *ir.Project, *ir.SubqueryRel, *ir.Limit, *ir.Generate: // they pass their input's rows
			return
		}
		fields := p.u.Schemas[r]
		switch a, agg := r.(*ir.Aggregate); {
		case !Streaming(r):
			fields = p.batchNested(r, fields)
		case agg:
			fields = fields[:min(len(a.Keys), len(fields))]
		}
		for _, f := range fields {
			if f.Type.IsNested() {
				p.refuse(r.Position(), "%s over the nested column %s (%s) is not supported yet: target spark-4.1 or spark-4.2", ir.NodeKindName(r), f.Name, f.Type)
				return
			}
		}
	})
}

// batchNested are the nested fields of a batch operator's output that the
// native backend does not run: an aggregate's own items may be nested
// (collect_list, whose expressions refuseNested judges), a join carries
// nested columns (its build rows cloned), and keys, as a distinct's, a
// union's, a set operation's and an order by's, may be ARRAY or STRUCT
// values that hold no MAP (hashed by rt/nested.Key, ordered by
// rt/nested.Compare).
func (p *planner) batchNested(r ir.Rel, fields Schema) Schema {
	switch r := r.(type) {
	case *ir.Join:
		return nil
	case *ir.Aggregate:
		fields = mapFields(fields[:min(len(r.Keys), len(fields))])
	case *ir.Distinct:
		if !r.WithinWatermark {
			fields = mapFields(fields)
		}
	case *ir.Sort: // its rows kept (rt/nested.Clone), its keys ordered by rt/nested.Compare
		fields = p.mapSortKeys(r)
	case *ir.Union:
		fields = p.unlikeNested(fields, r.Inputs...)
	case *ir.SetOp:
		fields = p.unlikeNested(fields, r.Left, r.Right)
	}
	return fields
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

// unlikeNested are the fields of a union's or set operation's output s
// that the native backend does not compare or pass on: those that hold a
// MAP, and the nested ones an input gives in another type (which would
// need a cast of nested values).
func (p *planner) unlikeNested(s Schema, inputs ...ir.Rel) Schema {
	out := mapFields(s)
	for i, f := range s {
		if !f.Type.IsNested() || holdsMap(f.Type) {
			continue
		}
		for _, in := range inputs {
			if is := p.u.Schemas[in]; i >= len(is) || !SameType(is[i].Type, f.Type) {
				out = append(out, f)
				break
			}
		}
	}
	return out
}

// orderable reports whether t is an ARRAY or STRUCT that holds no MAP: a
// nested value the native backend compares and orders.
func orderable(t ir.Type) bool {
	return (t.Kind == ir.TArray || t.Kind == ir.TStruct) && !holdsMap(t)
}

// mapSortKeys are an order by's keys that hold a MAP (as fields named by
// their expressions), which the native order does not compare.
func (p *planner) mapSortKeys(n *ir.Sort) Schema {
	var out Schema
	for _, k := range n.Keys {
		if t := p.u.Types[k.Expr]; holdsMap(t) {
			out = append(out, Field{Name: exprString(k.Expr), Type: t})
		}
	}
	return out
}

// mapFields are the fields of s that hold a MAP (funcs_collect.go's
// holdsMap): the nested keys the native hash does not compare.
func mapFields(s Schema) Schema {
	var out Schema
	for _, f := range s {
		if holdsMap(f.Type) {
			out = append(out, f)
		}
	}
	return out
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
