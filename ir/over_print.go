package ir

import (
	"strconv"
	"strings"
)

// sparkOver spells a window function as Spark's analyzer names its column
// (toPrettySQL of the resolved WindowExpression), checked on 4.1.4 and
// 4.2.1: the function as Spark prints it, the order keys with their
// direction and null ordering, and always the frame, Spark's default for
// the function when the query gives none:
//
//	RANK() OVER (PARTITION BY k ORDER BY v DESC NULLS LAST ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW)
//	lag(v, 1, NULL) OVER (ORDER BY v ASC NULLS FIRST ROWS BETWEEN -1 FOLLOWING AND -1 FOLLOWING)
//	count(1) OVER (ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING)
func (p exprPrinter) sparkOver(e *Over) string {
	var spec []string
	if len(e.Partition) > 0 {
		spec = append(spec, "PARTITION BY "+p.list(e.Partition))
	}
	if len(e.Order) > 0 {
		keys := make([]string, len(e.Order))
		for i, k := range e.Order {
			keys[i] = p.sub(k.Expr, 0)
			if k.Desc {
				keys[i] += " DESC"
			} else {
				keys[i] += " ASC"
			}
			if k.EffectiveNullsFirst() {
				keys[i] += " NULLS FIRST"
			} else {
				keys[i] += " NULLS LAST"
			}
		}
		spec = append(spec, "ORDER BY "+strings.Join(keys, ", "))
	}
	fn, frame := "()", ""
	if f := e.Func; f != nil {
		fn, frame = p.sparkWindowFunc(f, len(e.Order) > 0)
	}
	if f := e.Frame; f != nil {
		frame = strings.ToUpper(f.Kind.String()) + " BETWEEN " + p.bound(f.Start) + " AND " + p.bound(f.End)
	}
	spec = append(spec, frame)
	return fn + " OVER (" + strings.Join(spec, " ") + ")"
}

// sparkWindowFunc spells a window's function as Spark names it, and the
// frame Spark gives it by default.
func (p exprPrinter) sparkWindowFunc(f *Call, ordered bool) (string, string) {
	const (
		rowsToCurrent  = "ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
		rangeToCurrent = "RANGE BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW"
		whole          = "ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING"
	)
	name := strings.ToLower(f.Name)
	switch name {
	case "rank", "dense_rank", "percent_rank":
		return strings.ToUpper(name) + "()", rowsToCurrent
	case "row_number":
		return name + "()", rowsToCurrent
	case "cume_dist":
		return name + "()", rangeToCurrent
	case "ntile":
		return name + "(" + p.list(f.Args) + ")", rowsToCurrent
	case "lag", "lead":
		args := make([]string, 3)
		args[1], args[2] = "1", "NULL"
		for i, a := range f.Args {
			if i < 3 {
				args[i] = p.sub(a, 0)
			}
		}
		off := args[1]
		if name == "lag" {
			if n, err := strconv.ParseInt(off, 10, 64); err == nil {
				off = strconv.FormatInt(-n, 10)
			} else {
				off = "-" + off
			}
		}
		return name + "(" + strings.Join(args, ", ") + ")", "ROWS BETWEEN " + off + " FOLLOWING AND " + off + " FOLLOWING"
	}
	var s string
	switch {
	case name == "nth_value" && f.IgnoreNulls:
		s = name + "(" + p.list(f.Args) + ") ignore nulls"
	case (name == "first_value" || name == "last_value" || name == "first" || name == "last") && len(f.Args) == 2:
		// the ignore-nulls flag is not in Spark's name
		s = p.ident(f.Name) + "(" + p.sub(f.Args[0], 0) + ")"
	default:
		s = p.text(f)
	}
	if ordered {
		return s, rangeToCurrent
	}
	return s, whole
}
