package run

import "slices"

// Rescued data and schema drift of a flow's source reads (rt/format's
// rescue.go): the records kept with a rescued-data value, and the new
// columns met and not failed on (schemaEvolutionMode none or rescue).

// Rescued counts the records of one source a flow read that were kept with
// a rescued-data value, in Column.
type Rescued struct {
	Source, Column string
	Rows           int64
}

// NewColumns are the columns of one source's files that its declared schema
// lacks, and what became of them: ignored (Into is "") or rescued into the
// column Into.
type NewColumns struct {
	Source  string
	Columns []string
	Into    string
}

// drift is a flow's Rescued and NewColumns, guarded by Flow.mu.
type drift struct {
	rescued []Rescued
	newCols []NewColumns
}

// AddRescued counts n records of source kept with a rescued value in column.
func (f *Flow) AddRescued(source, column string, n int64) {
	if n == 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.drift.rescued {
		if f.drift.rescued[i].Source == source {
			f.drift.rescued[i].Rows += n
			return
		}
	}
	f.drift.rescued = append(f.drift.rescued, Rescued{Source: source, Column: column, Rows: n})
}

// Rescued lists the flow's rescued-record counts per source, in the order
// first counted.
func (f *Flow) Rescued() []Rescued {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Clone(f.drift.rescued)
}

// AddNewColumns records new columns met in a source's files.
func (f *Flow) AddNewColumns(source string, cols []string, into string) {
	if len(cols) == 0 {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	for i := range f.drift.newCols {
		if n := &f.drift.newCols[i]; n.Source == source {
			for _, c := range cols {
				if !slices.Contains(n.Columns, c) {
					n.Columns = append(n.Columns, c)
				}
			}
			return
		}
	}
	f.drift.newCols = append(f.drift.newCols, NewColumns{Source: source, Columns: slices.Clone(cols), Into: into})
}

// NewColumns lists the new columns the flow's sources met, per source.
func (f *Flow) NewColumns() []NewColumns {
	f.mu.Lock()
	defer f.mu.Unlock()
	out := make([]NewColumns, len(f.drift.newCols))
	for i, n := range f.drift.newCols {
		out[i] = NewColumns{Source: n.Source, Columns: slices.Clone(n.Columns), Into: n.Into}
	}
	return out
}

// Action is what became of new columns, as the event log and the summary
// say it.
func (n NewColumns) Action() string {
	if n.Into != "" {
		return "rescued"
	}
	return "ignored"
}
