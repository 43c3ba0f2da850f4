package etl

import (
	"fmt"
	"os"
	"strings"

	"github.com/nordisk/thund/rt/format"
)

// Fail fast: before any flow of a run starts, every source the run's
// selection reads is checked, and every problem found is listed in one
// error (*SourceCheckError); then nothing runs. A source's kind says what to
// check (sourceKind.check): files whose patterns must match (a watched
// folder may be empty), the schema or header of each file the run will read,
// standard input. A new kind of source (Kafka: brokers reachable, topics
// there) adds a kind and its case in check.

// SourceCheckError lists the problems found in the sources before a run.
type SourceCheckError struct {
	Problems []error
}

func (e *SourceCheckError) Error() string {
	var b strings.Builder
	if len(e.Problems) == 1 {
		b.WriteString("a source failed its check before any flow ran: ")
	} else {
		fmt.Fprintf(&b, "%d problems in the sources, found before any flow ran:", len(e.Problems))
	}
	for _, p := range e.Problems {
		if len(e.Problems) > 1 {
			b.WriteString("\n    ")
		}
		b.WriteString(p.Error())
	}
	return b.String()
}

// Unwrap gives errors.As the problems (the event log classifies the first).
func (e *SourceCheckError) Unwrap() []error { return e.Problems }

// sourceKind is how a source's rows arrive, which says what to check.
type sourceKind int

const (
	filesSource   sourceKind = iota // files matched by patterns, at least one
	watchedSource                   // a watched folder: may be empty
	stdinSource                     // an Arrow IPC stream on standard input
	kafkaSource                     // Kafka topics (kafka_source.go)
	icebergSource                   // an Iceberg table (iceberg_source.go)
)

func kindOf(src *Dataset) sourceKind {
	switch {
	case isKafka(src):
		return kafkaSource
	case isIceberg(src):
		return icebergSource
	case src.Source.Stdin:
		return stdinSource
	case src.Source.Unbounded:
		return watchedSource
	}
	return filesSource
}

// sourceRead is one read of a source by a flow the run may run.
type sourceRead struct {
	reader *Dataset // the dataset (or view) whose flow reads
	flow   *Flow
	stream bool
}

// check returns the problems of src for the reads that the run may make.
func (k sourceKind) check(ex *executor, src *Dataset, reads []sourceRead) []error {
	switch k {
	case stdinSource:
		if ex.feed == nil && ex.c.stdin == nil {
			return []error{fmt.Errorf("source %s reads standard input, and there is none", src.Name)}
		}
		if f, ok := ex.c.stdin.(*os.File); ok && ex.feed == nil {
			if st, err := f.Stat(); err == nil && st.Mode()&os.ModeCharDevice != 0 {
				return []error{fmt.Errorf("source %s reads an Arrow IPC stream on standard input, which is a terminal; pipe the stream in (etl run < FILE)", src.Name)}
			}
		}
		return nil
	case filesSource, watchedSource:
		return ex.checkFiles(src, reads)
	case kafkaSource:
		return ex.checkKafka(src, reads)
	case icebergSource:
		return ex.checkIceberg(src, reads)
	}
	return nil
}

// checkKafka lists a Kafka source's partitions (the brokers answer, the
// options hold) and plans each read the run may make, so that records lost
// since a flow's offset (failOnDataLoss) fail the run before any flow runs.
// Planning is repeated by the reads themselves; it has no side effect.
func (ex *executor) checkKafka(src *Dataset, reads []sourceRead) []error {
	if l := ex.pl.listing(src); l.err != nil {
		return []error{l.err}
	}
	var errs []error
	for _, r := range reads {
		if _, err := ex.pl.kafkaRead(r.reader, r.flow, src, r.stream, ex.sel.full[r.reader.Name]); err != nil {
			errs = append(errs, err)
		}
	}
	return errs
}

// checkFiles lists src's files (each pattern that matches nothing, for a
// bounded source) and checks the ones the run will read: every file for a
// snapshot read, those not consumed yet for a stream read.
func (ex *executor) checkFiles(src *Dataset, reads []sourceRead) []error {
	l := ex.pl.listing(src)
	if l.err != nil {
		if src.Source.Unbounded {
			return []error{l.err}
		}
		var errs []error
		for _, pat := range src.Source.Patterns {
			if _, err := format.Glob(ex.place.root, []string{pat}); err != nil {
				errs = append(errs, fmt.Errorf("source %s: %w", src.Name, err))
			}
		}
		if len(errs) == 0 {
			errs = append(errs, l.err)
		}
		return errs
	}
	f, opts, err := sourceOptions(src, ex.mem)
	if err != nil {
		return []error{err}
	}
	opts.Malformed = &format.Malformed{} // not the run's counts
	read := map[string]bool{}
	for _, r := range reads {
		if !r.stream || ex.sel.full[r.reader.Name] {
			for _, file := range l.files {
				read[file.Path] = true
			}
			break
		}
		files, _, _ := unconsumed(l, ex.pl.offset(r.reader.Name, r.flow.Name, src.Name).Files)
		for _, file := range files {
			read[file.Path] = true
		}
	}
	var errs []error
	for _, file := range l.files {
		if !read[file.Path] {
			continue
		}
		if err := format.CheckFile(file.Path, file.Name, f, src.Schema, opts); err != nil {
			errs = append(errs, fmt.Errorf("source %s: %w", src.Name, err))
		}
	}
	return errs
}

// preflight checks every source the selected datasets read (directly or
// through views) before any flow runs.
func (ex *executor) preflight() error {
	reads := map[string][]sourceRead{}
	var walk func(ds *Dataset, seen map[string]bool)
	walk = func(ds *Dataset, seen map[string]bool) {
		if seen[ds.Name] {
			return
		}
		seen[ds.Name] = true
		for _, f := range ds.Flows {
			for _, in := range f.Inputs {
				x := ex.pl.byName[in.Name]
				switch {
				case x == nil:
				case x.Kind == Source && x.Source != nil:
					reads[x.Name] = append(reads[x.Name], sourceRead{reader: ds, flow: f, stream: streamInput(ds, in)})
				case isView(x.Kind):
					walk(x, seen)
				}
			}
		}
	}
	for _, ds := range ex.p.Datasets {
		if buildable(ds.Kind) && ex.sel.has(ds.Name) {
			walk(ds, map[string]bool{})
		}
	}
	var problems []error
	for _, src := range ex.p.Datasets {
		if rs := reads[src.Name]; len(rs) > 0 {
			problems = append(problems, kindOf(src).check(ex, src, rs)...)
		}
	}
	if len(problems) == 0 {
		return nil
	}
	return &SourceCheckError{Problems: problems}
}
