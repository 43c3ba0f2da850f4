package nested

import (
	"reflect"
	"testing"
	"unsafe"
)

// TestCloneCopiesBuffers checks that a clone shares no string or binary
// bytes with the original, and equals it part by part.
func TestCloneCopiesBuffers(t *testing.T) {
	buf := []byte("abcdef")
	s := unsafe.String(&buf[0], 3) // aliases buf, as a batch's string does
	v := Array{Struct{s, buf[3:], nil}, &Map{Keys: []any{s}, Values: []any{Array{int64(1), nil}}}, nil}
	c := Clone(v)
	if !reflect.DeepEqual(c, v) {
		t.Fatalf("Clone = %#v, want %#v", c, v)
	}
	copy(buf, "xyzuvw")
	cs := c.(Array)
	if got := cs[0].(Struct)[0].(string); got != "abc" {
		t.Errorf("cloned string = %q after the buffer changed, want abc", got)
	}
	if got := string(cs[0].(Struct)[1].([]byte)); got != "def" {
		t.Errorf("cloned binary = %q after the buffer changed, want def", got)
	}
	if got := cs[1].(*Map).Keys[0].(string); got != "abc" {
		t.Errorf("cloned map key = %q after the buffer changed, want abc", got)
	}
	if Clone(nil) != nil {
		t.Error("Clone(nil) is not nil")
	}
	if e := Clone(Array{}); e == nil || len(e.(Array)) != 0 {
		t.Errorf("Clone of an empty array = %#v, want an empty array", e)
	}
}

// TestBytes checks the estimate: a slot per part and the text's bytes.
func TestBytes(t *testing.T) {
	for _, c := range []struct {
		v    any
		want int64
	}{
		{int64(7), 16},
		{"hello", 16 + 5},
		{Array{"ab", nil}, 16 + (16 + 2) + 16},
		{&Map{Keys: []any{"k"}, Values: []any{Struct{int32(1)}}}, 16 + (16 + 1) + (16 + 16)},
	} {
		if got := Bytes(c.v); got != c.want {
			t.Errorf("Bytes(%#v) = %d, want %d", c.v, got, c.want)
		}
	}
}
