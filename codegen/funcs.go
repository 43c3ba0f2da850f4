package codegen

import (
	"fmt"
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// fn is the catalogue entry a call resolved to (passes.Unit.Calls): its
// canonical name, whatever alias the call was written with.
func (g *flowGen) fn(e *ir.Call) *passes.Func {
	f := g.u.Calls[e]
	if f == nil {
		panic(fmt.Sprintf("%s: call %s was not resolved", e.Pos, e.Name))
	}
	return f
}

// truncUnitNames maps date_trunc's unit texts to sqlfn's TruncUnit.
var truncUnitNames = map[string]string{
	"year": "TruncYear", "yyyy": "TruncYear", "yy": "TruncYear", "quarter": "TruncQuarter",
	"month": "TruncMonth", "mon": "TruncMonth", "mm": "TruncMonth", "week": "TruncWeek",
	"day": "TruncDay", "dd": "TruncDay", "hour": "TruncHour", "minute": "TruncMinute",
	"second": "TruncSecond", "millisecond": "TruncMillisecond", "microsecond": "TruncMicrosecond",
}

// genCall generates a scalar function of the catalogue through sqlfn;
// coalesce, nullif, if, greatest and least are generated inline (they
// evaluate their arguments lazily or skip NULLs).
func (g *flowGen) genCall(e *ir.Call, en *env) *value {
	f := g.fn(e)
	name := f.Name
	t := g.typeOf(e)
	if f.Agg {
		panic(fmt.Sprintf("%s: aggregate %s outside an aggregate", e.Pos, e.Name))
	}
	for _, gen := range lazyGens() { // raise_error's type is NULL's, and it still raises
		if v := gen(g, name, e, en, t); v != nil {
			return v
		}
	}
	if t.Kind == ir.TUnknown {
		return nullValue(t) // every argument is NULL: if(c, null, null), coalesce(null)
	}
	if nestedFuncs[name] { // nested.go
		return g.genNestedCall(e, en, t)
	}
	if _, ok := arrayFuncs[name]; ok || arrayForms[name] && t.Kind == ir.TArray { // arrays.go
		return g.genArrayCall(e, en, t)
	}
	switch name {
	case "coalesce":
		return g.genCoalesce(e, en, t)
	case "nullif":
		return g.genNullif(e, en, t)
	case "if":
		return g.genIf(e, en, t)
	case "greatest", "least":
		return g.genGreatest(e, en, t, name == "greatest")
	case "hash", "xxhash64":
		// not a lazyGens entry: it evaluates its arguments with genExpr,
		// which an initializer of lazyGens may not refer to (a cycle)
		return g.genHashes(name, e, en, t)
	}
	args := make([]*value, len(e.Args))
	for i, a := range e.Args {
		args[i] = g.genExpr(a, en)
	}
	if t.Kind == ir.TUnknown || anyNull(args...) {
		return nullValue(t)
	}
	x := func() *value { return args[0] }
	sq := func(mode callMode, fn string, vals ...*value) *value { return g.sqlfnCall(t, e.Pos, mode, fn, vals...) }
	asF64 := func(v *value) *value { return g.coerce(v, ir.Float64, e.Pos) }
	asI32 := func(v *value) *value { return g.asInt32(v, e.Pos) }
	switch name {
	case "abs":
		a := x()
		switch {
		case a.t.Kind == ir.TDuration:
			return sq(checked, "AbsInt64", a)
		case a.t.IsSigned():
			return sq(checked, fmt.Sprintf("AbsInt%d", bitsOf(a.t)), a)
		case a.t.IsUnsigned():
			return a
		case a.t.Kind == ir.TFloat64:
			return g.strict(t, e.Pos, pure, false, args, func() jen.Code { return jen.Qual(mathPkg, "Abs").Call(V(a)) })
		case a.t.Kind == ir.TFloat32:
			return g.strict(t, e.Pos, pure, false, args, func() jen.Code {
				return jen.Float32().Call(jen.Qual(mathPkg, "Abs").Call(jen.Float64().Call(V(a))))
			})
		case a.t.Kind == ir.TDecimal:
			return sq(pure, "DecimalAbs", a)
		}
	case "round":
		if v := g.genRound(e, x(), t, false); v != nil {
			return v
		}
	case "floor", "ceil":
		if len(e.Args) != 1 {
			break
		}
		a := x()
		switch {
		case a.t.IsFloat():
			fn := "FloorFloat64"
			if name == "ceil" {
				fn = "CeilFloat64"
			}
			return sq(pure, fn, asF64(a))
		case a.t.IsInteger():
			return g.coerce(a, t, e.Pos)
		case a.t.Kind == ir.TDecimal:
			fn := "DecimalFloor"
			if name == "ceil" {
				fn = "DecimalCeil"
			}
			// sqlfn's result type keeps decimal(p,0) unchanged; passes
			// types floor(decimal(p,0)) as decimal(p+1,0): same scale
			return g.strict(t, e.Pos, checked, false, []*value{a}, func() jen.Code {
				return jen.Qual(sqlfnPkg, fn).Call(V(a), jen.Lit(int32(a.t.Precision)), jen.Lit(int32(a.t.Scale)))
			})
		}
	case "sqrt", "exp":
		fn := map[string]string{"sqrt": "Sqrt", "exp": "Exp"}[name]
		return sq(pure, fn, asF64(x()))
	case "power":
		return sq(pure, "Power", asF64(args[0]), asF64(args[1]))
	case "ln", "log10":
		fn := map[string]string{"ln": "Ln", "log10": "Log10"}[name]
		return sq(maybe, fn, asF64(x()))
	case "mod":
		return g.arith(ir.OpMod, t, args[0], args[1], e.Pos)
	case "lower", "upper":
		fn := map[string]string{"lower": "Lower", "upper": "Upper"}[name]
		a := x()
		return g.strict(t, e.Pos, pure, false, args, func() jen.Code {
			return jen.String().Call(jen.Qual(sqlfnPkg, fn).Call(jen.Nil(), V(a)))
		})
	case "length":
		a := x()
		if a.t.Kind == ir.TBinary {
			return g.strict(t, e.Pos, pure, false, args, func() jen.Code { return jen.Int32().Call(jen.Len(V(a))) })
		}
		return sq(pure, "Length", a)
	case "substring":
		pos := asI32(args[1])
		if len(args) == 3 {
			return sq(pure, "Substring", args[0], pos, asI32(args[2]))
		}
		return sq(pure, "SubstringFrom", args[0], pos)
	case "concat":
		return g.genConcat(t, e.Pos, args)
	case "trim", "ltrim", "rtrim":
		fn := map[string]string{"trim": "Trim", "ltrim": "LTrim", "rtrim": "RTrim"}[name]
		if len(args) == 2 {
			// trim(trimStr, str): the characters to remove are the FIRST
			// argument, as in Spark's two-argument StringTrim,
			// StringTrimLeft and StringTrimRight constructors (trimStr,
			// srcStr): trim('ae', 'apple') is 'ppl' on 4.1.4 and 4.2.1
			// (Databricks documents ltrim(str, trimStr) the other way)
			return sq(pure, fn+"Chars", args[1], args[0])
		}
		return sq(pure, fn, args[0])
	case "replace":
		repl := constValue(ir.StringT, &konst{s: ""})
		if len(args) == 3 {
			repl = args[2]
		}
		s, search := args[0], args[1]
		return g.strict(t, e.Pos, pure, false, []*value{s, search, repl}, func() jen.Code {
			return jen.String().Call(jen.Qual(sqlfnPkg, "Replace").Call(jen.Nil(), V(s), V(search), V(repl)))
		})
	case "starts_with", "ends_with", "contains":
		a, b := args[0], args[1]
		if a.t.Kind == ir.TBinary || b.t.Kind == ir.TBinary {
			fn := map[string]string{"starts_with": "HasPrefix", "ends_with": "HasSuffix", "contains": "Contains"}[name]
			return g.strict(t, e.Pos, pure, false, args, func() jen.Code { return jen.Qual(bytesPkg, fn).Call(V(a), V(b)) })
		}
		fn := map[string]string{"starts_with": "StartsWith", "ends_with": "EndsWith", "contains": "Contains"}[name]
		return sq(pure, fn, a, b)
	case "date_trunc":
		unit := args[0]
		if unit.k == nil {
			g.unplanned(e.Args[0].Position(), "date_trunc with a unit that is not a constant is not supported yet")
			return nullValue(t)
		}
		tu, ok := truncUnitNames[strings.ToLower(unit.k.s)]
		if !ok {
			return nullValue(t) // Spark: NULL for an unknown unit
		}
		a := args[1]
		if a.t.Kind == ir.TDate32 {
			a = g.genCast(a, ir.Timestamp(t.Unit, ""), false, e.Pos)
		}
		if local := ir.Timestamp(t.Unit, ""); g.shifts(local, t) {
			// session confs: truncate the wall-clock time of the session
			// zone, and take the instant of the result, keeping the
			// argument's offset where it is valid (zone.go)
			inst := g.genCast(args[1], t, false, e.Pos)
			l := g.genCast(inst, local, false, e.Pos)
			r := g.strict(local, e.Pos, checked, false, []*value{l}, func() jen.Code {
				return jen.Qual(sqlfnPkg, "TruncTimestamp").Call(jen.Qual(sqlfnPkg, tu), V(l), sqlfnUnit(t.Unit))
			})
			return g.strict(t, e.Pos, pure, false, []*value{r, inst}, func() jen.Code {
				return jen.Add(g.zoneVar()).Dot("InstantNear").Call(V(r), sqlfnUnit(t.Unit), V(inst))
			})
		}
		return g.strict(t, e.Pos, checked, false, []*value{a}, func() jen.Code {
			return jen.Qual(sqlfnPkg, "TruncTimestamp").Call(jen.Qual(sqlfnPkg, tu), V(a), sqlfnUnit(a.t.Unit))
		})
	case "to_date":
		if len(args) == 2 {
			return g.genParse(name, e, args, t, false) // funcs_time.go
		}
		return g.genCast(args[0], ir.Date32, false, e.Pos)
	case "to_timestamp":
		if len(args) == 2 {
			return g.genParse(name, e, args, t, false)
		}
		return g.genCast(args[0], t, false, e.Pos)
	case "year", "month", "day":
		fn := map[string]string{"year": "Year", "month": "Month", "day": "Day"}[name]
		d := g.genCast(x(), ir.Date32, false, e.Pos)
		return sq(pure, fn, d)
	case "hour", "minute", "second":
		fn := map[string]string{"hour": "Hour", "minute": "Minute", "second": "Second"}[name]
		us := g.genCast(x(), ir.Timestamp(ir.Micro, ""), false, e.Pos)
		return sq(pure, fn, us)
	case "unix_timestamp":
		return g.genParse(name, e, args, t, false) // funcs_time.go
	case "timestamp_seconds", "timestamp_millis", "timestamp_micros":
		a := x()
		if !a.t.IsInteger() {
			break
		}
		per := map[string]int64{"timestamp_seconds": 1e6, "timestamp_millis": 1e3, "timestamp_micros": 1}[name]
		a = g.coerce(a, ir.Int64, e.Pos)
		if per == 1 {
			return retype(a, t)
		}
		return g.strict(t, e.Pos, checked, false, []*value{a}, func() jen.Code {
			return jen.Qual(sqlfnPkg, "MulInt64").Call(V(a), typedNum("int64", fmt.Sprint(per)))
		})
	}
	for _, gen := range familyGens {
		if v := gen(g, name, e, args, t); v != nil {
			return v
		}
	}
	g.unplanned(e.Pos, "%s is not supported yet with these arguments", callText(e, g))
	return nullValue(t)
}

// familyGens generate the calls of the catalogue's families
// (passes/funcs_*.go, codegen/funcs_*.go) from their evaluated arguments,
// none of them NULL: each returns nil for a call it does not generate.
// (lazyGens take the calls that evaluate their arguments themselves.)
var familyGens = []func(g *flowGen, name string, e *ir.Call, args []*value, t ir.Type) *value{
	(*flowGen).genStringCall, (*flowGen).genHashCall, (*flowGen).genTimeCall, (*flowGen).genMathCall, (*flowGen).genCondCall,
	(*flowGen).genSliceCall, // funcs_hll.go
	(*flowGen).genJSONCall,
}

// lazyGens are the generators of the catalogue's families' calls that
// evaluate their own arguments (a conditional that skips one): each
// returns nil for a call it does not generate. A function, not a variable:
// the generators call genExpr, which calls genCall, which reads the list
// (a variable would be an initialization cycle).
func lazyGens() []func(g *flowGen, name string, e *ir.Call, en *env, t ir.Type) *value {
	return []func(g *flowGen, name string, e *ir.Call, en *env, t ir.Type) *value{
		(*flowGen).genLazyCondCall, (*flowGen).genLazyStringCall,
		(*flowGen).genLazyJSONCall, // funcs_json.go
		(*flowGen).genLambdaCall,   // lambda.go
	}
}

// sqlfnCall calls sqlfn's fn on vals: NULL when any is, and fn's error (by
// mode) raised at pos.
func (g *flowGen) sqlfnCall(t ir.Type, pos ir.Pos, mode callMode, fn string, vals ...*value) *value {
	return g.strict(t, pos, mode, false, vals, func() jen.Code {
		cs := make([]jen.Code, len(vals))
		for i, v := range vals {
			cs[i] = V(v)
		}
		return jen.Qual(sqlfnPkg, fn).Call(cs...)
	})
}

// asInt32 is v as an int32: widened when that is exact, else cast (ANSI:
// an error out of range).
func (g *flowGen) asInt32(v *value, pos ir.Pos) *value {
	if v.t.Kind == ir.TInt32 {
		return v
	}
	if v.t.IsInteger() && widens(v.t, ir.Int32) {
		return g.coerce(v, ir.Int32, pos)
	}
	return g.genCast(v, ir.Int32, false, pos)
}

// callText renders a call's name and argument types for messages.
func callText(e *ir.Call, g *flowGen) string {
	var ts []string
	for _, a := range e.Args {
		ts = append(ts, g.typeOf(a).String())
	}
	return e.Name + "(" + strings.Join(ts, ", ") + ")"
}

// genCoalesce returns its first non-NULL argument; later arguments are not
// evaluated once one is found.
func (g *flowGen) genCoalesce(e *ir.Call, en *env, t ir.Type) *value {
	vn := g.name("co")
	okn := vn + "ok"
	x := &value{t: t, v: jen.Id(vn), ok: jen.Id(okn)}
	x.vl = g.declareVar(vn, goType(t))
	x.okl = g.declare([]string{okn}, jen.False())[0]
	var arm func(i int)
	arm = func(i int) {
		if i == len(e.Args) {
			return
		}
		a := g.genExpr(e.Args[i], en)
		if a.null {
			arm(i + 1)
			return
		}
		a = g.coerce(a, t, e.Pos)
		set := jen.List(jen.Id(vn), jen.Id(okn)).Op("=").List(V(a), jen.True())
		if !a.nullable() {
			g.emit(set)
			return
		}
		rest := g.sub(func() { arm(i + 1) })
		if len(rest) == 0 {
			g.emit(jen.If(OK(a)).Block(set))
		} else {
			g.emit(jen.If(OK(a)).Block(set).Else().Block(rest...))
		}
	}
	arm(0)
	return x
}

// genNullif is nullif(a, b): NULL when a = b, else a.
func (g *flowGen) genNullif(e *ir.Call, en *env, t ir.Type) *value {
	a := g.bind(g.genExpr(e.Args[0], en), "a")
	b := g.genExpr(e.Args[1], en)
	if a.null {
		return nullValue(t)
	}
	eq := g.genCompare(ir.OpEq, a, b, e.Pos)
	okn := g.name("nullif")
	x := &value{t: t, v: V(a), vl: a.vl, ok: jen.Id(okn)}
	x.okl = g.declare([]string{okn}, and(OK(a), jen.Op("!").Parens(truth(eq))))[0]
	return x
}

// genIf is if(cond, a, b): a when cond is TRUE, else b.
func (g *flowGen) genIf(e *ir.Call, en *env, t ir.Type) *value {
	c := g.genExpr(e.Args[0], en)
	return g.genChoice(truth(c), t, e.Pos,
		func() *value { return g.genExpr(e.Args[1], en) },
		func() *value { return g.genExpr(e.Args[2], en) })
}

// genChoice is the value of a (when the Go condition cond holds) or of b,
// each coerced to t and generated only in its own branch, so that the
// other is not evaluated (if, nvl2, nanvl).
func (g *flowGen) genChoice(cond jen.Code, t ir.Type, pos ir.Pos, a, b func() *value) *value {
	vn := g.name("if")
	okn := vn + "ok"
	x := &value{t: t, v: jen.Id(vn), ok: jen.Id(okn)}
	x.vl = g.declareVar(vn, goType(t))
	x.okl = g.declare([]string{okn}, jen.False())[0]
	assign := func(a *value) {
		if a.null {
			return
		}
		a = g.coerce(a, t, pos)
		g.emit(jen.List(jen.Id(vn), jen.Id(okn)).Op("=").List(V(a), OK(a)))
	}
	then := g.sub(func() { assign(a()) })
	els := g.sub(func() { assign(b()) })
	g.emit(jen.If(cond).Block(then...).Else().Block(els...))
	return x
}

// genGreatest is greatest / least: the largest (smallest) non-NULL
// argument, NULL only when all are; ties keep the first; NaN is greatest.
func (g *flowGen) genGreatest(e *ir.Call, en *env, t ir.Type, greatest bool) *value {
	vn := g.name("gl")
	okn := vn + "ok"
	x := &value{t: t, v: jen.Id(vn), ok: jen.Id(okn)}
	x.vl = g.declareVar(vn, goType(t))
	x.okl = g.declare([]string{okn}, jen.False())[0]
	op := ir.OpGt
	if !greatest {
		op = ir.OpLt
	}
	cur := &value{t: t, v: jen.Id(vn)}
	for _, arg := range e.Args {
		a := g.genExpr(arg, en)
		if a.null {
			continue
		}
		a = g.bind(g.coerce(a, t, e.Pos), "g")
		better := jen.Op("!").Id(okn).Op("||").Add(cmpExpr(op, a, cur))
		set := jen.List(jen.Id(vn), jen.Id(okn)).Op("=").List(V(a), jen.True())
		if a.nullable() {
			g.emit(jen.If(jen.Add(OK(a)).Op("&&").Parens(better)).Block(set))
		} else {
			g.emit(jen.If(better).Block(set))
		}
	}
	return x
}
