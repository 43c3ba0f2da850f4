package codegen

import (
	"math/big"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// stringSqlfn maps the string functions computed by one sqlfn function of
// their arguments (each converted by stringArgKinds) to it.
var stringSqlfn = map[string]struct {
	fn   string
	mode callMode
}{
	"split_part": {"SplitPart", checked}, "initcap": {"InitCap", pure}, "translate": {"Translate", pure},
	"instr": {"Instr", pure}, "repeat": {"Repeat", pure}, "reverse": {"Reverse", pure}, "left": {"Left", pure},
	"right": {"Right", pure}, "ascii": {"Ascii", pure}, "chr": {"Chr", pure}, "space": {"Space", pure},
	"substring_index": {"SubstringIndex", pure}, "soundex": {"Soundex", pure}, "find_in_set": {"FindInSet", pure},
	"luhn_check": {"LuhnCheck", pure}, "quote": {"Quote", pure},
}

// genStringCall generates the string functions (passes/funcs_strings.go); nil for a call it does not generate.
func (g *flowGen) genStringCall(name string, e *ir.Call, args []*value, t ir.Type) *value {
	sq := func(mode callMode, fn string, vals ...*value) *value { return g.sqlfnCall(t, e.Pos, mode, fn, vals...) }
	i32 := func(i int) *value { return g.asInt32(args[i], e.Pos) }
	str := func(s string) *value { return constValue(ir.StringT, &konst{s: s}) }
	// integer arguments: int32 (Spark's IntegerType), chr's int64 (LongType)
	ints := func() []*value {
		out := append([]*value(nil), args...)
		for i, a := range out {
			switch {
			case name == "chr":
				out[i] = g.coerce(a, ir.Int64, e.Pos)
			case a.t.IsInteger():
				out[i] = g.asInt32(a, e.Pos)
			}
		}
		return out
	}
	if f, ok := stringSqlfn[name]; ok {
		return sq(f.mode, f.fn, ints()...)
	}
	switch name {
	case "lpad", "rpad":
		pad := str(" ")
		if len(args) == 3 {
			pad = args[2]
		}
		fn := map[string]string{"lpad": "Lpad", "rpad": "Rpad"}[name]
		return sq(pure, fn, args[0], i32(1), pad)
	case "locate": // with a position: genLazyStringCall
		return sq(pure, "Locate", args[0], args[1], constValue(ir.Int32, &konst{i: big.NewInt(1)}))
	case "btrim":
		if len(args) == 2 {
			return sq(pure, "TrimChars", args[0], args[1])
		}
		return sq(pure, "Trim", args[0])
	case "bit_length", "octet_length", "len":
		a := args[0]
		if name == "len" && a.t.Kind == ir.TString {
			return sq(pure, "Length", a)
		}
		mul := map[string]int{"bit_length": 8, "octet_length": 1, "len": 1}[name]
		return g.strict(t, e.Pos, pure, false, args, func() jen.Code { return jen.Int32().Call(jen.Len(V(a))).Op("*").Lit(mul) })
	case "overlay":
		n := constValue(ir.Int32, &konst{i: big.NewInt(-1)})
		if len(args) == 4 {
			n = i32(3)
		}
		return sq(pure, "Overlay", args[0], args[1], i32(2), n)
	case "levenshtein":
		if len(args) == 3 {
			return sq(pure, "LevenshteinMax", args[0], args[1], i32(2))
		}
		return sq(pure, "Levenshtein", args[0], args[1])
	case "format_number":
		a, d := args[0], i32(1)
		switch {
		case a.t.Kind == ir.TDecimal:
			return g.strict(t, e.Pos, maybe, false, []*value{a, d}, func() jen.Code {
				return jen.Qual(sqlfnPkg, "FormatNumberDecimal").Call(V(a), jen.Lit(int32(a.t.Scale)), V(d))
			})
		case a.t.IsFloat():
			return sq(maybe, "FormatNumberFloat", g.coerce(a, ir.Float64, e.Pos), d)
		}
		return sq(maybe, "FormatNumberInt", g.coerce(a, ir.Int64, e.Pos), d)
	case "rlike", "regexp_extract", "regexp_extract_all", "regexp_replace", "regexp_count", "regexp_substr", "regexp_instr":
		return g.genRegexCall(name, e, args, t)
	}
	return nil
}

// genRegexCall generates a regular-expression function: its constant
// pattern, translated to RE2 by passes (javaregex.go), is compiled once
// when the flow starts.
func (g *flowGen) genRegexCall(name string, e *ir.Call, args []*value, t ir.Type) *value {
	p := args[1]
	if p.k == nil {
		g.unplanned(e.Args[1].Position(), "%s with a pattern that is not a constant is not supported yet", name)
		return nullValue(t)
	}
	j, err := passes.TranslateJavaRegex(p.k.s)
	if err != nil {
		g.unplanned(e.Args[1].Position(), "%s's pattern: %v", name, err)
		return nullValue(t)
	}
	srcs := make([]jen.Code, len(j.Sources))
	for i, s := range j.Sources {
		srcs[i] = jen.Lit(s)
	}
	rv := g.name("re")
	g.prelude = append(g.prelude,
		jen.Commentf("%s %s %s", posText(e.Pos), name, quoteSQL(p.k.s)),
		jen.List(jen.Id(rv), jen.Err()).Op(":=").Qual(sqlfnPkg, "NewRegex").Call(jen.Lit(p.k.s), jen.Lit(j.Groups), jen.Lit(j.Dollar), jen.Index(jen.Lit(len(srcs))).String().Values(srcs...)),
		jen.If(jen.Err().Op("!=").Nil()).Block(jen.Return(jen.Qual(etlPkg, "SQLError").Call(jen.Lit(posText(e.Pos)), jen.Lit(g.flow.Name), jen.Err()))))
	s := args[0]
	method := func(mode callMode, m string, extra ...*value) *value {
		vals := append([]*value{s}, extra...)
		return g.strict(t, e.Pos, mode, false, vals, func() jen.Code {
			cs := make([]jen.Code, len(vals))
			for i, v := range vals {
				cs[i] = V(v)
			}
			return jen.Id(rv).Dot(m).Call(cs...)
		})
	}
	switch name {
	case "rlike":
		return method(pure, "Like")
	case "regexp_extract", "regexp_extract_all":
		idx := constValue(ir.Int32, &konst{i: big.NewInt(1)})
		if len(args) == 3 {
			idx = g.asInt32(args[2], e.Pos)
		}
		if name == "regexp_extract" {
			return method(checked, "Extract", idx)
		}
		return g.strict(t, e.Pos, checked, false, []*value{s, idx}, func() jen.Code {
			return jen.Qual(nestedPkg, "RegexpExtractAll").Call(jen.Id(rv), V(s), V(idx))
		})
	case "regexp_replace":
		pos := constValue(ir.Int32, &konst{i: big.NewInt(1)})
		if len(args) == 4 {
			pos = g.asInt32(args[3], e.Pos)
		}
		return method(checked, "Replace", args[2], pos)
	case "regexp_count":
		return method(pure, "Count")
	case "regexp_substr":
		return method(maybe, "Substr")
	}
	return method(pure, "Instr") // regexp_instr: Spark ignores the group index
}

// genLazyStringCall generates the string functions that see NULL
// arguments: concat_ws skips them, elt returns the one it picks, locate
// with a NULL position is 0 whatever its other arguments, mask keeps the
// characters whose replacement is NULL, and format_string prints a NULL.
func (g *flowGen) genLazyStringCall(name string, e *ir.Call, en *env, t ir.Type) *value {
	if name == "locate" && len(e.Args) == 3 {
		return g.genLocate(e, en, t)
	}
	if name == "mask" {
		return g.genMask(e, en, t)
	}
	if name == "format_string" {
		return g.genFormatString(e, en, t)
	}
	if name != "concat_ws" && name != "elt" {
		return nil
	}
	first := g.genExpr(e.Args[0], en)
	var vals, oks []jen.Code
	for _, a := range e.Args[1:] {
		v := g.genExpr(a, en)
		if v.null {
			vals, oks = append(vals, jen.Lit("")), append(oks, jen.False())
			continue
		}
		v = g.bind(v, "s")
		vals, oks = append(vals, V(v)), append(oks, OK(v))
	}
	list := func(t jen.Code, xs []jen.Code) jen.Code { return jen.Index().Add(t).Values(xs...) }
	if name == "concat_ws" {
		return g.strict(t, e.Pos, pure, false, []*value{first}, func() jen.Code {
			return jen.Qual(sqlfnPkg, "ConcatWs").Call(V(first), list(jen.String(), vals), list(jen.Bool(), oks))
		})
	}
	n := g.coerce(first, ir.Int64, e.Pos)
	return g.strict(t, e.Pos, checkedMaybe, false, []*value{n}, func() jen.Code {
		return jen.Qual(sqlfnPkg, "Elt").Call(V(n), list(jen.String(), vals), list(jen.Bool(), oks))
	})
}

// genLocate is locate(sub, s, pos): 0 when pos is NULL (Spark's
// StringLocate checks the position first), else NULL when sub or s is.
func (g *flowGen) genLocate(e *ir.Call, en *env, t ir.Type) *value {
	sub, s := g.genExpr(e.Args[0], en), g.genExpr(e.Args[1], en)
	pos := g.genExpr(e.Args[2], en)
	zero := constValue(t, &konst{i: big.NewInt(0)})
	if pos.null {
		return zero
	}
	pos = g.asInt32(pos, e.Pos)
	if !pos.nullable() {
		return g.sqlfnCall(t, e.Pos, pure, "Locate", sub, s, pos)
	}
	vn := g.name("loc")
	okn := vn + "ok"
	x := &value{t: t, v: jen.Id(vn), ok: jen.Id(okn)}
	x.vl = g.declareVar(vn, goType(t))
	x.okl = g.declare([]string{okn}, jen.True())[0]
	found := g.sub(func() {
		r := g.sqlfnCall(t, e.Pos, pure, "Locate", sub, s, pos)
		if r.null {
			g.emit(jen.Id(okn).Op("=").False())
			return
		}
		g.emit(jen.List(jen.Id(vn), jen.Id(okn)).Op("=").List(V(r), OK(r)))
	})
	g.emit(jen.If(OK(pos)).Block(found...))
	return x
}

// maskDefaults are mask's replacements when not given: upper, lower,
// digit, other (-1: NULL, the characters are kept).
var maskDefaults = [4]rune{'X', 'x', 'n', -1}

// genMask is mask(s, upper, lower, digit, other), its replacements
// constants (the plan's nativeMask).
func (g *flowGen) genMask(e *ir.Call, en *env, t ir.Type) *value {
	s := g.genExpr(e.Args[0], en)
	with := maskDefaults
	for i, a := range e.Args[1:] {
		c, ok := passes.StringConstant(a)
		switch {
		case ok:
			with[i] = []rune(c)[0]
		case g.genExpr(a, en).null:
			with[i] = -1
		default:
			g.unplanned(a.Position(), "mask with a replacement that is not a constant is not supported yet")
			return nullValue(t)
		}
	}
	return g.strict(t, e.Pos, pure, false, []*value{s}, func() jen.Code {
		return jen.Qual(sqlfnPkg, "Mask").Call(V(s), jen.Lit(with[0]), jen.Lit(with[1]), jen.Lit(with[2]), jen.Lit(with[3]))
	})
}

// genFormatString is format_string(format, args...): its constant format
// parsed by passes (nativeFormatString), each argument rendered as text
// (an integer in decimal, a bool as true / false) and its NULL kept apart.
func (g *flowGen) genFormatString(e *ir.Call, en *env, t ir.Type) *value {
	f, ok := passes.StringConstant(e.Args[0])
	if !ok {
		if g.genExpr(e.Args[0], en).null {
			return nullValue(t) // a NULL format
		}
		g.unplanned(e.Args[0].Position(), "%s with a format that is not a constant is not supported yet", e.Name)
		return nullValue(t)
	}
	var vals, oks []jen.Code
	ints := make([]bool, len(e.Args)-1)
	for i, a := range e.Args[1:] {
		v := g.genExpr(a, en)
		// a NULL prints null whatever its conversion (%d included)
		ints[i] = v.t.IsInteger() && v.t.Kind != ir.TUint64 || v.null
		if v.null {
			vals, oks = append(vals, jen.Lit("")), append(oks, jen.False())
			continue
		}
		v = g.bind(v, "f")
		text := V(v)
		switch {
		case v.t.IsUnsigned():
			text = jen.Qual("strconv", "FormatUint").Call(jen.Uint64().Call(V(v)), jen.Lit(10))
		case v.t.IsInteger():
			text = jen.Qual("strconv", "FormatInt").Call(jen.Int64().Call(V(v)), jen.Lit(10))
		case v.t.Kind == ir.TBool:
			text = jen.Qual("strconv", "FormatBool").Call(V(v))
		}
		vals, oks = append(vals, text), append(oks, OK(v))
	}
	pieces, err := passes.ParseJavaFormat(f, ints)
	if err != nil {
		g.unplanned(e.Args[0].Position(), "%s's format: %v", e.Name, err)
		return nullValue(t)
	}
	ps := make([]jen.Code, len(pieces))
	for i, p := range pieces {
		ps[i] = jen.Values(jen.Dict{
			jen.Id("Text"): jen.Lit(p.Text), jen.Id("Arg"): jen.Lit(p.Arg), jen.Id("Left"): jen.Lit(p.Left),
			jen.Id("Zero"): jen.Lit(p.Zero), jen.Id("Width"): jen.Lit(p.Width), jen.Id("Conv"): jen.Lit(p.Conv),
		})
	}
	// the values are read only when their ok is true: a NULL's is the zero value
	return g.strict(t, e.Pos, pure, false, nil, func() jen.Code {
		return jen.Qual(sqlfnPkg, "FormatString").Call(jen.Index().Qual(sqlfnPkg, "FormatPiece").Values(ps...),
			jen.Index().String().Values(vals...), jen.Index().Bool().Values(oks...))
	})
}
