package codegen

import (
	"strings"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// hashFns are the sqlfn functions of the calls that are one function of
// their (coerced) arguments, by catalogue name and call mode.
var hashFns = map[string]struct {
	fn   string
	mode callMode
	try  bool
}{
	"md5": {"MD5", pure, false}, "sha1": {"SHA1", pure, false}, "crc32": {"CRC32", pure, false},
	"base64": {"Base64", pure, false}, "unbase64": {"UnBase64", checked, false}, "unhex": {"Unhex", maybe, false},
	"url_encode": {"URLEncode", pure, false}, "url_decode": {"URLDecode", checked, false},
	"try_url_decode": {"URLDecode", checked, true}, "encode": {"Encode", checked, false},
}

// genHashCall generates hashing and encoding (passes/funcs_hash.go); nil for a call it does not generate.
func (g *flowGen) genHashCall(name string, e *ir.Call, args []*value, t ir.Type) *value {
	asI32 := func(v *value) *value { return g.asInt32(v, e.Pos) }
	asI64 := func(v *value) *value {
		if v.t.IsInteger() && v.t.Kind != ir.TUint64 {
			return g.coerce(v, ir.Int64, e.Pos)
		}
		return g.genCast(v, ir.Int64, false, e.Pos) // Spark's implicit cast to BIGINT (ANSI)
	}
	if f, ok := hashFns[name]; ok {
		return g.strictCall(t, e.Pos, f.mode, f.try, f.fn, args...)
	}
	switch name {
	case "sha2":
		return g.sqlfnCall(t, e.Pos, maybe, "SHA2", args[0], asI32(args[1]))
	case "hex":
		if a := args[0]; a.t.Kind == ir.TString || a.t.Kind == ir.TBinary {
			return g.sqlfnCall(t, e.Pos, pure, "HexBytes", a)
		}
		return g.sqlfnCall(t, e.Pos, pure, "HexInt64", asI64(args[0]))
	case "bin":
		return g.sqlfnCall(t, e.Pos, pure, "Bin", asI64(args[0]))
	case "is_valid_utf8":
		return g.sqlfnCall(t, e.Pos, pure, "IsValidUTF8", args[0])
	case "make_valid_utf8", "validate_utf8", "try_validate_utf8":
		s := g.genCast(args[0], ir.StringT, false, e.Pos) // a binary's bytes, as they are
		if name == "make_valid_utf8" {
			return g.sqlfnCall(t, e.Pos, pure, "MakeValidUTF8", s)
		}
		return g.strictCall(t, e.Pos, checked, name == "try_validate_utf8", "ValidateUTF8", s)
	case "bitmap_bucket_number":
		return g.sqlfnCall(t, e.Pos, pure, "BitmapBucketNumber", asI64(args[0]))
	case "bitmap_bit_position":
		return g.sqlfnCall(t, e.Pos, pure, "BitmapBitPosition", asI64(args[0]))
	case "bitmap_count":
		return g.sqlfnCall(t, e.Pos, pure, "BitmapCount", args[0])
	case "conv":
		num := g.genCast(args[0], ir.StringT, false, e.Pos) // an integer's decimal text, as Spark casts it
		return g.sqlfnCall(t, e.Pos, checkedMaybe, "Conv", num, asI32(args[1]), asI32(args[2]))
	case "to_binary", "try_to_binary":
		f, ok := passes.BinaryFormat(e)
		if !ok {
			return nullValue(t) // try_to_binary of a format to_binary does not take
		}
		try := name == "try_to_binary"
		switch f {
		case "hex":
			return g.strictCall(t, e.Pos, checked, try, "ToBinaryHex", args[0])
		case "base64":
			return g.strictCall(t, e.Pos, checked, try, "ToBinaryBase64", args[0])
		}
		return g.sqlfnCall(t, e.Pos, pure, "StringBytes", args[0])
	case "decode":
		if len(args) == 2 {
			return g.sqlfnCall(t, e.Pos, checked, "Decode", args[0], args[1])
		}
	case "aes_encrypt", "aes_decrypt", "try_aes_decrypt":
		// the arguments not given: mode GCM, padding DEFAULT, and empty
		// ones: no IV (a random one; aes_decrypt takes none), no AAD
		fn, n := "AESDecrypt", 5
		if name == "aes_encrypt" {
			fn, n = "AESEncrypt", 6
		}
		vals := append([]*value(nil), args...)
		for i := len(args); i < n; i++ {
			vals = append(vals, plainValue(ir.StringT, jen.Lit([]string{"", "", "GCM", "DEFAULT", "", ""}[i])))
		}
		return g.strictCall(t, e.Pos, checked, name == "try_aes_decrypt", fn, vals...)
	case "bit_count":
		return g.sqlfnCall(t, e.Pos, pure, "BitCount", asI64(args[0]))
	case "bit_get":
		a := args[0]
		width := map[ir.TypeKind]int32{ir.TInt8: 8, ir.TInt16: 16, ir.TUint8: 16, ir.TInt32: 32, ir.TUint16: 32}[a.t.Kind]
		if width == 0 {
			width = 64
		}
		fn := plainValue(ir.StringT, jen.Lit(strings.ToLower(e.Name))) // Spark's message names the call's spelling
		return g.sqlfnCall(t, e.Pos, checked, "BitGet", asI64(a), asI32(args[1]), plainValue(ir.Int32, jen.Lit(width)), fn)
	case "shiftleft", "shiftright", "shiftrightunsigned":
		return g.genShift(name, t, e.Pos, args[0], args[1])
	}
	return nil
}

// strictCall is sqlfnCall that, with try, gives NULL for fn's error.
func (g *flowGen) strictCall(t ir.Type, pos ir.Pos, mode callMode, try bool, fn string, vals ...*value) *value {
	if !try {
		return g.sqlfnCall(t, pos, mode, fn, vals...)
	}
	return g.strict(t, pos, mode, true, vals, func() jen.Code {
		cs := make([]jen.Code, len(vals))
		for i, v := range vals {
			cs[i] = V(v)
		}
		return jen.Qual(sqlfnPkg, fn).Call(cs...)
	})
}

// genHashes generates hash and xxhash64, which skip a NULL argument
// (so they evaluate their arguments themselves): from the seed 42, each
// non-NULL argument's hash, by the representation Spark hashes it in
// (hashOperand), seeds the next one's.
func (g *flowGen) genHashes(name string, e *ir.Call, en *env, t ir.Type) *value {
	prefix := map[string]string{"hash": "Murmur3", "xxhash64": "XxHash64"}[name]
	hn := g.name("h")
	h := &value{t: t, v: jen.Id(hn)}
	h.vl = g.declare([]string{hn}, goType(t).Call(jen.Qual(sqlfnPkg, "HashSeed")))[0]
	for _, arg := range e.Args {
		a := g.genExpr(arg, en)
		if a.null {
			continue
		}
		fn, x, vals := g.hashOperand(a, e.Pos)
		step := jen.Id(hn).Op("=").Qual(sqlfnPkg, prefix+fn).Call(append(vals, jen.Id(hn))...)
		h.vl.used = true
		if x.ok != nil {
			g.emit(jen.If(OK(x)).Block(step))
		} else {
			g.emit(step)
		}
	}
	return h
}

// hashOperand is how Spark's hashes see a value (rt/sqlfn/hash.go): the
// step ("Int", "Long", "Bytes" or "Decimal"), the value it reads (a, or a
// cast of it), and the step's arguments before the seed. An unsigned
// integer is hashed as the Spark type it widens to (UNSIGNED BIGINT as
// DECIMAL(20,0)), and a timestamp or duration in microseconds.
func (g *flowGen) hashOperand(a *value, pos ir.Pos) (string, *value, []jen.Code) {
	switch k := a.t.Kind; {
	case k == ir.TBool:
		b := g.genCast(a, ir.Int32, false, pos)
		return "Int", b, []jen.Code{V(b)}
	case k == ir.TInt8 || k == ir.TInt16 || k == ir.TUint8 || k == ir.TUint16:
		return "Int", a, []jen.Code{jen.Int32().Call(V(a))}
	case k == ir.TInt32 || k == ir.TDate32:
		return "Int", a, []jen.Code{V(a)}
	case k == ir.TInt64:
		return "Long", a, []jen.Code{V(a)}
	case k == ir.TUint32:
		return "Long", a, []jen.Code{jen.Int64().Call(V(a))}
	case k == ir.TUint64:
		return "Decimal", a, []jen.Code{jen.Qual(decimalPkg, "New").Call(jen.Lit(0), V(a)), jen.Lit(int32(20))}
	case k == ir.TFloat32:
		return "Int", a, []jen.Code{jen.Qual(sqlfnPkg, "Float32HashBits").Call(V(a))}
	case k == ir.TFloat64:
		return "Long", a, []jen.Code{jen.Qual(sqlfnPkg, "Float64HashBits").Call(V(a))}
	case k == ir.TDecimal:
		return "Decimal", a, []jen.Code{V(a), jen.Lit(int32(a.t.Precision))}
	case k == ir.TString || k == ir.TBinary:
		return "Bytes", a, []jen.Code{V(a)}
	case k == ir.TTimestamp:
		us := g.genCast(a, ir.Timestamp(ir.Micro, a.t.Zone), false, pos)
		return "Long", us, []jen.Code{V(us)}
	case k == ir.TDuration:
		us := g.genCast(a, ir.DurationType(ir.Micro), false, pos)
		return "Long", us, []jen.Code{V(us)}
	}
	g.unplanned(pos, "hash of %s is not supported yet", a.t)
	return "Long", a, []jen.Code{jen.Lit(int64(0))}
}
