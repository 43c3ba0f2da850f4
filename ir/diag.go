package ir

import (
	"bytes"
	"cmp"
	"fmt"
	"sort"
	"strings"
)

// Pos is a source position. Line and Col are 1-based; a zero Pos is unknown.
type Pos struct {
	File   string
	Offset int
	Line   int
	Col    int
}

// IsValid reports whether the position is known.
func (p Pos) IsValid() bool { return p.Line > 0 }

// String renders the position as file:line:col (or "-" when unknown).
func (p Pos) String() string {
	if !p.IsValid() {
		if p.File != "" {
			return p.File
		}
		return "-"
	}
	f := p.File
	if f == "" {
		f = "<input>"
	}
	return fmt.Sprintf("%s:%d:%d", f, p.Line, p.Col)
}

// Severity of a diagnostic.
type Severity int

const (
	Error Severity = iota
	Warning
)

// Diagnostic is one positioned message. Code names its class in the
// catalogue (see Codes); Source, when set, is the offending line's text, used
// to draw a caret.
type Diagnostic struct {
	Pos      Pos
	Severity Severity
	Code     Code
	Msg      string
	Source   string
}

// Error renders "file:line:col: message [code]".
func (d *Diagnostic) Error() string {
	var b strings.Builder
	b.WriteString(d.Pos.String())
	b.WriteString(": ")
	if d.Severity == Warning {
		b.WriteString("warning: ")
	}
	b.WriteString(d.Msg)
	if d.Code != "" {
		fmt.Fprintf(&b, " [%s]", d.Code)
	}
	return b.String()
}

// Diagnostics is a list of diagnostics, in the style of go/scanner.ErrorList.
type Diagnostics []*Diagnostic

// Add appends an error diagnostic.
func (l *Diagnostics) Add(pos Pos, code Code, format string, args ...any) {
	*l = append(*l, &Diagnostic{Pos: pos, Code: code, Msg: fmt.Sprintf(format, args...)})
}

// Warn appends a warning diagnostic.
func (l *Diagnostics) Warn(pos Pos, code Code, format string, args ...any) {
	*l = append(*l, &Diagnostic{Pos: pos, Severity: Warning, Code: code, Msg: fmt.Sprintf(format, args...)})
}

// Compare orders positions by file, then line, then column: -1, 0 or +1.
func (p Pos) Compare(q Pos) int {
	switch {
	case p.File != q.File:
		return strings.Compare(p.File, q.File)
	case p.Line != q.Line:
		return cmp.Compare(p.Line, q.Line)
	}
	return cmp.Compare(p.Col, q.Col)
}

// Sort orders the list by file, line, column, then message, and removes exact duplicates.
func (l *Diagnostics) Sort() {
	s := *l
	sort.SliceStable(s, func(i, j int) bool {
		if c := s[i].Pos.Compare(s[j].Pos); c != 0 {
			return c < 0
		}
		return s[i].Msg < s[j].Msg
	})
	out := s[:0]
	for i, d := range s {
		if i > 0 && d.Error() == s[i-1].Error() {
			continue
		}
		out = append(out, d)
	}
	*l = out
}

// HasErrors reports whether any diagnostic is an error (not a warning).
func (l Diagnostics) HasErrors() bool {
	for _, d := range l {
		if d.Severity == Error {
			return true
		}
	}
	return false
}

// Err returns nil when the list holds no errors, and the list otherwise.
func (l Diagnostics) Err() error {
	if !l.HasErrors() {
		return nil
	}
	return l
}

// Error renders one diagnostic per line.
func (l Diagnostics) Error() string {
	var b strings.Builder
	for i, d := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(d.Error())
	}
	return b.String()
}

// Code names a class of diagnostic. Every code is listed in Codes, and a test
// checks that each one has a golden script.
type Code string

// CodeInfo documents a diagnostic class.
type CodeInfo struct {
	Code    Code
	Phase   string // "parse", "validate", "resolve", "sanity", "capability", "cli"
	Summary string
}

// The catalogue of named diagnostics.
const (
	CodeSyntax         Code = "syntax"           // the text does not match the grammar
	CodeLex            Code = "lex"              // an invalid token
	CodeBadLiteral     Code = "bad-literal"      // a literal that cannot be represented (overflow, bad date)
	CodeBadDuration    Code = "bad-duration"     // a malformed or negative duration
	CodeUnknownType    Code = "unknown-type"     // a type name the model does not have
	CodeDuplicateName  Code = "duplicate-name"   // two datasets or flows share a name
	CodeDanglingRef    Code = "dangling-ref"     // a read or target of an undefined dataset
	CodeCycle          Code = "cycle"            // datasets depend on themselves
	CodeBadTarget      Code = "bad-target"       // a flow targets something it may not
	CodeBadName        Code = "bad-name"         // not a valid warehouse name
	CodeBadDataset     Code = "bad-dataset"      // a dataset declaration that is inconsistent
	CodeUnknownColumn  Code = "unknown-column"   // a column reference that does not resolve
	CodeAmbiguous      Code = "ambiguous"        // a column reference that resolves twice
	CodeUnknownFunc    Code = "unknown-function" // a function the catalogue does not have
	CodeArity          Code = "arity"            // a function called with the wrong number of arguments
	CodeTypeMismatch   Code = "type-mismatch"    // operand types that do not fit
	CodeBadAggregate   Code = "bad-aggregate"    // aggregate misuse (nesting, outside aggregate, non-grouped column)
	CodeBadCast        Code = "bad-cast"         // a cast Spark refuses
	CodeBadWindow      Code = "bad-window"       // window function misuse (no OVER, no ORDER BY, a frame it cannot take, a misplaced window)
	CodeSchemaMismatch Code = "schema-mismatch"  // a flow's output does not fit its target's declared schema
	CodeUnboundedAgg   Code = "unbounded-aggregate"
	CodeUnboundedSort  Code = "unbounded-sort"
	CodeUnboundedDist  Code = "unbounded-distinct"
	CodeNoWatermark    Code = "window-without-watermark"
	CodeUnboundedJoin  Code = "stream-join-without-bound"
	CodeMVReadsStream  Code = "mv-reads-stream"
	CodeBadEmit        Code = "bad-emit" // an emit or output mode that does not fit the flow
	CodeCapability     Code = "capability"
	CodeIcebergType    Code = "iceberg-type" // a column type an Iceberg table cannot hold

	// session confs
	CodeBadConf Code = "bad-conf" // a conf value Spark refuses (an unknown time zone)
)

// Codes is the catalogue of diagnostic classes, in presentation order.
var Codes = []CodeInfo{
	{CodeLex, "parse", "a character sequence that is not a token"},
	{CodeSyntax, "parse", "the text does not match the grammar; the message names what was expected"},
	{CodeBadLiteral, "parse", "a literal that cannot be represented"},
	{CodeBadDuration, "parse", "a malformed duration"},
	{CodeUnknownType, "parse", "a type name that is not one of the model's Arrow types"},
	{CodeDuplicateName, "validate", "two datasets, two flows, two columns or two expectations share a name"},
	{CodeDanglingRef, "validate", "a read, target or reference names no dataset"},
	{CodeCycle, "validate", "datasets that depend on themselves; the cycle is printed"},
	{CodeBadTarget, "validate", "a flow that targets what it may not (a source, a view with another flow)"},
	{CodeBadName, "validate", "a dataset name that is not a valid warehouse name [a-z0-9][a-z0-9_-]*"},
	{CodeBadDataset, "validate", "an inconsistent dataset declaration (a sink with a query, a source without paths, ...)"},
	{CodeUnknownColumn, "resolve", "a column reference that does not resolve"},
	{CodeAmbiguous, "resolve", "a column reference that matches more than one input column"},
	{CodeUnknownFunc, "resolve", "a function the catalogue does not have"},
	{CodeArity, "resolve", "a function called with the wrong number of arguments"},
	{CodeTypeMismatch, "resolve", "operand or argument types that do not fit (sum(string), timestamp = string)"},
	{CodeBadAggregate, "resolve", "an aggregate where none is allowed, nested aggregates, or a non-grouped column"},
	{CodeBadCast, "resolve", "a cast that Spark's ANSI rules refuse"},
	{CodeBadWindow, "resolve", "a window function without OVER, without the ORDER BY it needs, with a frame it cannot take, or outside a select"},
	{CodeSchemaMismatch, "resolve", "a flow's output that does not fit its target's schema"},
	{CodeUnboundedAgg, "sanity", "an unwindowed aggregate over unbounded input in append mode"},
	{CodeUnboundedSort, "sanity", "a sort or limit over unbounded input"},
	{CodeUnboundedDist, "sanity", "a distinct over unbounded input without a window and a watermark"},
	{CodeNoWatermark, "sanity", "a window over a stream that has no watermark"},
	{CodeUnboundedJoin, "sanity", "a stream-stream join without a time bound"},
	{CodeMVReadsStream, "sanity", "a materialized view that reads a stream"},
	{CodeBadEmit, "sanity", "an emit or output mode that the flow cannot honour"},
	{CodeCapability, "capability", "a feature the chosen target cannot run"},
	{CodeIcebergType, "capability", "a column type that an Iceberg table (format iceberg, or the default) cannot hold: uint32, uint64, timestamp(ns), a duration"},
	{CodeBadConf, "resolve", "a session conf value Spark refuses (an unknown time zone, a non-boolean spark.sql.ansi.enabled)"},
}

// NormalizeLineEnds returns src with each carriage return that does not
// start a CRLF pair replaced by a line feed, so that a file with old Mac
// line ends (CR only) reads as lines, as CRLF and LF files do. Offsets are
// unchanged; src is not modified.
func NormalizeLineEnds(src []byte) []byte {
	i := bytes.IndexByte(src, '\r')
	if i < 0 {
		return src
	}
	out := append([]byte(nil), src...)
	for ; i < len(out); i++ {
		if out[i] == '\r' && (i+1 == len(out) || out[i+1] != '\n') {
			out[i] = '\n'
		}
	}
	return out
}
