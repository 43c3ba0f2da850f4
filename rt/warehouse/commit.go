package warehouse

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/store"
)

// Commit is one commit record: the whole state of the warehouse after an
// epoch. It is written once, created-if-absent, at CommitName(Epoch); that
// write is the commit point. It names every dataset's current version (not
// only the changed ones), so a reader needs only the latest record.
type Commit struct {
	Format      int    `json:"format"` // RecordFormat
	Epoch       int64  `json:"epoch"`
	Previous    int64  `json:"previous_epoch"` // the epoch this one was based on (0: none)
	RunID       string `json:"run_id"`
	Pipeline    string `json:"pipeline"`
	CommittedAt string `json:"committed_at"` // RFC 3339, UTC

	Datasets map[string]*Dataset `json:"datasets"`

	// Free-form maps that later parts of the runtime fill: source offsets
	// consumed (per source), state snapshots (per operator: object names
	// under _thund/checkpoints/), and fingerprints of definitions and inputs
	// (per dataset or flow) for staleness decisions.
	SourceOffsets map[string]json.RawMessage `json:"source_offsets"`
	State         map[string]json.RawMessage `json:"state"`
	Fingerprints  map[string]json.RawMessage `json:"fingerprints"`

	// Checksum is "sha256:<hex>" of the record's JSON with Checksum empty.
	Checksum string `json:"checksum"`
}

// Dataset is one dataset's version in a commit record.
type Dataset struct {
	Version     int64          `json:"version"`
	Epoch       int64          `json:"epoch"`   // the epoch that produced this version
	Dropped     bool           `json:"dropped"` // a tombstone: no longer in the pipeline
	Format      string         `json:"format"`
	Schema      []format.Field `json:"schema"`
	PartitionBy []string       `json:"partition_by"`
	Rows        int64          `json:"rows"`
	Bytes       int64          `json:"bytes"`
	Files       []File         `json:"files"`
}

// File is one data file of a dataset version.
type File struct {
	Path  string `json:"path"` // relative to the warehouse root
	Rows  int64  `json:"rows"`
	Bytes int64  `json:"bytes"`
	// Partition holds the partition columns' values in text form (nil: NULL),
	// for partitioned datasets.
	Partition map[string]*string `json:"partition,omitempty"`
}

// ArrowSchema decodes the dataset's schema.
func (d *Dataset) ArrowSchema() (*arrow.Schema, error) { return format.DecodeSchema(d.Schema) }

// FileFormat decodes the dataset's file format.
func (d *Dataset) FileFormat() (format.Format, error) { return format.ParseFormat(d.Format) }

func (c *Commit) normalize() {
	for _, m := range []*map[string]json.RawMessage{&c.SourceOffsets, &c.State, &c.Fingerprints} {
		if *m == nil {
			*m = map[string]json.RawMessage{}
		}
	}
	if c.Datasets == nil {
		c.Datasets = map[string]*Dataset{}
	}
	for _, d := range c.Datasets {
		if d.Files == nil {
			d.Files = []File{}
		}
		if d.PartitionBy == nil {
			d.PartitionBy = []string{}
		}
		if d.Schema == nil {
			d.Schema = []format.Field{}
		}
	}
}

// encode renders v as JSON without HTML escaping (records hold file names
// and free-form JSON that people read), indented or compact.
func encode(v any, indent bool) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if indent {
		enc.SetIndent("", "  ")
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// sum is the checksum: over the compact encoding with Checksum empty, which
// does not depend on how the stored record is indented.
func (c *Commit) sum() (string, error) {
	saved := c.Checksum
	c.Checksum = ""
	body, err := encode(c, false)
	c.Checksum = saved
	if err != nil {
		return "", err
	}
	h := sha256.Sum256(body)
	return "sha256:" + hex.EncodeToString(h[:]), nil
}

// Marshal returns the record's bytes with its checksum set (indented, one
// field a line, so a person can read it).
func (c *Commit) Marshal() ([]byte, error) {
	c.normalize()
	sum, err := c.sum()
	if err != nil {
		return nil, err
	}
	c.Checksum = sum
	return encode(c, true)
}

// ParseCommit decodes and validates a commit record's bytes.
func ParseCommit(data []byte) (*Commit, error) {
	var c Commit
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("not a valid commit record: %w", err)
	}
	if c.Format != RecordFormat {
		return nil, fmt.Errorf("commit record format %d, this runtime reads %d", c.Format, RecordFormat)
	}
	sum, err := c.sum()
	if err != nil {
		return nil, err
	}
	if sum != c.Checksum {
		return nil, fmt.Errorf("commit record checksum mismatch (torn or edited): recorded %q, computed %q", c.Checksum, sum)
	}
	c.normalize()
	for _, m := range []map[string]json.RawMessage{c.SourceOffsets, c.State, c.Fingerprints} {
		for k, v := range m {
			var buf bytes.Buffer
			if json.Compact(&buf, v) == nil {
				m[k] = buf.Bytes()
			}
		}
	}
	return &c, nil
}

// Names lists the commit's live datasets, sorted.
func (c *Commit) Names() []string {
	var out []string
	for n, d := range c.Datasets {
		if !d.Dropped {
			out = append(out, n)
		}
	}
	sort.Strings(out)
	return out
}

// Warehouse is a warehouse on a store.
type Warehouse struct {
	FS store.FS
	// Now is the clock (tests set it); nil means time.Now.
	Now func() time.Time
}

// New returns the warehouse on fs.
func New(fs store.FS) *Warehouse { return &Warehouse{FS: fs} }

func (w *Warehouse) now() time.Time {
	if w.Now != nil {
		return w.Now().UTC()
	}
	return time.Now().UTC()
}

// Location renders a warehouse object name for messages.
func (w *Warehouse) Location(name string) string { return w.FS.Location(name) }

// State is what a run starts from.
type State struct {
	// Head is the latest valid commit record, nil for a new warehouse.
	Head *Commit
	// NextEpoch is the first epoch number no record has taken.
	NextEpoch int64
	// Invalid lists records that failed validation and are ignored (a torn
	// create on a filesystem without hard links, or a damaged file), with why.
	Invalid []string
}

// Epochs lists the epochs that have a commit record, ascending.
func (w *Warehouse) Epochs(ctx context.Context) ([]int64, error) {
	infos, err := w.FS.List(ctx, CommitsDir+"/")
	if err != nil {
		return nil, err
	}
	var out []int64
	for _, i := range infos {
		if e, ok := parseCommitName(i.Name); ok {
			out = append(out, e)
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i] < out[j] })
	return out, nil
}

// ReadCommit reads and validates one epoch's record.
func (w *Warehouse) ReadCommit(ctx context.Context, epoch int64) (*Commit, error) {
	name := CommitName(epoch)
	data, _, err := w.FS.ReadFile(ctx, name)
	if err != nil {
		return nil, err
	}
	c, err := ParseCommit(data)
	if err == nil && c.Epoch != epoch {
		err = fmt.Errorf("record says epoch %d", c.Epoch)
	}
	if err != nil {
		return nil, &InvalidRecordError{Location: w.FS.Location(name), Err: err}
	}
	return c, nil
}

// InvalidRecordError is a commit record that fails validation.
type InvalidRecordError struct {
	Location string
	Err      error
}

func (e *InvalidRecordError) Error() string { return e.Location + ": " + e.Err.Error() }
func (e *InvalidRecordError) Unwrap() error { return e.Err }

// Load finds the latest valid commit.
func (w *Warehouse) Load(ctx context.Context) (*State, error) {
	epochs, err := w.Epochs(ctx)
	if err != nil {
		return nil, err
	}
	st := &State{NextEpoch: 1}
	if len(epochs) > 0 {
		st.NextEpoch = epochs[len(epochs)-1] + 1
	}
	for i := len(epochs) - 1; i >= 0; i-- {
		c, err := w.ReadCommit(ctx, epochs[i])
		if err == nil {
			st.Head = c
			break
		}
		if errors.Is(err, store.ErrNotExist) {
			continue
		}
		var ie *InvalidRecordError
		if errors.As(err, &ie) {
			st.Invalid = append(st.Invalid, err.Error())
			continue
		}
		return nil, err
	}
	return st, nil
}

// Resolve finds a dataset's version: the latest (version 0) or version N,
// from the commit that holds it.
func (w *Warehouse) Resolve(ctx context.Context, name string, version int64) (*Dataset, *Commit, error) {
	st, err := w.Load(ctx)
	if err != nil {
		return nil, nil, err
	}
	if st.Head == nil {
		return nil, nil, fmt.Errorf("the warehouse %s has no committed data yet (run the pipeline first)", w.FS.Location(""))
	}
	head := st.Head
	cur, ok := head.Datasets[name]
	if !ok {
		return nil, nil, fmt.Errorf("no dataset %q in the warehouse (it has: %s)", name, strings.Join(head.Names(), ", "))
	}
	if version == 0 {
		if cur.Dropped {
			return nil, nil, fmt.Errorf("dataset %q was dropped from the pipeline at epoch %d; its last version is %d (use --version)", name, cur.Epoch, cur.Version)
		}
		return cur, head, nil
	}
	if version < 0 || version > cur.Version {
		return nil, nil, fmt.Errorf("dataset %q has no version %d (versions 1 to %d)", name, version, cur.Version)
	}
	// Versions only grow, so scan back from the head to the commit that
	// produced it.
	epochs, err := w.Epochs(ctx)
	if err != nil {
		return nil, nil, err
	}
	for i := len(epochs) - 1; i >= 0; i-- {
		if epochs[i] > head.Epoch {
			continue
		}
		c := head
		if epochs[i] != head.Epoch {
			if c, err = w.ReadCommit(ctx, epochs[i]); err != nil {
				continue
			}
		}
		d, ok := c.Datasets[name]
		if !ok || d.Version < version {
			break
		}
		if d.Version == version && !d.Dropped {
			return d, c, nil
		}
	}
	return nil, nil, fmt.Errorf("dataset %q: version %d is no longer recorded", name, version)
}
