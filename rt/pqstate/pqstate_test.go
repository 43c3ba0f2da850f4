package pqstate

import (
	"bytes"
	"encoding/gob"
	"math"
	"math/rand/v2"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/nordisk/thund/rt/stream"
)

// Shapes like the generated ones (codegen/stream.go): a key, an
// accumulator, a held join row, around rt/stream's snapshots.
type key struct {
	K0   string
	K1   int32
	K0ok bool
	K1ok bool
}

type acc struct {
	A0   int64
	A1   float64
	A1ok bool
	A2   string
	A3   uint64
	A4   []byte
}

type winState struct {
	Tracker stream.TrackerState
	W0      stream.Snapshot[key, acc]
}

type joinState struct {
	Tracker stream.TrackerState
	J       stream.JoinSnapshot[key, acc, key]
	Kind    stream.ChangeKind
	Small   int8
	F32     float32
	Empty   struct{}
	When    time.Time
}

// fill sets v to random values: nil or empty slices and pointers sometimes,
// NaN, infinities and -0 among the floats, times in UTC (zero sometimes).
func fill(r *rand.Rand, v reflect.Value, depth int) {
	t := v.Type()
	if t == timeType {
		if r.IntN(4) > 0 {
			v.Set(reflect.ValueOf(time.Unix(r.Int64N(4e9), r.Int64N(1e9)).UTC()))
		}
		return
	}
	switch t.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		x := int64(r.Uint64())
		if r.IntN(5) == 0 {
			x = []int64{0, -1, math.MinInt64, math.MaxInt64}[r.IntN(4)]
		}
		v.SetInt(x)
		if v.Int() != x { // narrower types keep what fits
			v.SetInt(x >> (64 - t.Bits()))
		}
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64:
		x := r.Uint64() >> (64 - t.Bits())
		v.SetUint(x)
	case reflect.Float32, reflect.Float64:
		f := r.NormFloat64() * 1e6
		switch r.IntN(8) {
		case 0:
			f = math.NaN()
		case 1:
			f = math.Inf(-1)
		case 2:
			f = math.Copysign(0, -1)
		}
		v.SetFloat(f)
	case reflect.String:
		b := make([]byte, r.IntN(6))
		for i := range b {
			b[i] = byte(r.IntN(256))
		}
		v.SetString(string(b) + strings.Repeat("é", r.IntN(2)))
	case reflect.Pointer:
		if r.IntN(3) > 0 {
			p := reflect.New(t.Elem())
			fill(r, p.Elem(), depth+1)
			v.Set(p)
		}
	case reflect.Slice:
		n := r.IntN(5)
		if depth > 4 || n == 0 {
			return
		}
		s := reflect.MakeSlice(t, n, n)
		for i := range n {
			fill(r, s.Index(i), depth+1)
		}
		v.Set(s)
	case reflect.Struct:
		for i := range t.NumField() {
			fill(r, v.Field(i), depth+1)
		}
	}
}

// same compares by gob encoding, which keeps every float's bits (NaN
// included) and tells nil slices from empty ones the way snapshots do not
// care about: both are encoded as absent.
func same(t *testing.T, a, b any) bool {
	t.Helper()
	var x, y bytes.Buffer
	if err := gob.NewEncoder(&x).Encode(a); err != nil {
		t.Fatal(err)
	}
	if err := gob.NewEncoder(&y).Encode(b); err != nil {
		t.Fatal(err)
	}
	return bytes.Equal(x.Bytes(), y.Bytes())
}

func roundTrip[T any](t *testing.T, seed uint64, n int) {
	r := rand.New(rand.NewPCG(seed, 7))
	for i := range n {
		var in, out T
		fill(r, reflect.ValueOf(&in).Elem(), 0)
		data, err := Marshal(&in)
		if err != nil {
			t.Fatalf("case %d: Marshal: %v", i, err)
		}
		if string(data[:4]) != Magic {
			t.Fatalf("case %d: not a Parquet file: % x", i, data[:4])
		}
		if err := Unmarshal(data, &out); err != nil {
			t.Fatalf("case %d: Unmarshal: %v", i, err)
		}
		if !same(t, in, out) {
			t.Fatalf("case %d (seed %d): round trip differs\n in: %+v\nout: %+v", i, seed, in, out)
		}
	}
}

func TestRoundTripWindowState(t *testing.T) { roundTrip[winState](t, 1, 200) }
func TestRoundTripJoinState(t *testing.T)   { roundTrip[joinState](t, 2, 200) }

// A snapshot is a real Parquet file: one row, a column per field, the
// nested entries as repeated groups that a Parquet reader sees as leaves.
func TestIsParquet(t *testing.T) {
	in := winState{W0: stream.Snapshot[key, acc]{Open: []stream.SnapshotEntry[key, acc]{
		{Key: key{K0: "ann", K0ok: true}, Window: stream.Window{Start: 0, End: 10}, Acc: acc{A0: 3}},
		{Key: key{K0: "bob", K0ok: true}, Window: stream.Window{Start: 0, End: 10}, Acc: acc{A0: 1}},
	}}}
	data, err := Marshal(in)
	if err != nil {
		t.Fatal(err)
	}
	pf, err := file.NewParquetReader(bytes.NewReader(data))
	if err != nil {
		t.Fatal(err)
	}
	defer pf.Close()
	if pf.NumRows() != 1 {
		t.Errorf("rows %d, want 1", pf.NumRows())
	}
	var leaves []string
	for i := range pf.MetaData().Schema.NumColumns() {
		leaves = append(leaves, pf.MetaData().Schema.Column(i).ColumnPath().String())
	}
	joined := strings.Join(leaves, " ")
	for _, want := range []string{"W0.Open.list.element.Key.K0", "W0.Open.list.element.Acc.A0", "Tracker.Inputs.list.element.LastActive"} {
		if !strings.Contains(joined, want) {
			t.Errorf("no leaf %s in %s", want, joined)
		}
	}
}

// Unmarshal into another type is refused, naming both schemas, rather than
// read wrong.
func TestSchemaMismatch(t *testing.T) {
	data, err := Marshal(winState{})
	if err != nil {
		t.Fatal(err)
	}
	var other joinState
	err = Unmarshal(data, &other)
	if err == nil || !strings.Contains(err.Error(), "does not fit") {
		t.Fatalf("err = %v", err)
	}
	if err := Unmarshal([]byte("not parquet at all"), &other); err == nil {
		t.Fatal("garbage accepted")
	}
}

func TestRefusals(t *testing.T) {
	type withMap struct{ M map[string]int }
	type unexported struct{ x int }
	for _, v := range []any{withMap{}, unexported{}, 3} {
		if _, err := Marshal(v); err == nil {
			t.Errorf("%T accepted", v)
		}
	}
	if _, err := Marshal(withMap{}); err == nil || !strings.Contains(err.Error(), "withMap.M") {
		t.Errorf("error does not name the field: %v", err)
	}
}
