package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/nordisk/thund/ir"
)

// addSource fills in Diagnostic.Source, where a diagnostic points into the
// given file and left it empty, with the text of the line it points at, so
// that every diagnostic with a position gets a caret.
func addSource(diags ir.Diagnostics, file string, text []byte) {
	if text == nil {
		addSourceFromFiles(diags)
		return
	}
	defer addSourceFromFiles(diags)
	var lines [][]byte
	for _, d := range diags {
		if d.Source != "" || d.Pos.File != file || !d.Pos.IsValid() {
			continue
		}
		if lines == nil {
			lines = bytes.Split(text, []byte("\n"))
		}
		if d.Pos.Line <= len(lines) {
			d.Source = string(lines[d.Pos.Line-1])
		}
	}
}

// addSourceFromFiles fills in the source line of each diagnostic that has
// none from the file its position names, when that is a regular file of
// at most 16 MiB (an SQL file, a spec): inputs other than one .thund text
// get carets too.
func addSourceFromFiles(diags ir.Diagnostics) {
	files := map[string][][]byte{}
	for _, d := range diags {
		if d.Source != "" || !d.Pos.IsValid() || d.Pos.File == "" {
			continue
		}
		lines, seen := files[d.Pos.File]
		if !seen {
			if st, err := os.Stat(d.Pos.File); err == nil && st.Mode().IsRegular() && st.Size() <= 16<<20 {
				if text, err := os.ReadFile(d.Pos.File); err == nil {
					lines = bytes.Split(text, []byte("\n"))
				}
			}
			files[d.Pos.File] = lines
		}
		if d.Pos.Line <= len(lines) {
			d.Source = strings.TrimRight(string(lines[d.Pos.Line-1]), "\r")
		}
	}
}

// writeDiags prints the diagnostics, sorted, one per line as
// "file:line:col: message [code]", each followed, when its source line is
// known, by that line and a caret under the column:
//
//	p.thund:3:8: "x" is not a dataset of this pipeline [dangling-ref]
//	    3 |   from x
//	      |        ^
//
// What the input holds is shown, never obeyed: bytes that are not UTF-8 and
// control characters, in the message (a quoted name, a path) and in the
// source line alike, are escaped (printable), so a hostile file cannot
// recolour, move or clear the terminal, or hide text behind a bidirectional
// override.
func writeDiags(w io.Writer, diags ir.Diagnostics) {
	diags.Sort()
	for _, d := range diags {
		fmt.Fprintln(w, printable(d.Error(), false))
		if d.Source == "" || !d.Pos.IsValid() {
			continue
		}
		num := strconv.Itoa(d.Pos.Line)
		line := strings.TrimRight(d.Source, " \t\r\n")
		fmt.Fprintf(w, "    %s | %s\n", num, printable(line, true))
		fmt.Fprintf(w, "    %s | %s^\n", strings.Repeat(" ", len(num)), caretPad(line, d.Pos.Col))
	}
}

// caretPad returns the blanks that put a caret under column col (1-based,
// counted in characters) of line as printable shows it: a tab where the
// line has a tab, so the caret lines up however tabs are shown, as many
// spaces as an escaped character's escape is long, and a space elsewhere.
func caretPad(line string, col int) string {
	var b strings.Builder
	n := 0
	for i := 0; i < len(line) && n < col-1; n++ {
		esc, size := escapeAt(line[i:], true)
		switch {
		case line[i] == '\t':
			b.WriteByte('\t')
		case esc != "":
			b.WriteString(strings.Repeat(" ", len(esc)))
		default:
			b.WriteByte(' ')
		}
		i += size
	}
	for ; n < col-1; n++ {
		b.WriteByte(' ')
	}
	return b.String()
}

// printable returns s with what a terminal would act on, or could not
// show, escaped in Go's notation: a byte that is not UTF-8 as \xff, a
// control character (C0 but a tab when keepTab, DEL, C1) as \x1b or
// \u0085, and a bidirectional formatting character as \u202e.
func printable(s string, keepTab bool) string {
	var b strings.Builder
	done := 0 // s[:done] is in b
	for i := 0; i < len(s); {
		esc, size := escapeAt(s[i:], keepTab)
		if esc != "" {
			b.WriteString(s[done:i])
			b.WriteString(esc)
			done = i + size
		}
		i += size
	}
	if done == 0 {
		return s
	}
	b.WriteString(s[done:])
	return b.String()
}

// escapeAt decodes the character s starts with and returns printable's
// escape for it ("" when it is shown as it is) and its length in bytes.
func escapeAt(s string, keepTab bool) (string, int) {
	r, size := utf8.DecodeRuneInString(s)
	switch {
	case r == utf8.RuneError && size == 1:
		return fmt.Sprintf("\\x%02x", s[0]), 1
	case r == '\t' && keepTab:
		return "", size
	case r < 0x20 || r == 0x7f:
		return fmt.Sprintf("\\x%02x", r), size
	case r >= 0x80 && r <= 0x9f, // C1 controls
		r >= 0x202a && r <= 0x202e, r >= 0x2066 && r <= 0x2069, // bidirectional embeddings, overrides, isolates
		r == 0x200e, r == 0x200f, r == 0x061c: // bidirectional marks
		return fmt.Sprintf("\\u%04x", r), size
	}
	return "", size
}

// diagJSON is one diagnostic in --json output.
type diagJSON struct {
	File     string `json:"file"`
	Line     int    `json:"line"`
	Col      int    `json:"col"`
	Severity string `json:"severity"` // "error" or "warning"
	Code     string `json:"code"`
	Message  string `json:"message"`
}

// diagsJSON returns the diagnostics, sorted, in their --json form (never nil).
func diagsJSON(diags ir.Diagnostics) []diagJSON {
	diags.Sort()
	out := []diagJSON{}
	for _, d := range diags {
		sev := "error"
		if d.Severity == ir.Warning {
			sev = "warning"
		}
		out = append(out, diagJSON{
			File: d.Pos.File, Line: d.Pos.Line, Col: d.Pos.Col,
			Severity: sev, Code: string(d.Code), Message: d.Msg,
		})
	}
	return out
}

// result is the --json envelope of check, and of the other commands when
// they fail before they have anything else to print.
type result struct {
	OK          bool       `json:"ok"`
	Diagnostics []diagJSON `json:"diagnostics"`
}

func newResult(diags ir.Diagnostics) result {
	return result{OK: !diags.HasErrors(), Diagnostics: diagsJSON(diags)}
}

// report prints diagnostics as text to stderr, or asJSON as the result
// envelope to stdout, and returns 1 when there is an error and 0 otherwise.
func report(c *cli, asJSON bool, diags ir.Diagnostics) int {
	if asJSON {
		if st := writeJSON(c, newResult(diags)); st != exitOK {
			return st
		}
	} else {
		writeDiags(c.stderr, diags)
	}
	if diags.HasErrors() {
		return exitDiags
	}
	return exitOK
}
