package iceberg

import (
	"bytes"
	"context"
	"fmt"
	"strings"

	ice "github.com/apache/iceberg-go"
	"github.com/nordisk/thund/rt/store"
)

// nameOf turns a location in a table's metadata back into an object name
// of fs: the location must be below URI(fs, "").
func nameOf(fs store.FS, uri string) (string, error) {
	root := strings.TrimSuffix(URI(fs, ""), "/") + "/"
	name, ok := strings.CutPrefix(uri, root)
	if !ok {
		// Readers accept file:/x and file:///x alike.
		if rest, ok2 := strings.CutPrefix(uri, "file:/"); ok2 && !strings.HasPrefix(rest, "/") {
			name, ok = strings.CutPrefix("file:///"+rest, root)
		}
	}
	if !ok {
		return "", fmt.Errorf("%s is not in the warehouse (%s)", uri, root)
	}
	return name, nil
}

func readObject(ctx context.Context, fs store.FS, uri string) ([]byte, error) {
	name, err := nameOf(fs, uri)
	if err != nil {
		return nil, err
	}
	data, _, err := fs.ReadFile(ctx, name)
	return data, err
}

func readManifestList(ctx context.Context, fs store.FS, uri string) ([]ice.ManifestFile, error) {
	data, err := readObject(ctx, fs, uri)
	if err != nil {
		return nil, fmt.Errorf("manifest list: %w", err)
	}
	return ice.ReadManifestList(bytes.NewReader(data))
}

// readManifest returns a manifest's live entries (ADDED and EXISTING).
func readManifest(ctx context.Context, fs store.FS, mf ice.ManifestFile) ([]ice.ManifestEntry, error) {
	data, err := readObject(ctx, fs, mf.FilePath())
	if err != nil {
		return nil, fmt.Errorf("manifest: %w", err)
	}
	return ice.ReadManifest(mf, bytes.NewReader(data), true)
}

// manifestWriter writes the manifests of one snapshot, named
// metadata/thund-<snapshot>-m<i>.avro.
type manifestWriter struct {
	ctx   context.Context
	fs    store.FS
	table string
	loc   string
	snap  int64
	n     int
}

func (w *manifestWriter) write(spec ice.PartitionSpec, schema *ice.Schema, entries []ice.ManifestEntry) (ice.ManifestFile, error) {
	name := fmt.Sprintf("%s/%s/thund-%d-m%d.avro", w.table, MetadataDir, w.snap, w.n)
	w.n++
	var buf bytes.Buffer
	mf, err := ice.WriteManifest(URI(w.fs, name), &buf, 2, spec, schema, w.snap, entries)
	if err != nil {
		return nil, err
	}
	if err := w.fs.WriteFile(w.ctx, name, buf.Bytes()); err != nil {
		return nil, err
	}
	return mf, nil
}

// liveFiles returns the data files a snapshot of a table in fs holds.
func liveFiles(ctx context.Context, fs store.FS, s *Snapshot) ([]ice.DataFile, error) {
	mfs, err := readManifestList(ctx, fs, s.ManifestList)
	if err != nil {
		return nil, err
	}
	var out []ice.DataFile
	for _, mf := range mfs {
		if mf.ManifestContent() != ice.ManifestContentData {
			return nil, fmt.Errorf("snapshot %d has delete files (%s), which Thund does not write", s.SnapshotID, mf.FilePath())
		}
		entries, err := readManifest(ctx, fs, mf)
		if err != nil {
			return nil, err
		}
		for _, e := range entries {
			out = append(out, e.DataFile())
		}
	}
	return out, nil
}
