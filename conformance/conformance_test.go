package conformance

// How results are compared (compare with DuckDB, and across thread counts):
//
//   - Unordered results (no ORDER BY at the top of the flow) compare as
//     multisets of rows.
//   - A flow whose query ends in ORDER BY (under select items and a limit)
//     is ordered; its sort keys must be output columns. DuckDB's side gets
//     the same keys as an outer ORDER BY, with Spark's null ordering made
//     explicit. The sequence of sort-key tuples must be identical; within a
//     run of equal keys (ties) rows compare as multisets, because neither
//     engine promises an order among ties.
//   - Ties under LIMIT: which of several tied rows make the cut is not
//     determined. For the first and last run of equal keys of a limited
//     result, each Þund row must be a legal one: a row of the unlimited
//     result (the same query printed without its limit) with that key. The
//     key sequence itself, and every other run, is still exact.
//   - A LIMIT without ORDER BY: the count must be DuckDB's, and every row a
//     row of the unlimited result.
//   - Floats within a relative 1e-9; decimals exact; timestamps as UTC
//     microseconds.
//   - Across thread counts (--threads 1 vs 2) results must be identical:
//     the same multiset of output lines byte for byte, and for ordered flows
//     the same sequence of sort keys.

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

// ordering says how a flow's result is ordered.
type ordering struct {
	sort  *ir.Sort  // nil: unordered (with a limit: any rows of the result)
	limit *ir.Limit // the limit above the sort, if any
	keys  []orderKey
}

// orderOf finds the ORDER BY (and LIMIT) at the top of a query, through
// select items, and maps the sort keys to output columns.
func orderOf(u *passes.Unit, q ir.Rel) (*ordering, error) {
	var projs []*ir.Project
	var lim *ir.Limit
	r := q
loop:
	for {
		switch n := r.(type) {
		case *ir.Project:
			projs = append(projs, n)
			r = n.Input
		case *ir.Limit:
			if lim != nil {
				return nil, fmt.Errorf("two limits at the top of the query")
			}
			lim = n
			r = n.Input
		default:
			break loop
		}
	}
	s, ok := r.(*ir.Sort)
	if !ok {
		if lim != nil {
			return &ordering{limit: lim}, nil
		}
		return nil, nil
	}
	if lim != nil && lim.Input != s {
		return nil, fmt.Errorf("a limit above a select above an order by: write the limit right after the order by")
	}
	o := &ordering{sort: s, limit: lim}
	for _, k := range s.Keys {
		c, ok := k.Expr.(*ir.ColumnRef)
		b, bound := u.Refs[c]
		if !ok || !bound || b.Rel != s.Input || b.Depth != 0 {
			return nil, fmt.Errorf("sort key %s must be a column of the sort's input", k.Expr)
		}
		idx := b.Index
		for i := len(projs) - 1; i >= 0 && idx >= 0; i-- {
			idx = throughProject(u, projs[i], idx)
		}
		if idx < 0 {
			return nil, fmt.Errorf("sort key %s is not an output column: select it", c.Name)
		}
		o.keys = append(o.keys, orderKey{col: idx, desc: k.Desc, nullsFirst: k.EffectiveNullsFirst()})
	}
	return o, nil
}

// throughProject maps input column idx of a projection to its output
// column, or -1.
func throughProject(u *passes.Unit, p *ir.Project, idx int) int {
	for i, pc := range u.Projections[p] {
		if pc.InputIndex == idx {
			return i
		}
		if pc.InputIndex < 0 {
			if c, ok := p.Items[pc.Item].Expr.(*ir.ColumnRef); ok {
				if b, ok := u.Refs[c]; ok && b.Rel == p.Input && b.Index == idx && b.Depth == 0 {
					return i
				}
			}
		}
	}
	return -1
}

func flowOf(d *ir.Dataset) *ir.Flow { return suite.unit.Pipeline.FlowsInto(d.Name)[0] }

func keyOf(r row, keys []orderKey) row {
	out := make(row, len(keys))
	for i, k := range keys {
		out[i] = r[k.col]
	}
	return out
}

const maxShown = 8

func showRows(rows []row, types []ir.Type) string {
	var b strings.Builder
	for i, r := range rows {
		if i == maxShown {
			fmt.Fprintf(&b, "\n      ... %d more", len(rows)-maxShown)
			break
		}
		b.WriteString("\n      " + displayRow(r, types))
	}
	return b.String()
}

// TestConformance compares every view's result with DuckDB's result for the
// same query.
func TestConformance(t *testing.T) {
	needSetup(t)
	for _, d := range suite.views {
		t.Run(d.Name, func(t *testing.T) {
			c := &check{t: t, name: d.Name}
			defer c.finish()
			compareView(c, d)
		})
	}
}

func compareView(c *check, d *ir.Dataset) {
	if why := suite.refused[d.Name]; why != "" {
		c.fail("not built: %s", why)
		return
	}
	if why := suite.runErr[0][d.Name]; why != "" {
		c.fail("no result: %s", why)
		return
	}
	names, types := outputSchema(d)
	got, err := parseJSONL(suite.out[0][d.Name], names, types)
	if err != nil {
		c.fail("read output: %v", err)
		return
	}
	ord, err := orderOf(suite.unit, flowOf(d).Query)
	if err != nil {
		c.fail("conformance query shape: %v", err)
		return
	}
	var keys []orderKey
	if ord != nil {
		keys = ord.keys
	}
	q, notes, err := flowSQL(suite.unit, d, nil, keys)
	if err != nil {
		c.fail("%v", err)
		return
	}
	for _, n := range notes {
		c.fail("type: %s", n)
	}
	c.note("DuckDB SQL: %s", q)
	want, err := suite.duck.query(q, types)
	if err != nil {
		c.fail("duckdb: %v", err)
		return
	}
	unlimited, err := duckUnlimited(d, ord, types)
	if err != nil {
		c.fail("%v", err)
		return
	}
	compareRows(c, ord, got, want, unlimited, types, duckSides)
}

// sides names the two results of a comparison in its reports.
type sides struct{ got, want string }

var duckSides = sides{got: "Þund", want: "DuckDB"}

// duckUnlimited is DuckDB's result of a view's query without its limit (the
// legal rows of ties cut by the limit), or nil when the view has no limit.
func duckUnlimited(d *ir.Dataset, ord *ordering, types []ir.Type) ([]row, error) {
	if ord == nil || ord.limit == nil {
		return nil, nil
	}
	uq, _, err := flowSQL(suite.unit, d, ord.limit, nil)
	if err != nil {
		return nil, fmt.Errorf("duckdb (without the limit): %v", err)
	}
	rows, err := suite.duck.query(uq, types)
	if err != nil {
		return nil, fmt.Errorf("duckdb (without the limit): %v", err)
	}
	return rows, nil
}

// compareRows compares a view's result (got) with the reference (want) by
// the view's ordering; unlimited holds the legal rows of a limited query.
func compareRows(c *check, ord *ordering, got, want, unlimited []row, types []ir.Type, s sides) {
	switch {
	case ord == nil:
		if onlyGot, onlyWant := multisetDiff(got, want); len(onlyGot)+len(onlyWant) > 0 {
			c.fail("results differ (%d rows vs %s's %d): only in %s:%s\n    only in %s:%s",
				len(got), s.want, len(want), s.got, showRows(onlyGot, types), s.want, showRows(onlyWant, types))
		}
	case ord.sort == nil:
		if len(got) != len(want) {
			c.fail("limit without order by: %d rows, %s %d", len(got), s.want, len(want))
		}
		if extra, _ := multisetDiff(got, unlimited); len(extra) > 0 {
			c.fail("limit without order by: rows that are not rows of the query:%s", showRows(extra, types))
		}
	default:
		compareOrdered(c, ord, got, want, unlimited, types, s)
	}
}

func compareOrdered(c *check, ord *ordering, got, want, unlimited []row, types []ir.Type, s sides) {
	keyTypes := make([]ir.Type, len(ord.keys))
	for i, k := range ord.keys {
		keyTypes[i] = types[k.col]
	}
	if len(got) != len(want) {
		c.fail("ordered result has %d rows, %s %d", len(got), s.want, len(want))
		if onlyGot, onlyWant := multisetDiff(got, want); len(onlyGot)+len(onlyWant) > 0 {
			c.fail("only in %s:%s\n    only in %s:%s", s.got, showRows(onlyGot, types), s.want, showRows(onlyWant, types))
		}
		return
	}
	for i := range got {
		if g, w := keyOf(got[i], ord.keys), keyOf(want[i], ord.keys); !sameRow(g, w) {
			c.fail("order differs at row %d: %s's sort key %s, %s's %s", i+1, s.got, displayRow(g, keyTypes), s.want, displayRow(w, keyTypes))
			return
		}
	}
	for i := 0; i < len(got); {
		k := keyOf(got[i], ord.keys)
		j := i
		for j < len(got) && sameRow(keyOf(got[j], ord.keys), k) {
			j++
		}
		if ord.limit != nil && (i == 0 || j == len(got)) {
			// a run at the edge of the limit: any legal rows with this key
			var legal []row
			for _, r := range unlimited {
				if sameRow(keyOf(r, ord.keys), k) {
					legal = append(legal, r)
				}
			}
			if extra, _ := multisetDiff(got[i:j], legal); len(extra) > 0 {
				c.fail("rows %d-%d (sort key %s, tied at the limit) are not rows of the query with that key:%s",
					i+1, j, displayRow(k, keyTypes), showRows(extra, types))
			}
		} else if onlyGot, onlyWant := multisetDiff(got[i:j], want[i:j]); len(onlyGot)+len(onlyWant) > 0 {
			c.fail("rows %d-%d (sort key %s) differ: only in %s:%s\n    only in %s:%s",
				i+1, j, displayRow(k, keyTypes), s.got, showRows(onlyGot, types), s.want, showRows(onlyWant, types))
		}
		i = j
	}
}

// TestThreadsIdentical requires every result to be the same at --threads 1
// and --threads 2.
func TestThreadsIdentical(t *testing.T) {
	needSetup(t)
	for _, d := range suite.views {
		t.Run(d.Name, func(t *testing.T) {
			c := &check{t: t, name: d.Name}
			defer c.finish()
			compareThreads(c, d)
		})
	}
}

func compareThreads(c *check, d *ir.Dataset) {
	if why := suite.refused[d.Name]; why != "" {
		c.fail("not built: %s", why)
		return
	}
	e1, e2 := suite.runErr[0][d.Name], suite.runErr[1][d.Name]
	if e1 != "" || e2 != "" {
		c.fail("no result at --threads %d: %q; at --threads %d: %q", threadCounts[0], e1, threadCounts[1], e2)
		return
	}
	a, b := suite.out[0][d.Name], suite.out[1][d.Name]
	la, lb := lines(a), lines(b)
	slices.Sort(la)
	slices.Sort(lb)
	if !slices.Equal(la, lb) {
		var onlyA, onlyB []string
		for _, l := range la {
			if !slices.Contains(lb, l) {
				onlyA = append(onlyA, l)
			}
		}
		for _, l := range lb {
			if !slices.Contains(la, l) {
				onlyB = append(onlyB, l)
			}
		}
		c.fail("--threads %d and --threads %d differ (%d vs %d rows): only at %d: %s\n  only at %d: %s",
			threadCounts[0], threadCounts[1], len(la), len(lb), threadCounts[0], head(onlyA), threadCounts[1], head(onlyB))
		return
	}
	ord, err := orderOf(suite.unit, flowOf(d).Query)
	if err != nil || ord == nil || ord.sort == nil {
		return
	}
	names, types := outputSchema(d)
	ra, err1 := parseJSONL(a, names, types)
	rb, err2 := parseJSONL(b, names, types)
	if err1 != nil || err2 != nil {
		c.fail("read: %v %v", err1, err2)
		return
	}
	for i := range ra {
		if ka, kb := keyOf(ra[i], ord.keys), keyOf(rb[i], ord.keys); cmpRow(ka, kb) != 0 {
			c.fail("order differs at row %d between thread counts: %s vs %s", i+1, ka, kb)
			return
		}
	}
}

func lines(b []byte) []string {
	var out []string
	for _, l := range bytes.Split(b, []byte("\n")) {
		if len(l) > 0 {
			out = append(out, string(l))
		}
	}
	return out
}

func head(list []string) string {
	if len(list) > maxShown {
		return strings.Join(list[:maxShown], "\n    ") + fmt.Sprintf("\n    ... %d more", len(list)-maxShown)
	}
	return strings.Join(list, "\n    ")
}

// TestErrors runs each err_* view alone: the executable must fail with exit
// status 1 and name the Spark error class, and DuckDB must fail on the same
// query.
func TestErrors(t *testing.T) {
	needSetup(t)
	for _, d := range suite.errViews {
		t.Run(d.Name, func(t *testing.T) {
			c := &check{t: t, name: d.Name}
			defer c.finish()
			class := suite.expect[d.Name]
			q, _, err := flowSQL(suite.unit, d, nil, nil)
			switch {
			case err != nil:
				c.fail("%v", err)
			default:
				if rows, err := suite.duck.query(q, typesOf(d)); err == nil {
					c.fail("DuckDB did not fail: %d rows (SQL: %s)", len(rows), q)
				} else {
					c.note("DuckDB: %v", firstLine(err.Error()))
				}
			}
			if why := suite.refused[d.Name]; why != "" {
				c.fail("not built: %s", why)
				return
			}
			wh := t.TempDir()
			_, stderr, err := etlCmd(t.Context(), "run", "--warehouse", wh, "--root", suite.root, "--threads", "1", "--select", d.Name)
			code := 0
			if err != nil {
				code = -1
				if ee, ok := err.(interface{ ExitCode() int }); ok {
					code = ee.ExitCode()
				}
			}
			switch {
			case code != 1:
				c.fail("etl run exited %d, want 1 (%s); stderr:\n%s", code, class, excerpt(stderr))
			case !strings.Contains(string(stderr), class):
				c.fail("etl run failed without naming %s; stderr:\n%s", class, excerpt(stderr))
			}
		})
	}
}

func typesOf(d *ir.Dataset) []ir.Type {
	_, types := outputSchema(d)
	return types
}

func firstLine(s string) string {
	l, _, _ := strings.Cut(s, "\n")
	return l
}
