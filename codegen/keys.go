package codegen

import (
	"fmt"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/ir"
)

// keyType is the key of a hash table (group by, distinct, join, IN
// subquery): a Go map's key, or for group by and join keys of one field an
// rt/hashtab table's (table). One field is the field's own key type; several are a
// generated struct with, for fields that can be NULL, a null flag, so that
// NULL groups with NULL (group by, distinct) and null-safe join keys match.
// The struct is declared at package level once every use is generated
// (the null flags are known then).
type keyType struct {
	g      *flowGen
	name   string    // struct type; "" for a single field
	fields []ir.Type // SQL types of the fields
	nulls  []bool    // struct field i has a null flag

	stateName string      // group by: the state struct the groups slice holds
	mem       *memAccount // group by: accounts each new group
}

// keyField is how a value of t is held in a map key: floats by the bits of
// their normalized value (so NaN groups with NaN and -0.0 with 0.0, as in
// Spark), binary as a string, others as they are.
func keyField(t ir.Type) (typ jen.Code, conv func(v jen.Code) jen.Code) {
	switch t.Kind {
	case ir.TFloat64:
		return jen.Uint64(), func(v jen.Code) jen.Code {
			return jen.Qual(mathPkg, "Float64bits").Call(jen.Qual(sqlfnPkg, "NormalizeFloat64").Call(v))
		}
	case ir.TFloat32:
		return jen.Uint32(), func(v jen.Code) jen.Code {
			return jen.Qual(mathPkg, "Float32bits").Call(jen.Qual(sqlfnPkg, "NormalizeFloat32").Call(v))
		}
	case ir.TBinary:
		return jen.String(), func(v jen.Code) jen.Code { return jen.String().Call(v) }
	case ir.TArray, ir.TStruct: // its encoding (the plan admits no MAP key)
		return jen.String(), func(v jen.Code) jen.Code { return jen.Qual(nestedPkg, "Key").Call(v) }
	}
	return goType(t), func(v jen.Code) jen.Code { return v }
}

// newKeyType starts a key of the given field types: a struct for several
// fields, or when forceStruct asks for one (a single field that must hold
// NULL as a value: distinct rows, null-safe join keys).
func (g *flowGen) newKeyType(stem string, fields []ir.Type, forceStruct bool) *keyType {
	k := &keyType{g: g, fields: fields, nulls: make([]bool, len(fields))}
	if len(fields) != 1 || forceStruct {
		k.name = g.global(stem+"Key_", g.flow.Name)
		g.typeDecls = append(g.typeDecls, k.decl)
	}
	return k
}

// goType is the map's key type.
func (k *keyType) goType() jen.Code {
	if k.name == "" {
		t, _ := keyField(k.fields[0])
		return t
	}
	return jen.Id(k.name)
}

// table is the rt/hashtab table type that holds this key ("Int",
// "Strings"), or "" for a Go map: a key of one field whose type the
// physical type table gives a table (keys of several fields, and keys that
// hold NULL as a value, are Go maps of a generated struct).
func (k *keyType) table() string {
	if k.name != "" {
		return ""
	}
	return mustPhys(k.fields[0]).table
}

// tableType is the Go type of a hash table from this key to an int32 (a
// group's index, a join bucket's or a build row's).
func (k *keyType) tableType() jen.Code {
	switch k.table() {
	case "":
		return jen.Map(k.goType()).Int32()
	case "Int":
		return jen.Op("*").Qual(hashtabPkg, "Int").Types(k.goType())
	default:
		return jen.Op("*").Qual(hashtabPkg, k.table())
	}
}

// newTable is an empty table of tableType.
func (k *keyType) newTable() jen.Code {
	switch k.table() {
	case "":
		return jen.Map(k.goType()).Int32().Values()
	case "Int":
		return jen.Op("&").Qual(hashtabPkg, "Int").Types(k.goType()).Values()
	default:
		return jen.Op("&").Qual(hashtabPkg, k.table()).Values()
	}
}

// get is the lookup of key in the table ht: two values, the int32 and
// whether key is there.
func (k *keyType) get(ht string, key jen.Code) jen.Code {
	if k.table() == "" {
		return jen.Id(ht).Index(key)
	}
	return jen.Id(ht).Dot("Get").Call(key)
}

// put sets key's int32 in the table ht (a key that outlives the batch:
// cloned).
func (k *keyType) put(ht string, key, v jen.Code) jen.Code {
	if k.table() == "" {
		return jen.Id(ht).Index(key).Op("=").Add(v)
	}
	return jen.Id(ht).Dot("Put").Call(key, v)
}

// decl declares the key struct.
func (k *keyType) decl() jen.Code {
	var fs []jen.Code
	for i, t := range k.fields {
		typ, _ := keyField(t)
		fs = append(fs, jen.Id(fmt.Sprintf("k%d", i)).Add(typ))
		if k.nulls[i] {
			fs = append(fs, jen.Id(fmt.Sprintf("k%dnull", i)).Bool())
		}
	}
	return jen.Commentf("%s is a hash key of flow %s.", k.name, k.g.flow.Name).Line().
		Type().Id(k.name).Struct(fs...)
}

// build emits the code computing the key of vals (coerced to the fields'
// types by the caller), every field null-safe (NULL fields flagged). For a
// single field it is the value itself: the caller handles NULL.
func (k *keyType) build(g *flowGen, vals []*value) jen.Code {
	key, _ := k.buildOK(g, vals, nil)
	return key
}

// buildOK is build with a per-field choice: fields with nullSafe false make
// the returned validity false when NULL (join keys: NULL never matches);
// nullSafe nil means every field is null-safe. The validity is nil when the
// key is never NULL. A single field's key is its value and its validity.
func (k *keyType) buildOK(g *flowGen, vals []*value, nullSafe []bool) (jen.Code, jen.Code) {
	if k.name == "" {
		x := vals[0]
		_, conv := keyField(k.fields[0])
		if x.null {
			return zeroKey(k.fields[0]), jen.False()
		}
		return conv(V(x)), x.ok0()
	}
	key := g.name("key")
	g.emit(jen.Var().Id(key).Id(k.name))
	var strict []jen.Code
	for i, x := range vals {
		_, conv := keyField(k.fields[i])
		f := jen.Id(key).Dot(fmt.Sprintf("k%d", i))
		safe := nullSafe == nil || nullSafe[i]
		switch {
		case x.null && safe:
			k.nulls[i] = true
			g.emit(jen.Id(key).Dot(fmt.Sprintf("k%dnull", i)).Op("=").True())
		case x.null:
			strict = append(strict, jen.False())
		case !x.nullable():
			g.emit(f.Op("=").Add(conv(V(x))))
		case safe:
			k.nulls[i] = true
			g.emit(jen.If(OK(x)).Block(f.Clone().Op("=").Add(conv(V(x)))).Else().Block(
				jen.Id(key).Dot(fmt.Sprintf("k%dnull", i)).Op("=").True()))
		default:
			g.emit(jen.If(OK(x)).Block(f.Clone().Op("=").Add(conv(V(x)))))
			strict = append(strict, OK(x))
		}
	}
	return jen.Id(key), and(strict...)
}

// ok0 is the validity of a value, or nil when it is never NULL.
func (x *value) ok0() jen.Code {
	if x.ok == nil && !x.null {
		return nil
	}
	return OK(x)
}

// zeroKey is the zero value of a key field of type t.
func zeroKey(t ir.Type) jen.Code {
	if t.Kind == ir.TFloat64 {
		return jen.Uint64().Call(jen.Lit(0))
	}
	if t.Kind == ir.TFloat32 {
		return jen.Uint32().Call(jen.Lit(0))
	}
	if t.Kind == ir.TBinary || t.Kind == ir.TArray || t.Kind == ir.TStruct {
		return jen.Lit("")
	}
	return zeroCode(t)
}

// cloned returns the key to store in a map that outlives the batch: its
// strings copied out of the batch's buffers.
func (k *keyType) cloned(g *flowGen, key jen.Code) jen.Code {
	if k.name == "" {
		if k.fields[0].Kind == ir.TString {
			return jen.Qual(stringsPkg, "Clone").Call(key)
		}
		return key
	}
	for i, t := range k.fields {
		if t.Kind == ir.TString {
			f := jen.Add(key).Dot(fmt.Sprintf("k%d", i))
			g.emit(f.Clone().Op("=").Qual(stringsPkg, "Clone").Call(f.Clone()))
		}
	}
	return key
}

// cloneValue copies a value that is stored beyond its batch (strings and
// binary reference the batch's buffers).
func cloneValue(t ir.Type, v jen.Code) jen.Code {
	switch t.Kind {
	case ir.TString:
		return jen.Qual(stringsPkg, "Clone").Call(v)
	case ir.TBinary:
		return jen.Qual(bytesPkg, "Clone").Call(v)
	case ir.TArray, ir.TMap, ir.TStruct:
		return jen.Qual(nestedPkg, "Clone").Call(v)
	}
	return v
}
