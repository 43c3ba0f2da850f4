package dsl

import (
	"fmt"
	"math/rand"
	"strings"
	"testing"

	"github.com/nordisk/thund/ir"
)

// irGen builds random IR of the shapes the parser makes (lower-case call
// names, canonical literal texts, stars only as select items, unions of two
// inputs or more, aliased subqueries), to check that Print spells every
// combination of nodes so that Parse gives it back.
type irGen struct {
	r     *rand.Rand
	depth int
}

var genNames = []string{"a", "b", "x1", "where", "date", "end", "select", "a b", "window", "`q`", "from", "NULL", "first"}

func (g *irGen) name() string { return genNames[g.r.Intn(len(genNames))] }

func (g *irGen) pick(n int) int { return g.r.Intn(n) }

func (g *irGen) literal() *ir.Literal {
	switch g.pick(9) {
	case 0:
		return &ir.Literal{Kind: ir.LitNull}
	case 1:
		return &ir.Literal{Kind: ir.LitBool, Text: []string{"true", "false"}[g.pick(2)]}
	case 2:
		return &ir.Literal{Kind: ir.LitInt, Text: fmt.Sprint(g.r.Int63n(1 << 40))}
	case 3:
		return &ir.Literal{Kind: ir.LitDecimal, Text: []string{"1.50", "0.001", "12.0"}[g.pick(3)]}
	case 4:
		return &ir.Literal{Kind: ir.LitFloat, Text: []string{"1e3", "2.5e-7", "1e+5"}[g.pick(3)]}
	case 5:
		return &ir.Literal{Kind: ir.LitString, Text: []string{"", "it's", "a\nb", "--", "#"}[g.pick(5)]}
	case 6:
		return &ir.Literal{Kind: ir.LitInterval, Text: ir.Duration(g.r.Int63n(1 << 45)).String()}
	case 7:
		return &ir.Literal{Kind: ir.LitTimestamp, Text: "2024-02-29 23:59:59.000001"}
	}
	return &ir.Literal{Kind: ir.LitDate, Text: "2024-02-29"}
}

func (g *irGen) expr() ir.Expr {
	g.depth++
	defer func() { g.depth-- }()
	if g.depth > 3 {
		if g.pick(2) == 0 {
			return g.literal()
		}
		return &ir.ColumnRef{Name: g.name()}
	}
	switch g.pick(18) {
	case 0:
		return g.literal()
	case 1:
		q := ""
		if g.pick(2) == 0 {
			q = g.name()
		}
		return &ir.ColumnRef{Qualifier: q, Name: g.name()}
	case 2:
		u := &ir.Unary{Op: ir.UnaryOp(g.pick(len(ir.UnaryOps()))), X: g.expr()}
		if ex, ok := u.X.(*ir.Exists); ok && u.Op == ir.OpNot {
			// the parsers make not exists one node (correlated subqueries)
			ex.Not = !ex.Not
			return ex
		}
		return u
	case 3, 4, 5:
		return &ir.Binary{Op: ir.BinaryOp(g.pick(len(ir.BinaryOps()))), L: g.expr(), R: g.expr()}
	case 6:
		return &ir.IsNull{X: g.expr(), Not: g.pick(2) == 0}
	case 7:
		return &ir.In{X: g.expr(), List: []ir.Expr{g.expr(), g.expr()}, Not: g.pick(2) == 0}
	case 8:
		return &ir.Between{X: g.expr(), Lo: g.expr(), Hi: g.expr(), Not: g.pick(2) == 0}
	case 9:
		return &ir.Like{X: g.expr(), Pattern: g.expr(), Not: g.pick(2) == 0}
	case 10:
		c := &ir.Case{Whens: []*ir.When{{Cond: g.expr(), Then: g.expr()}}}
		if g.pick(2) == 0 {
			c.Operand = g.expr()
		}
		if g.pick(2) == 0 {
			c.Else = g.expr()
		}
		return c
	case 11:
		return &ir.Cast{X: g.expr(), To: []ir.Type{ir.Int64, ir.Decimal(5, 2), ir.Timestamp(ir.Milli, "UTC"), ir.DurationType(ir.Nano), {}}[g.pick(5)], Try: g.pick(2) == 0}
	case 12:
		c := &ir.Call{Name: strings.ToLower(g.name())}
		switch g.pick(3) {
		case 0:
			c.Star = true
		case 1:
			c.Distinct = true
			c.Args = []ir.Expr{g.expr()}
		default:
			for i := g.pick(3); i > 0; i-- {
				c.Args = append(c.Args, g.expr())
			}
		}
		return c
	case 13:
		if g.depth < 3 {
			return &ir.ScalarSubquery{Query: g.rel()}
		}
	case 14:
		if g.depth < 3 {
			return &ir.InSubquery{X: g.expr(), Query: g.rel(), Not: g.pick(2) == 0}
		}
	case 17: // correlated subqueries
		if g.depth < 3 {
			return &ir.Exists{Query: g.rel(), Not: g.pick(2) == 0}
		}
	}
	return &ir.ColumnRef{Name: g.name()}
}

func (g *irGen) named(star bool) *ir.NamedExpr {
	if star && g.pick(4) == 0 {
		s := &ir.Star{}
		if g.pick(2) == 0 {
			s.Qualifier = g.name()
		}
		if g.pick(2) == 0 {
			s.Except = []string{g.name()}
		}
		return &ir.NamedExpr{Expr: s}
	}
	n := &ir.NamedExpr{Expr: g.expr()}
	if g.pick(2) == 0 {
		n.Alias = g.name()
	}
	return n
}

func (g *irGen) fromItem() ir.Rel {
	switch g.pick(5) {
	case 0:
		r := &ir.Range{Start: g.r.Int63n(10) - 5, End: 10}
		if g.pick(2) == 0 {
			r.Step = 2
		}
		if g.pick(2) == 0 {
			return &ir.SubqueryRel{Input: r, Alias: g.name()}
		}
		return r
	case 1:
		if g.depth < 3 {
			return &ir.SubqueryRel{Input: g.rel(), Alias: g.name()}
		}
	case 2:
		if g.depth < 3 {
			return g.rel() // printed in parentheses when it is no FROM item
		}
	}
	s := &ir.Scan{Name: g.name(), Stream: g.pick(2) == 0}
	if g.pick(2) == 0 {
		s.Name += "." + g.name()
	}
	if g.pick(2) == 0 {
		s.Alias = g.name()
	}
	if g.pick(3) == 0 {
		s.Watermark = &ir.Watermark{Column: g.name(), Delay: ir.Duration(g.r.Int63n(1e12)), AllowedLateness: ir.Duration(g.r.Int63n(2) * 1e9)}
	}
	if g.pick(3) == 0 {
		s.Bounds = &ir.EdgeBounds{Rows: g.r.Int63n(3) * 1000, Bytes: g.r.Int63n(3) << 20}
	}
	return s
}

func (g *irGen) rel() ir.Rel {
	g.depth++
	defer func() { g.depth-- }()
	r := g.fromItem()
	for i := g.pick(5); i > 0; i-- {
		switch g.pick(10) {
		case 0:
			r = &ir.Filter{Input: r, Cond: g.expr()}
		case 1:
			p := &ir.Project{Input: r}
			for j := 1 + g.pick(3); j > 0; j-- {
				p.Items = append(p.Items, g.named(true))
			}
			r = p
		case 2:
			a := &ir.Aggregate{Input: r}
			for j := g.pick(3); j > 0; j-- {
				a.Keys = append(a.Keys, g.named(false))
			}
			for j := g.pick(3); j > 0 || len(a.Keys) == 0 && len(a.Aggs) == 0; j-- {
				a.Aggs = append(a.Aggs, g.named(false))
			}
			r = a
		case 3:
			j := &ir.Join{Kind: ir.JoinKind(g.pick(7)), Left: r, Right: g.fromItem()}
			switch g.pick(3) {
			case 0:
				j.On = g.expr()
			case 1:
				j.Using = []string{g.name(), g.name()}
			}
			r = j
		case 4:
			r = &ir.Window{Input: r, Kind: ir.WindowKind(g.pick(3)), Time: g.expr(), Size: ir.Duration(1e9), Slide: ir.Duration(2e9), Gap: ir.Duration(3e9)}
		case 5:
			u := &ir.Union{All: g.pick(2) == 0, Inputs: []ir.Rel{r}}
			for j := 1 + g.pick(2); j > 0; j-- {
				u.Inputs = append(u.Inputs, g.fromItem())
			}
			r = u
		case 6:
			r = &ir.Distinct{Input: r}
		case 7:
			first := g.pick(2) == 0
			k := &ir.SortKey{Expr: g.expr(), Desc: g.pick(2) == 0}
			if g.pick(2) == 0 {
				k.NullsFirst = &first
			}
			r = &ir.Sort{Input: r, Keys: []*ir.SortKey{k}}
		case 8:
			r = &ir.Limit{Input: r, N: g.r.Int63n(100), Offset: g.r.Int63n(2) * 7}
		}
	}
	// A window needs its own kind's durations only.
	ir.WalkRel(r, func(r ir.Rel) bool {
		if w, ok := r.(*ir.Window); ok {
			switch w.Kind {
			case ir.WindowTumble:
				w.Slide, w.Gap = 0, 0
			case ir.WindowHop:
				w.Gap = 0
			case ir.WindowSession:
				w.Size, w.Slide = 0, 0
			}
		}
		return true
	})
	return r
}

// TestRandomIR prints random IR and parses it back.
func TestRandomIR(t *testing.T) {
	n := 600
	if testing.Short() {
		n = 60
	}
	g := &irGen{r: rand.New(rand.NewSource(7))}
	for i := 0; i < n; i++ {
		q := g.rel()
		p := &ir.Pipeline{
			Datasets: []*ir.Dataset{{Kind: ir.KindStreamingTable, Name: "t", Expectations: []*ir.Expectation{{Name: "e", Cond: g.expr(), Action: ir.ExpectAction(g.pick(3))}}}},
			Flows:    []*ir.Flow{{Name: "t", Target: "t", Query: q}, {Name: "f", Target: "t", Once: true, Query: g.rel()}},
		}
		text := ir.Print(p)
		p2, diags := Parse("r.thund", text)
		if diags != nil {
			t.Fatalf("case %d: %v\n%s", i, diags, text)
		}
		if !ir.Equal(p, p2) {
			t.Fatalf("case %d: %s\n%s", i, ir.Diff(p, p2), text)
		}
		if i%10 == 0 {
			checkRoundTrip(t, "r.thund", p2)
		}
	}
}
