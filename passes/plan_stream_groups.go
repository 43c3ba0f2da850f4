package passes

import "github.com/nordisk/thund/ir"

// Unwindowed aggregates over a stream: in output mode update or complete
// the native streaming runtime keeps one accumulator per group key for as
// long as the flow runs (rt/stream.Groups), as Spark does; each micro-batch
// upserts the groups it changed into the target by their key (update) or
// rewrites the whole result (complete). No window closes, so no watermark
// is needed and no row is late.

// unwindowedAggregate checks an aggregate over a stream without an
// event-time window under it.
func (p *planner) unwindowedAggregate(n *ir.Aggregate, ops *int) {
	sp := p.fp.Stream
	switch {
	case p.fi.Emission != EmissionUpdate && p.fi.Emission != EmissionComplete:
		p.refuse(n.Pos, "an aggregate over a stream in append mode needs an event-time window under it (window tumble|hop|session(...) | group by window_start, ... aggregate ...); unwindowed streaming aggregates run in output mode update or complete")
		return
	case *ops > 0:
		p.refuse(n.Pos, "a flow with more than one stateful streaming operator is not supported yet: split it through a streaming table")
		return
	case p.fi.Emission == EmissionUpdate && len(n.Keys) == 0 && p.fp.Target.Kind != ir.KindSink:
		p.refuse(n.Pos, "output mode update of an aggregate without group keys into %s is not supported yet (its one row has no key to be upserted by): use output mode complete", p.fp.Target.Name)
		return
	case p.fp.Flow.LateTable != "":
		p.refuse(p.fp.Flow.Pos, "a late table of an aggregate without a window is not supported (no row of it is ever late)")
		return
	}
	*ops++
	sp.Aggregate = n
	for _, call := range p.u.AggCalls[n] {
		if !p.accum(call, true, false) {
			return
		}
	}
	for _, k := range n.Keys {
		switch t := p.u.Types[k.Expr]; t.Kind {
		case ir.TDecimal, ir.TBinary:
			p.refuse(k.Pos, "a group key of type %s over a stream is not supported yet", t)
			return
		}
	}
}

// unwindowedAggregateOnly reports a query whose stateful streaming
// operators are aggregates without an event-time window (they need no
// watermark; a join of two streams and a distinct within watermark do).
func unwindowedAggregateOnly(q ir.Rel) bool {
	ok := true
	ir.WalkRel(q, func(r ir.Rel) bool {
		switch n := r.(type) {
		case *ir.Aggregate:
			if Streaming(n) && WindowUnder(n.Input) != nil {
				ok = false
			}
		case *ir.Join:
			if Streaming(n.Left) && Streaming(n.Right) {
				ok = false
			}
		case *ir.Distinct: // dedup within the watermark
			if n.WithinWatermark {
				ok = false
			}
		}
		return ok
	})
	return ok
}
