package sql

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	"github.com/nordisk/thund/ir"
)

// Thund knobs are the table properties whose key starts with "thund.": the
// streaming knobs SDP SQL has no syntax for. They are taken out of
// Dataset.Properties and applied to the IR. The table is the one source of
// truth for the doc comment in doc.go and for the "known keys" list of the
// unknown-key error.
var knobTable = []struct {
	key    string // after "thund.", matched case-insensitively
	values string // what the value may be
	scope  knobScope
	doc    string
}{
	{"id", "any text", scopeDataset, "Dataset.ID: a stable id kept across renames"},
	{"materialize", "full | incremental", scopeDataset, "Dataset.Materialize"},
	{"allowedLateness", "a duration", scopeWatermark, "Watermark.AllowedLateness of the source's watermark, or of every WATERMARK clause in the flows into the dataset"},
	{"idleTimeout", "a duration", scopeWatermark, "Watermark.IdleTimeout, placed as allowedLateness"},
	{"emit", "on window close | on update", scopeFlow, "Flow.Emit of every flow into the dataset"},
	{"trigger", "available now | every DURATION | DURATION", scopeFlow, "Flow.Trigger of every flow into the dataset"},
	{"outputMode", "append | update | complete", scopeFlow, "Flow.OutputMode of every flow into the dataset"},
	{"lateTable", "a dataset name", scopeFlow, "Flow.LateTable of the dataset's one flow"},
	{"boundRows", "a row count", scopeFlow, "EdgeBounds.Rows of every read in the flows into the dataset"},
	{"boundBytes", "a byte count, with an optional KB, MB or GB suffix (powers of 1024)", scopeFlow, "EdgeBounds.Bytes of every read in the flows into the dataset"},
	// dedup within the watermark
	{"dedupWithinWatermark", "a comma-separated list of column names, or * for every column", scopeFlow, "a Distinct{Keys, WithinWatermark} over the query of every flow into the dataset: Spark's dropDuplicatesWithinWatermark, spelled distinct on (k, ...) within watermark in .thund"},
}

type knobScope int

const (
	scopeDataset knobScope = iota
	scopeWatermark
	scopeFlow
)

// KnobKeys returns every thund.* table property key, in table order.
func KnobKeys() []string {
	out := make([]string, len(knobTable))
	for i, k := range knobTable {
		out[i] = "thund." + k.key
	}
	return out
}

// flowKnobs are the parsed knobs of one dataset, applied in finish.
type flowKnobs struct {
	dataset *ir.Dataset

	lateness, idle *ir.Duration
	emit           ir.EmitMode
	trigger        *ir.Trigger
	output         ir.OutputMode
	lateTable      string
	latePos        ir.Pos

	boundRows, boundBytes int64
	boundsPos             ir.Pos

	// dedup within the watermark: the keys (none: every column)
	dedup    bool
	dedupOn  []string
	dedupPos ir.Pos

	// The first flow knob and the first watermark knob, for errors that
	// concern them all.
	flowKey, watermarkKey ir.KV
}

// takeKnobs splits the thund.* properties off props, applies the dataset
// knobs to d, and records the others for finish.
func (c *conv) takeKnobs(d *ir.Dataset, props []ir.KV) []ir.KV {
	var rest []ir.KV
	k := &flowKnobs{dataset: d}
	for _, kv := range props {
		low := strings.ToLower(kv.Key)
		if !strings.HasPrefix(low, "thund.") {
			rest = append(rest, kv)
			continue
		}
		name := low[len("thund."):]
		found := false
		for _, kn := range knobTable {
			if strings.ToLower(kn.key) == name {
				found = true
				c.knob(k, d, kn.key, kv)
				break
			}
		}
		if !found {
			c.errorf(kv.Pos, ir.CodeSyntax, "unknown table property %q: the thund.* properties are %s", kv.Key, strings.Join(KnobKeys(), ", "))
		}
	}
	c.b.knobs[strings.ToLower(d.Name)] = k
	return rest
}

func (c *conv) knob(k *flowKnobs, d *ir.Dataset, key string, kv ir.KV) {
	v := strings.TrimSpace(kv.Value)
	bad := func(want string) {
		c.errorf(kv.Pos, ir.CodeSyntax, "table property %s = %q: want %s", kv.Key, kv.Value, want)
	}
	switch key {
	case "id":
		if v == "" {
			bad("a non-empty id")
			return
		}
		d.ID = v
	case "materialize":
		switch strings.ToLower(v) {
		case "full":
			d.Materialize = ir.MatFull
		case "incremental":
			d.Materialize = ir.MatIncremental
		default:
			bad("full or incremental")
		}
	case "allowedLateness", "idleTimeout":
		dur, err := parseDurationText(v)
		if err != nil || dur < 0 {
			c.errorf(kv.Pos, ir.CodeBadDuration, "table property %s = %q: want a duration such as '10 seconds' or '1m30s'", kv.Key, kv.Value)
			return
		}
		if key == "allowedLateness" {
			k.lateness = &dur
		} else {
			k.idle = &dur
		}
		if k.watermarkKey.Key == "" {
			k.watermarkKey = kv
		}
	case "emit":
		switch normWords(v) {
		case "on window close", "window close":
			k.emit = ir.EmitOnWindowClose
		case "on update", "update":
			k.emit = ir.EmitOnUpdate
		default:
			bad("'on window close' or 'on update'")
			return
		}
		k.flowKnob(kv)
	case "trigger":
		w := normWords(v)
		switch {
		case w == "available now" || w == "availablenow" || w == "once":
			k.trigger = &ir.Trigger{Pos: kv.Pos, Kind: ir.TriggerAvailableNow}
		default:
			w = strings.TrimPrefix(w, "every ")
			w = strings.TrimPrefix(w, "processing time ")
			dur, err := parseDurationText(w)
			if err != nil || dur <= 0 {
				bad("'available now', or 'every' and a positive duration such as 'every 10 seconds'")
				return
			}
			k.trigger = &ir.Trigger{Pos: kv.Pos, Kind: ir.TriggerEvery, Interval: dur}
		}
		k.flowKnob(kv)
	case "outputMode":
		switch strings.ToLower(v) {
		case "append":
			k.output = ir.OutputAppend
		case "update":
			k.output = ir.OutputUpdate
		case "complete":
			k.output = ir.OutputComplete
		default:
			bad("append, update or complete")
			return
		}
		k.flowKnob(kv)
	case "lateTable":
		if !ir.ValidName(v) {
			bad("a dataset name [a-z0-9][a-z0-9_-]*")
			return
		}
		k.lateTable, k.latePos = v, kv.Pos
		k.flowKnob(kv)
	case "boundRows":
		n, err := strconv.ParseInt(v, 10, 64)
		if err != nil || n <= 0 {
			bad("a positive row count")
			return
		}
		k.boundRows, k.boundsPos = n, kv.Pos
		k.flowKnob(kv)
	case "boundBytes":
		n, ok := parseBytes(v)
		if !ok {
			bad("a positive byte count such as 1048576 or 64MB")
			return
		}
		k.boundBytes, k.boundsPos = n, kv.Pos
		k.flowKnob(kv)
	case "dedupWithinWatermark": // dedup within the watermark
		var keys []string
		if v != "*" {
			for _, part := range strings.Split(v, ",") {
				name := strings.TrimSpace(part)
				if len(name) >= 2 && name[0] == '`' && name[len(name)-1] == '`' {
					name = strings.ReplaceAll(name[1:len(name)-1], "``", "`")
				}
				if name == "" {
					bad("a comma-separated list of column names, or *")
					return
				}
				keys = append(keys, name)
			}
		}
		k.dedup, k.dedupOn, k.dedupPos = true, keys, kv.Pos
		k.flowKnob(kv)
	}
}

func (k *flowKnobs) flowKnob(kv ir.KV) {
	if k.flowKey.Key == "" {
		k.flowKey = kv
	}
}

func normWords(s string) string {
	s = strings.ToLower(strings.TrimSpace(s))
	s = strings.ReplaceAll(s, "_", " ")
	return strings.Join(strings.Fields(s), " ")
}

// parseBytes parses 1024, 64KB, 64MB, 1GB (powers of 1024).
func parseBytes(s string) (int64, bool) {
	s = strings.ToUpper(strings.ReplaceAll(s, " ", ""))
	mult := int64(1)
	for _, u := range []struct {
		suffix string
		m      int64
	}{{"KB", 1 << 10}, {"MB", 1 << 20}, {"GB", 1 << 30}, {"B", 1}} {
		if strings.HasSuffix(s, u.suffix) {
			s, mult = strings.TrimSuffix(s, u.suffix), u.m
			break
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n <= 0 || n > (1<<63-1)/mult {
		return 0, false
	}
	return n * mult, true
}

// applyKnobs applies every dataset's flow and watermark knobs to the flows
// into it, once all files are read.
func (b *builder) applyKnobs() {
	into := map[string][]*ir.Flow{} // FlowsInto of every dataset, in one pass
	for _, f := range b.p.Flows {
		t := strings.ToLower(f.Target)
		into[t] = append(into[t], f)
	}
	for _, d := range b.p.Datasets {
		k := b.knobs[strings.ToLower(d.Name)]
		if k == nil || k.dataset != d {
			continue
		}
		flows := into[strings.ToLower(d.Name)]
		if k.flowKey.Key != "" && len(flows) == 0 {
			b.diags.Add(k.flowKey.Pos, ir.CodeBadDataset, "table property %s applies to the flows into %s %q, and it has none", k.flowKey.Key, d.Kind, d.Name)
		}
		if k.lateTable != "" && len(flows) > 1 {
			b.diags.Add(k.latePos, ir.CodeBadDataset, "table property thund.lateTable applies to one flow, and %d flows write %q: a late table belongs to one flow", len(flows), d.Name)
		}
		for _, f := range flows {
			if k.emit != ir.EmitDefault {
				f.Emit = k.emit
			}
			if k.trigger != nil {
				t := *k.trigger
				f.Trigger = &t
			}
			if k.output != ir.OutputDefault {
				f.OutputMode = k.output
			}
			if k.lateTable != "" && len(flows) == 1 {
				f.LateTable = k.lateTable
			}
			if k.dedup && f.Query != nil { // dedup within the watermark
				f.Query = &ir.Distinct{Pos: k.dedupPos, Input: f.Query, Keys: append([]string(nil), k.dedupOn...), WithinWatermark: true}
			}
			if k.boundRows != 0 || k.boundBytes != 0 {
				for _, s := range ir.Scans(f.Query) {
					s.Bounds = &ir.EdgeBounds{Pos: k.boundsPos, Rows: k.boundRows, Bytes: k.boundBytes}
				}
			}
		}
		if k.lateness == nil && k.idle == nil {
			continue
		}
		var wms []*ir.Watermark
		if d.Kind == ir.KindSource {
			if d.Watermark != nil {
				wms = append(wms, d.Watermark)
			}
		} else {
			for _, f := range flows {
				for _, s := range ir.Scans(f.Query) {
					if s.Watermark != nil {
						wms = append(wms, s.Watermark)
					}
				}
			}
		}
		if len(wms) == 0 {
			what := "the query of " + d.Name
			if d.Kind == ir.KindSource {
				what = "source " + d.Name
			}
			b.diags.Add(k.watermarkKey.Pos, ir.CodeBadDataset, "table property %s needs a watermark: add a WATERMARK clause to %s", k.watermarkKey.Key, what)
			continue
		}
		for _, w := range wms {
			if k.lateness != nil {
				w.AllowedLateness = *k.lateness
			}
			if k.idle != nil {
				w.IdleTimeout = *k.idle
			}
		}
	}
}

// Durations in text: Thund's canonical form (10s, 1h30m) or a Spark interval
// string ('10 seconds', 'INTERVAL 1 minute 30 seconds').

// intervalUnits maps Spark interval unit words to their length; months and
// years have none (a Duration is a fixed span).
var intervalUnits = map[string]ir.Duration{
	"nanosecond": 1, "microsecond": 1000, "millisecond": 1000000,
	"second": 1000000000, "minute": 60 * 1000000000, "hour": 3600 * 1000000000,
	"day": 86400 * 1000000000, "week": 7 * 86400 * 1000000000,
	"month": -1, "year": -1,
}

// unitLength returns a unit word's length (plural or singular, any case).
func unitLength(w string) (ir.Duration, bool, error) {
	w = strings.ToLower(w)
	d, ok := intervalUnits[w]
	if !ok && strings.HasSuffix(w, "s") {
		d, ok = intervalUnits[strings.TrimSuffix(w, "s")]
	}
	if !ok {
		return 0, false, nil
	}
	if d < 0 {
		return 0, true, fmt.Errorf("%s intervals have no fixed length: use days, hours, minutes or seconds", strings.TrimSuffix(strings.ToLower(w), "s"))
	}
	return d, true, nil
}

// scaleDecimal multiplies a decimal number text by a unit, exactly; it
// fails when the result is not a whole number of nanoseconds or overflows.
func scaleDecimal(num string, unit ir.Duration) (ir.Duration, error) {
	r, ok := new(big.Rat).SetString(num)
	if !ok {
		return 0, fmt.Errorf("%q is not a number", num)
	}
	r.Mul(r, new(big.Rat).SetInt64(int64(unit)))
	if !r.IsInt() {
		return 0, fmt.Errorf("%s is not a whole number of nanoseconds", num)
	}
	n := r.Num()
	if !n.IsInt64() {
		return 0, fmt.Errorf("interval %s overflows", num)
	}
	return ir.Duration(n.Int64()), nil
}

// parseDurationText parses a duration written as text.
func parseDurationText(s string) (ir.Duration, error) {
	s = strings.TrimSpace(s)
	if d, err := ir.ParseDuration(s); err == nil {
		return d, nil
	}
	fields := strings.Fields(strings.ToLower(s))
	if len(fields) > 0 && fields[0] == "interval" {
		fields = fields[1:]
	}
	if len(fields) == 0 || len(fields)%2 != 0 {
		return 0, fmt.Errorf("want a number and a unit, as in '10 seconds'")
	}
	var total ir.Duration
	for i := 0; i < len(fields); i += 2 {
		unit, ok, err := unitLength(fields[i+1])
		if err != nil {
			return 0, err
		}
		if !ok {
			return 0, fmt.Errorf("unknown unit %q (want seconds, minutes, hours, days, ...)", fields[i+1])
		}
		d, err := scaleDecimal(fields[i], unit)
		if err != nil {
			return 0, err
		}
		if (d > 0 && total > (1<<63-1)-d) || (d < 0 && total < -(1<<63-1)-d) {
			return 0, fmt.Errorf("the duration overflows")
		}
		total += d
	}
	return total, nil
}
