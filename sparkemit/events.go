package sparkemit

import (
	"regexp"
	"strings"
)

// A pipeline server's events carry only a timestamp and a message, so the
// state of a flow, or of the run, is read from the message as Spark 4.1 and
// 4.2 word it:
//
//	Flow spark_catalog.db.t is QUEUED.
//	Flow spark_catalog.db.t has COMPLETED.
//	Flow 'spark_catalog.db.t' has FAILED.
//	Flow 'spark_catalog.db.t' SKIPPED due to upstream failure(s).
//	Run is COMPLETED.
var (
	flowEvent = regexp.MustCompile(`^Flow '?([^' ]+)'? (?:is|has) ([A-Z_]+)\b`)
	skipEvent = regexp.MustCompile(`^Flow '?([^' ]+)'? (SKIPPED|EXCLUDED)\b`)
	runEvent  = regexp.MustCompile(`^Run (?:is|has) ([A-Z_]+)\b`)
	errClass  = regexp.MustCompile(`\[([A-Z][A-Z0-9_]*(?:\.[A-Z][A-Z0-9_]*)*)\]`)
)

// EventState is what one event says about a flow or the run.
type EventState struct {
	Flow  string // the flow's name, as the server qualifies it; "" for the run
	State string // QUEUED, PLANNING, STARTING, RUNNING, COMPLETED, FAILED, SKIPPED, ...
}

// ParseEvent reads the state an event's message reports; ok is false for
// any other event (a progress line, an error's text).
func ParseEvent(msg string) (EventState, bool) {
	msg = strings.TrimSpace(msg)
	if m := flowEvent.FindStringSubmatch(msg); m != nil {
		return EventState{Flow: m[1], State: m[2]}, true
	}
	if m := skipEvent.FindStringSubmatch(msg); m != nil {
		return EventState{Flow: m[1], State: m[2]}, true
	}
	if m := runEvent.FindStringSubmatch(msg); m != nil {
		return EventState{State: m[1]}, true
	}
	return EventState{}, false
}

// ErrorClass is the first Spark error class in a message ("[INTERNAL_ERROR]
// ...", "[TABLE_OR_VIEW_NOT_FOUND] ..."), or "".
func ErrorClass(msg string) string {
	if m := errClass.FindStringSubmatch(msg); m != nil {
		return m[1]
	}
	return ""
}
