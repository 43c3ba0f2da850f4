package nested

// The rows Spark's generators make of one input row, each a Struct of the
// generated columns in order; generated code loops over them.

// Explode is the rows explode makes of x, an array or a map (nil for
// NULL, which makes none): one per element (col) or entry (key, value), in
// order; with pos (posexplode) each starts with its 0-based position.
func Explode(x any, pos bool) []Struct {
	var rows []Struct
	add := func(i int, vals ...any) {
		if pos {
			vals = append([]any{int32(i)}, vals...)
		}
		rows = append(rows, Struct(vals))
	}
	switch x := x.(type) {
	case Array:
		for i, e := range x {
			add(i, e)
		}
	case *Map:
		for i, k := range x.Keys {
			add(i, k, x.Values[i])
		}
	}
	return rows
}

// Inline is the rows inline makes of x, an array of structs (nil for NULL,
// which makes none): each element's fields; a NULL element is a row of
// width NULLs.
func Inline(x any, width int) []Struct {
	arr, _ := x.(Array)
	rows := make([]Struct, len(arr))
	for i, e := range arr {
		if e == nil {
			rows[i] = make(Struct, width)
			continue
		}
		rows[i] = e.(Struct)
	}
	return rows
}

// Outer is rows, or when it is empty one row of width NULLs (the _outer
// generators, LATERAL VIEW OUTER).
func Outer(rows []Struct, width int) []Struct {
	if len(rows) == 0 {
		return []Struct{make(Struct, width)}
	}
	return rows
}

// Stack is stack(n, vals...): vals laid out row by row in n rows of
// ceil(len(vals)/n) columns, the last row's missing values NULL.
func Stack(n int, vals ...any) []Struct {
	cols := (len(vals) + n - 1) / n
	rows := make([]Struct, n)
	for i := range rows {
		rows[i] = make(Struct, cols)
		for j := range cols {
			if k := i*cols + j; k < len(vals) {
				rows[i][j] = vals[k]
			}
		}
	}
	return rows
}
