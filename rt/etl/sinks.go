package etl

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/warehouse"
)

// Sinks: a sink's rows of a run are written to a temporary file and
// published (renamed into place, or copied to stdout) after the commit; a
// run that died between the two leaves the file to the next run.

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
		dir := sinkOption(s.ds, "path")
		if !filepath.IsAbs(dir) {
			dir = filepath.Join(s.ex.place.root, dir)
		}
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return fmt.Errorf("sink %s: %w", s.ds.Name, err)
		}
		tag := s.ex.r.ID
		if len(tag) > 8 {
			tag = tag[len(tag)-8:]
		}
		name := fmt.Sprintf("part-%06d-%s%s", s.ex.r.Txn.Epoch(), tag, f.Ext())
		s.final = filepath.Join(dir, name)
		s.temp = filepath.Join(dir, "."+name+".tmp")
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
		raw, _ := json.Marshal(sinkPending{Epoch: s.ex.r.Txn.Epoch(), Temp: s.temp, Final: s.final})
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
		if ds.Kind != Sink || !ok {
			continue
		}
		var pend sinkPending
		if json.Unmarshal(raw, &pend) != nil || pend.Temp == "" {
			continue
		}
		if _, err := os.Stat(pend.Temp); err != nil {
			continue // published
		}
		if _, err := os.Stat(pend.Final); err == nil {
			continue
		}
		if err := os.Rename(pend.Temp, pend.Final); err != nil {
			ex.r.Warn(fmt.Sprintf("sink %s: could not publish %s of epoch %d: %v", ds.Name, pend.Final, pend.Epoch, err))
			continue
		}
		ex.r.Warn(fmt.Sprintf("sink %s: published %s, committed at epoch %d by a run that stopped before publishing it", ds.Name, pend.Final, pend.Epoch))
	}
}
