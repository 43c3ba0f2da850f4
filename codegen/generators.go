package codegen

import (
	"strconv"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// genGenerate generates a generator (LATERAL VIEW, or one in a SELECT
// list): per input row, the generator's rows (rt/nested's Explode, Inline,
// Stack, JSONTuple; Outer keeps one row of NULLs for explode_outer and LATERAL VIEW
// OUTER) are computed once, then the consumer runs once per generated row,
// with the input row's columns and the generated ones, each read from the
// row's Struct on first use. It is stateless, so it runs over a stream read
// as over a snapshot.
func (g *flowGen) genGenerate(n *ir.Generate, c consumer) {
	schema := g.u.Schemas[n]
	in := g.u.Schemas[n.Input]
	vis := len(in.Visible())
	width := len(schema) - len(in)
	g.produce(n.Input, func(r *row) {
		rows := g.generatorRows(n, g.envOf(n.Input, r), schema[vis:vis+width])
		gr := g.name("gen")
		body := g.loop(func() {
			o := &row{cols: make([]*column, len(schema))}
			copy(o.cols, r.cols[:vis])
			copy(o.cols[vis+width:], r.cols[vis:])
			for j := range width {
				t := schema[vis+j].Type
				o.cols[vis+j] = &column{t: t, load: func() *value {
					return g.strict(t, n.Pos, maybe, false, nil, func() jen.Code {
						return jen.Qual(nestedPkg, "Field").Types(goType(t)).Call(jen.Id(gr), jen.Lit(j))
					})
				}}
			}
			c(o)
		})
		g.emit(jen.For(jen.List(jen.Id("_"), jen.Id(gr)).Op(":=").Range().Add(rows)).Block(body...))
	})
}

// generatorRows is the expression of the rows n's generator makes of the
// current input row (a []nested.Struct). A NULL argument still makes the
// loop (over no rows), so that its consumer's code is generated.
func (g *flowGen) generatorRows(n *ir.Generate, e *env, cols passes.Schema) jen.Code {
	width := len(cols)
	args := make([]*value, len(n.Args))
	for i, a := range n.Args {
		args[i] = g.genExpr(a, e)
	}
	var rows jen.Code
	switch n.Func {
	case "stack": // the plan checked the values' conversions
		cnt, _ := strconv.Atoi(n.Args[0].(*ir.Literal).Text)
		vals := []jen.Code{jen.Lit(cnt)}
		for i, a := range args[1:] {
			vals = append(vals, anyOf(g.as(a, cols[i%width].Type, n.Pos)))
		}
		return jen.Qual(nestedPkg, "Stack").Call(vals...)
	case "json_tuple": // one row, always
		parts := make([]jen.Code, len(args))
		for i, a := range args {
			parts[i] = anyOf(a)
		}
		return jen.Qual(nestedPkg, "JSONTuple").Call(parts...)
	case "inline":
		rows = jen.Qual(nestedPkg, "Inline").Call(anyOf(args[0]), jen.Lit(width))
	default: // explode, posexplode
		rows = jen.Qual(nestedPkg, "Explode").Call(anyOf(args[0]), jen.Lit(n.Func == "posexplode"))
	}
	if n.Outer {
		rows = jen.Qual(nestedPkg, "Outer").Call(rows, jen.Lit(width))
	}
	return rows
}
