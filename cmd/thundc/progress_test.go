package main

import (
	"bytes"
	"runtime"
	"strconv"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/gobuild"
)

// TestBuildReportPlain feeds a report what a cold build tells it, off a
// terminal (CI logs): the announcement, a line at each quarter of the
// packages, and what was written, with the time since the command started.
func TestBuildReportPlain(t *testing.T) {
	var w bytes.Buffer
	start := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	r := newBuildReport(&w, start)
	clockAt := start
	r.now = func() time.Time { return clockAt }
	r.Cold(gobuild.Cold{Packages: 9, Total: 10, Files: 100, Estimate: 95 * time.Second})
	for i := range 10 {
		clockAt = clockAt.Add(7 * time.Second)
		r.Compiled("p" + string(rune('a'+i)))
	}
	clockAt = clockAt.Add(15*time.Second + 300*time.Millisecond)
	r.wrote("wrote", "etl", "no-such-file", false)
	want := `thundc: compiling the runtime and its dependencies, once (9 packages, about 100 s on ` + strconv.Itoa(runtime.NumCPU()) + ` cores)
thundc: compiled 3 of 10 packages in 21 s
thundc: compiled 5 of 10 packages in 35 s
thundc: compiled 8 of 10 packages in 56 s
thundc: compiled 10 of 10 packages in 1m10s
thundc: wrote etl in 1m25s
`
	if got := w.String(); got != want {
		t.Fatalf("got\n%s\nwant\n%s", got, want)
	}
}

func TestProgressLines(t *testing.T) {
	for _, tc := range []struct {
		c     gobuild.Cold
		cores int
		want  string
	}{
		{gobuild.Cold{Packages: 612, Files: 4000, Estimate: 400 * time.Second}, 2, "thundc: compiling the runtime and its dependencies, once (612 packages, about 7 min on 2 cores)"},
		{gobuild.Cold{Packages: 19, Files: 150, Estimate: 34 * time.Second, Measured: true}, 8, "thundc: compiling the runtime and its dependencies, once (19 packages, about 30 s on this machine)"},
		{gobuild.Cold{Packages: 1, Estimate: time.Second}, 2, "thundc: compiling the runtime and its dependencies, once (1 package, about 10 s on 2 cores)"},
		{gobuild.Cold{Late: true}, 2, "thundc: compiling the runtime and its dependencies (the Go build cache no longer holds them)"},
	} {
		if got := coldLine(tc.c, tc.cores); got != tc.want {
			t.Errorf("coldLine(%+v)\n got %s\nwant %s", tc.c, got, tc.want)
		}
	}
	for _, tc := range []struct {
		verb   string
		size   int64
		d      time.Duration
		cached bool
		want   string
	}{
		{"wrote", 54_321_000, 2100 * time.Millisecond, false, "thundc: wrote ./etl (54 MB) in 2.1 s"},
		{"wrote", 54_321_000, 120 * time.Millisecond, true, "thundc: wrote ./etl (54 MB) from the cache in 0.1 s"},
		{"built", 812_300, 42*time.Second + 400*time.Millisecond, false, "thundc: built ./etl (812 kB) in 42 s"},
		{"wrote", 999, 3*time.Minute + 41*time.Second, false, "thundc: wrote ./etl (999 B) in 3m41s"},
	} {
		if got := wroteLine(tc.verb, "./etl", tc.size, tc.d, tc.cached); got != tc.want {
			t.Errorf("got  %s\nwant %s", got, tc.want)
		}
	}
	// The bar's label: compiling, then linking once every package is.
	if got := barText(3, 19); got != "thundc: compiling, 3 of 19 packages" {
		t.Errorf("barText(3, 19) = %q", got)
	}
	if got := barText(19, 19); got != "thundc: linking, 19 of 19 packages compiled" {
		t.Errorf("barText(19, 19) = %q", got)
	}
	// Without a total (a late announcement): every 100 packages.
	q := 0
	var lines []string
	for done := 1; done <= 250; done++ {
		if l, ok := plainProgress(done, 0, &q, time.Minute); ok {
			lines = append(lines, l)
		}
	}
	if len(lines) != 2 || lines[1] != "thundc: compiled 200 packages in 1m00s" {
		t.Fatalf("%q", lines)
	}
}
