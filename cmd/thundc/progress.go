package main

import (
	"fmt"
	"io"
	"os"
	"runtime"
	"time"

	"github.com/nordisk/thund/internal/gobuild"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// assumeColdEnv makes build and run behave as on a cold go build cache
// (gobuild.Request.AssumeCold): they announce the packages go build must
// compile and show its progress, even when there are none but the
// program's. Tests use it to see the cold path without a cold cache.
const assumeColdEnv = "THUNDC_ASSUME_COLD"

// buildReport tells the user, on stderr, what a build does: that it
// compiles the runtime and its dependencies when the go build cache lacks
// them (a one-time cost), its progress (a bar on a terminal, a line per
// quarter otherwise, for CI logs), and what it wrote. It is the
// gobuild.Progress of build and run; --quiet leaves it out.
type buildReport struct {
	w     io.Writer
	tty   bool
	start time.Time // when the command started
	now   func() time.Time

	cold     gobuild.Cold
	compiled int
	quarter  int // plain lines: the last quarter of Total printed

	p   *mpb.Progress // the bar on a terminal, while go build compiles
	bar *mpb.Bar
}

func newBuildReport(w io.Writer, start time.Time) *buildReport {
	return &buildReport{w: w, tty: isTerminal(w), start: start, now: time.Now}
}

// isTerminal reports whether w is a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	st, err := f.Stat()
	return err == nil && st.Mode()&os.ModeCharDevice != 0
}

// Cold implements gobuild.Progress.
func (r *buildReport) Cold(c gobuild.Cold) {
	r.cold = c
	fmt.Fprintln(r.w, coldLine(c, runtime.NumCPU()))
	if r.tty && c.Total > 0 {
		// One step more than the packages: the link, which go build
		// reports no event for; done completes it.
		total := c.Total
		r.p = mpb.New(mpb.WithOutput(r.w), mpb.WithWidth(32))
		r.bar = r.p.AddBar(int64(total+1),
			mpb.PrependDecorators(decor.Any(func(s decor.Statistics) string { return barText(s.Current, total) }, decor.WCSyncSpaceR)),
			mpb.AppendDecorators(decor.Elapsed(decor.ET_STYLE_MMSS)),
		)
	}
}

// barText is the bar's label after done of total packages were compiled:
// the link follows the last.
func barText(done int64, total int) string {
	if done >= int64(total) {
		return fmt.Sprintf("thundc: linking, %d of %d packages compiled", total, total)
	}
	return fmt.Sprintf("thundc: compiling, %d of %d packages", done, total)
}

// Compiled implements gobuild.Progress.
func (r *buildReport) Compiled(string) {
	r.compiled++
	if r.bar != nil {
		r.bar.Increment()
		return
	}
	if line, ok := plainProgress(r.compiled, r.cold.Total, &r.quarter, r.now().Sub(r.start)); ok {
		fmt.Fprintln(r.w, line)
	}
}

// done ends the bar, if any, before anything else is printed.
func (r *buildReport) done() {
	if r.p == nil {
		return
	}
	r.bar.SetTotal(-1, true) // complete at the current count (an error stops it short)
	r.p.Wait()
	r.p, r.bar = nil, nil
}

// wrote prints what the build wrote (build) or built (run), its size and
// how long the command took.
func (r *buildReport) wrote(verb, name, file string, cached bool) {
	r.done()
	var size int64 = -1
	if st, err := os.Stat(file); err == nil {
		size = st.Size()
	}
	fmt.Fprintln(r.w, wroteLine(verb, name, size, r.now().Sub(r.start), cached))
}

// coldLine announces a cold build: the one-time cost, how many packages and
// about how long, on a machine of cores cores.
func coldLine(c gobuild.Cold, cores int) string {
	const what = "thundc: compiling the runtime and its dependencies"
	if c.Late {
		return what + " (the Go build cache no longer holds them)"
	}
	where := fmt.Sprintf("on %d cores", cores)
	if c.Measured {
		where = "on this machine"
	}
	return fmt.Sprintf("%s, once (%s, about %s %s)", what, packages(c.Packages), approx(c.Estimate), where)
}

// packages is "1 package", "19 packages".
func packages(n int) string {
	if n == 1 {
		return "1 package"
	}
	return fmt.Sprintf("%d packages", n)
}

// plainProgress is the line to print, if any, after done of total packages
// were compiled: one at each quarter of total reached (quarter holds the
// last one printed), or every 100 packages when total is not known.
func plainProgress(done, total int, quarter *int, elapsed time.Duration) (string, bool) {
	if total <= 0 {
		if done%100 != 0 {
			return "", false
		}
		return fmt.Sprintf("thundc: compiled %d packages in %s", done, clock(elapsed)), true
	}
	q := min(done*4/total, 4)
	if q <= *quarter {
		return "", false
	}
	*quarter = q
	return fmt.Sprintf("thundc: compiled %d of %d packages in %s", done, total, clock(elapsed)), true
}

// wroteLine is "thundc: wrote etl (54 MB) in 2.1 s", with "from the cache"
// for a cached build; size < 0 leaves the size out.
func wroteLine(verb, name string, size int64, elapsed time.Duration, cached bool) string {
	s := "thundc: " + verb + " " + name
	if size >= 0 {
		s += " (" + bytesText(size) + ")"
	}
	if cached {
		s += " from the cache"
	}
	return s + " in " + clock(elapsed)
}

// clock renders a duration for a user: "0.4 s", "12 s", "3m05s".
func clock(d time.Duration) string {
	switch {
	case d < 10*time.Second:
		return fmt.Sprintf("%.1f s", d.Seconds())
	case d < time.Minute:
		return fmt.Sprintf("%d s", int(d.Round(time.Second).Seconds()))
	}
	d = d.Round(time.Second)
	return fmt.Sprintf("%dm%02ds", int(d.Minutes()), int(d.Seconds())%60)
}

// approx renders an estimate: "20 s", "40 s", "4 min" (to 10 s below two
// minutes, to the minute above).
func approx(d time.Duration) string {
	if d < 2*time.Minute {
		return fmt.Sprintf("%d s", max(10, int(d.Round(10*time.Second).Seconds())))
	}
	return fmt.Sprintf("%d min", int(d.Round(time.Minute).Minutes()))
}

// bytesText renders a file size in decimal units: "812 kB", "54 MB".
func bytesText(n int64) string {
	switch {
	case n < 1000:
		return fmt.Sprintf("%d B", n)
	case n < 1000*1000:
		return fmt.Sprintf("%d kB", (n+500)/1000)
	}
	return fmt.Sprintf("%d MB", (n+500_000)/1000_000)
}
