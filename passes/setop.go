package passes

import (
	"strings"

	"github.com/nordisk/thund/ir"
)

// Set operations (EXCEPT, INTERSECT): resolve.

// setOp resolves EXCEPT and INTERSECT as Spark does: the inputs agree by
// position, names come from the left input, types widen to the common type
// (WidenSetOperationTypes). A column is nullable when it is in the left
// input (EXCEPT), or in both (INTERSECT).
func (r *resolver) setOp(n *ir.SetOp, outer *scope) Schema {
	left := r.rel(n.Left, outer).Visible()
	right := r.rel(n.Right, outer).Visible()
	s := append(Schema{}, left...)
	if s.IsOpen() || right.IsOpen() {
		return s
	}
	what := n.Kind.String()
	if len(right) != len(s) {
		r.errorf(n.Right.Position(), ir.CodeSchemaMismatch, "%s: the right input has %d columns (%s), the left has %d (%s)", what, len(right), strings.Join(right.Names(), ", "), len(s), strings.Join(s.Names(), ", "))
		return s
	}
	for i := range s {
		t, ok := commonType(s[i].Type, right[i].Type)
		if !ok {
			r.errorf(n.Right.Position(), ir.CodeTypeMismatch, "%s column %d (%s) is %s in the left input and %s in the right: cast one of them", what, i+1, s[i].Name, s[i].Type, right[i].Type)
			continue
		}
		s[i].Type = t
		if n.Kind == ir.SetIntersect {
			s[i].Nullable = s[i].Nullable && right[i].Nullable
		}
	}
	return s
}
