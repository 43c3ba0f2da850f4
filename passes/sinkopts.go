package passes

import (
	"fmt"
	"strings"

	"github.com/nordisk/thund/internal/suggest"
	"github.com/nordisk/thund/ir"
)

// File sink options, checked where the pipeline names them, so that check
// gives the verdict the runtime would (rt/etl's sinkMode, which stays as
// the safety net, takes the same list):
//
//   - the options a file sink (parquet, csv, jsonl) takes: path (required,
//     not empty) and mode;
//   - mode's value: append or replace;
//   - mode replace on a streaming sink (a flow into it reads a stream) is
//     refused: a streaming sink appends each epoch's rows, and replacing
//     the output with one epoch's rows would lose the others.

// fileSinkOptions are the options a file sink takes, as the docs spell them.
var fileSinkOptions = []string{"path", "mode"}

// sinkModes are the values of a file sink's mode option.
var sinkModes = []string{"append", "replace"}

// fileSink checks one file sink's options.
func (c *capChecker) fileSink(d *ir.Dataset) {
	switch strings.ToLower(d.Format) {
	case "stdout", "console", "kafka":
		return
	}
	format := strings.ToLower(d.Format)
	if format == "" {
		format = "parquet"
	}
	hasPath := false
	defer func() {
		if !hasPath {
			c.u.Diags.Add(d.Pos, ir.CodeBadDataset, "sink %s: a %s sink needs the path option: the folder its files go to (options (\"path\" = \"out/%s\"))", d.Name, format, d.Name)
		}
	}()
	for _, kv := range d.SinkOptions {
		pos := kv.Pos
		if !pos.IsValid() {
			pos = d.Pos
		}
		key := strings.ToLower(kv.Key)
		switch key {
		case "path":
			hasPath = strings.TrimSpace(kv.Value) != ""
		case "mode":
			m := strings.ToLower(kv.Value)
			switch {
			case m != "append" && m != "replace":
				c.u.Diags.Add(pos, ir.CodeBadDataset, "sink %s: mode %q: want %s", d.Name, kv.Value, strings.Join(sinkModes, " or "))
			case m == "replace" && c.u.StreamingSink(d):
				c.u.Diags.Add(pos, ir.CodeBadDataset, "sink %s: mode replace: a flow into it reads a stream, so it appends each epoch's rows; replacing would lose the earlier epochs' rows (want mode append, or omit the mode)", d.Name)
			}
		default:
			hint := ""
			if near, ok := suggest.Closest(kv.Key, fileSinkOptions); ok {
				hint = fmt.Sprintf(" (did you mean %s?)", near)
			}
			c.u.Diags.Add(pos, ir.CodeBadDataset, "sink %s: unknown option %q%s: a %s sink takes %s", d.Name, kv.Key, hint, format, strings.Join(fileSinkOptions, ", "))
		}
	}
}

// SinkMode is a file sink's mode, lower-cased: its mode option, else
// append for a streaming sink and replace for a batch sink; "" for a sink
// that has no mode (stdout, Kafka).
func (u *Unit) SinkMode(d *ir.Dataset) string {
	switch strings.ToLower(d.Format) {
	case "stdout", "console", "kafka":
		return ""
	}
	for _, kv := range d.SinkOptions {
		if strings.EqualFold(kv.Key, "mode") {
			return strings.ToLower(kv.Value)
		}
	}
	if u.StreamingSink(d) {
		return "append"
	}
	return "replace"
}

// StreamingSink reports whether a flow into the sink reads a stream (a
// streaming sink, which appends each epoch's rows; else a batch sink,
// recomputed whole each run that rebuilds it).
func (u *Unit) StreamingSink(d *ir.Dataset) bool {
	for _, f := range u.flowsInto(d) {
		if fi := u.Flows[f]; fi != nil && len(fi.Inputs) > 0 {
			for _, in := range fi.Inputs {
				if in.Stream {
					return true
				}
			}
			continue
		}
		if f.Query != nil {
			for _, s := range ir.Scans(f.Query) {
				if s.Stream {
					return true
				}
			}
		}
	}
	return false
}
