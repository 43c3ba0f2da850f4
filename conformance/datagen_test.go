package conformance

// The data generator: deterministic (a fixed seed), written as CSV files
// that both engines read. The properties the conformance matrix needs are
// built in on purpose, and coverage_test.go checks them on the data rather
// than trusting these comments:
//
//   - facts: NULLs in every nullable column, a skewed int64 key (k = 1 for
//     ~40% of rows), a skewed string key with the empty string, non-ASCII,
//     CSV-hostile text (comma, quote, newline, tab) and LIKE metacharacters,
//     ties in every sortable column, and one group (k = 777, s = 'nullgrp')
//     whose value columns are all NULL;
//   - facts_empty: the facts schema with no rows;
//   - parts/*.csv: the first 600 facts rows in three files and an empty
//     one, read through one glob;
//   - dim: a dimension with duplicate and NULL keys (int64 and string), keys
//     that facts lacks and facts keys that it lacks;
//   - allnull: one group, every value column NULL;
//   - big: enough rows (150k) for several reader batches, so that --threads 2
//     has something to split;
//   - sp: special values: NaN, -0.0, ±Infinity, a subnormal, wide decimals
//     (decimal(38,10)) whose arithmetic loses precision in Spark's typing,
//     int32 extremes, timestamps before the epoch and far from it;
//   - ovf: values that make ANSI errors (overflow, division by zero, bad
//     casts); only the err_* views read it.
//
// CSV conventions shared by both readers: a header row; NULL is the empty
// unquoted field; strings are always quoted (so "" is the empty string);
// timestamps are YYYY-MM-DD HH:MM:SS[.ffffff] with an optional ±HH:MM offset
// (only in the zoned column tz); text without an offset is UTC.

import (
	"bufio"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// null marks a NULL cell.
const null = "\x00NULL"

type table struct {
	name   string
	cols   []string
	quoted []bool // string columns are always quoted
	rows   [][]string
}

func (t *table) write(dir string) error {
	f, err := os.Create(filepath.Join(dir, t.name+".csv"))
	if err != nil {
		return err
	}
	w := bufio.NewWriter(f)
	w.WriteString(strings.Join(t.cols, ",") + "\n")
	for _, r := range t.rows {
		for i, c := range r {
			if i > 0 {
				w.WriteByte(',')
			}
			switch {
			case c == null:
			case t.quoted[i]:
				w.WriteString(`"` + strings.ReplaceAll(c, `"`, `""`) + `"`)
			default:
				w.WriteString(c)
			}
		}
		w.WriteByte('\n')
	}
	if err := w.Flush(); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}

type gen struct{ r *rand.Rand }

func (g *gen) maybe(p float64, v string) string {
	if g.r.Float64() < p {
		return null
	}
	return v
}

func (g *gen) pick(list []string) string { return list[g.r.IntN(len(list))] }

var epochDay = time.Date(1970, 1, 1, 0, 0, 0, 0, time.UTC)

func dateText(days int) string { return epochDay.AddDate(0, 0, days).Format("2006-01-02") }

// tsText renders microseconds since the epoch (UTC), with the fraction
// trimmed as the readers accept it; offset (seconds east) shifts the local
// text and appends ±HH:MM.
func tsText(us int64, offset int) string {
	t := time.UnixMicro(us).UTC()
	if offset == 0 {
		return t.Format("2006-01-02 15:04:05.999999")
	}
	t = t.In(time.FixedZone("", offset))
	return t.Format("2006-01-02 15:04:05.999999-07:00")
}

func decText(unscaled int64, scale int) string {
	neg := unscaled < 0
	if neg {
		unscaled = -unscaled
	}
	s := strconv.FormatInt(unscaled, 10)
	for len(s) <= scale {
		s = "0" + s
	}
	s = s[:len(s)-scale] + "." + s[len(s)-scale:]
	if neg {
		s = "-" + s
	}
	return s
}

func floatText(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

var (
	factCols   = []string{"id", "k", "s", "i", "j", "d", "f", "g", "flag", "day", "ts", "tz", "txt"}
	factQuoted = []bool{false, false, true, false, false, false, false, false, false, false, false, false, true}
	// skewed string keys: apple is frequent; the rest are chosen for
	// collation, LIKE, CSV quoting and Unicode edge cases
	strKeys = []string{"apple", "apple", "apple", "Apple", "banana", "b", "", "äpfel", "zebra", "a%b", "a_b",
		"with,comma", `quo"te`, "multi\nline", "tab\there", " padded ", "Ωmega", "cherry", "date", "elderberry",
		"e\u0301te", "😀x"}
	// cast fodder for try_cast
	txtVals = []string{"42", " 17 ", "-5", "+8", "abc", "", "1.5", "2024-03-01", "true", "no", "3000000000",
		"2024-02-30", "\t9\n", "0", "1e3", "Y", "2024-3-7", "007", "-0.25", " 2024-01-05 10:00:00",
		"2024", "2024-05", "2024-05-06T07:08", "NaN", "Infinity", "-inf", "1.5d", ".5", "5.", "1E-2"}
)

func genFacts(g *gen, n int) *table {
	t := &table{name: "facts", cols: factCols, quoted: factQuoted}
	base := time.Date(2024, 1, 1, 0, 0, 0, 0, time.UTC).UnixMicro()
	fracs := []int64{0, 500000, 123456, 1, 0, 0}
	offsets := []int{0, 0, 0, 7200, -19800}
	for id := 1; id <= n; id++ {
		allNull := id%97 == 0
		var k string
		switch r := g.r.Float64(); {
		case allNull:
			k = "777"
		case r < 0.05:
			k = null
		case r < 0.45:
			k = "1"
		default:
			k = strconv.Itoa(2 + int(math.Pow(g.r.Float64(), 2)*58))
		}
		s := g.maybe(0.05, g.pick(strKeys))
		if allNull {
			s = "nullgrp"
		}
		day := g.maybe(0.05, dateText(19358+g.r.IntN(900))) // from 2023-01-01
		if id == 5 {
			day = "2024-02-29"
		}
		us := base + g.r.Int64N(366*86400)*1_000_000 + fracs[g.r.IntN(len(fracs))]
		row := []string{
			strconv.Itoa(id), k, s,
			g.maybe(0.08, strconv.Itoa(g.r.IntN(2001)-1000)),
			g.maybe(0.08, strconv.FormatInt(g.r.Int64N(2_000_000_000_000)-1_000_000_000_000, 10)),
			g.maybe(0.08, decText(g.r.Int64N(20_000_000)-10_000_000, 2)),
			g.maybe(0.08, floatText(float64(g.r.IntN(801)-400)/4)),
			g.maybe(0.08, floatText(float64(g.r.IntN(20001)-10000)/10)),
			g.maybe(0.10, strconv.FormatBool(g.r.IntN(2) == 0)),
			day,
			g.maybe(0.05, tsText(us, 0)),
			g.maybe(0.05, tsText(us+g.r.Int64N(86400)*1_000_000, offsets[g.r.IntN(len(offsets))])),
			g.maybe(0.05, g.pick(txtVals)),
		}
		if allNull {
			for _, c := range []int{3, 4, 5, 6, 7, 8, 9, 10, 11, 12} {
				row[c] = null
			}
		}
		t.rows = append(t.rows, row)
	}
	return t
}

func genDim() *table {
	t := &table{name: "dim", cols: []string{"dk", "ds", "name", "w", "wf"}, quoted: []bool{false, true, true, false, false}}
	add := func(dk, ds, w string, wf float64) {
		t.rows = append(t.rows, []string{dk, ds, fmt.Sprintf("n%02d", len(t.rows)+1), w, floatText(wf)})
	}
	// duplicate keys (int and string), NULL keys, keys facts lacks (1000,
	// 'zzz'), and the key of the all-NULL group
	add("1", "apple", "1.50", 0.5)
	add("1", "apple", "2.25", 1.5)
	add("1", null, "-3.00", -2)
	add("2", "banana", null, 4)
	add("2", "b", "0.01", 0.25)
	add("3", "", "10.00", 8)
	add("5", "Apple", "5.55", -0.75)
	add("7", "b", "7.77", 3)
	add("777", "nullgrp", "0.00", 0)
	add("1000", "zzz", "99.99", 100)
	add(null, "apple", "4.00", 1)
	add(null, null, null, 2)
	add(null, "cherry", "6.50", 2.5)
	for k := 8; k <= 30; k += 2 {
		add(strconv.Itoa(k), strKeys[k%len(strKeys)], decText(int64(k*37%1000), 2), float64(k)/8)
	}
	add("10", "date", "1.00", 1)
	return t
}

func genAllNull() *table {
	t := &table{name: "allnull", cols: []string{"k", "s", "i", "j", "d", "f", "day", "flag"},
		quoted: []bool{false, true, false, false, false, false, false, false}}
	for range 6 {
		t.rows = append(t.rows, []string{"1", "x", null, null, null, null, null, null})
	}
	return t
}

func genBig(g *gen, n int) *table {
	t := &table{name: "big", cols: []string{"id", "k", "s", "v", "f", "d"}, quoted: []bool{false, false, true, false, false, false}}
	for id := 1; id <= n; id++ {
		k := int(math.Pow(g.r.Float64(), 3) * 1000)
		t.rows = append(t.rows, []string{
			strconv.Itoa(id),
			g.maybe(0.02, strconv.Itoa(k)),
			g.maybe(0.02, "s"+strconv.Itoa(k%50)),
			strconv.FormatInt(g.r.Int64N(2_000_001)-1_000_000, 10),
			g.maybe(0.03, floatText(float64(g.r.IntN(4001)-2000)/8)),
			g.maybe(0.03, decText(g.r.Int64N(200_000_000)-100_000_000, 2)),
		})
	}
	return t
}

func genOvf() *table {
	t := &table{name: "ovf", cols: []string{"id", "a", "b", "m", "c", "z", "txt", "dt"},
		quoted: []bool{false, false, false, false, false, false, true, true}}
	for id := 1; id <= 4; id++ {
		t.rows = append(t.rows, []string{strconv.Itoa(id), "2147483000", "4000000000000000000",
			"-9223372036854775808", "90000000000000000000000000000000000000", "0", "abc", "2023-02-30"})
	}
	return t
}

func genSpecial() *table {
	t := &table{name: "sp", cols: []string{"id", "s", "fv", "w", "n", "ts"},
		quoted: []bool{false, true, false, false, false, false}}
	for i, r := range [][]string{
		{"a", "NaN", "123456.1234567891", "7", "1969-12-31 23:59:59.999999"},
		{"a", "-0.0", "-0.0000000001", "-7", "1970-01-01 00:00:00"},
		{"b", "0.0", "999999.9999999999", "0", "1900-02-28 12:34:56.5"},
		{"b", "Infinity", "0.5000000000", "2147483647", "2000-02-29 00:00:00"},
		{"c", "-Infinity", "-0.5", "-2147483648", "2038-01-19 03:14:08"},
		{"c", "1.5", null, null, "1583-01-01 00:00:00"},
		{null, "NaN", "1.0000000005", "1", "1000-01-01 00:00:00"},
		{"a", null, "2.5", "100", null},
		{"d", "1e300", "0.0000000001", "5", "2024-12-31 23:59:59.999999"},
		{"d", "5e-324", "333333.3333333333", "-5", "1969-07-20 20:17:40"},
		{"e", "-1.5", "0.0000000005", "3", "2262-04-11 23:47:16"},
		{"e", "2.5", "-123456.1234567891", "4", "1677-09-21 00:12:44"},
		{"e", "0.0", "0.0000000015", "-1", "2024-02-29 12:00:00.000001"},
	} {
		t.rows = append(t.rows, append([]string{strconv.Itoa(i + 1)}, r...))
	}
	return t
}

func emptyLike(name string, t *table) *table {
	return &table{name: name, cols: t.cols, quoted: t.quoted}
}

// generate writes every table into dir.
func generate(dir string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	g := &gen{r: rand.New(rand.NewPCG(20261202, 3))}
	facts := genFacts(g, 3000)
	parts := filepath.Join(dir, "parts")
	if err := os.MkdirAll(parts, 0o755); err != nil {
		return err
	}
	for i, rows := range [][][]string{facts.rows[:250], facts.rows[250:251], nil, facts.rows[251:600]} {
		p := &table{name: fmt.Sprintf("part-%d", i), cols: facts.cols, quoted: facts.quoted, rows: rows}
		if err := p.write(parts); err != nil {
			return err
		}
	}
	for _, t := range []*table{facts, emptyLike("facts_empty", facts), genDim(), genAllNull(), genBig(g, 150_000), genSpecial(), genOvf()} {
		if err := t.write(dir); err != nil {
			return err
		}
	}
	for _, gen := range extraTables {
		if err := gen().write(dir); err != nil {
			return err
		}
	}
	return nil
}
