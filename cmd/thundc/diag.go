package main

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

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
func writeDiags(w io.Writer, diags ir.Diagnostics) {
	diags.Sort()
	for _, d := range diags {
		fmt.Fprintln(w, d.Error())
		if d.Source == "" || !d.Pos.IsValid() {
			continue
		}
		num := strconv.Itoa(d.Pos.Line)
		line := strings.TrimRight(d.Source, " \t\r\n")
		fmt.Fprintf(w, "    %s | %s\n", num, line)
		fmt.Fprintf(w, "    %s | %s^\n", strings.Repeat(" ", len(num)), caretPad(line, d.Pos.Col))
	}
}

// caretPad returns the blanks that put a caret under column col (1-based,
// counted in characters) of line: a tab where the line has a tab, so the
// caret lines up however tabs are shown, and a space elsewhere.
func caretPad(line string, col int) string {
	var b strings.Builder
	n := 0
	for _, r := range line {
		if n >= col-1 {
			break
		}
		if r == '\t' {
			b.WriteByte('\t')
		} else {
			b.WriteByte(' ')
		}
		n++
	}
	for ; n < col-1; n++ {
		b.WriteByte(' ')
	}
	return b.String()
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
