package format

import (
	"bytes"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
)

var bigSchema = arrow.NewSchema([]arrow.Field{
	{Name: "id", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "s", Type: arrow.BinaryTypes.String, Nullable: true},
}, nil)

// csvRows reads data with bigSchema, from a file or from a stream, and
// returns each batch's rows as "id|s" lines, the huge values shortened to
// their length and ends.
func csvRows(t *testing.T, data []byte, mem memory.Allocator, file bool) [][]string {
	t.Helper()
	var (
		r   BatchReader
		err error
	)
	if file {
		r, err = Open(obj(data), "big.csv", CSV, bigSchema, Options{Mem: mem})
	} else {
		// a stream, not an io.ReaderAt: values are not measured ahead
		r, err = newCSVReader(io.NopCloser(bytes.NewReader(data)), "big.csv", bigSchema, DefaultCSV(), Options{}, mem)
	}
	if err != nil {
		t.Fatal(err)
	}
	recs, err := ReadAll(r)
	if err != nil {
		t.Fatal(err)
	}
	defer release(recs)
	var out [][]string
	for _, rec := range recs {
		var rows []string
		ids, ss := rec.Column(0).(*array.Int64), rec.Column(1).(*array.String)
		for i := 0; i < int(rec.NumRows()); i++ {
			id, s := "NULL", "NULL"
			if ids.IsValid(i) {
				id = ids.ValueStr(i)
			}
			if ss.IsValid(i) {
				s = ss.Value(i)
				if len(s) > 100 {
					s = fmt.Sprintf("<%d>%s%s", len(s), s[:3], s[len(s)-3:])
				}
			}
			rows = append(rows, id+"|"+s)
		}
		out = append(out, rows)
	}
	return out
}

// TestCSVHugeField: a record of a megabyte or more is a batch of its own
// whose string values are the scanner's buffer itself, so a huge field is
// held once. The rows before and after it, and its other columns, read as
// usual, whether the field is plain, quoted, quoted with doubled quotes, or
// spans lines.
func TestCSVHugeField(t *testing.T) {
	big := strings.Repeat("abcdefghij", 300_000) // 3 MB
	for _, tc := range []struct {
		name, field, want string
	}{
		{"plain", big, "<3000000>abchij"},
		{"quoted", `"` + big + `"`, "<3000000>abchij"},
		{"doubled quotes", `"x""` + big + `"`, `<3000002>x"ahij`},
		{"lines", `"` + strings.Repeat("abcdefghi\n", 300_000) + `"`, "<3000000>abchi\n"},
	} {
		for _, file := range []bool{true, false} {
			t.Run(fmt.Sprintf("%s/file=%v", tc.name, file), func(t *testing.T) {
				mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
				defer mem.AssertSize(t, 0)
				data := []byte("id,s\n1,a\n2,\"b\"\n3," + tc.field + "\n,\n5,e\n")
				got := csvRows(t, data, mem, file)
				want := [][]string{{"1|a", "2|b"}, {"3|" + tc.want}, {"NULL|NULL", "5|e"}}
				if len(got) != len(want) {
					t.Fatalf("batches %q, want %q", got, want)
				}
				for i := range want {
					if strings.Join(got[i], ",") != strings.Join(want[i], ",") {
						t.Errorf("batch %d: %q, want %q", i, got[i], want[i])
					}
				}
			})
		}
	}
}

// TestCSVHugeFieldMemory: reading a 16 MB field from a file allocates the
// field plus a constant: its size is measured before it is read, and the
// batch's string data is that buffer. The reader used to allocate ten
// times the field: the line grown a quarter at a time, a copy of it for the
// fields grown the same way, the builder's copy rounded up to a power of
// two, and a []byte copy of the string on the way in.
func TestCSVHugeFieldMemory(t *testing.T) {
	const size = 16 << 20
	var data bytes.Buffer
	data.WriteString("id,s\n1,")
	data.WriteString(strings.Repeat("x", size))
	data.WriteString("\n2,y\n")
	plain := data.Bytes()
	quoted := bytes.Replace(bytes.Replace(plain, []byte("1,x"), []byte(`1,"x`), 1), []byte("x\n2"), []byte("x\"\n2"), 1)
	lines := []byte("id,s\n1,\"" + strings.Repeat(strings.Repeat("x", 99)+"\n", size/100) + "\"\n2,y\n")
	for _, tc := range []struct {
		name string
		in   []byte
	}{{"plain", plain}, {"quoted", quoted}, {"quoted, over lines", lines}} {
		in := tc.in
		var before, after runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&before)
		r, err := Open(obj(in), "big.csv", CSV, bigSchema, Options{})
		if err != nil {
			t.Fatal(err)
		}
		rows := 0
		for {
			rec, err := r.Next()
			if err != nil {
				break
			}
			rows += int(rec.NumRows())
			rec.Release()
		}
		r.Close()
		runtime.ReadMemStats(&after)
		alloc := after.TotalAlloc - before.TotalAlloc
		t.Logf("%s: a %d MB field: %.1f MB allocated", tc.name, size>>20, float64(alloc)/(1<<20))
		if rows != 2 {
			t.Errorf("%d rows", rows)
		}
		if limit := uint64(size + 8<<20); alloc > limit {
			t.Errorf("%s: reading a %d MB field allocated %d MB, want at most %d MB (the field plus 8 MB)", tc.name, size>>20, alloc>>20, limit>>20)
		}
	}
}
