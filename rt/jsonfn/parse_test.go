package jsonfn

import (
	"reflect"
	"strings"
	"sync"
	"testing"

	"github.com/nordisk/thund/rt/nested"
)

// parseSchema is from_json's schema 'id INT, user STRUCT<name: STRING,
// age: INT>, tags ARRAY<STRING>, _corrupt_record STRING, _rescued_data
// STRING'.
func parseSchema() *Type {
	str := &Type{Kind: String}
	i32 := &Type{Kind: Int, Bits: 32}
	return &Type{Kind: Struct, Fields: []Field{
		{Name: "id", Type: i32},
		{Name: "user", Type: &Type{Kind: Struct, Fields: []Field{{Name: "name", Type: str}, {Name: "age", Type: i32}}}},
		{Name: "tags", Type: &Type{Kind: Array, Elem: str}},
		{Name: "_corrupt_record", Type: str},
		{Name: "_rescued_data", Type: str},
	}}
}

// TestParserPermissive: PERMISSIVE keeps a malformed value (not JSON, not
// an object, a JSON null, a field that does not convert, a nested part
// that does not) with what converted and the text in the corrupt-record
// field, and counts it; an empty text is NULL and a good value is not
// counted; keys not in the schema are counted as new keys (once each).
func TestParserPermissive(t *testing.T) {
	p := NewParser(parseSchema(), "from_json at p.thund:3:10", Options{Corrupt: 3, Rescued: -1})
	cases := []struct {
		json string
		want any // nil: NULL
	}{
		{`{"id":1,"user":{"name":"Åsa","age":41},"tags":["a"]}`, nested.Struct{int32(1), nested.Struct{"Åsa", int32(41)}, nested.Array{"a"}, nil, nil}},
		{`not json`, nested.Struct{nil, nil, nil, "not json", nil}},
		{`[1,2]`, nested.Struct{nil, nil, nil, "[1,2]", nil}},
		{`null`, nested.Struct{nil, nil, nil, "null", nil}},
		{`{"id":"x","tags":["b"]}`, nested.Struct{nil, nil, nested.Array{"b"}, `{"id":"x","tags":["b"]}`, nil}},
		{`{"id":2,"user":{"name":"Bo","age":"old"}}`, nested.Struct{int32(2), nested.Struct{"Bo", nil}, nil, `{"id":2,"user":{"name":"Bo","age":"old"}}`, nil}},
		{`{"id":99999999999}`, nested.Struct{nil, nil, nil, `{"id":99999999999}`, nil}},
		{`{"id":3,"extra":true,"more":1,"ID":4}`, nested.Struct{int32(3), nil, nil, nil, nil}},
		{`{"id":4,"_corrupt_record":"mine","extra":null}`, nested.Struct{int32(4), nil, nil, nil, nil}},
		{`  `, nil},
	}
	for _, c := range cases {
		got, ok, err := p.Parse(c.json)
		if err != nil {
			t.Fatalf("%s: %v", c.json, err)
		}
		if !ok {
			got = nil
		}
		if !reflect.DeepEqual(got, c.want) {
			t.Errorf("%s:\n got %#v\nwant %#v", c.json, got, c.want)
		}
	}
	where, malformed, rescued, field, keys, into := p.Counts()
	if where != "from_json at p.thund:3:10" || malformed != 6 || rescued != 0 || field != "" || into != "" {
		t.Errorf("counts: %q %d malformed, %d rescued, field %q, into %q", where, malformed, rescued, field, into)
	}
	if want := []string{"extra", "more"}; !reflect.DeepEqual(keys, want) {
		t.Errorf("new keys %v, want %v", keys, want)
	}
}

// TestParserFailFast: FAILFAST fails at a malformed value, with Spark's
// error class and the text; a good value passes.
func TestParserFailFast(t *testing.T) {
	p := NewParser(parseSchema(), "w", Options{FailFast: true, Corrupt: -1, Rescued: -1})
	if _, ok, err := p.Parse(`{"id":1}`); !ok || err != nil {
		t.Fatalf("good value: ok %v, err %v", ok, err)
	}
	for json, why := range map[string]string{`{"id":`: "not valid JSON", `7`: "not a JSON object", `{"id":"x"}`: `field id: want INT, got "x"`} {
		_, _, err := p.Parse(json)
		if err == nil || err.Class != "MALFORMED_RECORD_IN_PARSING.WITHOUT_SUGGESTION" || !strings.Contains(err.Msg, why) || !strings.Contains(err.Msg, "FAILFAST") {
			t.Errorf("%s: got %v, want the FAILFAST error saying %s", json, err, why)
		}
	}
	if _, m, _, _, _, _ := p.Counts(); m != 0 {
		t.Errorf("FAILFAST counted %d malformed values", m)
	}
}

// TestParserRescue: with a rescued field, values that do not convert (the
// field keeps what converted of a nested one), case variants and new keys
// (not null ones) go into it as a JSON object of the values as written,
// and the value is not malformed; a value with nothing to rescue leaves it
// NULL. Values that are not JSON are still malformed.
func TestParserRescue(t *testing.T) {
	for _, ev := range []Evolution{EvolveNone, EvolveRescue} {
		p := NewParser(parseSchema(), "w", Options{Corrupt: 3, Rescued: 4, Evolution: ev})
		cases := []struct {
			json string
			want nested.Struct
		}{
			{`{"id":1}`, nested.Struct{int32(1), nil, nil, nil, nil}},
			{`{"id":"x","Tags":["q"],"region":{"n": 1.50},"gone":null}`, nested.Struct{nil, nil, nil, nil, `{"id":"x","Tags":["q"],"region":{"n":1.5}}`}},
			{`{"id":2,"user":{"name":"Bo","age":"old"}}`, nested.Struct{int32(2), nested.Struct{"Bo", nil}, nil, nil, `{"user":{"name":"Bo","age":"old"}}`}},
			{`{"id":`, nested.Struct{nil, nil, nil, `{"id":`, nil}},
		}
		for _, c := range cases {
			got, ok, err := p.Parse(c.json)
			if err != nil || !ok {
				t.Fatalf("%v %s: ok %v, err %v", ev, c.json, ok, err)
			}
			if !reflect.DeepEqual(got, c.want) {
				t.Errorf("%v %s:\n got %#v\nwant %#v", ev, c.json, got, c.want)
			}
		}
		_, malformed, rescued, field, keys, into := p.Counts()
		if malformed != 1 || rescued != 2 || field != "_rescued_data" || into != "_rescued_data" || !reflect.DeepEqual(keys, []string{"region", "gone"}) {
			t.Errorf("%v counts: %d malformed, %d rescued, field %q, keys %v into %q", ev, malformed, rescued, field, keys, into)
		}
	}
}

// TestParserNewKeysFail: under failOnNewColumns and addNewColumns a new
// key fails the flow, naming it (addNewColumns: the declaration to add);
// a value without one passes.
func TestParserNewKeysFail(t *testing.T) {
	for ev, want := range map[Evolution]string{
		EvolveFailOnNewColumns: "new keys not in the schema: region, odd key (schemaEvolutionMode failOnNewColumns)",
		EvolveAddNewColumns:    "as `region STRING, `odd key` STRING`",
	} {
		p := NewParser(parseSchema(), "w", Options{Corrupt: -1, Rescued: 4, Evolution: ev})
		if _, ok, err := p.Parse(`{"id":1,"ID":2}`); !ok || err != nil {
			t.Fatalf("%v: a value without new keys: ok %v, err %v", ev, ok, err)
		}
		_, _, err := p.Parse(`{"id":1,"region":"north","odd key":2}`)
		if err == nil || !strings.Contains(err.Msg, want) {
			t.Errorf("%v: got %v, want it to say %s", ev, err, want)
		}
	}
}

// TestParserConcurrent: counts are exact when the flow's goroutines share
// the parser.
func TestParserConcurrent(t *testing.T) {
	p := NewParser(parseSchema(), "w", Options{Corrupt: -1, Rescued: -1})
	var wg sync.WaitGroup
	for g := 0; g < 8; g++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := 0; i < 1000; i++ {
				p.Parse(`{"id":"bad","k":1}`)
				p.Parse(`{"id":1}`)
			}
		}()
	}
	wg.Wait()
	if _, m, _, _, keys, _ := p.Counts(); m != 8000 || !reflect.DeepEqual(keys, []string{"k"}) {
		t.Errorf("%d malformed, new keys %v; want 8000 and [k]", m, keys)
	}
}

// FuzzFromJSONParser: from_json's parser (a Kafka value, a JSON column) on
// any text, in each mode and evolution: it never panics; a value it keeps is
// a struct of the schema's fields; FAILFAST fails exactly where PERMISSIVE
// counts a malformed value.
func FuzzFromJSONParser(f *testing.F) {
	for _, s := range []string{`{"id":1,"user":{"name":"x","age":3},"tags":["a"]}`, `{"id":"one"}`, `{"ID":1,"new":true}`, `[1]`, `not json`, `{"id":1}{"id":2}`, `{"tags":[1,{"x":1}]}`, `null`, ``} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, json string) {
		for ev := EvolveNone; ev <= EvolveFailOnNewColumns; ev++ {
			loose := NewParser(parseSchema(), "w", Options{Corrupt: 3, Rescued: 4, Evolution: ev})
			strict := NewParser(parseSchema(), "w", Options{FailFast: true, Corrupt: 3, Rescued: 4, Evolution: ev})
			v, ok, err := loose.Parse(json)
			_, _, serr := strict.Parse(json)
			if err == nil && ok {
				if s, isStruct := v.(nested.Struct); !isStruct || len(s) != len(parseSchema().Fields) {
					t.Fatalf("%s: %q gave %#v, want a struct of %d fields", ev, json, v, len(parseSchema().Fields))
				}
			}
			_, malformed, _, _, _, _ := loose.Counts()
			if err == nil && (malformed > 0) != (serr != nil) {
				t.Fatalf("%s: %q: PERMISSIVE counted %d malformed, FAILFAST's error is %v", ev, json, malformed, serr)
			}
		}
	})
}
