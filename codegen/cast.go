package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
)

// retype is x relabelled as type t (same representation).
func retype(x *value, t ir.Type) *value {
	y := *x
	y.t = t
	return &y
}

// coerce converts x to type to for an operation computed in to (Spark's
// implicit widening): integers widen, integers become decimal(n,0) or
// floats, decimals rescale, dates become timestamps, timestamps and
// durations move to a finer unit. Constants convert at generation time.
// Anything else is an explicit cast.
func (g *flowGen) coerce(x *value, to ir.Type, pos ir.Pos) *value {
	from := x.t
	switch {
	case from == to:
		return x
	case x.null || from.Kind == ir.TUnknown:
		return nullValue(to)
	case to.Kind == ir.TUnknown:
		return x
	case g.shifts(from, to):
		return g.genCast(x, to, false, pos) // session confs: the session time zone (zone.go)
	case sameRep(from, to) && from.Kind != ir.TDecimal:
		return retype(x, to)
	case from.Kind == ir.TDecimal && to.Kind == ir.TDecimal && from.Scale == to.Scale && to.Precision >= from.Precision:
		return retype(x, to)
	}
	if x.k != nil {
		if k, ok := convertKonst(x.k, from, to); ok {
			return constValue(to, k)
		}
	}
	switch {
	case from.IsInteger() && to.IsInteger() && widens(from, to):
		return g.strict(to, pos, pure, false, []*value{x}, func() jen.Code { return goType(to).Call(V(x)) })
	case from.IsInteger() && to.IsFloat(), from.Kind == ir.TFloat32 && to.Kind == ir.TFloat64:
		return g.strict(to, pos, pure, false, []*value{x}, func() jen.Code { return goType(to).Call(V(x)) })
	case (from.Kind == ir.TTimestamp || from.Kind == ir.TDuration) && from.Kind == to.Kind:
		return g.convertUnit(x, to, pos, false)
	}
	return g.genCast(x, to, false, pos)
}

// widens reports an integer conversion that keeps every value.
func widens(from, to ir.Type) bool {
	fb, tb := bitsOf(from), bitsOf(to)
	switch {
	case from.IsSigned() == to.IsSigned():
		return tb >= fb
	case from.IsUnsigned():
		return tb > fb
	}
	return false
}

// convertUnit moves a timestamp or duration to to's unit: exactly (and
// checked) to a finer unit, flooring to a coarser one.
func (g *flowGen) convertUnit(x *value, to ir.Type, pos ir.Pos, try bool) *value {
	fu, tu := x.t.Unit, to.Unit
	switch {
	case fu == tu:
		return retype(x, to)
	case tu > fu:
		f := unitsPerSecond[tu] / unitsPerSecond[fu]
		return g.strict(to, pos, checked, try, []*value{x}, func() jen.Code {
			return jen.Qual(sqlfnPkg, "MulInt64").Call(V(x), typedNum("int64", fmt.Sprint(f)))
		})
	}
	f := unitsPerSecond[fu] / unitsPerSecond[tu]
	return g.strict(to, pos, pure, try, []*value{x}, func() jen.Code {
		return jen.Qual(sqlfnPkg, "FloorDiv").Call(V(x), typedNum("int64", fmt.Sprint(f)))
	})
}

// sqlfnUnit names sqlfn's constant for a time unit.
func sqlfnUnit(u ir.TimeUnit) jen.Code { return jen.Qual(sqlfnPkg, sqlfnUnits[u]) }

// genCast generates CAST (try: TRY_CAST, NULL instead of an error) with
// Spark's ANSI rules, through sqlfn's casts.
func (g *flowGen) genCast(x *value, to ir.Type, try bool, pos ir.Pos) *value {
	from := x.t
	if x.null || from.Kind == ir.TUnknown {
		return nullValue(to)
	}
	if g.shifts(from, to) {
		return g.castZoned(x, to, try, pos) // session confs: the session time zone (zone.go)
	}
	if sameType(from, to) {
		return retype(x, to)
	}
	if to.Kind == ir.TString {
		return g.castToString(x, to, try, pos)
	}
	one := []*value{x}
	call := func(mode callMode, fn string, args ...jen.Code) *value {
		return g.strict(to, pos, mode, try, one, func() jen.Code {
			return jen.Qual(sqlfnPkg, fn).Call(append([]jen.Code{V(x)}, args...)...)
		})
	}
	conv := func() *value {
		return g.strict(to, pos, pure, try, one, func() jen.Code { return goType(to).Call(V(x)) })
	}
	p32, s32 := jen.Lit(int32(to.Precision)), jen.Lit(int32(to.Scale))
	switch {
	case from.Kind == ir.TString:
		switch {
		case to.IsSigned():
			return call(checked, fmt.Sprintf("CastStringToInt%d", bitsOf(to)))
		case to.Kind == ir.TFloat64:
			return call(checked, "CastStringToFloat64")
		case to.Kind == ir.TFloat32:
			return call(checked, "CastStringToFloat32")
		case to.Kind == ir.TBool:
			return call(checked, "CastStringToBool")
		case to.Kind == ir.TDecimal:
			return call(checked, "CastStringToDecimal", p32, s32)
		case to.Kind == ir.TDate32:
			return call(checked, "CastStringToDate")
		case to.Kind == ir.TTimestamp:
			return call(checked, "StringToTimestamp", sqlfnUnit(to.Unit))
		case to.Kind == ir.TBinary:
			return g.strict(to, pos, pure, try, one, func() jen.Code { return jen.Index().Byte().Parens(V(x)) })
		}
	case from.Kind == ir.TBool:
		switch {
		case to.IsInteger() || to.IsFloat():
			return g.strict(to, pos, pure, try, one, func() jen.Code { return jen.Qual(sqlfnPkg, "BoolTo").Types(goType(to)).Call(V(x)) })
		case to.Kind == ir.TDecimal:
			return g.strict(to, pos, checked, try, one, func() jen.Code {
				return jen.Qual(sqlfnPkg, "DecimalFromInt64").Call(jen.Qual(sqlfnPkg, "BoolTo").Types(jen.Int64()).Call(V(x)), p32, s32)
			})
		}
	case from.IsInteger():
		switch {
		case to.IsInteger() && widens(from, to):
			return conv()
		case to.IsInteger() && from.IsSigned() && to.IsSigned():
			fn := fmt.Sprintf("CastInt%dToInt%d", bitsOf(from), bitsOf(to))
			return call(checked, fn)
		case to.IsInteger():
			return g.strict(to, pos, checked, try, one, func() jen.Code {
				return jen.Qual(sqlfnPkg, "CastInt").Types(goType(to), goType(from)).Call(V(x), jen.Lit(from.SQL()), jen.Lit(to.SQL()))
			})
		case to.IsFloat():
			return conv()
		case to.Kind == ir.TBool:
			return g.strict(to, pos, pure, try, one, func() jen.Code { return jen.Add(V(x)).Op("!=").Lit(0) })
		case to.Kind == ir.TDecimal && from.Kind == ir.TUint64:
			return g.strict(to, pos, checked, try, one, func() jen.Code {
				return jen.Qual(sqlfnPkg, "DecimalRescale").Call(jen.Qual(decimalPkg, "FromU64").Call(V(x)), jen.Lit(int32(0)), p32, s32)
			})
		case to.Kind == ir.TDecimal:
			return g.strict(to, pos, checked, try, one, func() jen.Code {
				return jen.Qual(sqlfnPkg, "DecimalFromInt64").Call(jen.Int64().Call(V(x)), p32, s32)
			})
		case to.Kind == ir.TTimestamp && from.Kind != ir.TUint64:
			// Spark: the integer is seconds since the epoch
			return g.strict(to, pos, checked, try, one, func() jen.Code {
				return jen.Qual(sqlfnPkg, "MulInt64").Call(jen.Int64().Call(V(x)), typedNum("int64", fmt.Sprint(unitsPerSecond[to.Unit])))
			})
		}
	case from.IsFloat():
		fb := "64"
		if from.Kind == ir.TFloat32 {
			fb = "32"
		}
		switch {
		case to.IsSigned():
			return call(checked, fmt.Sprintf("CastFloat%sToInt%d", fb, bitsOf(to)))
		case to.IsFloat():
			return conv()
		case to.Kind == ir.TBool:
			return g.strict(to, pos, pure, try, one, func() jen.Code { return jen.Add(V(x)).Op("!=").Lit(0) })
		case to.Kind == ir.TDecimal:
			return g.strict(to, pos, checkedMaybe, try, one, func() jen.Code {
				return jen.Qual(sqlfnPkg, "DecimalFromFloat64").Call(jen.Float64().Call(V(x)), p32, s32)
			})
		}
	case from.Kind == ir.TDecimal:
		fp, fs := jen.Lit(int32(from.Precision)), jen.Lit(int32(from.Scale))
		switch {
		case to.IsSigned():
			return call(checked, fmt.Sprintf("DecimalToInt%d", bitsOf(to)), fp, fs)
		case to.Kind == ir.TFloat64:
			return call(pure, "DecimalToFloat64", fs)
		case to.Kind == ir.TFloat32:
			return g.strict(to, pos, pure, try, one, func() jen.Code {
				return jen.Float32().Call(jen.Qual(sqlfnPkg, "DecimalToFloat64").Call(V(x), fs))
			})
		case to.Kind == ir.TDecimal:
			return call(checked, "DecimalRescale", fs, p32, s32)
		case to.Kind == ir.TBool:
			return g.strict(to, pos, pure, try, one, func() jen.Code { return jen.Add(V(x)).Op("!=").Qual(decimalPkg, "Num").Values() })
		}
	case from.Kind == ir.TDate32:
		if to.Kind == ir.TTimestamp {
			return call(checked, "DateToTimestamp", sqlfnUnit(to.Unit))
		}
	case from.Kind == ir.TTimestamp:
		switch {
		case to.Kind == ir.TDate32:
			perDay := 86400 * unitsPerSecond[from.Unit]
			return g.strict(to, pos, pure, try, one, func() jen.Code {
				return jen.Int32().Call(jen.Qual(sqlfnPkg, "FloorDiv").Call(V(x), typedNum("int64", fmt.Sprint(perDay))))
			})
		case to.Kind == ir.TTimestamp:
			return g.convertUnit(x, to, pos, try)
		case to.Kind == ir.TInt64:
			return g.strict(to, pos, pure, try, one, func() jen.Code {
				return jen.Qual(sqlfnPkg, "FloorDiv").Call(V(x), typedNum("int64", fmt.Sprint(unitsPerSecond[from.Unit])))
			})
		case to.IsSigned():
			secs := g.strict(ir.Int64, pos, pure, try, one, func() jen.Code {
				return jen.Qual(sqlfnPkg, "FloorDiv").Call(V(x), typedNum("int64", fmt.Sprint(unitsPerSecond[from.Unit])))
			})
			return g.genCast(secs, to, try, pos)
		case to.Kind == ir.TFloat64:
			return g.strict(to, pos, pure, try, one, func() jen.Code {
				return jen.Float64().Call(V(x)).Op("/").Lit(float64(unitsPerSecond[from.Unit]))
			})
		}
	case from.Kind == ir.TDuration:
		if to.Kind == ir.TDuration {
			return g.convertUnit(x, to, pos, try)
		}
	case from.Kind == ir.TBinary:
		if to.Kind == ir.TBinary {
			return retype(x, to)
		}
	}
	g.unplanned(pos, "cast from %s to %s is not supported yet", from, to)
	return nullValue(to)
}

// castToString is CAST(x AS STRING): Spark's text of each type (Java's
// Double.toString for floats, plain decimals, yyyy-MM-dd, timestamps in
// UTC without trailing fraction zeros).
func (g *flowGen) castToString(x *value, to ir.Type, try bool, pos ir.Pos) *value {
	one := []*value{x}
	str := func(fn string, args ...jen.Code) *value {
		return g.strict(to, pos, pure, try, one, func() jen.Code {
			return jen.String().Call(jen.Qual(sqlfnPkg, fn).Call(append([]jen.Code{jen.Nil(), V(x)}, args...)...))
		})
	}
	switch from := x.t; {
	case from.Kind == ir.TBool:
		return g.strict(to, pos, pure, try, one, func() jen.Code { return jen.Qual(strconvPkg, "FormatBool").Call(V(x)) })
	case from.IsSigned():
		return g.strict(to, pos, pure, try, one, func() jen.Code {
			return jen.Qual(strconvPkg, "FormatInt").Call(jen.Int64().Call(V(x)), jen.Lit(10))
		})
	case from.IsUnsigned():
		return g.strict(to, pos, pure, try, one, func() jen.Code {
			return jen.Qual(strconvPkg, "FormatUint").Call(jen.Uint64().Call(V(x)), jen.Lit(10))
		})
	case from.Kind == ir.TFloat64:
		return str("AppendFloat64")
	case from.Kind == ir.TFloat32:
		return str("AppendFloat32")
	case from.Kind == ir.TDecimal:
		return str("AppendDecimal", jen.Lit(int32(from.Scale)))
	case from.Kind == ir.TDate32:
		return str("AppendDate")
	case from.Kind == ir.TTimestamp:
		return g.strict(to, pos, checked, try, one, func() jen.Code {
			return jen.Qual(sqlfnPkg, "TimestampToString").Call(V(x), sqlfnUnit(from.Unit))
		})
	case from.Kind == ir.TBinary:
		return g.strict(to, pos, pure, try, one, func() jen.Code { return jen.String().Call(V(x)) })
	}
	g.unplanned(pos, "cast from %s to string is not supported yet", x.t)
	return nullValue(to)
}
