package passes

import (
	"strings"

	"github.com/nordisk/thund/ir"
)

// Dedup within the watermark natively: a distinct within watermark over a
// stream keeps, per key, the first row's event time plus the delay
// (rt/stream.Dedup), by Spark's rule (StreamingDeduplicateWithinWatermarkExec):
// a row at or below the watermark is late, a row of a held key is a
// duplicate, and a key is dropped when the watermark reaches its expiry.

// streamDedup plans a distinct within watermark: its key columns, its
// event-time column and its delay.
func (p *planner) streamDedup(n *ir.Distinct, ops *int) {
	sp := p.fp.Stream
	switch {
	case len(sp.Inputs) != 1:
		p.refuse(n.Pos, "distinct within watermark in a flow with %d watermarked stream reads is not supported yet (Spark takes the delay of one event-time column, the flow's watermark from all): dedup each stream in a flow of its own", len(sp.Inputs))
		return
	case *ops > 0:
		p.refuse(n.Pos, "a flow with more than one stateful streaming operator is not supported yet: split it through a streaming table")
		return
	}
	*ops++
	in := sp.Inputs[0]
	schema := p.u.Schemas[n.Input]
	dp := &DedupPlan{Distinct: n, Time: -1, Delay: in.Delay + sp.Lateness}
	// the event-time column: the first that is the watermarked column of
	// the read (sanity checked that one is kept)
	s := &sanitizer{u: p.u, unbounded: map[ir.Rel]bool{}} // the sanity pass's tracing
	wmName := p.u.Schemas[in.Scan][in.Col].Name
	for i := range schema.Visible() {
		if o, ok := s.trace(n.Input, i); ok && o.scan == in.Scan && strings.EqualFold(o.column, wmName) {
			dp.Time = i
			break
		}
	}
	if dp.Time < 0 {
		p.refuse(n.Pos, "distinct within watermark: its input does not keep the event-time column %s of %s", wmName, in.Scan.Name)
		return
	}
	if len(n.Keys) == 0 {
		for i := range schema.Visible() {
			dp.Keys = append(dp.Keys, i)
		}
	}
	for _, k := range n.Keys {
		dp.Keys = append(dp.Keys, schema.Visible().Lookup(k))
	}
	for _, i := range dp.Keys {
		if t := schema[i].Type; t.Kind == ir.TDecimal || t.Kind == ir.TUnknown {
			p.refuse(n.Pos, "distinct within watermark on a column of type %s (%s) is not supported yet", t, schema[i].Name)
			return
		}
	}
	sp.Dedup = dp
}
