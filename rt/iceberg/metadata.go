package iceberg

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path"
	"strconv"
	"strings"

	ice "github.com/apache/iceberg-go"
	"github.com/nordisk/thund/rt/store"
)

// Metadata is an Iceberg table metadata file (the spec's "Table Metadata"),
// the fields this package writes and reads. Format versions 1 to 3 read;
// it writes version 2.
type Metadata struct {
	FormatVersion      int                 `json:"format-version"`
	TableUUID          string              `json:"table-uuid"`
	Location           string              `json:"location"`
	LastSequenceNumber int64               `json:"last-sequence-number"`
	LastUpdatedMs      int64               `json:"last-updated-ms"`
	LastColumnID       int                 `json:"last-column-id"`
	Schemas            []*ice.Schema       `json:"schemas"`
	CurrentSchemaID    int                 `json:"current-schema-id"`
	PartitionSpecs     []ice.PartitionSpec `json:"partition-specs"`
	DefaultSpecID      int                 `json:"default-spec-id"`
	LastPartitionID    int                 `json:"last-partition-id"`
	Properties         map[string]string   `json:"properties,omitempty"`
	CurrentSnapshotID  *int64              `json:"current-snapshot-id,omitempty"`
	Snapshots          []Snapshot          `json:"snapshots"`
	SnapshotLog        []SnapshotLogEntry  `json:"snapshot-log"`
	MetadataLog        []MetadataLogEntry  `json:"metadata-log"`
	SortOrders         []json.RawMessage   `json:"sort-orders"`
	DefaultSortOrderID int                 `json:"default-sort-order-id"`
	Refs               map[string]Ref      `json:"refs,omitempty"`

	// Format version 1's single schema and partition spec, read only.
	V1Schema *ice.Schema          `json:"schema,omitempty"`
	V1Spec   []ice.PartitionField `json:"partition-spec,omitempty"`
}

// Snapshot is one snapshot of a table.
type Snapshot struct {
	SnapshotID       int64             `json:"snapshot-id"`
	ParentSnapshotID *int64            `json:"parent-snapshot-id,omitempty"`
	SequenceNumber   int64             `json:"sequence-number"`
	TimestampMs      int64             `json:"timestamp-ms"`
	ManifestList     string            `json:"manifest-list,omitempty"`
	Summary          map[string]string `json:"summary"`
	SchemaID         *int              `json:"schema-id,omitempty"`

	// V1Manifests is format version 1's inline manifest list, read only.
	V1Manifests []string `json:"manifests,omitempty"`
}

// Operation is the snapshot's summary operation: append, overwrite,
// delete or replace.
func (s *Snapshot) Operation() string { return s.Summary["operation"] }

// SnapshotLogEntry is one entry of the snapshot log.
type SnapshotLogEntry struct {
	TimestampMs int64 `json:"timestamp-ms"`
	SnapshotID  int64 `json:"snapshot-id"`
}

// MetadataLogEntry is one entry of the metadata log.
type MetadataLogEntry struct {
	TimestampMs  int64  `json:"timestamp-ms"`
	MetadataFile string `json:"metadata-file"`
}

// Ref is a branch or tag.
type Ref struct {
	SnapshotID int64  `json:"snapshot-id"`
	Type       string `json:"type"`
}

// ParseMetadata decodes a metadata file and checks what readers rely on.
func ParseMetadata(data []byte) (*Metadata, error) {
	var m Metadata
	if err := json.Unmarshal(data, &m); err != nil {
		return nil, fmt.Errorf("not Iceberg table metadata: %w", err)
	}
	if m.FormatVersion < 1 || m.FormatVersion > 3 {
		return nil, fmt.Errorf("Iceberg format version %d: want 1, 2 or 3", m.FormatVersion)
	}
	if len(m.Schemas) == 0 && m.V1Schema != nil {
		m.Schemas = []*ice.Schema{m.V1Schema}
		m.CurrentSchemaID = m.V1Schema.ID
	}
	if len(m.PartitionSpecs) == 0 {
		m.PartitionSpecs = []ice.PartitionSpec{ice.NewPartitionSpecID(0, m.V1Spec...)}
	}
	if m.Schema(m.CurrentSchemaID) == nil {
		return nil, fmt.Errorf("Iceberg metadata: current schema %d is not among its schemas", m.CurrentSchemaID)
	}
	if m.CurrentSnapshotID != nil && *m.CurrentSnapshotID == -1 {
		m.CurrentSnapshotID = nil
	}
	return &m, nil
}

// Schema returns the schema of the given id, or nil.
func (m *Metadata) Schema(id int) *ice.Schema {
	for _, s := range m.Schemas {
		if s.ID == id {
			return s
		}
	}
	return nil
}

// CurrentSchema is the table's current schema.
func (m *Metadata) CurrentSchema() *ice.Schema { return m.Schema(m.CurrentSchemaID) }

// Spec returns the partition spec of the given id, or nil.
func (m *Metadata) Spec(id int) *ice.PartitionSpec {
	for i := range m.PartitionSpecs {
		if m.PartitionSpecs[i].ID() == id {
			return &m.PartitionSpecs[i]
		}
	}
	return nil
}

// Snapshot returns the snapshot of the given id, or nil.
func (m *Metadata) Snapshot(id int64) *Snapshot {
	for i := range m.Snapshots {
		if m.Snapshots[i].SnapshotID == id {
			return &m.Snapshots[i]
		}
	}
	return nil
}

// Current is the current snapshot (the main branch's), or nil for a table
// with none.
func (m *Metadata) Current() *Snapshot {
	if r, ok := m.Refs["main"]; ok {
		return m.Snapshot(r.SnapshotID)
	}
	if m.CurrentSnapshotID == nil {
		return nil
	}
	return m.Snapshot(*m.CurrentSnapshotID)
}

// SnapshotSchema is the schema a snapshot was written with (the current
// one when the snapshot does not say).
func (m *Metadata) SnapshotSchema(s *Snapshot) *ice.Schema {
	if s != nil && s.SchemaID != nil {
		if sc := m.Schema(*s.SchemaID); sc != nil {
			return sc
		}
	}
	return m.CurrentSchema()
}

// Ancestors returns the snapshot of id and its ancestors, newest first, as
// far as the metadata still holds them.
func (m *Metadata) Ancestors(id int64) []*Snapshot {
	var out []*Snapshot
	for s := m.Snapshot(id); s != nil; {
		out = append(out, s)
		if s.ParentSnapshotID == nil {
			break
		}
		s = m.Snapshot(*s.ParentSnapshotID)
	}
	return out
}

// The Hadoop layout of a table's metadata, relative to the table's folder
// (what Spark's HadoopCatalog and HadoopTables, and pyiceberg's StaticTable,
// read): metadata/v<N>.metadata.json, and metadata/version-hint.text holding
// the newest N.
const (
	MetadataDir = "metadata"
	VersionHint = "metadata/version-hint.text"
)

// MetadataName is the name of version n's metadata file.
func MetadataName(n int) string { return fmt.Sprintf("%s/v%d.metadata.json", MetadataDir, n) }

// metadataVersion parses a metadata file's version from its base name:
// v<N>.metadata.json (Hadoop layout) or <NNNNN>-<uuid>.metadata.json (what
// catalogs write). Compressed metadata files (.gz.metadata.json) are not
// read.
func metadataVersion(base string) (int, bool) {
	stem, ok := strings.CutSuffix(base, ".metadata.json")
	if !ok || strings.HasSuffix(stem, ".gz") {
		return 0, false
	}
	if digits, ok := strings.CutPrefix(stem, "v"); ok {
		n, err := strconv.Atoi(digits)
		return n, err == nil && n >= 0
	}
	digits, _, ok := strings.Cut(stem, "-")
	if !ok {
		return 0, false
	}
	n, err := strconv.Atoi(digits)
	return n, err == nil && n >= 0
}

// ErrNoTable is returned when a folder holds no Iceberg metadata.
var ErrNoTable = errors.New("no Iceberg table")

// Current finds the newest metadata file of the table whose folder is dir
// (relative to fs; "" is fs's root): the highest-numbered metadata file
// listed, whatever version-hint.text says (a writer killed after writing
// v<N+1> but before the hint has still committed v<N+1>, as Iceberg's Java
// HadoopTableOperations reads it). It returns the file's name (relative to
// fs), its metadata and its number.
func Current(ctx context.Context, fs store.FS, dir string) (string, *Metadata, int, error) {
	prefix := path.Join(dir, MetadataDir) + "/"
	if dir == "" {
		prefix = MetadataDir + "/"
	}
	objs, err := fs.List(ctx, prefix)
	if err != nil {
		return "", nil, 0, err
	}
	best, bestN := "", -1
	for _, o := range objs {
		base := strings.TrimPrefix(o.Name, prefix)
		if strings.Contains(base, "/") {
			continue
		}
		if n, ok := metadataVersion(base); ok && n > bestN {
			best, bestN = o.Name, n
		}
	}
	if best == "" {
		return "", nil, 0, fmt.Errorf("%s: %w (no metadata/*.metadata.json)", fs.Location(dir), ErrNoTable)
	}
	data, _, err := fs.ReadFile(ctx, best)
	if err != nil {
		return "", nil, 0, err
	}
	m, err := ParseMetadata(data)
	if err != nil {
		return "", nil, 0, fmt.Errorf("%s: %w", fs.Location(best), err)
	}
	return best, m, bestN, nil
}

// Marshal renders metadata as JSON (indented: people read it).
func (m *Metadata) Marshal() ([]byte, error) {
	c := *m
	c.V1Schema, c.V1Spec = nil, nil
	// Readers want arrays, never null.
	if c.Snapshots == nil {
		c.Snapshots = []Snapshot{}
	}
	if c.SnapshotLog == nil {
		c.SnapshotLog = []SnapshotLogEntry{}
	}
	if c.MetadataLog == nil {
		c.MetadataLog = []MetadataLogEntry{}
	}
	return json.MarshalIndent(&c, "", "  ")
}
