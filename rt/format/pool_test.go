package format

import (
	"fmt"
	"io"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/array"
)

// A pooled buffer comes back zeroed, whatever was written to it, and
// Reallocate zeroes the part it adds.
func TestBufferPoolZeroes(t *testing.T) {
	var p bufferPool
	for round := range 3 {
		b := p.Allocate(100 << 10)
		if len(b) != 100<<10 || cap(b) != 128<<10 {
			t.Fatalf("round %d: len %d cap %d, want %d and %d", round, len(b), cap(b), 100<<10, 128<<10)
		}
		for i, v := range b {
			if v != 0 {
				t.Fatalf("round %d: byte %d is %d, want 0", round, i, v)
			}
		}
		for i := range b {
			b[i] = 0xff
		}
		b = p.Reallocate(120<<10, b)
		for i, v := range b[100<<10:] {
			if v != 0 {
				t.Fatalf("round %d: grown byte %d is %d, want 0", round, i, v)
			}
		}
		b = b[:cap(b)]
		for i := range b {
			b[i] = 0xff
		}
		p.Free(b[:10])
	}
	small := p.Allocate(100)
	if len(small) != 100 {
		t.Errorf("a small buffer of %d bytes, want 100", len(small))
	}
	p.Free(make([]byte, 100<<10)) // not a pool capacity: ignored
}

// A reader that reuses its buffers returns the same rows as one that does
// not, when every batch is released before the next: later row groups
// decode into the buffers of earlier ones.
func TestParquetReuseSameRows(t *testing.T) {
	data, schema := manyGroups(t, 120_000, 20_000)
	for pass := range 2 {
		r, err := Open(obj(data), "x.parquet", Parquet, schema, Options{Threads: 3, BatchRows: 7_000, Reuse: true})
		if err != nil {
			t.Fatal(err)
		}
		next := int64(0)
		for {
			rec, err := r.Next()
			if err == io.EOF {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			a, b, c := rec.Column(0).(*array.Int64), rec.Column(1).(*array.String), rec.Column(2).(*array.Int64)
			for i := range int(rec.NumRows()) {
				if a.Value(i) != next || b.Value(i) != fmt.Sprintf("s%d", next) || c.Value(i) != 2*next {
					t.Fatalf("pass %d: row %d is (%d, %q, %d)", pass, next, a.Value(i), b.Value(i), c.Value(i))
				}
				next++
			}
			rec.Release()
		}
		r.Close()
		if next != 120_000 {
			t.Errorf("pass %d: %d rows, want 120000", pass, next)
		}
	}
}
