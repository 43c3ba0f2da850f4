package ir

// Over is a window function, Spark's WindowExpression: Func evaluated for
// each row over the rows of its partition (the rows with equal Partition
// values), ordered by Order, within Frame. Func is a ranking function
// (row_number, rank, dense_rank, percent_rank, cume_dist, ntile), an offset
// function (lag, lead), a value function (first_value, last_value,
// nth_value) or an aggregate call. An Over appears only as (part of) a
// projection item, or in QUALIFY's condition.
type Over struct {
	Pos       Pos
	Func      *Call
	Partition []Expr
	Order     []*SortKey
	Frame     *Frame // nil: Spark's default frame for Func and Order
	// Window is the name of the WINDOW clause the spec came from, kept for
	// the printer; Partition, Order and Frame hold the spec itself.
	Window string
}

// FrameKind is ROWS or RANGE.
type FrameKind int

const (
	FrameRows FrameKind = iota
	FrameRange
)

var frameNames = [...]string{"rows", "range"}

func (k FrameKind) String() string { return frameNames[k] }

// BoundKind is where a frame bound lies, relative to the current row.
type BoundKind int

const (
	UnboundedPreceding BoundKind = iota
	Preceding                    // Offset rows (ROWS) or values (RANGE) before
	CurrentRow
	Following // Offset rows (ROWS) or values (RANGE) after
	UnboundedFollowing
)

var boundNames = [...]string{"unbounded preceding", "preceding", "current row", "following", "unbounded following"}

func (k BoundKind) String() string { return boundNames[k] }

// FrameBound is one end of a frame. Offset is set for Preceding and
// Following: a non-negative integer literal, or for RANGE over a date or
// timestamp order key an interval literal.
type FrameBound struct {
	Kind   BoundKind
	Offset Expr
}

// Frame is a window frame: ROWS or RANGE BETWEEN Start AND End.
type Frame struct {
	Pos   Pos
	Kind  FrameKind
	Start FrameBound
	End   FrameBound
}

func (e *Over) Position() Pos { return e.Pos }
func (*Over) exprNode()       {}

// overChildren is ExprChildren of an Over: the function's arguments, the
// partition and order keys, and the frame's offsets.
func overChildren(e *Over) []Expr {
	var out []Expr
	if e.Func != nil {
		out = append(out, e.Func)
	}
	out = append(out, e.Partition...)
	for _, k := range e.Order {
		out = append(out, k.Expr)
	}
	if e.Frame != nil {
		for _, b := range []FrameBound{e.Frame.Start, e.Frame.End} {
			if b.Offset != nil {
				out = append(out, b.Offset)
			}
		}
	}
	return out
}

// HasOver reports whether e holds a window function.
func HasOver(e Expr) bool {
	found := false
	WalkExpr(e, func(x Expr) bool {
		if _, ok := x.(*Over); ok {
			found = true
		}
		return !found
	})
	return found
}
