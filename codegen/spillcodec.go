package codegen

import (
	"github.com/dave/jennifer/jen"

	"github.com/nordisk/thund/ir"
)

// The layout of a value of each type in a spill file (rt/spill), for the
// operators that write rows out past --memory-limit and read them back:
// spillPut appends a value in its Go form, spillGet reads it back, so that
// a spilling operator spells a row as the puts of its fields in order and
// reads it with the gets in the same order. Signed integers, dates,
// timestamps and durations are varints, unsigned integers unsigned
// varints, floats their bits, decimals their two halves, strings and
// binaries length-prefixed, nested values tagged (nested.PutSpill). A NULL
// is the caller's: a nullable value's ok flag is one more put (spillPutOK).

// spillPut is the statement appending v, a value of type t in its Go form,
// to spill writer w.
func spillPut(t ir.Type, w string, v jen.Code) jen.Code {
	W := func(m string, x jen.Code) jen.Code { return jen.Id(w).Dot(m).Call(x) }
	switch t.Kind {
	case ir.TBool:
		return W("PutBool", v)
	case ir.TInt8, ir.TInt16, ir.TInt32, ir.TInt64, ir.TDate32, ir.TTimestamp, ir.TDuration:
		return W("PutInt64", jen.Int64().Call(v))
	case ir.TUint8, ir.TUint16, ir.TUint32, ir.TUint64:
		return W("PutUvarint", jen.Uint64().Call(v))
	case ir.TFloat32, ir.TFloat64:
		return W("PutFloat64", jen.Float64().Call(v))
	case ir.TDecimal:
		return jen.Block(W("PutInt64", jen.Add(v).Dot("HighBits").Call()), W("PutUint64", jen.Add(v).Dot("LowBits").Call()))
	case ir.TString:
		return W("PutString", v)
	case ir.TBinary:
		return W("PutBytes", v)
	}
	return jen.Qual(nestedPkg, "PutSpill").Call(jen.Id(w), v)
}

// spillGet is an expression reading a value of type t, in its Go form,
// from spill reader r (a fresh copy: strings and binaries alias nothing).
func spillGet(t ir.Type, r string) jen.Code {
	R := func(m string) *jen.Statement { return jen.Id(r).Dot(m).Call() }
	switch t.Kind {
	case ir.TBool:
		return R("GetBool")
	case ir.TInt64, ir.TTimestamp, ir.TDuration:
		return R("GetInt64")
	case ir.TInt8, ir.TInt16, ir.TInt32, ir.TDate32:
		return goType(t).Call(R("GetInt64"))
	case ir.TUint64:
		return R("GetUvarint")
	case ir.TUint8, ir.TUint16, ir.TUint32:
		return goType(t).Call(R("GetUvarint"))
	case ir.TFloat64:
		return R("GetFloat64")
	case ir.TFloat32:
		return jen.Float32().Call(R("GetFloat64"))
	case ir.TDecimal:
		// the halves in order: a function literal, since Go evaluates
		// call arguments in order but this keeps it plain to a reader
		return jen.Func().Params().Qual(decimalPkg, "Num").Block(
			jen.Id("hi").Op(":=").Add(R("GetInt64")),
			jen.Return(jen.Qual(decimalPkg, "New").Call(jen.Id("hi"), R("GetUint64"))),
		).Call()
	case ir.TString:
		return R("GetString")
	case ir.TBinary:
		return R("GetBytes")
	}
	return jen.Qual(nestedPkg, "GetSpill").Call(jen.Id(r))
}

// spillPutOK appends a nullable value's ok flag (before its value, which
// is written whatever the flag: its zero when NULL).
func spillPutOK(w string, ok jen.Code) jen.Code { return jen.Id(w).Dot("PutBool").Call(ok) }

// spillGetOK reads what spillPutOK wrote.
func spillGetOK(r string) jen.Code { return jen.Id(r).Dot("GetBool").Call() }

// storedField is one field of the row struct of an operator that keeps
// rows (a window's, an order by's): its name, type and whether some row
// stored a NULL in it. Its ok flag is the field name+"ok".
type storedField struct {
	name     string
	t        ir.Type
	nullable bool
}

// spillRowFuncs declares put and get, which write one row of struct st to
// a spill file and read it back: fields in order, a nullable field's ok
// flag before its value; a field that no row stored NULL in reads back
// with its ok flag set, as every row stored it.
func spillRowFuncs(st, put, get string, fields []*storedField) jen.Code {
	var puts, gets []jen.Code
	for _, f := range fields {
		v := jen.Id("r").Dot(f.name)
		if f.nullable {
			puts = append(puts, spillPutOK("w", jen.Id("r").Dot(f.name+"ok")))
			gets = append(gets, jen.Id("r").Dot(f.name+"ok").Op("=").Add(spillGetOK("rd")))
		} else {
			gets = append(gets, jen.Id("r").Dot(f.name+"ok").Op("=").True())
		}
		puts = append(puts, spillPut(f.t, "w", v))
		gets = append(gets, jen.Id("r").Dot(f.name).Op("=").Add(spillGet(f.t, "rd")))
	}
	return jen.Commentf("%s writes a %s to a spill file (%s reads it back).", put, st, get).Line().
		Func().Id(put).Params(jen.Id("w").Op("*").Qual(spillPkg, "Writer"), jen.Id("r").Op("*").Id(st)).Block(puts...).Line().Line().
		Commentf("%s reads what %s wrote.", get, put).Line().
		Func().Id(get).Params(jen.Id("rd").Op("*").Qual(spillPkg, "Reader"), jen.Id("r").Op("*").Id(st)).Block(gets...)
}
