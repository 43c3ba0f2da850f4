package conformance

// TestCoverage enumerates the conformance matrix from the queries' IR and
// checks the data properties a cell claims on the data itself (through
// DuckDB, with probes printed from the same IR), then fails on any hole:
//
//   - every aggregate (count, count(distinct), sum, min, max, avg) x key type
//     (int64, string, composite, global) x (a group whose aggregated column
//     is all NULL, empty input);
//   - every join kind (inner, left, right, full, semi, anti) x (NULL keys on
//     both sides, duplicate keys on both sides) x key type (int64, string,
//     composite), and cross;
//   - ORDER BY: asc and desc with default null ordering, explicit NULLS
//     FIRST / LAST, several keys, ties, LIMIT, OFFSET, and ties cut by a
//     LIMIT;
//   - every expression kind: each operator, is [not] null, [not] in (with a
//     NULL in the list), [not] between, [not] like, searched and simple case,
//     cast, try_cast, a literal of each kind, scalar and IN subqueries, and
//     every scalar function of the catalogue in passes/funcs.go (read from
//     the source, so a function added there is a hole until a query uses
//     it);
//   - union all, union, distinct, range, having;
//   - ANSI errors: an integer sum overflow, and each error class of the
//     err_* views.

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"testing"

	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
)

type matrix map[string][]string // cell → the views that cover it

func (m matrix) add(cell, view string) {
	for _, v := range m[cell] {
		if v == view {
			return
		}
	}
	m[cell] = append(m[cell], view)
}

var (
	requiredAggs = []string{"count", "count(distinct)", "sum", "min", "max", "avg",
		"sum(distinct)", "avg(distinct)"} // distinct sum and avg: setgroup
	requiredAggKeys  = []string{"int64 key", "string key", "composite key", "global"}
	requiredAggData  = []string{"all-null group", "empty input"}
	requiredJoins    = []string{"inner", "left", "right", "full", "semi", "anti"}
	requiredJoinData = []string{"NULL keys", "duplicate keys", "int64 key", "string key", "composite key"}
	requiredOrder    = []string{"asc (default nulls first)", "desc (default nulls last)", "nulls first (explicit)",
		"nulls last (explicit)", "several keys", "ties", "limit", "offset", "ties cut by limit"}
	requiredExprs = []string{
		"op +", "op -", "op *", "op /", "op %", "op unary -", "op ||",
		"op =", "op <>", "op <", "op <=", "op >", "op >=", "op <=>", "op and", "op or", "op not",
		"op &", "op |", "op ^", "op ~", "op <<", "op >>", "op >>>", // bitwise
		"is null", "is not null", "in", "not in", "in with NULL", "between", "not between", "like", "not like",
		"case (searched)", "case (simple)", "cast", "try_cast", "scalar subquery", "in subquery", "not in subquery",
		"exists subquery", "not exists subquery", "correlated scalar subquery", "correlated in subquery", // correlated subqueries
		"literal null", "literal bool", "literal int", "literal decimal", "literal float", "literal string",
		"literal interval", "literal timestamp", "literal date",
	}
	requiredOps = []string{"union all", "union", "distinct", "range", "having", "cross join",
		"except", "except all", "intersect", "intersect all", "grouping sets"} // setgroup
	requiredErrors = []string{"integer sum overflow", "ARITHMETIC_OVERFLOW", "DIVIDE_BY_ZERO", "CAST_INVALID_INPUT", "CAST_OVERFLOW"}
)

func TestCoverage(t *testing.T) {
	needSetup(t)
	funcs, err := catalogue("../passes")
	if err != nil {
		t.Fatal(err)
	}
	m := matrix{}
	cv := &coverer{t: t, m: m, u: suite.unit, funcs: funcs}
	for _, d := range suite.views {
		cv.view(d)
	}
	for _, d := range suite.errViews {
		m.add("error "+suite.expect[d.Name], d.Name)
		ir.WalkRel(flowOf(d).Query, func(r ir.Rel) bool {
			if a, ok := r.(*ir.Aggregate); ok {
				for _, c := range suite.unit.AggCalls[a] {
					if strings.EqualFold(c.Name, "sum") && len(c.Args) == 1 && suite.unit.Types[c.Args[0]].IsInteger() {
						m.add("error integer sum overflow", d.Name)
					}
				}
			}
			return true
		})
	}

	var required []string
	for _, a := range requiredAggs {
		for _, k := range requiredAggKeys {
			for _, p := range requiredAggData {
				required = append(required, fmt.Sprintf("agg %s × %s × %s", a, k, p))
			}
		}
	}
	for _, j := range requiredJoins {
		for _, p := range requiredJoinData {
			required = append(required, fmt.Sprintf("join %s × %s", j, p))
		}
	}
	for _, o := range requiredOrder {
		required = append(required, "order by "+o)
	}
	for _, e := range requiredExprs {
		required = append(required, "expr "+e)
	}
	for _, f := range funcs.names {
		if noDuckDB[f] == "" {
			required = append(required, "function "+f)
		}
	}
	for _, o := range requiredOps {
		required = append(required, "op "+o)
	}
	required = append(required, "agg filter (where ...)") // setgroup
	for _, e := range requiredErrors {
		required = append(required, "error "+e)
	}
	required = append(required, requiredWindowCells()...) // window functions (wnative)

	var holes []string
	isRequired := map[string]bool{}
	for _, c := range required {
		isRequired[c] = true
		if len(m[c]) == 0 {
			holes = append(holes, c)
		}
	}
	var b strings.Builder
	fmt.Fprintf(&b, "coverage matrix: %d required cells, %d holes; %d cells in all\n", len(required), len(holes), len(m))
	for _, c := range sortedNames(m) {
		mark := " "
		if isRequired[c] {
			mark = "*"
		}
		views := m[c]
		more := ""
		if len(views) > 3 {
			views, more = views[:3], fmt.Sprintf(" +%d", len(m[c])-3)
		}
		fmt.Fprintf(&b, "  %s %-60s %s%s\n", mark, c, strings.Join(views, ", "), more)
	}
	t.Log(b.String())
	for i, c := range holes {
		if f, ok := strings.CutPrefix(c, "function "); ok {
			holes[i] = fmt.Sprintf("%s (%s; or say in noDuckDB why DuckDB cannot check it)", c, funcs.table[f])
		}
	}
	// an excuse must name a function of the catalogue that no view calls
	for _, f := range sortedNames(noDuckDB) {
		switch {
		case funcs.table[f] == "":
			t.Errorf("noDuckDB excuses %q, which is not a function the matrix requires", f)
		case len(m["function "+f]) > 0:
			t.Errorf("noDuckDB excuses %q, but %s calls it: drop the excuse", f, strings.Join(m["function "+f], ", "))
		}
	}
	if len(holes) > 0 {
		t.Errorf("coverage holes (no query covers these cells):\n  %s", strings.Join(holes, "\n  "))
	}
}

type coverer struct {
	t     *testing.T
	m     matrix
	u     *passes.Unit
	funcs *funcCatalogue
}

// probe prints a probe query with a fresh printer and runs it; -1 when the
// probe cannot be printed on its own (an operator inside a correlated
// subquery reads the enclosing query), which covers no cell.
func (cv *coverer) probe(build func(p *printer) string) int64 {
	cv.t.Helper()
	var q string
	func() {
		defer func() {
			if r := recover(); r != nil {
				if e, ok := r.(unsupported); ok {
					cv.t.Logf("probe not run: %v", e)
					return
				}
				panic(r)
			}
		}()
		q = build(newPrinter(cv.u))
	}()
	if q == "" {
		return -1
	}
	n, err := suite.duck.scalar(q)
	if err != nil {
		cv.t.Errorf("probe %s: %v", q, err)
		return -1
	}
	return n
}

func (cv *coverer) view(d *ir.Dataset) {
	name := d.Name
	q := flowOf(d).Query
	ir.WalkRel(q, func(r ir.Rel) bool {
		switch n := r.(type) {
		case *ir.Aggregate:
			cv.aggregate(name, n)
			if n.Sets != nil { // setgroup
				cv.m.add("op grouping sets", name)
			}
		case *ir.Join:
			cv.join(name, n)
		case *ir.Union:
			if n.All {
				cv.m.add("op union all", name)
			} else {
				cv.m.add("op union", name)
			}
		case *ir.SetOp: // setgroup
			if n.All {
				cv.m.add("op "+n.Kind.String()+" all", name)
			} else {
				cv.m.add("op "+n.Kind.String(), name)
			}
		case *ir.Distinct:
			cv.m.add("op distinct", name)
		case *ir.Generate: // a generator is a function of the catalogue (sqlprint_nested_test.go)
			cv.m.add("function "+n.Func, name)
		case *ir.Range:
			cv.m.add("op range", name)
		case *ir.Filter:
			if _, ok := n.Input.(*ir.Aggregate); ok {
				cv.m.add("op having", name)
			}
		}
		for _, e := range ir.RelExprs(r) {
			ir.WalkExpr(e, func(e ir.Expr) bool {
				cv.expr(name, e)
				return true
			})
		}
		return true
	})
	cv.order(d, q)
	cv.windows(name, q) // window functions (wnative)
}

func (cv *coverer) keyType(types []ir.Type) string {
	switch len(types) {
	case 0:
		return "global"
	case 1:
		switch types[0].Kind {
		case ir.TInt64:
			return "int64 key"
		case ir.TString:
			return "string key"
		}
		return types[0].String() + " key"
	}
	return "composite key"
}

func (cv *coverer) aggregate(view string, n *ir.Aggregate) {
	var kt []ir.Type
	for _, k := range n.Keys {
		kt = append(kt, cv.u.Types[k.Expr])
	}
	key := cv.keyType(kt)
	groupBy := func(p *printer) string {
		if len(n.Keys) == 0 {
			return ""
		}
		var ks []string
		for _, k := range n.Keys {
			ks = append(ks, p.expr(k.Expr))
		}
		return " GROUP BY " + strings.Join(ks, ", ")
	}
	rows := cv.probe(func(p *printer) string {
		in, _ := p.from(n.Input)
		return "SELECT count(*) FROM " + in
	})
	if rows < 0 {
		return
	}
	empty := rows == 0
	if !empty && len(n.Keys) > 0 && cv.probe(func(p *printer) string {
		in, _ := p.from(n.Input)
		return "SELECT CAST(max(n) * 10 >= 3 * sum(n) AS BIGINT) FROM (SELECT count(*) AS n FROM " + in + groupBy(p) + ")"
	}) == 1 {
		cv.m.add("data skewed group (>= 30% of rows)", view)
	}
	for _, c := range cv.u.AggCalls[n] {
		agg := strings.ToLower(c.Name)
		switch {
		case agg == "mean":
			agg = "avg"
		case agg == "count" && c.Star:
			agg = "count(*)"
		case c.Distinct:
			agg += "(distinct)"
		}
		if c.Filter != nil { // setgroup
			cv.m.add("agg filter (where ...)", view)
		}
		cell := "agg " + agg + " × " + key + " × "
		if empty {
			cv.m.add(cell+"empty input", view)
			continue
		}
		if len(c.Args) != 1 {
			continue
		}
		if cv.probe(func(p *printer) string {
			in, _ := p.from(n.Input)
			x := p.expr(c.Args[0])
			return fmt.Sprintf("SELECT count(*) FROM (SELECT count(%s) AS c, count(*) AS n FROM %s%s) WHERE c = 0 AND n > 0", x, in, groupBy(p))
		}) > 0 {
			cv.m.add(cell+"all-null group", view)
		}
	}
}

// equiKeys finds the equality pairs of a join: USING columns, or ON
// conjuncts l = r (or <=>) between a left and a right column.
func (cv *coverer) equiKeys(n *ir.Join) (left, right []int) {
	if info := cv.u.Joins[n]; len(n.Using) > 0 {
		return info.LeftKeys, info.RightKeys
	}
	var conj func(e ir.Expr)
	conj = func(e ir.Expr) {
		b, ok := e.(*ir.Binary)
		if !ok {
			return
		}
		if b.Op == ir.OpAnd {
			conj(b.L)
			conj(b.R)
			return
		}
		if b.Op != ir.OpEq && b.Op != ir.OpEqNullSafe {
			return
		}
		lc, ok1 := b.L.(*ir.ColumnRef)
		rc, ok2 := b.R.(*ir.ColumnRef)
		if !ok1 || !ok2 {
			return
		}
		lb, rb := cv.u.Refs[lc], cv.u.Refs[rc]
		if lb.Rel == n.Right && rb.Rel == n.Left {
			lb, rb = rb, lb
		}
		if lb.Rel == n.Left && rb.Rel == n.Right && lb.Depth == 0 && rb.Depth == 0 {
			left = append(left, lb.Index)
			right = append(right, rb.Index)
		}
	}
	if n.On != nil {
		conj(n.On)
	}
	return left, right
}

func (cv *coverer) join(view string, n *ir.Join) {
	kind := n.Kind.String()
	if n.Kind == ir.JoinCross {
		cv.m.add("op cross join", view)
		return
	}
	lk, rk := cv.equiKeys(n)
	if len(lk) == 0 {
		cv.m.add("join "+kind+" × non-equi", view)
		return
	}
	var kt []ir.Type
	for _, i := range lk {
		kt = append(kt, cv.u.Schemas[n.Left][i].Type)
	}
	cv.m.add("join "+kind+" × "+cv.keyType(kt), view)
	hasNull := func(r ir.Rel, keys []int) bool {
		return cv.probe(func(p *printer) string {
			in, a := p.from(r)
			var cs []string
			for _, k := range keys {
				cs = append(cs, fmt.Sprintf("%s.c%d IS NULL", a, k))
			}
			return "SELECT count(*) FROM " + in + " WHERE " + strings.Join(cs, " OR ")
		}) > 0
	}
	hasDup := func(r ir.Rel, keys []int) bool {
		return cv.probe(func(p *printer) string {
			in, a := p.from(r)
			var cs, ks []string
			for _, k := range keys {
				cs = append(cs, fmt.Sprintf("%s.c%d IS NOT NULL", a, k))
				ks = append(ks, fmt.Sprintf("%s.c%d", a, k))
			}
			return fmt.Sprintf("SELECT count(*) FROM (SELECT 1 FROM %s WHERE %s GROUP BY %s HAVING count(*) > 1)",
				in, strings.Join(cs, " AND "), strings.Join(ks, ", "))
		}) > 0
	}
	if hasNull(n.Left, lk) && hasNull(n.Right, rk) {
		cv.m.add("join "+kind+" × NULL keys", view)
	}
	if hasDup(n.Left, lk) && hasDup(n.Right, rk) {
		cv.m.add("join "+kind+" × duplicate keys", view)
	}
}

func (cv *coverer) order(d *ir.Dataset, q ir.Rel) {
	ord, err := orderOf(cv.u, q)
	if err != nil || ord == nil {
		return
	}
	view := d.Name
	if ord.limit != nil {
		cv.m.add("order by limit", view)
		if ord.limit.Offset > 0 {
			cv.m.add("order by offset", view)
		}
	}
	if ord.sort == nil {
		cv.m.add("limit without order by", view)
		return
	}
	if len(ord.sort.Keys) > 1 {
		cv.m.add("order by several keys", view)
	}
	_, types := outputSchema(d)
	for _, k := range ord.sort.Keys {
		switch {
		case k.NullsFirst == nil && !k.Desc:
			cv.m.add("order by asc (default nulls first)", view)
		case k.NullsFirst == nil && k.Desc:
			cv.m.add("order by desc (default nulls last)", view)
		case *k.NullsFirst:
			cv.m.add("order by nulls first (explicit)", view)
		default:
			cv.m.add("order by nulls last (explicit)", view)
		}
	}
	for _, k := range ord.keys {
		cv.m.add("order by key type "+types[k.col].String(), view)
	}
	// ties, on the data: the unlimited result has equal adjacent keys, and
	// a limit cuts a run of equal keys
	full, _, err := flowSQL(cv.u, d, ord.limit, ord.keys)
	if err != nil {
		cv.t.Errorf("%s: %v", view, err)
		return
	}
	all, err := suite.duck.query(full, types)
	if err != nil {
		cv.t.Errorf("%s: %v", view, err)
		return
	}
	for i := 1; i < len(all); i++ {
		if cmpRow(keyOf(all[i-1], ord.keys), keyOf(all[i], ord.keys)) == 0 {
			cv.m.add("order by ties", view)
			break
		}
	}
	if l := ord.limit; l != nil {
		cut := func(i int) bool { // a run of equal keys spans rows i-1 and i
			return i > 0 && i < len(all) && cmpRow(keyOf(all[i-1], ord.keys), keyOf(all[i], ord.keys)) == 0
		}
		if end := int(l.Offset + l.N); cut(end) || cut(int(l.Offset)) {
			cv.m.add("order by ties cut by limit", view)
		}
	}
}

func (cv *coverer) expr(view string, e ir.Expr) {
	add := func(cell string) { cv.m.add("expr "+cell, view) }
	switch e := e.(type) {
	case *ir.Literal:
		add("literal " + e.Kind.String())
	case *ir.Unary:
		switch e.Op {
		case ir.OpNot:
			add("op not")
		case ir.OpBitNot:
			add("op ~")
		default:
			add("op unary -")
		}
	case *ir.Binary:
		add("op " + e.Op.String())
	case *ir.IsNull:
		if e.Not {
			add("is not null")
		} else {
			add("is null")
		}
	case *ir.In:
		if e.Not {
			add("not in")
		} else {
			add("in")
		}
		for _, it := range e.List {
			if l, ok := it.(*ir.Literal); ok && l.Kind == ir.LitNull {
				add("in with NULL")
			}
		}
	case *ir.Between:
		if e.Not {
			add("not between")
		} else {
			add("between")
		}
	case *ir.Like:
		if e.Not {
			add("not like")
		} else {
			add("like")
		}
	case *ir.Case:
		if e.Operand != nil {
			add("case (simple)")
		} else {
			add("case (searched)")
		}
	case *ir.Cast:
		if e.Try {
			add("try_cast")
		} else {
			add("cast")
		}
		cv.m.add(fmt.Sprintf("cast %s to %s", cv.u.Types[e.X].Kind, e.To.Kind), view)
	case *ir.Call:
		if name, ok := cv.funcs.canonical[strings.ToLower(e.Name)]; ok {
			cv.m.add("function "+name, view)
		}
	case *ir.ScalarSubquery:
		add("scalar subquery")
		if cv.correlated(e.Query) {
			add("correlated scalar subquery")
		}
	case *ir.InSubquery:
		if e.Not {
			add("not in subquery")
		} else {
			add("in subquery")
		}
		if cv.correlated(e.Query) {
			add("correlated in subquery")
		}
	case *ir.Exists: // correlated subqueries
		if e.Not {
			add("not exists subquery")
		} else {
			add("exists subquery")
		}
	}
}

// funcCatalogue is the functions of the compiler's catalogue: every table
// that passes/funcs.go lists in catalogueTables, read from the compiler's
// source so that the matrix follows it.
type funcCatalogue struct {
	names     []string          // the functions a view must call, or noDuckDB must excuse
	canonical map[string]string // name or alias → name
	table     map[string]string // name → the catalogue table it is in
}

// catalogueSkip are the tables whose functions are required elsewhere, or
// cannot be: the window functions have their own matrix
// (coverage_window_test.go), and the native backend refuses sparkOnly's.
var catalogueSkip = map[string]string{
	"windowFunctions": "the window matrix covers them",
	"sparkOnly":       "the native backend refuses them (Spark only); the Spark lane checks them",
}

// catalogue reads every function table of the catalogue from the
// compiler's source in dir (var catalogueTables = [][]funcSig{...}, and
// each var NAME = []funcSig{...} it lists).
func catalogue(dir string) (*funcCatalogue, error) {
	files, err := filepath.Glob(filepath.Join(dir, "*.go"))
	if err != nil {
		return nil, err
	}
	tables := map[string]*ast.CompositeLit{}
	var order []string
	for _, path := range files {
		if strings.HasSuffix(path, "_test.go") {
			continue
		}
		f, err := parser.ParseFile(token.NewFileSet(), path, nil, 0)
		if err != nil {
			return nil, err
		}
		ast.Inspect(f, func(n ast.Node) bool {
			vs, ok := n.(*ast.ValueSpec)
			if !ok || len(vs.Names) != 1 || len(vs.Values) != 1 {
				return true
			}
			list, ok := vs.Values[0].(*ast.CompositeLit)
			if !ok {
				return false
			}
			if vs.Names[0].Name == "catalogueTables" {
				for _, el := range list.Elts {
					if id, ok := el.(*ast.Ident); ok {
						order = append(order, id.Name)
					}
				}
				return false
			}
			tables[vs.Names[0].Name] = list
			return false
		})
	}
	if len(order) == 0 {
		return nil, fmt.Errorf("%s: no catalogueTables found", dir)
	}
	c := &funcCatalogue{canonical: map[string]string{}, table: map[string]string{}}
	for _, table := range order {
		list, ok := tables[table]
		if !ok {
			return nil, fmt.Errorf("%s: catalogue table %s not found", dir, table)
		}
		for _, el := range list.Elts {
			sig, ok := el.(*ast.CompositeLit)
			if !ok {
				continue
			}
			var name string
			var aliases []string
			for _, fe := range sig.Elts {
				kv, ok := fe.(*ast.KeyValueExpr)
				if !ok {
					continue
				}
				switch kv.Key.(*ast.Ident).Name {
				case "name":
					name, _ = strconv.Unquote(kv.Value.(*ast.BasicLit).Value)
				case "aliases":
					for _, a := range kv.Value.(*ast.CompositeLit).Elts {
						s, _ := strconv.Unquote(a.(*ast.BasicLit).Value)
						aliases = append(aliases, s)
					}
				}
			}
			if name == "" || catalogueSkip[table] != "" {
				continue
			}
			if _, dup := c.table[name]; dup {
				continue
			}
			c.names = append(c.names, name)
			c.table[name] = table
			c.canonical[name] = name
			for _, a := range aliases {
				c.canonical[a] = name
			}
		}
	}
	sort.Strings(c.names)
	return c, nil
}

// correlated reports whether a subquery's query reads a column of an
// enclosing query (correlated subqueries).
func (cv *coverer) correlated(q ir.Rel) bool {
	found := false
	ir.WalkRel(q, func(r ir.Rel) bool {
		for _, e := range ir.RelExprs(r) {
			ir.WalkExpr(e, func(x ir.Expr) bool {
				if c, ok := x.(*ir.ColumnRef); ok && cv.u.Refs[c].Depth > 0 {
					found = true
				}
				return !found
			})
		}
		return !found
	})
	return found
}
