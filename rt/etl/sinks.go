package etl

import (
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/warehouse"
)

// Sinks: a sink's rows of a run are written to a temporary file and
// published (renamed into place, or copied to stdout) after the commit; a
// run that died between the two leaves the file to the next run.
//
// A file sink (parquet, csv, jsonl) has a mode. A streaming sink, one that
// a flow fills with a stream read, appends: each epoch that emits rows adds
// one file, part-EPOCH-RUN.EXT. A batch sink, whose flows read no stream,
// is recomputed whole each run that rebuilds it, as a materialized view
// is, and replaces its output by default (mode replace): its whole output
// is one file, part-00000.EXT, which the publish renames over the previous
// one, so that a reader listing the folder sees the old rows or the new,
// never both nor none (rename is atomic on a local file system); mode
// append keeps every rebuild's file instead.

// Sink modes (the mode option).
const (
	sinkAppend  = "append"
	sinkReplace = "replace"
)

// replaceName is the file name (before its extension) of a replace sink's
// output.
const replaceName = "part-00000"

// fileSinkOptions are the options a file sink takes, lower-cased.
var fileSinkOptions = []string{"path", "mode"}

// streamingSink reports whether a flow fills the sink with a stream read.
func streamingSink(d *Dataset) bool {
	for _, f := range d.Flows {
		for _, in := range f.Inputs {
			if in.Stream {
				return true
			}
		}
	}
	return false
}

// sinkMode is a file sink's mode: the mode option, else append for a
// streaming sink and replace for a batch sink. It checks the options again
// (thundc check gave the verdict first).
func sinkMode(d *Dataset) (string, error) {
	for _, kv := range d.SinkOptions {
		if !slices.Contains(fileSinkOptions, strings.ToLower(kv[0])) {
			return "", fmt.Errorf("sink %s: unknown option %q: a %s sink takes %s", d.Name, kv[0], sinkFormat(d), strings.Join(fileSinkOptions, ", "))
		}
	}
	if strings.TrimSpace(sinkOption(d, "path")) == "" {
		return "", fmt.Errorf("sink %s: a %s sink needs the path option: the folder its files go to", d.Name, sinkFormat(d))
	}
	switch m := strings.ToLower(sinkOption(d, "mode")); m {
	case "":
		if streamingSink(d) {
			return sinkAppend, nil
		}
		return sinkReplace, nil
	case sinkAppend:
		return m, nil
	case sinkReplace:
		if streamingSink(d) {
			return "", fmt.Errorf("sink %s: mode replace: a sink filled by a stream read appends each epoch's rows; replacing would lose the earlier epochs' rows (want mode append, or omit it)", d.Name)
		}
		return m, nil
	default:
		return "", fmt.Errorf("sink %s: mode %q: want append or replace", d.Name, sinkOption(d, "mode"))
	}
}

// sinkDir is a file sink's folder, absolute.
func sinkDir(d *Dataset, root string) string {
	dir := sinkOption(d, "path")
	if !filepath.IsAbs(dir) {
		dir = filepath.Join(root, dir)
	}
	return dir
}

// isSinkFile reports whether name is a file a sink publishes (of either
// mode, in any file format): part-00000.EXT or part-EPOCH-RUN.EXT.
func isSinkFile(name string) bool {
	base, ext, ok := strings.Cut(name, ".")
	if !ok || !slices.Contains([]string{"parquet", "csv", "jsonl"}, ext) || !strings.HasPrefix(base, "part-") {
		return false
	}
	if base == replaceName {
		return true
	}
	epoch, tag, ok := strings.Cut(strings.TrimPrefix(base, "part-"), "-")
	return ok && len(epoch) >= 6 && strings.Trim(epoch, "0123456789") == "" && tag != "" && !strings.ContainsAny(tag, "-.")
}

// sweepSink removes the sink files in dir other than keep (a base name):
// the earlier output of a replace sink (append files from before a switch
// to mode replace, or a replace file of another format). It returns the
// removed paths.
func sweepSink(dir, keep string) ([]string, error) {
	ents, err := os.ReadDir(dir)
	if err != nil {
		if errors.Is(err, fs.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	var removed []string
	var errs []error
	for _, e := range ents {
		if e.IsDir() || e.Name() == keep || !isSinkFile(e.Name()) {
			continue
		}
		p := filepath.Join(dir, e.Name())
		if err := os.Remove(p); err != nil && !errors.Is(err, fs.ErrNotExist) {
			errs = append(errs, err)
			continue
		}
		removed = append(removed, p)
	}
	return removed, errors.Join(errs...)
}

// sinkFormat is a sink's format: parquet (the default), csv, jsonl or
// stdout (JSON lines on standard output).
func sinkFormat(d *Dataset) string {
	f := strings.ToLower(d.Format)
	switch f {
	case "":
		return "parquet"
	case "json":
		return "jsonl"
	case "console":
		return "stdout"
	}
	return f
}

// sinkOption is a sink option's value ("" when absent); keys ignore case.
func sinkOption(d *Dataset, key string) string {
	for _, kv := range d.SinkOptions {
		if strings.EqualFold(kv[0], key) {
			return kv[1]
		}
	}
	return ""
}

// sinkPending is what a commit records of a sink file it has not published
// yet: a run that dies between its commit and the rename leaves the file
// for the next run to publish.
type sinkPending struct {
	Epoch int64  `json:"epoch"`
	Temp  string `json:"temp"`
	Final string `json:"final"`
	Mode  string `json:"mode,omitempty"` // replace: Final is renamed over
}

func sinkStateKey(name string) string { return "sink/" + name }

// publisher is a sink target of a run, published after the commit (or
// discarded when the run does not commit).
type publisher interface {
	publish(stdout io.Writer) error
	discard()
}

// sinkTarget writes a sink's rows of this run to a temporary file, renamed
// into place (or copied to stdout) once the run has committed.
type sinkTarget struct {
	ex          *executor
	ds          *Dataset
	stdout      bool
	mode        string // append or replace (file sinks)
	temp, final string
	file        *os.File
	w           format.Writer
}

func (s *sinkTarget) open() error {
	if s.w != nil {
		return nil
	}
	fname := sinkFormat(s.ds)
	s.stdout = fname == "stdout"
	if s.stdout {
		fname = "jsonl"
	}
	f, err := format.ParseFormat(fname)
	if err != nil {
		return fmt.Errorf("sink %s: %w", s.ds.Name, err)
	}
	if s.stdout {
		if s.file, err = os.CreateTemp("", "etl-sink-*.jsonl"); err != nil {
			return fmt.Errorf("sink %s: %w", s.ds.Name, err)
		}
		s.temp = s.file.Name()
	} else {
		if s.mode, err = sinkMode(s.ds); err != nil {
			return err
		}
		dir := sinkDir(s.ds, s.ex.place.root)
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("sink %s: %w", s.ds.Name, err)
		}
		tag := s.ex.r.ID
		if len(tag) > 8 {
			tag = tag[len(tag)-8:]
		}
		name := fmt.Sprintf("part-%06d-%s%s", s.ex.r.Txn.Epoch(), tag, f.Ext())
		s.temp = filepath.Join(dir, "."+name+".tmp")
		if s.mode == sinkReplace {
			name = replaceName + f.Ext()
		}
		s.final = filepath.Join(dir, name)
		if s.file, err = os.OpenFile(s.temp, os.O_CREATE|os.O_EXCL|os.O_WRONLY, 0o644); err != nil {
			return fmt.Errorf("sink %s: %w", s.ds.Name, err)
		}
	}
	if s.w, err = format.NewWriter(s.file, f, s.ds.Schema, format.WriteOptions{Mem: s.ex.mem}); err != nil {
		s.abort()
		return fmt.Errorf("sink %s: %w", s.ds.Name, err)
	}
	return nil
}

func (s *sinkTarget) emit(rec arrow.RecordBatch) error {
	if err := s.open(); err != nil {
		return err
	}
	return s.w.Write(rec)
}

func (s *sinkTarget) close() error {
	if s.w == nil && sinkFormat(s.ds) != "stdout" {
		if mode, err := sinkMode(s.ds); err != nil {
			return err
		} else if mode == sinkReplace {
			// a rebuild that emits no rows replaces the output with none
			if err := s.open(); err != nil {
				return err
			}
		}
	}
	if s.w == nil {
		return nil // nothing new: no file
	}
	err := s.w.Close()
	if err == nil && !s.stdout {
		err = s.file.Sync()
	}
	if cerr := s.file.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(s.temp)
		return fmt.Errorf("sink %s: %w", s.ds.Name, err)
	}
	s.ex.sinks = append(s.ex.sinks, s)
	if !s.stdout {
		raw, _ := json.Marshal(sinkPending{Epoch: s.ex.r.Txn.Epoch(), Temp: s.temp, Final: s.final, Mode: s.mode})
		s.ex.r.Txn.SetState(sinkStateKey(s.ds.Name), raw)
	}
	return nil
}

func (s *sinkTarget) abort() {
	if s.file != nil {
		s.file.Close()
		os.Remove(s.temp)
	}
}

// publish makes a committed sink file visible (or writes it to stdout).
func (s *sinkTarget) publish(stdout io.Writer) error {
	if s.stdout {
		f, err := os.Open(s.temp)
		if err != nil {
			return fmt.Errorf("sink %s: %w", s.ds.Name, err)
		}
		defer os.Remove(s.temp)
		defer f.Close()
		if _, err := io.Copy(stdout, f); err != nil {
			return fmt.Errorf("sink %s: %w", s.ds.Name, err)
		}
		return nil
	}
	if err := os.Rename(s.temp, s.final); err != nil {
		return fmt.Errorf("sink %s: publishing %s: %w (the next run publishes it)", s.ds.Name, s.final, err)
	}
	if s.mode == sinkReplace {
		if _, err := sweepSink(filepath.Dir(s.final), filepath.Base(s.final)); err != nil {
			return fmt.Errorf("sink %s: removing its earlier output: %w (vacuum or the next rebuild removes it)", s.ds.Name, err)
		}
	}
	return nil
}

// discard removes the file of a run that failed.
func (s *sinkTarget) discard() { os.Remove(s.temp) }

// completeSinks publishes sink files that a committed run left unpublished
// (it died between its commit and the rename).
func (ex *executor) completeSinks(head *warehouse.Commit) {
	if head == nil {
		return
	}
	for _, ds := range ex.p.Datasets {
		raw, ok := head.State[sinkStateKey(ds.Name)]
		if ds.Kind != Sink || isKafkaSink(ds) || !ok {
			continue
		}
		var pend sinkPending
		if json.Unmarshal(raw, &pend) != nil || pend.Temp == "" {
			continue
		}
		if _, err := os.Stat(pend.Temp); err == nil {
			if _, err := os.Stat(pend.Final); err == nil && pend.Mode != sinkReplace {
				continue // an append file of that name is there already
			}
			// a replace sink's new file is renamed over its previous one
			if err := os.Rename(pend.Temp, pend.Final); err != nil {
				ex.r.Warn(fmt.Sprintf("sink %s: could not publish %s of epoch %d: %v", ds.Name, pend.Final, pend.Epoch, err))
				continue
			}
			ex.r.Warn(fmt.Sprintf("sink %s: published %s, committed at epoch %d by a run that stopped before publishing it", ds.Name, pend.Final, pend.Epoch))
		}
		if mode, _ := sinkMode(ds); pend.Mode == sinkReplace && mode == sinkReplace {
			// a run that stopped after the rename, before removing the
			// earlier output of another name
			if _, err := os.Stat(pend.Final); err != nil {
				continue
			}
			if _, err := sweepSink(filepath.Dir(pend.Final), filepath.Base(pend.Final)); err != nil {
				ex.r.Warn(fmt.Sprintf("sink %s: could not remove its earlier output: %v", ds.Name, err))
			}
		}
	}
}

// vacuumSinks removes, under the warehouse lock (no run is writing), what
// no kept version needs in the file sinks' folders: the temporary files of
// runs that died before publishing (.part-*.tmp, other than the pending
// file the latest commit names), and a replace sink's earlier output of
// another name. An append or streaming sink's files are its output: they
// stay. It returns the removed paths.
func vacuumSinks(p *Pipeline, root string, head *warehouse.Commit) ([]string, error) {
	var removed []string
	var errs []error
	for _, ds := range p.Datasets {
		if ds.Kind != Sink || isKafkaSink(ds) || sinkFormat(ds) == "stdout" {
			continue
		}
		pending := ""
		if head != nil {
			var pend sinkPending
			if raw, ok := head.State[sinkStateKey(ds.Name)]; ok && json.Unmarshal(raw, &pend) == nil {
				pending = pend.Temp
			}
		}
		dir := sinkDir(ds, root)
		ents, err := os.ReadDir(dir)
		if err != nil {
			if !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
			}
			continue
		}
		for _, e := range ents {
			n := e.Name()
			path := filepath.Join(dir, n)
			if e.IsDir() || path == pending || !strings.HasPrefix(n, ".part-") || !strings.HasSuffix(n, ".tmp") ||
				!isSinkFile(strings.TrimSuffix(strings.TrimPrefix(n, "."), ".tmp")) {
				continue
			}
			if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
				errs = append(errs, err)
				continue
			}
			removed = append(removed, path)
		}
		if mode, err := sinkMode(ds); err == nil && mode == sinkReplace {
			if _, err := os.Stat(filepath.Join(dir, replaceName+"."+sinkFormat(ds))); err == nil {
				r, err := sweepSink(dir, replaceName+"."+sinkFormat(ds))
				removed = append(removed, r...)
				if err != nil {
					errs = append(errs, err)
				}
			}
		}
	}
	return removed, errors.Join(errs...)
}
