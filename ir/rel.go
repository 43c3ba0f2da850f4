package ir

// Rel is a relational operator. The concrete types are the pointer types
// below; a flow's query is a tree of them, leaves first.
type Rel interface {
	Position() Pos
	relNode()
}

// Scan reads a dataset of the pipeline (or an external table). Stream reads
// are unbounded; snapshot reads see the input's committed contents.
type Scan struct {
	Pos       Pos
	Name      string
	Alias     string
	Stream    bool
	Watermark *Watermark  // overrides the source's watermark for this read
	Bounds    *EdgeBounds // per-edge back-pressure bounds
}

// EdgeBounds bounds the rows and bytes buffered on one edge (0 = unbounded).
type EdgeBounds struct {
	Pos   Pos
	Rows  int64
	Bytes int64
}

// Range is the range(start, end[, step]) table function: one int64 column "id".
type Range struct {
	Pos   Pos
	Start int64
	End   int64
	Step  int64 // 0 = 1
}

// SubqueryRel is a parenthesised query in FROM position, with an alias.
type SubqueryRel struct {
	Pos   Pos
	Input Rel
	Alias string
}

// Filter keeps rows where Cond is true (WHERE, and HAVING above an Aggregate).
type Filter struct {
	Pos   Pos
	Input Rel
	Cond  Expr
}

// Project computes named expressions; a Star item expands to columns.
type Project struct {
	Pos   Pos
	Input Rel
	Items []*NamedExpr
}

// NamedExpr is an expression with an optional alias.
type NamedExpr struct {
	Pos   Pos
	Expr  Expr
	Alias string
}

// Aggregate groups by Keys and computes Aggs (aggregate calls, possibly inside
// scalar expressions). No keys is a global aggregate.
type Aggregate struct {
	Pos   Pos
	Input Rel
	Keys  []*NamedExpr
	Aggs  []*NamedExpr
	// Sets are GROUPING SETS (ROLLUP, CUBE): each set lists the indices
	// into Keys it groups by; a key outside a set is NULL in that set's
	// rows. nil is one set of every key (a plain group by).
	Sets [][]int
}

// JoinKind is the kind of a join.
type JoinKind int

const (
	JoinInner JoinKind = iota
	JoinLeft
	JoinRight
	JoinFull
	JoinSemi
	JoinAnti
	JoinCross
)

var joinNames = [...]string{"inner", "left", "right", "full", "semi", "anti", "cross"}

func (k JoinKind) String() string { return joinNames[k] }

// JoinKinds lists every join kind.
func JoinKinds() []JoinKind {
	return []JoinKind{JoinInner, JoinLeft, JoinRight, JoinFull, JoinSemi, JoinAnti, JoinCross}
}

// Join combines Left and Right on a condition or USING columns. A join of two
// streams needs a time bound in On (left.t BETWEEN right.t - a AND right.t + b).
type Join struct {
	Pos   Pos
	Kind  JoinKind
	Left  Rel
	Right Rel
	On    Expr     // nil with Using or for cross joins
	Using []string // USING (a, b)
}

// WindowKind is the kind of event-time window.
type WindowKind int

const (
	WindowTumble WindowKind = iota
	WindowHop
	WindowSession
)

var windowNames = [...]string{"tumble", "hop", "session"}

func (k WindowKind) String() string { return windowNames[k] }

// WindowKinds lists every window kind.
func WindowKinds() []WindowKind { return []WindowKind{WindowTumble, WindowHop, WindowSession} }

// Window assigns each row to event-time windows, adding the columns
// window_start and window_end (typed like Time). Tumble uses Size, Hop uses
// Size and Slide, Session uses Gap.
type Window struct {
	Pos   Pos
	Input Rel
	Kind  WindowKind
	Time  Expr
	Size  Duration
	Slide Duration
	Gap   Duration
}

// Union concatenates its inputs by position (UNION ALL), or with All false
// removes duplicates (UNION).
type Union struct {
	Pos    Pos
	Inputs []Rel
	All    bool
}

// Distinct removes duplicate rows.
//
// With WithinWatermark it is Spark's dropDuplicatesWithinWatermark (dedup
// feature): over a watermarked stream, the first row of each key (Keys, or
// every column when Keys is empty) is passed on, and later rows with the
// same key are dropped until the watermark passes the key's first event
// time plus the watermark delay; then the key's state is dropped and the key
// may be emitted again. Keys are only allowed with WithinWatermark.
type Distinct struct {
	Pos   Pos
	Input Rel
	// dedup within the watermark
	Keys            []string `json:",omitempty"`
	WithinWatermark bool     `json:",omitempty"`
}

// SortKey is one ORDER BY key. NullsFirst nil means Spark's default: NULLS
// FIRST for ascending, NULLS LAST for descending.
type SortKey struct {
	Pos        Pos
	Expr       Expr
	Desc       bool
	NullsFirst *bool
}

// EffectiveNullsFirst applies Spark's default.
func (k *SortKey) EffectiveNullsFirst() bool {
	if k.NullsFirst != nil {
		return *k.NullsFirst
	}
	return !k.Desc
}

// Sort orders rows (bounded input only).
type Sort struct {
	Pos   Pos
	Input Rel
	Keys  []*SortKey
}

// Limit keeps at most N rows after skipping Offset.
type Limit struct {
	Pos    Pos
	Input  Rel
	N      int64
	Offset int64
}

func (r *Scan) Position() Pos        { return r.Pos }
func (r *Range) Position() Pos       { return r.Pos }
func (r *SubqueryRel) Position() Pos { return r.Pos }
func (r *Filter) Position() Pos      { return r.Pos }
func (r *Project) Position() Pos     { return r.Pos }
func (r *Aggregate) Position() Pos   { return r.Pos }
func (r *Join) Position() Pos        { return r.Pos }
func (r *Window) Position() Pos      { return r.Pos }
func (r *Union) Position() Pos       { return r.Pos }
func (r *Distinct) Position() Pos    { return r.Pos }
func (r *Sort) Position() Pos        { return r.Pos }
func (r *Limit) Position() Pos       { return r.Pos }

func (*Scan) relNode()        {}
func (*Range) relNode()       {}
func (*SubqueryRel) relNode() {}
func (*Filter) relNode()      {}
func (*Project) relNode()     {}
func (*Aggregate) relNode()   {}
func (*Join) relNode()        {}
func (*Window) relNode()      {}
func (*Union) relNode()       {}
func (*Distinct) relNode()    {}
func (*Sort) relNode()        {}
func (*Limit) relNode()       {}

// RelInputs returns the direct inputs of r.
func RelInputs(r Rel) []Rel {
	switch r := r.(type) {
	case *SubqueryRel:
		return []Rel{r.Input}
	case *Filter:
		return []Rel{r.Input}
	case *Project:
		return []Rel{r.Input}
	case *Aggregate:
		return []Rel{r.Input}
	case *Join:
		return []Rel{r.Left, r.Right}
	case *Window:
		return []Rel{r.Input}
	case *Union:
		return r.Inputs
	// set operations (EXCEPT, INTERSECT)
	case *SetOp:
		return []Rel{r.Left, r.Right}
	case *Distinct:
		return []Rel{r.Input}
	case *Sort:
		return []Rel{r.Input}
	case *Limit:
		return []Rel{r.Input}
	case *Generate: // generators, LATERAL VIEW
		return []Rel{r.Input}
	}
	return nil
}

// RelExprs returns the expressions r itself holds (not its inputs').
func RelExprs(r Rel) []Expr {
	var out []Expr
	switch r := r.(type) {
	case *Filter:
		out = append(out, r.Cond)
	case *Project:
		for _, it := range r.Items {
			out = append(out, it.Expr)
		}
	case *Aggregate:
		for _, it := range r.Keys {
			out = append(out, it.Expr)
		}
		for _, it := range r.Aggs {
			out = append(out, it.Expr)
		}
	case *Join:
		if r.On != nil {
			out = append(out, r.On)
		}
	case *Window:
		out = append(out, r.Time)
	case *Sort:
		for _, k := range r.Keys {
			out = append(out, k.Expr)
		}
	case *Generate: // generators, LATERAL VIEW
		out = append(out, r.Args...)
	}
	return out
}

// WalkRel calls fn for r and every operator below it, parents first, including
// the queries of subqueries inside expressions. fn returning false prunes.
func WalkRel(r Rel, fn func(Rel) bool) {
	if r == nil || !fn(r) {
		return
	}
	for _, e := range RelExprs(r) {
		WalkExpr(e, func(e Expr) bool {
			switch e := e.(type) {
			case *ScalarSubquery:
				WalkRel(e.Query, fn)
			case *InSubquery:
				WalkRel(e.Query, fn)
			case *Exists: // correlated subqueries
				WalkRel(e.Query, fn)
			}
			return true
		})
	}
	for _, in := range RelInputs(r) {
		WalkRel(in, fn)
	}
}

// Scans returns every Scan in the query, subqueries included, in tree order.
func Scans(r Rel) []*Scan {
	var out []*Scan
	WalkRel(r, func(r Rel) bool {
		if s, ok := r.(*Scan); ok {
			out = append(out, s)
		}
		return true
	})
	return out
}
