package format

import (
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/apache/arrow-go/v18/arrow/memory"
)

// TestBadRecordQuarantine: with Malformed.Quarantine set, each malformed
// record the count has is handed over once, with its file, the line it
// starts on, the reason FAILFAST prints after file:line:col, and its text
// as written (CSV: a record spanning lines joined by a line feed; JSON
// lines: the line without its ending), in PERMISSIVE (kept) and
// DROPMALFORMED (dropped), at every batch size, with or without a
// corrupt-record column.
func TestBadRecordQuarantine(t *testing.T) {
	csvWant := []string{
		`3 column a: want int32, got "notint" | notint,y,2.5`,
		`4 want 3 fields, got 2 | 3,z`,
		`5 want 3 fields, got 4 | 4,w,4.5,extra`,
		"11 column a: want int32, got \"bad\\nint\" | \"bad\nint\",s,8.5",
		`13 column c: want float64, got "nan!" | 9,t,nan!`,
	}
	jsonWant := []string{
		`2 column a: want int32, got "notint" | {"a":"notint","b":"y","c":2.5}`,
		`3 column a: want int32, got "1.5" | {"a":1.5,"b":"w","c":4.5}`,
		`5 invalid JSON: unexpected end of line | {"a":6,"b":"v",`,
		`8 want a JSON object per line | [1,2]`,
		`9 want a JSON object per line | 7`,
		`10 column c: want float64, got true | {"a":9,"b":"t","c":true}`,
	}
	for _, c := range []struct {
		name string
		f    Format
		data string
		want []string
	}{
		{"csv", CSV, badCSV, csvWant},
		{"json", JSONL, badJSON, jsonWant},
	} {
		for _, mode := range []Mode{Permissive, DropMalformed} {
			for _, corrupt := range []bool{false, true} {
				for _, batch := range []int{1, 3, 0} {
					name := fmt.Sprintf("%s/%s/corrupt=%v/batch=%d", c.name, mode, corrupt, batch)
					mem := memory.NewCheckedAllocator(memory.NewGoAllocator())
					var (
						mu  sync.Mutex
						got []string
					)
					m := &Malformed{Quarantine: func(b BadRecord) {
						mu.Lock()
						defer mu.Unlock()
						if b.File != "in."+c.f.Ext()[1:] || !b.Text || b.Kept != (mode == Permissive) {
							t.Errorf("%s: %+v", name, b)
						}
						got = append(got, fmt.Sprintf("%d %s | %s", b.Line, b.Reason, b.Record))
					}}
					opts := Options{BatchRows: batch, Mem: mem, Mode: mode, CorruptColumn: DefaultCorruptColumn, Malformed: m}
					recs, err := readBytes([]byte(c.data), "in."+c.f.Ext()[1:], c.f, badSchema(corrupt, false), opts)
					release(recs)
					mem.AssertSize(t, 0)
					if err != nil {
						t.Fatalf("%s: %v", name, err)
					}
					slices.Sort(got)
					want := slices.Clone(c.want)
					slices.Sort(want)
					if strings.Join(got, "\n") != strings.Join(want, "\n") {
						t.Errorf("%s: quarantined\n%s\nwant\n%s", name, strings.Join(got, "\n"), strings.Join(want, "\n"))
					}
					if n := m.Kept.Load() + m.Dropped.Load(); n != int64(len(c.want)) {
						t.Errorf("%s: counted %d, quarantined %d", name, n, len(got))
					}
				}
			}
		}
	}
}

// TestBadRecordQuarantineNotNull: a record dropped in PERMISSIVE because a
// NOT NULL column would hold NULL is quarantined as dropped, with the
// reason FAILFAST gives.
func TestBadRecordQuarantineNotNull(t *testing.T) {
	var got []string
	m := &Malformed{Quarantine: func(b BadRecord) {
		got = append(got, fmt.Sprintf("%d %v %s | %s", b.Line, b.Kept, b.Reason, b.Record))
	}}
	data := "a,b,c\n1,x,1.5\n,y,2.5\nbad,z,3.5\n"
	opts := Options{Mode: Permissive, Malformed: m}
	recs, err := readBytes([]byte(data), "in.csv", CSV, badSchema(false, true), opts)
	release(recs)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		`3 false column a: NULL in a NOT NULL column | ,y,2.5`,
		`4 false column a: want int32, got "bad" | bad,z,3.5`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("quarantined\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
