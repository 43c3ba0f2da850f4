package etl

import "fmt"

// WholeLimitError is a flow whose operator spills past --memory-limit but
// must hold some unit of its rows in memory whole (a window's partition:
// its functions see all of it), and one such unit alone does not fit.
type WholeLimitError struct {
	Operator string // "window at FILE:LINE:COL"
	Unit     string // "one partition"
	Limit    int64
}

func (e *WholeLimitError) Error() string {
	return fmt.Sprintf("%s needs more than --memory-limit %s for %s alone, which it must hold in memory whole: raise --memory-limit",
		e.Operator, FormatBytes(e.Limit), e.Unit)
}
