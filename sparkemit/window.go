package sparkemit

import (
	"strings"

	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
	pb "github.com/nordisk/thund/sparkemit/connectpb"
)

// Window functions lower to Expression.Window (Spark's WindowExpression):
// the function, the partition and order specs, and the frame when the
// query gives one (else Spark's default for the function and the order,
// which is the compiler's too). A frame bound's offset is sent as Spark's
// parser makes it: N PRECEDING as negative(N), N FOLLOWING as N, so that
// the column Spark names for it reads as the query wrote it. IGNORE NULLS
// of lag, lead and nth_value is their last argument true (Spark's Lag,
// Lead and NthValue builders take it so: lag(x, 1, NULL, true), checked on
// 4.1.4 and 4.2.1); first_value's and last_value's is their second
// argument already.

// sortOrder lowers one order key.
func (l *lowerer) sortOrder(k *ir.SortKey) *pb.Expression_SortOrder {
	so := &pb.Expression_SortOrder{Child: l.expr(k.Expr), Direction: pb.Expression_SortOrder_SORT_DIRECTION_ASCENDING, NullOrdering: pb.Expression_SortOrder_SORT_NULLS_LAST}
	if k.Desc {
		so.Direction = pb.Expression_SortOrder_SORT_DIRECTION_DESCENDING
	}
	if k.EffectiveNullsFirst() {
		so.NullOrdering = pb.Expression_SortOrder_SORT_NULLS_FIRST
	}
	return so
}

// over lowers a window function.
func (l *lowerer) over(n *ir.Over) *pb.Expression {
	if n.Func == nil {
		l.refuse(n.Pos, "a window without its function", "internal error")
		return nil
	}
	fn := l.expr(n.Func)
	if n.Func.IgnoreNulls {
		if uf := fn.GetUnresolvedFunction(); uf != nil {
			switch strings.ToLower(n.Func.Name) {
			case "lag", "lead":
				for len(uf.Arguments) < 2 {
					uf.Arguments = append(uf.Arguments, intLit(1))
				}
				if len(uf.Arguments) < 3 {
					uf.Arguments = append(uf.Arguments, nullLit())
				}
			}
			uf.Arguments = append(uf.Arguments, boolLit(true))
		}
	}
	w := &pb.Expression_Window{WindowFunction: fn}
	for _, p := range n.Partition {
		w.PartitionSpec = append(w.PartitionSpec, l.expr(p))
	}
	for _, k := range n.Order {
		w.OrderSpec = append(w.OrderSpec, l.sortOrder(k))
	}
	if f := n.Frame; f != nil {
		fr := &pb.Expression_Window_WindowFrame{FrameType: pb.Expression_Window_WindowFrame_FRAME_TYPE_ROW}
		if f.Kind == ir.FrameRange {
			fr.FrameType = pb.Expression_Window_WindowFrame_FRAME_TYPE_RANGE
		}
		fr.Lower, fr.Upper = l.frameBound(f.Start), l.frameBound(f.End)
		w.FrameSpec = fr
	}
	return &pb.Expression{ExprType: &pb.Expression_Window_{Window: w}}
}

func (l *lowerer) frameBound(b ir.FrameBound) *pb.Expression_Window_WindowFrame_FrameBoundary {
	fb := &pb.Expression_Window_WindowFrame_FrameBoundary{}
	switch b.Kind {
	case ir.UnboundedPreceding, ir.UnboundedFollowing:
		fb.Boundary = &pb.Expression_Window_WindowFrame_FrameBoundary_Unbounded{Unbounded: true}
	case ir.CurrentRow:
		fb.Boundary = &pb.Expression_Window_WindowFrame_FrameBoundary_CurrentRow{CurrentRow: true}
	case ir.Preceding:
		fb.Boundary = &pb.Expression_Window_WindowFrame_FrameBoundary_Value{Value: call("negative", l.expr(b.Offset))}
	case ir.Following:
		fb.Boundary = &pb.Expression_Window_WindowFrame_FrameBoundary_Value{Value: l.expr(b.Offset)}
	}
	return fb
}

// streamWindows refuses window functions in a projection over a stream,
// with Spark's reason: it runs only time-based windows on streams
// (NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING).
func (l *lowerer) streamWindows(p *ir.Project) bool {
	if !passes.Streaming(p) {
		return false
	}
	for _, it := range p.Items {
		var found *ir.Over
		ir.WalkExpr(it.Expr, func(x ir.Expr) bool {
			if o, ok := x.(*ir.Over); ok && found == nil {
				found = o
			}
			return found == nil
		})
		if found != nil {
			l.refuse(found.Pos, "a window function over a stream", "Spark does not support non-time-based windows on streaming DataFrames (NON_TIME_WINDOW_NOT_SUPPORTED_IN_STREAMING): read the input as a snapshot")
			return true
		}
	}
	return false
}

// hasQualify reports whether SQL text holds the keyword QUALIFY outside
// string literals, back-quoted names and comments.
func hasQualify(sql string) bool {
	word := func(c byte) bool {
		return c == '_' || c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z'
	}
	for i := 0; i < len(sql); {
		switch c := sql[i]; {
		case c == '\'' || c == '"' || c == '`':
			j := i + 1
			for j < len(sql) && sql[j] != c {
				if sql[j] == '\\' && c != '`' {
					j++
				}
				j++
			}
			i = j + 1
		case c == '-' && strings.HasPrefix(sql[i:], "--"):
			j := strings.IndexByte(sql[i:], '\n')
			if j < 0 {
				return false
			}
			i += j + 1
		case c == '/' && strings.HasPrefix(sql[i:], "/*"):
			j := strings.Index(sql[i+2:], "*/")
			if j < 0 {
				return false
			}
			i += j + 4
		case word(c):
			j := i
			for j < len(sql) && word(sql[j]) {
				j++
			}
			if strings.EqualFold(sql[i:j], "QUALIFY") {
				return true
			}
			i = j
		default:
			i++
		}
	}
	return false
}
