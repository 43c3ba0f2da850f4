// Package iceopt holds the read options of an Iceberg source as the
// compiler judges them (thundc check refuses what the runtime would; rt/etl
// parses them again as a safety net). The names are Spark's Iceberg read
// options, so that a Spark target takes them as written, plus Thund's own
// thund.non-append. It imports only the standard library, so that the
// runtime may share it.
package iceopt

import (
	"fmt"
	"strconv"
	"strings"
)

// The options a source takes.
const (
	SnapshotID         = "snapshot-id"                        // time travel to a snapshot (a snapshot read)
	AsOfTimestamp      = "as-of-timestamp"                    // time travel to a time, ms since the epoch (a snapshot read)
	SkipOverwrite      = "streaming-skip-overwrite-snapshots" // a stream read skips overwrite snapshots
	SkipDelete         = "streaming-skip-delete-snapshots"    // a stream read skips delete snapshots
	NonAppend          = "thund.non-append"                   // what a stream read does on a non-append snapshot
	NonAppendFail      = "fail"                               // an error naming the snapshot (the default, as Spark's)
	NonAppendSkip      = "skip"                               // both streaming-skip options
	NonAppendRecompute = "recompute"                          // rebuild the flow's target from the current snapshot
)

// Option is one option an Iceberg source takes.
type Option struct {
	Name   string
	Values []string // the accepted values (nil: a number, checked by Check)
	Stream bool     // a stream read's option (true) or a snapshot read's (false)
	Native bool     // Thund's own: Spark targets refuse a value other than the first
	Doc    string
}

// Options are the options of an Iceberg source, in documentation order.
var Options = []Option{
	{Name: SnapshotID, Doc: "time travel: read this snapshot (SQL: VERSION AS OF id)"},
	{Name: AsOfTimestamp, Doc: "time travel: read the snapshot current at this time, in milliseconds since the epoch (SQL: TIMESTAMP AS OF '...')"},
	{Name: SkipOverwrite, Values: []string{"false", "true"}, Stream: true, Doc: "a stream read skips overwrite snapshots instead of failing (default false)"},
	{Name: SkipDelete, Values: []string{"false", "true"}, Stream: true, Doc: "a stream read skips delete snapshots instead of failing (default false)"},
	{Name: NonAppend, Values: []string{NonAppendFail, NonAppendSkip, NonAppendRecompute}, Stream: true, Native: true,
		Doc: "on an overwrite or delete snapshot a stream read fails (default), skips it, or recomputes the flow's target from the current snapshot"},
}

// sparkOnly are Spark's Iceberg read options that Thund does not take.
var sparkOnly = []string{
	"branch", "tag", "start-snapshot-id", "end-snapshot-id", "stream-from-timestamp",
	"streaming-max-files-per-micro-batch", "streaming-max-rows-per-micro-batch",
	"split-size", "lookback", "file-open-cost", "vectorization-enabled", "batch-size",
}

// Lookup finds the option of name, in any case.
func Lookup(name string) (Option, bool) {
	for _, o := range Options {
		if strings.EqualFold(o.Name, name) {
			return o, true
		}
	}
	return Option{}, false
}

// Names lists the option names.
func Names() []string {
	out := make([]string, len(Options))
	for i, o := range Options {
		out[i] = o.Name
	}
	return out
}

// SparkOnly says whether name is one of Spark's Iceberg read options that
// Thund does not take.
func SparkOnly(name string) bool {
	for _, n := range sparkOnly {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// CheckValue checks one known option's value; stream says whether the
// source is read as a stream.
func CheckValue(o Option, value string, stream bool) error {
	switch {
	case o.Stream && !stream:
		return fmt.Errorf("applies to stream reads only (declare the source with stream, or read it with STREAM)")
	case !o.Stream && stream:
		return fmt.Errorf("is a time travel, which a stream read cannot take (a stream reads every append snapshot after the last one it consumed)")
	}
	if o.Values == nil {
		n, err := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
		if err != nil {
			return fmt.Errorf("want an integer, got %q", value)
		}
		if o.Name == AsOfTimestamp && n < 0 {
			return fmt.Errorf("want milliseconds since 1970-01-01 00:00:00 UTC, got %q", value)
		}
		return nil
	}
	for _, v := range o.Values {
		if strings.EqualFold(v, value) {
			return nil
		}
	}
	return fmt.Errorf("want %s or %s, got %q", strings.Join(o.Values[:len(o.Values)-1], ", "), o.Values[len(o.Values)-1], value)
}

// Int is a number option's value (Check has accepted it).
func Int(value string) int64 {
	n, _ := strconv.ParseInt(strings.TrimSpace(value), 10, 64)
	return n
}
