package nested

import (
	"reflect"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/decimal128"

	"github.com/nordisk/thund/rt/spill"
)

func TestSpillRoundTrip(t *testing.T) {
	vals := []any{
		nil, Array{}, Array{int32(1), nil, int32(-3)}, Struct{nil, "x", []byte{1, 2}},
		&Map{Keys: []any{"a", "b"}, Values: []any{Array{float64(1.5)}, nil}},
		true, int8(-8), int16(-16), int32(-32), int64(-1 << 62), uint8(8), uint16(16), uint32(32), uint64(1 << 63),
		float32(0.25), float64(-1e300), decimal128.New(-7, 12345), "héllo", []byte{},
		Struct{Array{Struct{int64(1), &Map{Keys: []any{}, Values: []any{}}}}},
	}
	a := spill.Open(t.TempDir())
	defer a.Close()
	w, err := a.Create("nested", nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, v := range vals {
		PutSpill(w, v)
	}
	f, err := w.Finish()
	if err != nil {
		t.Fatal(err)
	}
	r, err := f.Reader()
	if err != nil {
		t.Fatal(err)
	}
	for i, want := range vals {
		got := GetSpill(r)
		if !reflect.DeepEqual(got, want) {
			t.Errorf("value %d: got %#v, want %#v", i, got, want)
		}
	}
	if r.More() || r.Err() != nil {
		t.Fatalf("more: %v, err %v", r.More(), r.Err())
	}
}
