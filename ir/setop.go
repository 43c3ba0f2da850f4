package ir

import "strings"

// SetOpKind is the kind of a set operation other than UNION.
type SetOpKind int

const (
	SetExcept    SetOpKind = iota // EXCEPT (MINUS): the left rows not in the right
	SetIntersect                  // INTERSECT: the left rows also in the right
)

var setOpNames = [...]string{"except", "intersect"}

func (k SetOpKind) String() string { return setOpNames[k] }

// SetOpKinds lists every set-operation kind.
func SetOpKinds() []SetOpKind { return []SetOpKind{SetExcept, SetIntersect} }

// SetOp is EXCEPT or INTERSECT of two inputs, by position, with Spark's
// semantics: rows compare with NULLs equal; with All the result keeps a row
// max(l-r, 0) (EXCEPT ALL) or min(l, r) (INTERSECT ALL) times, where l and
// r are its counts in Left and Right; without it, once. Column names come
// from Left, types are widened as for UNION.
type SetOp struct {
	Pos   Pos
	Kind  SetOpKind
	All   bool
	Left  Rel
	Right Rel
}

func (r *SetOp) Position() Pos { return r.Pos }
func (*SetOp) relNode()        {}

// groupingSets spells an aggregate's grouping sets, each key by its
// expression: (a, b), (a), ().
func groupingSets(r *Aggregate) string {
	sets := make([]string, len(r.Sets))
	for i, set := range r.Sets {
		items := make([]string, 0, len(set))
		for _, k := range set {
			if k >= 0 && k < len(r.Keys) {
				items = append(items, printExpr(r.Keys[k].Expr, 0))
			}
		}
		sets[i] = "(" + strings.Join(items, ", ") + ")"
	}
	return strings.Join(sets, ", ")
}
