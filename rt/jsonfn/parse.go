package jsonfn

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"sync/atomic"

	"github.com/nordisk/thund/rt/nested"
	"github.com/nordisk/thund/rt/sqlfn"
)

// from_json with options (docs/dsl.md, "Bad JSON values"): Spark's mode
// and columnNameOfCorruptRecord, and Lakeflow's rescuedDataColumn and
// schemaEvolutionMode, for a STRUCT schema. As Spark's JacksonParser and
// FailureSafeParser read a value:
//
//   - an empty text (or only spaces) is NULL, and not malformed;
//   - a value is malformed when it is not valid JSON, not a JSON object
//     (a JSON null included), or a field of the schema, or a part of a
//     nested one, does not convert to its type (an integer out of range,
//     a string for a number, ...);
//   - PERMISSIVE keeps a malformed value: every field that converted is
//     kept (none when the text is not an object), the rest is NULL, and
//     the corrupt-record field, when the schema declares it, holds the
//     text (NULL for a good value). FAILFAST fails the flow at the first
//     one. Spark's from_json takes no DROPMALFORMED.
//   - With a rescued-data field, a field that does not convert is not
//     malformed: it is NULL, and the rescued field holds a JSON object of
//     each such key with its value as written; so do keys whose name
//     differs from a field's only in case (Lakeflow's readerCaseSensitive).
//   - A new key is a top-level key that matches no field of the schema in
//     any case. schemaEvolutionMode says what it does: none ignores it
//     (rescues it when a rescued field is declared) and counts it; rescue
//     rescues it; addNewColumns and failOnNewColumns fail the flow naming
//     it. A new key whose value is null is counted, never rescued.
//
// The corrupt-record and rescued fields are never read from the JSON (a
// key naming one is neither matched nor new).

// Evolution is the schemaEvolutionMode option of from_json, and of CSV and
// JSON lines sources (rt/format).
type Evolution int

const (
	EvolveNone             Evolution = iota // new keys ignored (or rescued), counted and warned of
	EvolveAddNewColumns                     // fail, naming the fields to add to the schema
	EvolveRescue                            // new keys rescued
	EvolveFailOnNewColumns                  // fail, naming the new keys
)

var evolutionNames = [...]string{"none", "addNewColumns", "rescue", "failOnNewColumns"}

func (e Evolution) String() string {
	if int(e) < len(evolutionNames) {
		return evolutionNames[e]
	}
	return fmt.Sprintf("Evolution(%d)", int(e))
}

// EvolutionNames lists the values of schemaEvolutionMode, the default
// first (rt/format's file sources take the same).
func EvolutionNames() []string { return evolutionNames[:] }

// Fails reports whether a new key (a new column) fails the read.
func (e Evolution) Fails() bool { return e == EvolveAddNewColumns || e == EvolveFailOnNewColumns }

// Options are from_json's options, as generated code passes them.
type Options struct {
	FailFast bool // mode FAILFAST (else PERMISSIVE)
	// Corrupt and Rescued are the indexes of the corrupt-record and
	// rescued-data fields in the schema's fields, -1 for none.
	Corrupt, Rescued int
	Evolution        Evolution
}

// Parser is one from_json call of a flow: its schema and options, and the
// counts of what it met, which the flow reports (etl.FlowContext.CountParses).
// Parse is safe for concurrent use.
type Parser struct {
	t     *Type
	o     Options
	where string

	malformed, rescued atomic.Int64
	mu                 sync.Mutex
	newKeys            []string
}

// NewParser is the parser of a from_json call of schema t (a STRUCT),
// named where in the run's counts (from_json at FILE:LINE:COL).
func NewParser(t *Type, where string, o Options) *Parser {
	return &Parser{t: t, o: o, where: where}
}

// Counts are what the parser met: the malformed values it kept (with
// NULLs), the values it kept with a rescued value, the rescued field's
// name ("" for none) and the new keys, in the order first met.
func (p *Parser) Counts() (where string, malformed, rescued int64, rescuedField string, newKeys []string, into string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.o.Rescued >= 0 {
		rescuedField = p.t.Fields[p.o.Rescued].Name
		if !p.o.Evolution.Fails() {
			into = rescuedField
		}
	}
	return p.where, p.malformed.Load(), p.rescued.Load(), rescuedField, slices.Clone(p.newKeys), into
}

// Parse is from_json(json) with the parser's schema and options: the struct
// (ok false for NULL), or the error that fails the flow (FAILFAST, or a
// new key under addNewColumns or failOnNewColumns).
func (p *Parser) Parse(json string) (any, bool, *sqlfn.Error) {
	if strings.TrimLeft(json, " \t\r\n") == "" {
		return nil, false, nil
	}
	t := p.t
	out := make(nested.Struct, len(t.Fields))
	v, err := parseFirst(json)
	if err != nil || v.kind != kObject {
		why := "not valid JSON"
		if err == nil {
			why = "not a JSON object"
		}
		return p.bad(out, json, why)
	}
	var (
		rescue  []byte // the rescued object, without its closing brace
		badWhy  string
		newKeys []string
	)
	addRescued := func(name string, x value) {
		if rescue == nil {
			rescue = append(rescue, '{')
		} else {
			rescue = append(rescue, ',')
		}
		rescue = appendString(rescue, javaString(name))
		rescue = append(rescue, ':')
		rescue = appendValue(rescue, x)
	}
	for j, n := range v.names {
		i := p.field(n)
		switch {
		case i >= 0:
			partial := false
			x, ok := convert(v.elems[j], t.Fields[i].Type, &partial)
			switch {
			case ok && !partial:
				out[i] = x // the last one wins
			case p.o.Rescued >= 0:
				out[i] = x // NULL, or what converted of a nested value
				addRescued(n, v.elems[j])
			default:
				out[i] = x
				if badWhy == "" {
					badWhy = fmt.Sprintf("field %s: want %s, got %s", t.Fields[i].Name, t.Fields[i].Type.spell(), string(appendValue(nil, v.elems[j])))
				}
			}
		case p.reserved(n):
			// the corrupt-record or rescued field: never read from the JSON
		case p.caseVariant(n):
			if p.o.Rescued >= 0 && v.elems[j].kind != kNull {
				addRescued(n, v.elems[j])
			}
		default:
			if !slices.Contains(newKeys, n) {
				newKeys = append(newKeys, n)
			}
			if p.o.Rescued >= 0 && v.elems[j].kind != kNull && !p.o.Evolution.Fails() {
				addRescued(n, v.elems[j])
			}
		}
	}
	if len(newKeys) > 0 {
		if e := p.addNew(newKeys); e != nil {
			return nil, false, e
		}
	}
	if badWhy != "" {
		return p.bad(out, json, badWhy)
	}
	if rescue != nil {
		out[p.o.Rescued] = string(append(rescue, '}'))
		p.rescued.Add(1)
	}
	return out, true, nil
}

// field is the index of the schema's field named n exactly (not the
// corrupt-record or rescued field), -1 for none.
func (p *Parser) field(n string) int {
	for i, f := range p.t.Fields {
		if f.Name == n && i != p.o.Corrupt && i != p.o.Rescued {
			return i
		}
	}
	return -1
}

// reserved reports whether n names the corrupt-record or the rescued
// field, in any case.
func (p *Parser) reserved(n string) bool {
	for _, i := range []int{p.o.Corrupt, p.o.Rescued} {
		if i >= 0 && strings.EqualFold(p.t.Fields[i].Name, n) {
			return true
		}
	}
	return false
}

// caseVariant reports whether n names a field of the schema in another case.
func (p *Parser) caseVariant(n string) bool {
	for i, f := range p.t.Fields {
		if strings.EqualFold(f.Name, n) && i != p.o.Corrupt && i != p.o.Rescued {
			return true
		}
	}
	return false
}

// bad counts a malformed value and keeps it (PERMISSIVE: out with the
// corrupt-record field set), or fails (FAILFAST).
func (p *Parser) bad(out nested.Struct, json, why string) (any, bool, *sqlfn.Error) {
	if p.o.FailFast {
		return nil, false, &sqlfn.Error{Class: "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION",
			Msg: fmt.Sprintf("from_json: malformed JSON value (%s): %s. Parse Mode: FAILFAST (mode PERMISSIVE keeps it with NULLs and counts it)", why, quoteShort(json))}
	}
	p.malformed.Add(1)
	if p.o.Corrupt >= 0 {
		out[p.o.Corrupt] = json
	}
	return out, true, nil
}

// addNew records new keys, and fails under addNewColumns and
// failOnNewColumns.
func (p *Parser) addNew(keys []string) *sqlfn.Error {
	p.mu.Lock()
	for _, k := range keys {
		if !slices.Contains(p.newKeys, k) {
			p.newKeys = append(p.newKeys, k)
		}
	}
	p.mu.Unlock()
	switch p.o.Evolution {
	case EvolveFailOnNewColumns:
		return &sqlfn.Error{Msg: fmt.Sprintf("from_json: new keys not in the schema: %s (schemaEvolutionMode failOnNewColumns); nothing of this run was committed", strings.Join(keys, ", "))}
	case EvolveAddNewColumns:
		decl := make([]string, len(keys))
		for i, k := range keys {
			decl[i] = DDLName(k) + " STRING"
		}
		return &sqlfn.Error{Msg: fmt.Sprintf("from_json: new keys %s (schemaEvolutionMode addNewColumns): add them to from_json's schema, as `%s` (or with the types they hold), rebuild and run again; nothing of this run was committed, so nothing is lost",
			strings.Join(keys, ", "), strings.Join(decl, ", "))}
	}
	return nil
}

// quoteShort is s quoted, cut after 200 bytes.
func quoteShort(s string) string {
	if len(s) > 200 {
		return fmt.Sprintf("%q...", s[:200])
	}
	return fmt.Sprintf("%q", s)
}

// DDLName is a field or column name as Spark's DDL spells it: back-quoted
// unless it is a plain identifier.
func DDLName(n string) string {
	if plainName.MatchString(n) {
		return n
	}
	return "`" + strings.ReplaceAll(n, "`", "``") + "`"
}

// spell is t's DDL spelling, for messages.
func (t *Type) spell() string {
	switch t.Kind {
	case Bool:
		return "BOOLEAN"
	case Int:
		return map[int]string{8: "TINYINT", 16: "SMALLINT", 32: "INT", 64: "BIGINT"}[t.Bits]
	case Float32:
		return "FLOAT"
	case Float64:
		return "DOUBLE"
	case String:
		return "STRING"
	case Array:
		return "ARRAY<" + t.Elem.spell() + ">"
	case Map:
		return "MAP<STRING, " + t.Elem.spell() + ">"
	case Struct:
		parts := make([]string, len(t.Fields))
		for i, f := range t.Fields {
			parts[i] = DDLName(f.Name) + ": " + f.Type.spell()
		}
		return "STRUCT<" + strings.Join(parts, ", ") + ">"
	}
	return "a value"
}
