package etl

import (
	"fmt"
	"io"
	"os"
	"sync"

	"github.com/nordisk/thund/rt/run"
	"github.com/vbauerster/mpb/v8"
	"github.com/vbauerster/mpb/v8/decor"
)

// progress shows a run on stderr: a live display on a terminal, plain lines
// otherwise. The summary is printed after close.
type progress interface {
	// decision reports a dataset's fresh / stale decision.
	decision(d *decision)
	// flowStart and flowEnd bracket a flow's work.
	flowStart(f *run.Flow)
	flowEnd(f *run.Flow, failed bool)
	// note prints a line (warnings).
	note(line string)
	// close ends the display (before the summary is printed).
	close()
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

func (c *cli) newProgress() progress {
	live := c.live > 0 || (c.live == 0 && isTerminal(c.stderr))
	if live {
		return newLiveProgress(c.stderr, c.live > 0)
	}
	return &plainProgress{w: c.stderr}
}

func decisionLine(d *decision) string {
	return fmt.Sprintf("%s: %s, %s", d.Dataset.Name, d.Decision, d.Reason())
}

func flowLine(f *run.Flow, failed bool) string {
	name := f.Name
	if f.Target != "" && f.Target != f.Name {
		name += " -> " + f.Target
	}
	if failed {
		return fmt.Sprintf("flow %s: failed after %d rows in, %d rows out", name, f.RowsIn(), f.RowsOut())
	}
	return fmt.Sprintf("flow %s: %d rows in, %d rows out", name, f.RowsIn(), f.RowsOut())
}

// plainProgress writes one line per decision, per finished flow and per
// warning: for logs and pipes.
type plainProgress struct {
	mu sync.Mutex
	w  io.Writer
}

func (p *plainProgress) line(s string) {
	p.mu.Lock()
	defer p.mu.Unlock()
	fmt.Fprintln(p.w, s)
}

func (p *plainProgress) decision(d *decision)             { p.line(decisionLine(d)) }
func (p *plainProgress) flowStart(*run.Flow)              {}
func (p *plainProgress) flowEnd(f *run.Flow, failed bool) { p.line(flowLine(f, failed)) }
func (p *plainProgress) note(line string)                 { p.line(line) }
func (p *plainProgress) close()                           {}

// liveProgress is an mpb display: a spinner per running flow with its live
// row counts and elapsed time; decisions, finished flows and warnings scroll
// above it.
type liveProgress struct {
	w    io.Writer
	p    *mpb.Progress
	mu   sync.Mutex
	bars map[*run.Flow]*mpb.Bar
}

func newLiveProgress(w io.Writer, force bool) *liveProgress {
	opts := []mpb.ContainerOption{mpb.WithOutput(w)}
	if force {
		opts = append(opts, mpb.ForceTTY(), mpb.WithAutoRefresh())
	}
	return &liveProgress{w: w, p: mpb.New(opts...), bars: map[*run.Flow]*mpb.Bar{}}
}

func (l *liveProgress) decision(d *decision) { l.note(decisionLine(d)) }

func (l *liveProgress) note(line string) {
	if _, err := fmt.Fprintln(l.p, line); err != nil {
		fmt.Fprintln(l.w, line) // the display has stopped
	}
}

func (l *liveProgress) flowStart(f *run.Flow) {
	name := "flow " + f.Name
	if f.Target != "" && f.Target != f.Name {
		name += " -> " + f.Target
	}
	// Add, not New: New panics once the display has stopped (a terminal
	// error); then the flow simply gets no bar, and a line when it ends.
	bar, err := l.p.Add(0, mpb.SpinnerStyle().Build(),
		mpb.PrependDecorators(decor.Name(name, decor.WCSyncSpaceR)),
		mpb.AppendDecorators(
			decor.Any(func(decor.Statistics) string {
				return fmt.Sprintf("%d rows in, %d rows out", f.RowsIn(), f.RowsOut())
			}, decor.WCSyncSpace),
			decor.Elapsed(decor.ET_STYLE_GO, decor.WCSyncSpace),
		),
		mpb.BarWidth(12),
	)
	if err != nil {
		return
	}
	l.mu.Lock()
	l.bars[f] = bar
	l.mu.Unlock()
}

func (l *liveProgress) flowEnd(f *run.Flow, failed bool) {
	l.mu.Lock()
	bar := l.bars[f]
	delete(l.bars, f)
	l.mu.Unlock()
	// A finished flow leaves the live area and scrolls above it as the
	// line plain output has, so the display holds only running flows.
	if bar != nil {
		bar.Abort(true)
	}
	l.note(flowLine(f, failed))
}

func (l *liveProgress) close() {
	l.mu.Lock()
	for f, bar := range l.bars {
		bar.Abort(false)
		delete(l.bars, f)
	}
	l.mu.Unlock()
	l.p.Wait()
}
