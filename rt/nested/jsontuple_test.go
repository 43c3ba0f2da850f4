package nested

import (
	"reflect"
	"testing"
)

// TestJSONTuple checks json_tuple against the answers of Spark 4.2.1
// (SELECT json_tuple(j, 'a', 'b', 'c', 'd', 'e', 'f', 'g', 'h', 'a')):
// numbers as Jackson writes them, nested values compact, escapes, single
// quotes, duplicate fields, and malformed text (a row of NULLs).
func TestJSONTuple(t *testing.T) {
	fields := []any{"a", "b", "c", "d", "e", "f", "g", "h", "a"}
	cases := []struct {
		json string
		want []any
	}{
		{"{\"a\":1,\"b\":{\"c\":[1,2.50,\"x\\ny\"]},\"d\":\"s\\\"q\",\"e\":null,\"f\":1.50,\"g\":true}", []any{"1", "{\"c\":[1,2.5,\"x\\ny\"]}", nil, "s\"q", nil, "1.5", "true", nil, "1"}},
		{"{\"a\": 1e20, \"b\": 0.001, \"c\": -0.0, \"d\": 12345678.9, \"e\": 1E-5, \"f\": 100, \"g\": -0, \"h\": 123456789012345678901234567890}", []any{"1.0E20", "0.001", "-0.0", "1.23456789E7", "1.0E-5", "100", "0", "123456789012345678901234567890", "1.0E20"}},
		{"{'a': 'single', \"b\": [ 1 , { \"x\" : null } ] }", []any{"single", "[1,{\"x\":null}]", nil, nil, nil, nil, nil, nil, "single"}},
		{"{\"a\":1,\"a\":2}", []any{"2", nil, nil, nil, nil, nil, nil, nil, "2"}},
		{"{\"a\":1,\"a\":null}", []any{"1", nil, nil, nil, nil, nil, nil, nil, "1"}},
		{"{\"a\":\"\\u00e9\\t\\u0001/<>&\"}", []any{"\u00e9\u0009\u0001/<>&", nil, nil, nil, nil, nil, nil, nil, "\u00e9\u0009\u0001/<>&"}},
		{"{\"a\":{\"k\":\"\\u00e9\\t\\u0001/<>&\\u2028\"}}", []any{"{\"k\":\"\u00e9\\t\\u0001/<>&\u2028\"}", nil, nil, nil, nil, nil, nil, nil, "{\"k\":\"\u00e9\\t\\u0001/<>&\u2028\"}"}},
		{"{\"a\":1} trailing", []any{"1", nil, nil, nil, nil, nil, nil, nil, "1"}},
		{"{\"a\":1, \"b\": [1,}", []any{nil, nil, nil, nil, nil, nil, nil, nil, nil}},
		{"{\"b\": [1,], \"a\": 1}", []any{nil, nil, nil, nil, nil, nil, nil, nil, nil}},
		{"{\"a\": 1, \"b\": tru}", []any{nil, nil, nil, nil, nil, nil, nil, nil, nil}},
		{"  {\"a\": [ ]  , \"b\": {}}", []any{"[]", "{}", nil, nil, nil, nil, nil, nil, "[]"}},
		{"{\"a\": \"x\", \"b\": 01}", []any{nil, nil, nil, nil, nil, nil, nil, nil, nil}},
		{"{\"a\": NaN}", []any{nil, nil, nil, nil, nil, nil, nil, nil, nil}},
		{"\"str\"", []any{nil, nil, nil, nil, nil, nil, nil, nil, nil}},
		{"", []any{nil, nil, nil, nil, nil, nil, nil, nil, nil}},
		{"{\"a\":\"raw\u0009ctl\"}", []any{"raw\u0009ctl", nil, nil, nil, nil, nil, nil, nil, "raw\u0009ctl"}},
		{"{\"a\": 1.0, \"b\": 1.0e2, \"c\": 5e-324, \"d\": 1.7976931348623157e308, \"e\": 123.456e-2}", []any{"1.0", "100.0", "4.9E-324", "1.7976931348623157E308", "1.23456", nil, nil, nil, "1.0"}},
		{"{\"b\": 1, \"a\": 2, \"A\": 3}", []any{"2", "1", nil, nil, nil, nil, nil, nil, "2"}},
	}
	for _, c := range cases {
		got := JSONTuple(c.json, fields...)
		if len(got) != 1 || !reflect.DeepEqual([]any(got[0]), c.want) {
			t.Errorf("json_tuple(%q) = %q, want %q", c.json, got, c.want)
		}
	}
	if got := JSONTuple(nil, "a"); len(got) != 1 || got[0][0] != nil {
		t.Errorf("json_tuple(NULL) = %v, want one row of NULL", got)
	}
	if got := JSONTuple(`{"a": 1}`, nil, "a"); got[0][0] != nil || got[0][1] != "1" {
		t.Errorf("json_tuple with a NULL field name = %v, want NULL, 1", got)
	}
}
