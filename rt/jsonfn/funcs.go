package jsonfn

import (
	"unicode/utf8"

	"github.com/nordisk/thund/rt/nested"
)

// GetJSONObject is get_json_object(json, path): the value path selects, a
// string unquoted and anything else as JSON text; ok is false (NULL) when
// the path is not valid, nothing matches (a JSON null does not), the JSON
// is malformed, or the answer holds a lone UTF-16 surrogate.
func GetJSONObject(json, path string) (string, bool) {
	steps, ok := lookupPath(path)
	if !ok {
		return "", false
	}
	v, err := parseFirst(json)
	if err != nil {
		return "", false
	}
	var w writer
	if !eval(v, &w, styleRaw, steps) || !utf8.Valid(w.buf) {
		return "", false
	}
	return string(w.buf), true
}

// JSONArrayLength is json_array_length(json): the number of elements of
// the outermost JSON array; ok is false (NULL) when the text is not an
// array, or is malformed.
func JSONArrayLength(json string) (int32, bool) {
	v, err := parseFirst(json)
	if err != nil || v.kind != kArray {
		return 0, false
	}
	return int32(len(v.elems)), true
}

// JSONObjectKeys is json_object_keys(json): the keys of the outermost JSON
// object, in order (a repeated key each time), as a nested.Array of
// strings; ok is false (NULL) when the text is not an object, or is
// malformed.
func JSONObjectKeys(json string) (any, bool) {
	v, err := parseFirst(json)
	if err != nil || v.kind != kObject {
		return nil, false
	}
	out := make(nested.Array, len(v.names))
	for i, n := range v.names {
		out[i] = javaString(n)
	}
	return out, true
}
