package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
)

// This file holds the compile-time model of generated code: blocks of
// statements, locals, SQL values held in locals, and rows of lazily loaded
// columns.

// block is a list of statements being generated; blocks nest like Go's.
type block struct {
	parent *block
	stmts  []jen.Code
}

// within reports whether b is a or nested in a.
func (b *block) within(a *block) bool {
	for x := b; x != nil; x = x.parent {
		if x == a {
			return true
		}
	}
	return false
}

// local is a Go variable of generated code. Reads go through flowGen.use,
// which marks it used; a local never read gets "_ = name" after its
// declaration, so that generated code never trips "declared and not used".
type local struct {
	name string
	used bool
	decl *jen.Statement
}

// value is one SQL value in generated code: a Go expression of the value
// (of goType(t)) and one of its validity. A nil ok means never NULL; null
// means always NULL (v is then unused). k is the value when it is known at
// generation time.
type value struct {
	t    ir.Type
	v    jen.Code
	ok   jen.Code
	null bool
	k    *konst
	vl   *local // the local behind v, if any
	okl  *local // the local behind ok, if any
}

// nullable reports whether the value can be NULL.
func (x *value) nullable() bool { return x.null || x.ok != nil }

// column is one column of a row: a value loaded on first use. Loads are
// cached per block, so a column read again in the same block (or a block
// nested in it) reuses the locals, and one read in a sibling block loads
// again.
type column struct {
	t     ir.Type
	load  func() *value
	cache []cachedValue
	// from is the join build row the column is read from, if it is one
	// of a hash join's stored right-side columns: its value is then a
	// function of that row's index (see aggregate's memoized groups).
	from *buildRef
	// scan marks a column of a scan's batch, loaded by the row's index
	// (deferAccum loads it again in its second loop)
	scan bool
}

// buildRef names one build row of a join in generated code: the slice
// of stored rows and the local holding the row's index.
type buildRef struct {
	rows, j string
	join    *ir.Join
}

// memoKey names the memo of one aggregate (its per-worker declarations)
// and one join build side (its rows).
type memoKey struct {
	decl *jen.Statement
	rows string
}

type cachedValue struct {
	blk *block
	v   *value
}

// row is the output of one operator: one column per field of its schema
// (hidden fields included), some possibly nil when nothing needs them.
type row struct {
	cols    []*column
	allNull bool // the missing side of an outer join
}

// constColumn is a column holding a value that needs no load code.
func constColumn(x *value) *column {
	return &column{t: x.t, load: func() *value { return x }}
}

// emit appends statements to the current block.
func (g *flowGen) emit(c ...jen.Code) { g.blk.stmts = append(g.blk.stmts, c...) }

// sub generates fn's code into a new block nested in the current one and
// returns its statements.
func (g *flowGen) sub(fn func()) []jen.Code {
	b := &block{parent: g.blk}
	old := g.blk
	g.blk = b
	fn()
	g.blk = old
	return b.stmts
}

// name returns a fresh local name with a readable stem.
func (g *flowGen) name(stem string) string {
	g.n++
	if stem == "" {
		stem = "t"
	}
	return fmt.Sprintf("%s%d", stem, g.n)
}

// declare emits "name := expr" (or "a, b := expr" for several names) and
// returns the locals.
func (g *flowGen) declare(names []string, expr jen.Code) []*local {
	ids := make([]jen.Code, len(names))
	for i, n := range names {
		ids[i] = jen.Id(n)
	}
	st := jen.List(ids...).Op(":=").Add(expr)
	g.emit(st)
	out := make([]*local, len(names))
	for i, n := range names {
		out[i] = &local{name: n, decl: st}
		g.locals = append(g.locals, out[i])
	}
	return out
}

// declareVar emits "var name T" and returns the local.
func (g *flowGen) declareVar(n string, typ jen.Code) *local {
	st := jen.Var().Id(n).Add(typ)
	g.emit(st)
	l := &local{name: n, decl: st}
	g.locals = append(g.locals, l)
	return l
}

// use marks a local read and returns its identifier.
func use(l *local) *jen.Statement {
	l.used = true
	return jen.Id(l.name)
}

// fixUnused appends "_ = x" after the declaration of every local never read.
func (g *flowGen) fixUnused() {
	for _, l := range g.locals {
		if !l.used {
			l.used = true
			l.decl.Line().Id("_").Op("=").Id(l.name)
		}
	}
}

// V is the Go expression of a value; reading it marks its local used.
func V(x *value) jen.Code {
	if x.vl != nil {
		x.vl.used = true
	}
	if x.null && x.v == nil {
		panic("V of a NULL value")
	}
	return x.v
}

// OK is the Go expression of a value's validity (true when never NULL).
func OK(x *value) jen.Code {
	if x.null {
		return jen.False()
	}
	if x.ok == nil {
		return jen.True()
	}
	if x.okl != nil {
		x.okl.used = true
	}
	return x.ok
}

// nullValue is the NULL of type t.
func nullValue(t ir.Type) *value {
	x := &value{t: t, null: true}
	if t.Kind != ir.TUnknown {
		x.v = zeroCode(t)
	}
	return x
}

// zeroCode is the zero value of t's Go type.
func zeroCode(t ir.Type) jen.Code {
	switch t.Kind {
	case ir.TBool:
		return jen.False()
	case ir.TString:
		return jen.Lit("")
	case ir.TBinary:
		return jen.Nil()
	case ir.TDecimal:
		return jen.Qual(decimalPkg, "Num").Values()
	case ir.TUnknown, ir.TArray, ir.TMap, ir.TStruct:
		return jen.Nil()
	}
	return goType(t).Call(jen.Lit(0))
}

// constValue is a value known at generation time.
func constValue(t ir.Type, k *konst) *value {
	return &value{t: t, v: konstCode(k, t), k: k}
}

// plainValue is a never-NULL value computed by a Go expression (no local).
func plainValue(t ir.Type, v jen.Code) *value { return &value{t: t, v: v} }

// bind stores a value in fresh locals (when it is not already a local or a
// constant), so that evaluating it again costs nothing.
func (g *flowGen) bind(x *value, stem string) *value {
	if x.null || x.k != nil || x.vl != nil && (x.ok == nil || x.okl != nil) {
		return x
	}
	out := &value{t: x.t}
	vn := g.name(stem)
	out.vl = g.declare([]string{vn}, V(x))[0]
	out.v = jen.Id(vn)
	if x.ok != nil {
		okn := vn + "ok"
		out.okl = g.declare([]string{okn}, OK(x))[0]
		out.ok = jen.Id(okn)
	}
	return out
}

// loaded is a column's value when it was read in the current block (or
// one it is nested in), else nil.
func (g *flowGen) loaded(c *column) *value {
	for i := len(c.cache) - 1; i >= 0; i-- {
		if g.blk.within(c.cache[i].blk) {
			return c.cache[i].v
		}
	}
	return nil
}

// col reads a column in the current block.
func (g *flowGen) col(c *column) *value {
	if x := g.loaded(c); x != nil {
		return x
	}
	x := c.load()
	c.cache = append(c.cache, cachedValue{blk: g.blk, v: x})
	return x
}

// and is the Go conjunction of validity expressions, dropping constant
// trues; nil when there is nothing to test.
func and(oks ...jen.Code) jen.Code {
	var parts []jen.Code
	seen := map[string]bool{}
	for _, o := range oks {
		if o == nil {
			continue
		}
		text := fmt.Sprintf("%#v", o)
		if text == "true" || seen[text] {
			continue
		}
		seen[text] = true
		parts = append(parts, o)
	}
	switch len(parts) {
	case 0:
		return nil
	case 1:
		return parts[0]
	}
	out := jen.Add(parts[0])
	for _, p := range parts[1:] {
		out = out.Op("&&").Add(p)
	}
	return out
}

// oksOf lists the validity expressions of the nullable values among xs.
func oksOf(xs ...*value) []jen.Code {
	var out []jen.Code
	for _, x := range xs {
		if x.nullable() {
			out = append(out, OK(x))
		}
	}
	return out
}

// anyNull reports whether one of xs is always NULL.
func anyNull(xs ...*value) bool {
	for _, x := range xs {
		if x.null {
			return true
		}
	}
	return false
}

// truth is a Go boolean expression that is true when the SQL boolean x is
// TRUE (not FALSE, not NULL).
func truth(x *value) jen.Code {
	switch {
	case x.null:
		return jen.False()
	case x.k != nil:
		return jen.Lit(x.k.b)
	case x.ok == nil:
		return V(x)
	}
	return jen.Add(OK(x)).Op("&&").Add(V(x))
}
