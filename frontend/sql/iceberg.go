package sql

import (
	"fmt"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"

	"github.com/nordisk/thund/frontend/icetable"
	"github.com/nordisk/thund/internal/iceopt"
	"github.com/nordisk/thund/ir"
)

// Iceberg sources: iceberg.`location` reads, and names bound to a table by
// thund.source.NAME: "iceberg.`location`" (bindSources). A read takes
// Spark's time travel (VERSION AS OF id, TIMESTAMP AS OF 'time', with FOR
// and the SYSTEM_ synonyms) and Spark's table options (WITH ('key' =
// 'value', ...)), which become the source's read options (snapshot-id,
// as-of-timestamp, ...: internal/iceopt); frontend/icetable judges them
// and reads the table's columns from its metadata.

// readExtras converts a read's time travel and WITH options to Iceberg
// read options, TIMESTAMP AS OF to as-of-timestamp in milliseconds (the
// time read in the session time zone, unless it names an offset).
func (c *conv) readExtras(p *primaryRelAST) ([]ir.KV, bool) {
	var out []ir.KV
	if t := p.Travel; t != nil {
		if t.Version != nil {
			v := t.Version.Num
			if t.Version.Str != nil {
				v = t.Version.Str.value()
			}
			out = append(out, ir.KV{Pos: pos(t.Pos), Key: iceopt.SnapshotID, Value: v})
		} else {
			text, ok := c.asOfText(t.Timestamp)
			if !ok {
				return nil, false
			}
			ms, err := asOfMillis(text, c.sessionZone())
			if err != nil {
				c.errorf(pos(t.Timestamp.Pos), ir.CodeSyntax, "TIMESTAMP AS OF '%s': %v", text, err)
				return nil, false
			}
			out = append(out, ir.KV{Pos: pos(t.Pos), Key: iceopt.AsOfTimestamp, Value: strconv.FormatInt(ms, 10)})
		}
	}
	seen := map[string]bool{}
	for _, pr := range p.Options {
		kv := c.property(pr)
		if seen[strings.ToLower(kv.Key)] {
			c.errorf(kv.Pos, ir.CodeSyntax, "duplicate option %q", kv.Key)
			return nil, false
		}
		seen[strings.ToLower(kv.Key)] = true
		out = append(out, kv)
	}
	return out, true
}

// asOfText is the time TIMESTAMP AS OF names: a string, or a TIMESTAMP or
// DATE literal (one with a zone suffix, which the expression converter
// writes as a cast of its text, keeps its offset). Spark takes any
// expression there, evaluated when the query runs; Þund chooses the
// snapshot's columns at compile time, so only a constant time is taken.
func (c *conv) asOfText(e *exprAST) (string, bool) {
	x := c.expr(e)
	if x == nil {
		return "", false
	}
	if cast, ok := x.(*ir.Cast); ok && !cast.Try && cast.To.Kind == ir.TTimestamp {
		x = cast.X
	}
	if lit, ok := x.(*ir.Literal); ok {
		switch lit.Kind {
		case ir.LitString, ir.LitTimestamp, ir.LitDate:
			return lit.Text, true
		}
	}
	c.errorf(pos(e.Pos), ir.CodeSyntax, "TIMESTAMP AS OF takes a constant time, as '2026-01-02 03:04:05' or TIMESTAMP '2026-01-02 03:04:05+01:00': the columns of the snapshot it reads are chosen when the pipeline is compiled")
	return "", false
}

// extrasAt is where a read's time travel or options start.
func extrasAt(p *primaryRelAST) ir.Pos {
	if p.Travel != nil {
		return pos(p.Travel.Pos)
	}
	return pos(p.Options[0].Pos)
}

// extrasWhat names a read's time travel or options, for messages.
func extrasWhat(p *primaryRelAST) string {
	switch {
	case p.Travel != nil && p.Travel.Version != nil:
		return "VERSION AS OF"
	case p.Travel != nil:
		return "TIMESTAMP AS OF"
	}
	return "WITH (options)"
}

// sessionZone is the session time zone where the statement is: the file's
// SET TIME ZONE or spark.sql.session.timeZone, else the pipeline's, else
// UTC (Þund's default).
func (c *conv) sessionZone() string {
	for _, kv := range c.fs.conf {
		if strings.EqualFold(kv.Key, "spark.sql.session.timeZone") {
			return kv.Value
		}
	}
	for _, kv := range c.b.p.Conf {
		if strings.EqualFold(kv.Key, "spark.sql.session.timeZone") {
			return kv.Value
		}
	}
	return "UTC"
}

// asOfLayouts are the forms of TIMESTAMP AS OF's time: Spark's timestamp
// strings, with or without seconds' fraction, T or a space, and an offset.
var asOfLayouts = []string{
	"2006-01-02 15:04:05.999999999Z07:00", "2006-01-02T15:04:05.999999999Z07:00",
	"2006-01-02 15:04:05.999999999", "2006-01-02T15:04:05.999999999",
	"2006-01-02 15:04", "2006-01-02T15:04", "2006-01-02",
}

// asOfMillis reads TIMESTAMP AS OF's time as milliseconds since the epoch,
// in zone unless the text names an offset.
func asOfMillis(text, zone string) (int64, error) {
	loc, err := time.LoadLocation(zone)
	if err != nil {
		return 0, fmt.Errorf("the session time zone %q: %v", zone, err)
	}
	s := strings.TrimSpace(text)
	for _, l := range asOfLayouts {
		if t, err := time.ParseInLocation(l, s, loc); err == nil {
			return t.UnixMilli(), nil
		}
	}
	return 0, fmt.Errorf("want a time as 'YYYY-MM-DD HH:MM:SS[.fff][+HH:MM]' or 'YYYY-MM-DD'")
}

// icebergSpec is the source spec and columns of an Iceberg table read,
// named name: the columns are the table's (frontend/icetable). declared
// is the view's column list, which an Iceberg source refuses.
func (c *conv) icebergSpec(a *fileArgs, name string, declared []*ir.Column, stream bool) (*ir.SourceSpec, []*ir.Column, bool) {
	if len(declared) > 0 {
		c.errorf(declared[0].Pos, ir.CodeSyntax, "Iceberg source %s takes no column list: its columns are the table's, read from its metadata", name)
		return nil, nil, false
	}
	spec := &ir.SourceSpec{Pos: a.pos, Format: ir.FormatIceberg, Paths: []string{a.path}, Unbounded: stream, Options: a.opts}
	cols, diags := icetable.Columns(c.fs.dir, name, spec)
	if diags.HasErrors() {
		c.b.diags = append(c.b.diags, diags...)
		return nil, nil, false
	}
	return spec, cols, true
}

// bindingForms are what a thund.source binding may say.
const bindingForms = "[STREAM] read_files('path', ...), [STREAM] read_kafka(...) or [STREAM] iceberg.`location` [VERSION AS OF id | TIMESTAMP AS OF 'time'] [WITH (options)], then [WATERMARK col DELAY OF INTERVAL ...]"

// icebergName is the iceberg.`location` name a binding reads, or nil.
func icebergName(ast *primaryRelAST) *qnameAST {
	var qn *qnameAST
	switch {
	case ast.Name != nil:
		qn = ast.Name
	case ast.Stream != nil && ast.Stream.Name != nil:
		qn = ast.Stream.Name
	case ast.Stream != nil && ast.Stream.ParenName != nil:
		qn = ast.Stream.ParenName
	}
	if qn == nil || len(qn.Rest) != 1 || !qn.Rest[0].Quoted || !strings.EqualFold(qn.First.Name, "iceberg") {
		return nil
	}
	return qn
}

// bindIceberg turns the binding of name to the Iceberg table qn into
// sources. The source named name is read as the binding says (STREAM or
// not; without STREAM and with only stream reads, as a stream), with the
// binding's time travel and options. A read another way (a snapshot read
// of a stream binding, or the reverse) or with its own time travel or WITH
// options reads a source of its own, one per distinct read, named as a
// synthesized source is (<flow>_iceberg_<n>), with the binding's options
// that apply to it and its own. ok is false when the binding is refused.
func (b *builder) bindIceberg(c *conv, bind SourceBinding, name string, ast *primaryRelAST, qn *qnameAST) bool {
	bindStream := ast.Stream != nil
	switch {
	case ast.Alias != nil:
		b.diags.Add(bind.Pos, ir.CodeSyntax, "thund.source.%s: want %s (no alias)", bind.Name, bindingForms)
		return false
	case bindStream && ast.Travel != nil:
		b.diags.Add(pos(ast.Travel.Pos), ir.CodeSyntax, "thund.source.%s: time travel on a stream read: a stream reads the snapshots appended after the last one it consumed; bind it without STREAM", bind.Name)
		return false
	}
	base, ok := c.readExtras(ast)
	if !ok {
		return false
	}
	type group struct {
		stream bool
		extra  []ir.KV
		key    string
		reads  []*scanRef
	}
	var groups []*group
	for i := range b.scans {
		r := &b.scans[i]
		if !strings.EqualFold(r.scan.Name, bind.Name) {
			continue
		}
		r.bound = true
		key := fmt.Sprint(r.scan.Stream, optionsKey(r.extra))
		var g *group
		for _, x := range groups {
			if x.key == key {
				g = x
			}
		}
		if g == nil {
			g = &group{stream: r.scan.Stream, extra: r.extra, key: key}
			groups = append(groups, g)
		}
		g.reads = append(g.reads, r)
	}
	var primary *group
	for _, g := range groups {
		if len(g.extra) == 0 && g.stream == bindStream && primary == nil {
			primary = g
		}
	}
	if primary == nil && !bindStream {
		for _, g := range groups {
			if len(g.extra) == 0 && g.stream && primary == nil {
				primary = g
			}
		}
	}
	var wm *ir.Watermark
	if ast.Watermark != nil {
		if wm, ok = c.watermark(ast.Watermark); !ok {
			return false
		}
	}
	location := qn.Rest[0].Name
	source := func(nm string, at ir.Pos, stream bool, extra []ir.KV) *ir.Dataset {
		a := &fileArgs{pos: at, path: location, iceberg: true, opts: mergeOptions(base, extra, stream)}
		spec, cols, ok := c.icebergSpec(a, nm, nil, stream)
		if !ok {
			return nil
		}
		d := &ir.Dataset{Pos: at, Kind: ir.KindSource, Name: nm, Columns: cols, Source: spec}
		if stream {
			d.Watermark = wm
		}
		return d
	}
	stream := bindStream
	if primary != nil {
		stream = primary.stream
	}
	d := source(name, bind.Pos, stream, nil)
	if d == nil {
		return false
	}
	b.p.Datasets = append(b.p.Datasets, d)
	if primary != nil {
		for _, r := range primary.reads {
			r.scan.Name = name
		}
	}
	for _, g := range groups {
		if g == primary {
			continue
		}
		c.flow = g.reads[0].flow
		at := g.reads[0].scan.Pos
		ds := source(c.synthName("iceberg"), at, g.stream, g.extra)
		if ds == nil {
			continue
		}
		src := &synthSource{d: ds}
		for _, r := range g.reads {
			r.scan.Name = ds.Name
			src.scans = append(src.scans, r.scan)
		}
		b.p.Datasets = append(b.p.Datasets, ds)
		b.synthesized = append(b.synthesized, src)
	}
	return true
}

// optionsKey tells reads with different time travel or options apart.
func optionsKey(kvs []ir.KV) string {
	parts := make([]string, len(kvs))
	for i, kv := range kvs {
		parts[i] = strings.ToLower(kv.Key) + "=" + kv.Value
	}
	sort.Strings(parts)
	return strings.Join(parts, "\x00")
}

// mergeOptions are a read's options: the binding's that apply to it (the
// time travel to a snapshot read, the streaming options to a stream read;
// unknown ones, which check reports, to both), then the read's own, which
// replace the binding's of the same name.
func mergeOptions(base, extra []ir.KV, stream bool) []ir.KV {
	var out []ir.KV
	for _, kv := range base {
		if o, ok := iceopt.Lookup(kv.Key); ok && o.Stream != stream {
			continue
		}
		if slices.ContainsFunc(extra, func(e ir.KV) bool { return strings.EqualFold(e.Key, kv.Key) }) {
			continue
		}
		out = append(out, kv)
	}
	return append(out, extra...)
}
