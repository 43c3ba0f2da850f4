package etl

import (
	"fmt"
	"slices"
	"strings"

	"github.com/nordisk/thund/rt/events"
	"github.com/nordisk/thund/rt/run"
)

// driftText is what a run's last line (and a --follow epoch's) says of
// rescued data and schema drift (rt/format's rescue.go): "; rescued rows:
// R" when records were rescued, and "; new columns ignored in SOURCE: A, B"
// for each source whose new columns were ignored (schemaEvolutionMode
// none), so that a dropped column is never silent.
func driftText(flows []*run.Flow) string {
	var rescued int64
	var ignored []run.NewColumns
	for _, f := range flows {
		for _, r := range f.Rescued() {
			rescued += r.Rows
		}
		for _, n := range f.NewColumns() {
			if n.Into != "" {
				continue
			}
			i := slices.IndexFunc(ignored, func(o run.NewColumns) bool { return o.Source == n.Source })
			if i < 0 {
				ignored = append(ignored, run.NewColumns{Source: n.Source})
				i = len(ignored) - 1
			}
			for _, c := range n.Columns {
				if !slices.Contains(ignored[i].Columns, c) {
					ignored[i].Columns = append(ignored[i].Columns, c)
				}
			}
		}
	}
	var b strings.Builder
	b.WriteString(rescuedText(rescued))
	for _, n := range ignored {
		fmt.Fprintf(&b, "; new columns ignored in %s: %s", n.Source, strings.Join(n.Columns, ", "))
	}
	return b.String()
}

// rescuedText is "; rescued rows: R", or "" when there were none.
func rescuedText(n int64) string {
	if n == 0 {
		return ""
	}
	return fmt.Sprintf("; rescued rows: %d", n)
}

// addNewColumns adds one new_columns event to a run's list for history:
// one entry per source and action.
func addNewColumns(list []events.NewColumns, p events.NewColumns) []events.NewColumns {
	for i := range list {
		if list[i].Source == p.Source && list[i].Action == p.Action {
			for _, c := range p.Columns {
				if !slices.Contains(list[i].Columns, c) {
					list[i].Columns = append(list[i].Columns, c)
				}
			}
			return list
		}
	}
	return append(list, p)
}
