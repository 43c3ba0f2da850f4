package passes

import (
	"strings"

	"github.com/nordisk/thund/ir"
)

// Field is one column of a relation's output.
//
// Qualifier is the dataset name or alias a qualified reference (q.name) may
// use; it is empty for computed columns. Hidden fields are reachable only by
// a qualified reference and never appear in * or in a flow's output: they are
// the per-side key columns of a USING join. An Open field stands for the
// unknown columns of an external table: any name resolves through it,
// leniently, to type null (TUnknown). A Poisoned open field stands instead
// for the columns of something that failed to resolve (a dataset whose flow
// failed, a q.* naming no alias): any name resolves through it to the
// invalid type, so that nothing downstream reports an error that only
// follows from the first.
type Field struct {
	Qualifier string
	Name      string
	Type      ir.Type
	Nullable  bool
	Hidden    bool
	Open      bool
	Poisoned  bool
}

// String renders "name type[ not null]" (or "q.* (external)" for an open field).
func (f Field) String() string {
	if f.Open {
		if f.Qualifier != "" {
			return f.Qualifier + ".* (columns of an external table)"
		}
		return "* (columns of an external table)"
	}
	s := f.Name + " " + f.Type.String()
	if !f.Nullable {
		s += " not null"
	}
	return s
}

// Schema is the ordered output of a relation. Visible fields come first,
// hidden ones (if any) after them.
type Schema []Field

// Visible returns the fields a * expands to and a flow writes.
func (s Schema) Visible() Schema {
	n := 0
	for n < len(s) && !s[n].Hidden {
		n++
	}
	return s[:n]
}

// IsOpen reports whether the schema has columns the compiler cannot see
// (it reads an external table).
func (s Schema) IsOpen() bool {
	for _, f := range s {
		if f.Open {
			return true
		}
	}
	return false
}

// Lookup returns the index of the visible, named field (case-insensitive), or -1.
func (s Schema) Lookup(name string) int {
	for i, f := range s.Visible() {
		if !f.Open && strings.EqualFold(f.Name, name) {
			return i
		}
	}
	return -1
}

// Names lists the visible field names.
func (s Schema) Names() []string {
	var out []string
	for _, f := range s.Visible() {
		if !f.Open {
			out = append(out, f.Name)
		}
	}
	return out
}

// unqualified returns the visible fields with their qualifiers dropped: the
// schema a flow writes.
func (s Schema) unqualified() Schema {
	v := s.Visible()
	out := make(Schema, len(v))
	for i, f := range v {
		f.Qualifier = ""
		out[i] = f
	}
	return out
}

// qualified returns the visible fields re-qualified with q.
func (s Schema) qualified(q string) Schema {
	v := s.Visible()
	out := make(Schema, len(v))
	for i, f := range v {
		f.Qualifier = q
		out[i] = f
	}
	return out
}

// ColumnBinding says where a column reference reads from: field Index of the
// output of Rel (Schemas[Rel]). For references in an expectation, Rel is nil
// and Index is into the dataset's schema; for a CDC clause, Rel is the flow's
// query. Depth counts enclosing queries for a correlated reference in a
// subquery (0: the operator's own input). Open marks a lenient reference
// through an external table's unknown columns (Index is the open field).
type ColumnBinding struct {
	Rel   ir.Rel
	Index int
	Depth int
	Open  bool
}

// ProjCol says where one output column of a Project comes from: item Item of
// the projection, and for a * item, field InputIndex of the input (otherwise
// -1).
type ProjCol struct {
	Item       int
	InputIndex int
}

// JoinCol says which input columns one output column of a join is made of:
// field Left of the left input and/or field Right of the right input (-1 for
// none). A USING key of a full join has both: it is coalesce(left, right).
type JoinCol struct {
	Left  int
	Right int
}

// JoinInfo is the resolved shape of a join.
type JoinInfo struct {
	Output    []JoinCol // one per field of Schemas[join], hidden fields included
	LeftKeys  []int     // USING: key columns in the left input
	RightKeys []int     // USING: key columns in the right input
}

// isPoisoned reports whether the schema stands (in part) for something that
// failed to resolve.
func isPoisoned(s Schema) bool {
	for _, f := range s {
		if f.Poisoned {
			return true
		}
	}
	return false
}
