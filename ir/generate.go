package ir

import "strings"

// Generate is Spark's Generate (LATERAL VIEW, or a generator in a SELECT
// list): a generator function (explode, posexplode, inline, ...) of Args
// over each input row makes zero or more rows, each the input row's
// columns followed by the generated ones. With Outer, an input row for which
// the generator makes no row (a NULL or empty array or map) is kept once,
// its generated columns NULL (explode_outer, LATERAL VIEW OUTER). Alias is
// the generated columns' qualifier; Names are their names (empty: the
// generator's defaults, col, pos, key, value or the struct's fields).
type Generate struct {
	Pos   Pos
	Input Rel
	Func  string // without the _outer suffix
	Args  []Expr
	Outer bool
	Alias string   `json:",omitempty"`
	Names []string `json:",omitempty"`
}

func (r *Generate) Position() Pos { return r.Pos }
func (*Generate) relNode()        {}

// GeneratorFuncs are the generator functions Generate runs, by name.
var GeneratorFuncs = map[string]bool{"explode": true, "posexplode": true, "inline": true, "stack": true, "json_tuple": true}

// SplitGenerator reads a generator call's name: its Generate function and
// whether it is an _outer variant; ok is false when name is no generator.
func SplitGenerator(name string) (fn string, outer, ok bool) {
	name = strings.ToLower(name)
	fn, outer = strings.CutSuffix(name, "_outer")
	if outer && (fn == "stack" || fn == "json_tuple") {
		return "", false, false
	}
	return fn, outer, GeneratorFuncs[fn]
}

// lateralView prints a Generate as the .thund stage
// "lateral view [outer] f(args) [alias] [as a, b]".
func lateralView(r *Generate) string {
	s := "lateral view "
	if r.Outer {
		s += "outer "
	}
	s += printExpr(&Call{Name: r.Func, Args: r.Args}, 0)
	if r.Alias != "" {
		s += " " + quoteIdent(r.Alias)
	}
	if len(r.Names) > 0 {
		s += " as " + identList(r.Names)
	}
	return s
}
