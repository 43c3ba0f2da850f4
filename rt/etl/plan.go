package etl

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/nordisk/thund/internal/kafkaopt"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/stream"
	"github.com/nordisk/thund/rt/warehouse"
)

// Reconciliation: what is fresh, what is stale, and why.
//
// Every dataset a run builds gets a fingerprint in the commit record
// (Txn.SetFingerprint under the dataset's name): the hash of its Definition,
// the runtime version, the token of every dataset it reads as a snapshot (a
// stored dataset's version, a temporary view's content hash, a source's
// definition hash), the files of every source it reads as a snapshot (path,
// size, modification time), and the once flows that ran. A stream read does
// not go into the fingerprint: its position is a source offset (the files a
// flow consumed, or how far into a stored dataset's files it read), so new
// input makes the reader stale and old input is never read twice.
//
// The next run (and `plan`) computes the same things from the current state
// and compares; the first differences are the reasons. The fingerprint is
// recorded from the state after the dataset was built (its inputs' new
// versions, its advanced offsets), so a run that changes nothing finds
// everything fresh.

// Reasons, as `plan`, the event log and `history` show them.
const (
	reasonNeverBuilt  = "never built"
	reasonFullRefresh = "full refresh requested"
	reasonRefresh     = "refresh requested"
	reasonDefinition  = "definition changed"
	reasonNoRecord    = "no fingerprint recorded (built by another program)"
	reasonNotSelected = " (not selected)"
	reasonRecompute   = " (recomputing in full)"
)

// Decisions.
const (
	decisionFresh = "fresh"
	decisionStale = "stale"
	decisionError = "error"
)

// fileStamp identifies a source file's content as the file system describes
// it, and, when the fingerprint mode hashes it, by its bytes.
type fileStamp struct {
	Path   string `json:"path"` // as Glob names it: relative to --root for relative patterns
	Size   int64  `json:"size"`
	MTime  string `json:"mtime"`            // RFC 3339 with nanoseconds, UTC
	SHA256 string `json:"sha256,omitempty"` // hex, when hashed (see fingerprintMode)
}

// sameFile reports whether two stamps of one path are the same content: by
// their hashes when both have one (a touched file is the same; a rewrite
// that kept the size and the modification time is not), else by size and
// modification time.
func sameFile(a, b fileStamp) bool {
	if a.SHA256 != "" && b.SHA256 != "" {
		return a.Size == b.Size && a.SHA256 == b.SHA256
	}
	return a.Size == b.Size && a.MTime == b.MTime
}

// modified says how a file changed, for reasons.
func modified(old, cur fileStamp) string {
	if old.Size == cur.Size && old.MTime == cur.MTime {
		return cur.Path + " modified (same size and modification time, new content)"
	}
	return cur.Path + " modified"
}

// fingerprintMode is how a run (and plan) tells whether a source file
// changed since the last run read it (--fingerprint). Size and modification
// time are cheap, but a rewrite that keeps both (a copy that preserves
// times, a clock that went back, a file system with coarse times) goes
// unseen; a content hash sees it, at the cost of reading the file at every
// run and plan.
type fingerprintMode string

const (
	// fpAuto hashes the files of bounded sources up to autoHashMax bytes,
	// and compares larger files and watched folders by size and time.
	fpAuto fingerprintMode = "auto"
	// fpStat compares every file by size and modification time only.
	fpStat fingerprintMode = "stat"
	// fpContent hashes every file.
	fpContent fingerprintMode = "content"
)

// autoHashMax is the largest file --fingerprint auto hashes.
const autoHashMax = 1 << 20

// hashes reports whether mode hashes a file of size bytes of src.
func (m fingerprintMode) hashes(src *Dataset, size int64) bool {
	switch m {
	case fpContent:
		return true
	case fpStat:
		return false
	}
	return size <= autoHashMax && (src.Source == nil || !src.Source.Unbounded)
}

// describe says, for plan, how files are compared.
func (m fingerprintMode) describe() string {
	switch m {
	case fpContent:
		return "source files compared by content (--fingerprint content)"
	case fpStat:
		return "source files compared by size and modification time only (--fingerprint stat)"
	}
	return "source files compared by size and modification time, and by content up to 1 MiB outside watched folders (--fingerprint auto)"
}

// hashFile is the hex sha256 of a file's bytes.
func hashFile(path string) (string, error) {
	f, err := os.Open(path)
	if err != nil {
		return "", err
	}
	defer f.Close()
	h := sha256.New()
	if _, err := io.Copy(h, f); err != nil {
		return "", err
	}
	return hex.EncodeToString(h.Sum(nil)), nil
}

// fingerprint is what a dataset was built from (see above). A source's entry
// records the files the last run that read it saw.
type fingerprint struct {
	Definition string                 `json:"definition"`
	Runtime    string                 `json:"runtime"`
	Epoch      int64                  `json:"epoch"` // the epoch that built it
	Inputs     map[string]string      `json:"inputs,omitempty"`
	Files      map[string][]fileStamp `json:"files,omitempty"`
	Once       []string               `json:"once,omitempty"`
	// Kafka: per Kafka source read as a snapshot, the hash of the offset
	// ranges read (kafka_source.go).
	Kafka map[string]string `json:"kafka,omitempty"`
}

// offset is a flow's position in one stream input, a source offset of the
// commit record under offsetKey: for a source, the files consumed; for a
// stored dataset, how many of its version's files were read (the version's
// file list only grows by appends; Last detects a rewrite); for a Kafka
// source, the next offset per topic and partition (nil before the first
// read, which starts at startingOffsets).
type offset struct {
	Files   []fileStamp `json:"files,omitempty"`
	Version int64       `json:"version,omitempty"`
	Count   int         `json:"count,omitempty"`
	Last    string      `json:"last,omitempty"`
	Kafka   *kafkaNext  `json:"kafka,omitempty"`
	// Iceberg: an Iceberg source's last snapshot read (iceberg_source.go).
	Iceberg *icebergNext `json:"iceberg,omitempty"`
}

// offsetKey names a flow's offset in an input: target/flow/input.
func offsetKey(target, flow, input string) string { return target + "/" + flow + "/" + input }

func hashString(s string) string {
	h := sha256.Sum256([]byte(s))
	return "sha256:" + hex.EncodeToString(h[:])
}

func hashJSON(v any) string {
	b, _ := json.Marshal(v)
	return hashString(string(b))
}

// decision is the reconciliation verdict on one dataset.
type decision struct {
	Dataset  *Dataset
	Decision string // fresh | stale | error
	Reasons  []string
	Selected bool
	// Build: a run builds it now (a selected, stale materialized view,
	// streaming table or sink whose inputs are available).
	Build bool
	// Full: recompute from the start (a new version replacing the old one,
	// stream offsets reset).
	Full bool
	// Err: why it cannot be read or built.
	Err error
}

// buildable kinds are built by runs; the others are read (sources) or
// computed in memory when a reader is built (temporary views, views).
func buildable(k Kind) bool { return k == MaterializedView || k == StreamingTable || k == Sink }

// recomputed datasets get a whole new version each time they are built:
// materialized views, unless maintained incrementally. (Streaming tables and
// incremental views append; change flows replace, see cdc.go.)
func recomputed(ds *Dataset) bool { return ds.Kind == MaterializedView && !ds.Incremental }

// streamInput reports whether a dataset reads an input incrementally (only
// what is new since its last build): a stream read, except into a
// materialized view, which reads whole inputs; an incremental view reads
// every input so.
func streamInput(ds *Dataset, in Input) bool {
	if ds.Kind == MaterializedView {
		return ds.Incremental
	}
	return in.Stream
}

// stored kinds have versions in the warehouse.
func stored(k Kind) bool { return k == MaterializedView || k == StreamingTable }

// view kinds are computed in memory.
func isView(k Kind) bool { return k == TemporaryView || k == View }

// Reason is the reasons in one line.
func (d *decision) Reason() string {
	s := strings.Join(d.Reasons, "; ")
	if d.Err != nil {
		if s != "" && d.Decision != decisionError {
			s += "; "
		} else {
			s = ""
		}
		if d.Dataset.Kind == Source {
			s += "cannot read: " + d.Err.Error()
		} else {
			s += "cannot build: " + d.Err.Error()
		}
	}
	if d.Decision == decisionStale && !d.Selected && buildable(d.Dataset.Kind) {
		s += reasonNotSelected
	}
	return s
}

// sourceListing is a source's files, listed once per run so that the
// fingerprint and the reads agree.
type sourceListing struct {
	files  []format.File
	stamps []fileStamp
	err    error
	// kafka is a Kafka source's partitions and offsets, and kafkaOpts its
	// parsed options (no files, no stamps).
	kafka     *KafkaListing
	kafkaOpts *kafkaopt.Source
	// iceberg is an Iceberg source's table and snapshot read; its stamps
	// are the snapshot's data files (no files).
	iceberg *icebergListing
}

// planner decides freshness for `plan` and `run`.
type planner struct {
	ctx    context.Context // for the brokers of Kafka sources
	p      *Pipeline
	byName map[string]*Dataset
	root   string
	head   *warehouse.Commit // nil: an empty warehouse
	sel    *selection
	// lookup is a stored dataset's current version: the head's for plan, the
	// transaction's (with this run's new versions) for run.
	lookup func(name string) (*warehouse.Dataset, bool)
	// offsets are the current stream offsets: the head's, updated by the run.
	offsets map[string]json.RawMessage
	// predict (plan): a dataset the run would build counts as changed for
	// its readers.
	predict bool
	// epoch is the epoch a run commits (recorded in fingerprints).
	epoch int64
	// nonce makes tokens of stdin reads differ from run to run.
	nonce string
	// force makes a dataset stale with the given reason when nothing else
	// does (--follow: an idle timeout passed).
	force map[string]string
	// stdinNew reports whether a standard-input source has batches not read
	// yet (--follow); nil: it always has (a run reads what arrives).
	stdinNew func(source string) bool
	// maxFiles is run's --max-files-per-epoch (0: none): a reason says how
	// many of a stream read's new files the epoch reads.
	maxFiles int
	// fp is how source files are compared (--fingerprint; "": auto).
	fp fingerprintMode

	listings map[string]*sourceListing
	decided  map[string]*decision
	rebuilt  map[string]bool // built by this run
}

func newPlanner(p *Pipeline, root string, head *warehouse.Commit, sel *selection) *planner {
	pl := &planner{ctx: context.Background(), p: p, byName: map[string]*Dataset{}, root: root, head: head, sel: sel,
		offsets: map[string]json.RawMessage{}, listings: map[string]*sourceListing{},
		decided: map[string]*decision{}, rebuilt: map[string]bool{}, nonce: time.Now().Format(time.RFC3339Nano)}
	for _, d := range p.Datasets {
		pl.byName[d.Name] = d
	}
	if head != nil {
		for k, v := range head.SourceOffsets {
			pl.offsets[k] = v
		}
		pl.lookup = func(name string) (*warehouse.Dataset, bool) {
			d, ok := head.Datasets[name]
			return d, ok && !d.Dropped
		}
	} else {
		pl.lookup = func(string) (*warehouse.Dataset, bool) { return nil, false }
	}
	return pl
}

// recorded is the fingerprint the head commit holds for name.
func (pl *planner) recorded(name string) *fingerprint {
	if pl.head == nil {
		return nil
	}
	raw, ok := pl.head.Fingerprints[name]
	if !ok {
		return nil
	}
	var fp fingerprint
	if json.Unmarshal(raw, &fp) != nil {
		return nil
	}
	return &fp
}

// offset returns a flow's current offset in an input (zero: from the start).
func (pl *planner) offset(target, flow, input string) offset {
	var o offset
	if raw, ok := pl.offsets[offsetKey(target, flow, input)]; ok {
		json.Unmarshal(raw, &o)
	}
	return o
}

// listing lists a source's files once. A bounded source whose pattern
// matches nothing is an error; a watched folder (Unbounded) may be empty.
func (pl *planner) listing(src *Dataset) *sourceListing {
	if l, ok := pl.listings[src.Name]; ok {
		return l
	}
	l := &sourceListing{}
	pl.listings[src.Name] = l
	fs := src.Source
	if fs == nil || fs.Stdin {
		return l
	}
	if isKafka(src) {
		pl.kafkaListing(src, l)
		return l
	}
	if isIceberg(src) {
		pl.icebergListing(src, l)
		return l
	}
	var files []format.File
	if fs.Unbounded {
		// Glob refuses a pattern that matches nothing; a watched folder may
		// be empty, so glob pattern by pattern and keep the matches.
		seen := map[string]bool{}
		for _, pat := range fs.Patterns {
			got, err := format.Glob(pl.root, []string{pat})
			if err != nil {
				if strings.Contains(err.Error(), "matched no files") {
					continue
				}
				l.err = fmt.Errorf("source %s: %w", src.Name, err)
				return l
			}
			for _, f := range got {
				// a watched folder's writers publish files whole, by
				// rename: temporary names are never read (rt/stream.Ignored)
				if stream.Ignored(filepath.Base(f.Name)) {
					continue
				}
				if !seen[f.Path] {
					seen[f.Path] = true
					files = append(files, f)
				}
			}
		}
		sort.Slice(files, func(i, j int) bool { return files[i].Name < files[j].Name })
	} else {
		var err error
		if files, err = format.Glob(pl.root, fs.Patterns); err != nil {
			l.err = fmt.Errorf("source %s: %w", src.Name, err)
			return l
		}
	}
	for _, f := range files {
		st, err := os.Stat(f.Path)
		if err != nil {
			l.err = fmt.Errorf("source %s: %w", src.Name, err)
			return l
		}
		stamp := fileStamp{Path: f.Name, Size: st.Size(), MTime: st.ModTime().UTC().Format(time.RFC3339Nano)}
		if pl.fp.hashes(src, st.Size()) {
			if stamp.SHA256, err = hashFile(f.Path); err != nil {
				l.err = fmt.Errorf("source %s: %w", src.Name, err)
				return l
			}
		}
		l.stamps = append(l.stamps, stamp)
	}
	l.files = files
	return l
}

// unconsumed returns the listed files that are not in consumed (by path),
// and the consumed files whose size or time changed since.
func unconsumed(l *sourceListing, consumed []fileStamp) (files []format.File, stamps []fileStamp, changed []string) {
	seen := map[string]fileStamp{}
	for _, s := range consumed {
		seen[s.Path] = s
	}
	for i, s := range l.stamps {
		old, ok := seen[s.Path]
		if !ok {
			files = append(files, l.files[i])
			stamps = append(stamps, s)
		} else if !sameFile(old, s) {
			changed = append(changed, s.Path)
		}
	}
	return
}

// diffFiles compares a recorded file list with the current one.
func diffFiles(old, cur []fileStamp) (added, changed []string) {
	was := map[string]fileStamp{}
	for _, s := range old {
		was[s.Path] = s
	}
	now := map[string]bool{}
	for _, s := range cur {
		now[s.Path] = true
		o, ok := was[s.Path]
		switch {
		case !ok:
			added = append(added, s.Path)
		case !sameFile(o, s):
			changed = append(changed, modified(o, s))
		}
	}
	for _, s := range old {
		if !now[s.Path] {
			changed = append(changed, s.Path+" removed")
		}
	}
	return
}

// someNames lists up to three names, then how many more.
func someNames(names []string) string {
	if len(names) <= 3 {
		return strings.Join(names, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(names[:3], ", "), len(names)-3)
}

func plural(n int64, one, many string) string {
	if n == 1 {
		return "1 " + one
	}
	return fmt.Sprintf("%d %s", n, many)
}

func newFilesReason(src string, added []string) string {
	return fmt.Sprintf("new files in %s (%d: %s)", src, len(added), someNames(added))
}

// streamFiles returns the files of a stored dataset's current version that
// a stream read at off has not read yet; rewritten is true when the version
// is not an append to what was read (a full refresh or a materialized view's
// recompute), and then files is the whole version.
func streamFiles(cur *warehouse.Dataset, off offset) (files []warehouse.File, rewritten bool) {
	n := off.Count
	if n == 0 {
		return cur.Files, false
	}
	if n > len(cur.Files) || cur.Files[n-1].Path != off.Last {
		return cur.Files, true
	}
	return cur.Files[n:], false
}

func sumRows(files []warehouse.File) (n int64) {
	for _, f := range files {
		n += f.Rows
	}
	return n
}

// inputToken is what a reader records of one snapshot input (or of a stream
// read of a view): a source's definition hash, a stored dataset's version, a
// view's content hash.
func (pl *planner) inputToken(x *Dataset) string {
	switch {
	case x.Kind == Source:
		return hashString(x.Definition)
	case stored(x.Kind):
		tok := "none"
		if cur, ok := pl.lookup(x.Name); ok {
			tok = fmt.Sprintf("v%d", cur.Version)
		}
		if pl.predict && pl.decided[x.Name] != nil && pl.decided[x.Name].Build {
			tok += "+rebuilt"
		}
		return tok
	case isView(x.Kind):
		return pl.viewToken(x, map[string]bool{})
	}
	return ""
}

// viewToken hashes what a view's rows depend on: its definition, the
// runtime, and per input what it would read now (for stream reads: the input
// it has not consumed yet).
func (pl *planner) viewToken(v *Dataset, seen map[string]bool) string {
	if seen[v.Name] {
		return "cycle"
	}
	seen[v.Name] = true
	defer delete(seen, v.Name)
	parts := []string{v.Definition, RuntimeVersion}
	for _, f := range v.Flows {
		for _, in := range f.Inputs {
			x := pl.byName[in.Name]
			if x == nil {
				continue
			}
			parts = append(parts, in.Name, fmt.Sprint(in.Stream))
			switch {
			case x.Kind == Source && x.Source != nil && x.Source.Stdin:
				parts = append(parts, "stdin "+pl.nonce)
			case isIceberg(x) && in.Stream:
				parts = append(parts, hashString(x.Definition))
				if ip, err := pl.icebergRead(v, f, x, false); err != nil {
					parts = append(parts, "error "+pl.nonce)
				} else {
					if ip.pending() {
						parts = append(parts, "pending "+pl.nonce)
					}
					parts = append(parts, hashJSON(ip.next))
				}
			case isIceberg(x):
				parts = append(parts, hashString(x.Definition), hashJSON(pl.listing(x).stamps))
			case isKafka(x):
				parts = append(parts, hashString(x.Definition))
				if kp, err := pl.kafkaRead(v, f, x, in.Stream, false); err != nil {
					parts = append(parts, "error "+pl.nonce)
				} else {
					if in.Stream && kp.records > 0 {
						parts = append(parts, "pending "+pl.nonce)
					}
					parts = append(parts, hashJSON(kp.ranges))
				}
			case x.Kind == Source:
				l := pl.listing(x)
				stamps := l.stamps
				if in.Stream {
					_, stamps, _ = unconsumed(l, pl.offset(v.Name, f.Name, x.Name).Files)
					if len(stamps) > 0 {
						// Files the view has not consumed make it differ from
						// run to run: the token recorded after a build that
						// left some (--max-files-per-epoch) must not match
						// the next run's, which would then never read them.
						parts = append(parts, "pending "+pl.nonce)
					}
				}
				parts = append(parts, hashString(x.Definition), hashJSON(stamps))
			case stored(x.Kind) && in.Stream:
				tok := "none"
				if cur, ok := pl.lookup(x.Name); ok {
					files, rewritten := streamFiles(cur, pl.offset(v.Name, f.Name, x.Name))
					tok = fmt.Sprint(rewritten, len(files))
					if len(files) > 0 {
						tok += files[len(files)-1].Path
					}
				}
				if pl.predict && pl.decided[x.Name] != nil && pl.decided[x.Name].Build {
					tok += "+rebuilt"
				}
				parts = append(parts, tok)
			case isView(x.Kind):
				parts = append(parts, pl.viewToken(x, seen))
			default:
				parts = append(parts, pl.inputToken(x))
			}
		}
	}
	return hashJSON(parts)
}

// evaluate decides on one dataset. Call it in Pipeline.Datasets order: a
// decision looks at its inputs' decisions (plan) or new versions (run).
func (pl *planner) evaluate(ds *Dataset) *decision {
	d := &decision{Dataset: ds, Selected: pl.sel.has(ds.Name)}
	pl.decided[ds.Name] = d
	if ds.Kind == Source {
		pl.evalSource(ds, d)
		return d
	}
	if srcs := quarantineOf(pl.p, ds); len(srcs) > 0 {
		// appended to by the run when its flows read the sources
		// (quarantine.go), never built on its own
		d.Decision, d.Reasons = decisionFresh, []string{"quarantine table of " + strings.Join(srcs, ", ") + ": appended to when a flow reads them"}
		if pl.sel != nil && pl.sel.full[ds.Name] {
			d.Decision, d.Reasons = decisionStale, []string{reasonFullRefresh + ": emptied, then appended to when a flow reads " + strings.Join(srcs, ", ")}
		}
		return d
	}
	if owner := lateOwner(pl.p, ds); owner != "" {
		d.Selected = pl.sel.has(owner)
		// written by its owner's flow, with the late rows of each run that
		// builds the owner
		d.Decision, d.Reasons = decisionFresh, []string{"late rows of " + owner + ": written when " + owner + " is built"}
		if od := pl.decided[owner]; od != nil && od.Build {
			d.Decision = decisionStale
		}
		return d
	}
	pl.evalDataset(ds, d)
	if d.Decision == decisionStale && d.Selected && buildable(ds.Kind) && d.Err == nil {
		if err := pl.available(ds, map[string]bool{}); err != nil {
			d.Err = err
		} else {
			d.Build = true
		}
	}
	return d
}

func (pl *planner) evalSource(src *Dataset, d *decision) {
	l := pl.listing(src)
	rec := pl.recorded(src.Name)
	switch {
	case l.err != nil:
		d.Decision, d.Err = decisionError, l.err
	case src.Source != nil && src.Source.Stdin:
		d.Decision, d.Reasons = decisionStale, []string{"reads standard input (every run reads what arrives)"}
	case isKafka(src):
		d.Decision, d.Reasons = decisionStale, []string{describeListing(l.kafka)}
	case isIceberg(src) && l.iceberg.filesErr != nil:
		d.Decision, d.Err = decisionError, l.iceberg.filesErr
	case rec == nil:
		d.Decision, d.Reasons = decisionStale, []string{"never read"}
	default:
		if rec.Definition != hashString(src.Definition) {
			d.Reasons = append(d.Reasons, reasonDefinition)
		}
		added, changed := diffFiles(rec.Files[src.Name], l.stamps)
		if len(added) > 0 {
			d.Reasons = append(d.Reasons, fmt.Sprintf("new files (%d: %s)", len(added), someNames(added)))
		}
		if len(changed) > 0 {
			d.Reasons = append(d.Reasons, "files changed ("+someNames(changed)+")")
		}
		d.Decision = decisionStale
		if len(d.Reasons) == 0 {
			d.Decision = decisionFresh
			d.Reasons = []string{fmt.Sprintf("no new files since epoch %d", rec.Epoch)}
		}
	}
	if isIceberg(src) && l.err == nil {
		d.Reasons = append([]string{describeIceberg(l.iceberg)}, d.Reasons...)
	}
}

func (pl *planner) evalDataset(ds *Dataset, d *decision) {
	rec := pl.recorded(ds.Name)
	built := rec != nil
	if stored(ds.Kind) {
		_, built = pl.lookup(ds.Name)
	}
	switch {
	case pl.sel.full[ds.Name]:
		d.Reasons, d.Full = []string{reasonFullRefresh}, true
	case !built:
		d.Reasons = []string{reasonNeverBuilt}
	case rec == nil:
		d.Reasons = []string{reasonNoRecord}
	case pl.sel.refresh[ds.Name]:
		d.Reasons = []string{reasonRefresh}
	default:
		if rec.Runtime != RuntimeVersion {
			d.Reasons = append(d.Reasons, fmt.Sprintf("runtime changed (built by %s, now %s)", rec.Runtime, RuntimeVersion))
		}
		if rec.Definition != hashString(ds.Definition) {
			d.Reasons = append(d.Reasons, reasonDefinition)
		}
		if len(d.Reasons) > 0 && ds.Incremental {
			d.Full = true
			d.Reasons[len(d.Reasons)-1] += reasonRecompute
		}
		pl.inputReasons(ds, rec, d)
		if r := pl.force[ds.Name]; r != "" && len(d.Reasons) == 0 && d.Err == nil {
			d.Reasons = []string{r}
		}
	}
	if len(d.Reasons) > 0 && ds.NotIncremental != "" {
		d.Reasons = append(d.Reasons, "recomputed in full, not incrementally: "+ds.NotIncremental)
	}
	if d.Err != nil {
		d.Decision = decisionError
		return
	}
	d.Decision = decisionStale
	if len(d.Reasons) == 0 {
		d.Decision = decisionFresh
		d.Reasons = []string{fmt.Sprintf("unchanged since epoch %d", rec.Epoch)}
	}
}

// inputReasons adds a reason per input that changed since rec.
func (pl *planner) inputReasons(ds *Dataset, rec *fingerprint, d *decision) {
	seen := map[string]bool{}
	add := func(r string) {
		if !seen[r] {
			seen[r] = true
			d.Reasons = append(d.Reasons, r)
		}
	}
	for _, f := range ds.Flows {
		if f.Once && slices.Contains(rec.Once, f.Name) {
			continue // a once flow ran; only a full refresh runs it again
		}
		for _, in := range f.Inputs {
			x := pl.byName[in.Name]
			if x == nil {
				continue
			}
			stream := streamInput(ds, in)
			switch {
			case x.Kind == Source:
				if x.Source != nil && x.Source.Stdin {
					if pl.stdinNew == nil || pl.stdinNew(x.Name) {
						add(fmt.Sprintf("new input in %s (standard input)", x.Name))
					}
					continue
				}
				l := pl.listing(x)
				if l.err != nil {
					d.Err = l.err
					return
				}
				if old, ok := rec.Inputs[x.Name]; ok && old != hashString(x.Definition) {
					add(fmt.Sprintf("input %s changed (definition changed)", x.Name))
				}
				if isKafka(x) {
					kp, err := pl.kafkaRead(ds, f, x, stream, false)
					switch {
					case err != nil:
						d.Err = err
						return
					case stream && (kp.records > 0 || len(kp.lost) > 0):
						add(kp.describe(x.Name))
					case !stream && rec.Kafka[x.Name] != hashJSON(kp.ranges):
						add(fmt.Sprintf("input %s changed (its records up to the latest offsets: %s)", x.Name, plural(kp.records, "offset", "offsets")))
					}
					continue
				}
				if isIceberg(x) {
					if stream {
						ip, err := pl.icebergRead(ds, f, x, false)
						switch {
						case err != nil:
							d.Err = err
							return
						case ip.recompute != "":
							add(ip.describe(x.Name))
							d.Full = true
						case ip.pending():
							add(ip.describe(x.Name))
						}
						continue
					}
					if err := l.iceberg.filesErr; err != nil {
						d.Err = err
						return
					}
				}
				if stream {
					consumed := pl.offset(ds.Name, f.Name, x.Name).Files
					_, stamps, changed := unconsumed(l, consumed)
					if ds.Incremental {
						_, gone := diffFiles(consumed, l.stamps)
						for _, g := range gone {
							if strings.HasSuffix(g, " removed") {
								changed = append(changed, g)
							}
						}
					}
					if len(changed) > 0 && ds.Incremental {
						add(fmt.Sprintf("input %s changed (%s rewritten, not appended to: recomputing in full)", x.Name, someNames(changed)))
						d.Full = true
					}
					if len(stamps) > 0 {
						var names []string
						for _, s := range stamps {
							names = append(names, s.Path)
						}
						r := newFilesReason(x.Name, names)
						if n := pl.maxFiles; n > 0 && len(names) > n && !boundedReplay(pl.byName, f) {
							r = strings.TrimSuffix(r, ")") + fmt.Sprintf("; this epoch reads %d)", n)
						}
						add(r)
					}
					continue
				}
				added, changed := diffFiles(rec.Files[x.Name], l.stamps)
				if len(added) > 0 {
					add(newFilesReason(x.Name, added))
				}
				if len(changed) > 0 {
					add(fmt.Sprintf("input %s changed (%s)", x.Name, someNames(changed)))
				}
			case stored(x.Kind):
				if pl.predict && pl.decided[x.Name] != nil && pl.decided[x.Name].Build {
					add(fmt.Sprintf("input %s will change (the run rebuilds it first)", x.Name))
					continue
				}
				cur, ok := pl.lookup(x.Name)
				if !ok {
					continue // available() reports it
				}
				if stream {
					files, rewritten := streamFiles(cur, pl.offset(ds.Name, f.Name, x.Name))
					switch {
					case rewritten:
						add(fmt.Sprintf("input %s changed (rewritten, not appended: recomputing from the start)", x.Name))
						d.Full = true
					case len(files) > 0:
						add(fmt.Sprintf("input %s changed (%s)", x.Name, plural(sumRows(files), "new row", "new rows")))
					}
					continue
				}
				tok := pl.inputToken(x)
				if old := rec.Inputs[x.Name]; old != tok {
					switch {
					case pl.rebuilt[x.Name]:
						add(fmt.Sprintf("input %s changed (rebuilt by this run)", x.Name))
					case old == "":
						add(fmt.Sprintf("input %s changed", x.Name))
					default:
						add(fmt.Sprintf("input %s changed (%s)", x.Name, versionChange(old, tok)))
					}
				}
			case isView(x.Kind):
				if rec.Inputs[x.Name] != pl.inputToken(x) {
					add(fmt.Sprintf("input %s changed", x.Name))
				}
			}
		}
	}
}

// versionChange says how a stored input's token moved: "built from version
// 1, now version 2".
func versionChange(old, cur string) string {
	word := func(tok string) string {
		if n, ok := strings.CutPrefix(tok, "v"); ok && n != "" && strings.Trim(n, "0123456789") == "" {
			return "version " + n
		}
		if tok == "none" {
			return "no version"
		}
		return tok
	}
	return "built from " + word(old) + ", now " + word(cur)
}

// available checks that every input of ds can be read: a stored input has a
// version (or the run builds it first), a view's inputs are available.
func (pl *planner) available(ds *Dataset, seen map[string]bool) error {
	if seen[ds.Name] {
		return nil
	}
	seen[ds.Name] = true
	for _, f := range ds.Flows {
		for _, in := range f.Inputs {
			x := pl.byName[in.Name]
			if x == nil {
				continue
			}
			switch {
			case x.Kind == Source:
				if l := pl.listing(x); l.err != nil {
					return l.err
				}
			case stored(x.Kind):
				if _, ok := pl.lookup(x.Name); ok {
					continue
				}
				if xd := pl.decided[x.Name]; xd != nil && (xd.Build || pl.rebuilt[x.Name]) {
					continue
				}
				return fmt.Errorf("its input %s has never been built and is not selected (select it too, e.g. --select +%s)", x.Name, ds.Name)
			case isView(x.Kind):
				if err := pl.available(x, seen); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

// fingerprint computes what ds is built from, now (call it right after
// building ds). once lists the once flows that ran.
func (pl *planner) fingerprint(ds *Dataset, once []string) json.RawMessage {
	fp := fingerprint{Definition: hashString(ds.Definition), Runtime: RuntimeVersion, Epoch: pl.epoch,
		Inputs: map[string]string{}, Files: map[string][]fileStamp{}, Once: once}
	for _, f := range ds.Flows {
		for _, in := range f.Inputs {
			x := pl.byName[in.Name]
			if x == nil {
				continue
			}
			stream := streamInput(ds, in)
			switch {
			case x.Kind == Source:
				fp.Inputs[x.Name] = hashString(x.Definition)
				if isKafka(x) {
					if stream {
						continue // its offset is the commit record's
					}
					if kp, err := pl.kafkaRead(ds, f, x, false, false); err == nil {
						if fp.Kafka == nil {
							fp.Kafka = map[string]string{}
						}
						fp.Kafka[x.Name] = hashJSON(kp.ranges)
					}
				} else if !stream && x.Source != nil && !x.Source.Stdin {
					fp.Files[x.Name] = pl.listing(x).stamps
				}
			case stored(x.Kind):
				if !stream {
					fp.Inputs[x.Name] = pl.inputToken(x)
				}
			case isView(x.Kind):
				fp.Inputs[x.Name] = pl.inputToken(x)
			}
		}
	}
	if len(fp.Inputs) == 0 {
		fp.Inputs = nil
	}
	if len(fp.Files) == 0 {
		fp.Files = nil
	}
	raw, _ := json.Marshal(fp)
	return raw
}

// sourceFingerprint records the files a run saw of a source it read.
func (pl *planner) sourceFingerprint(src *Dataset) json.RawMessage {
	fp := fingerprint{Definition: hashString(src.Definition), Runtime: RuntimeVersion, Epoch: pl.epoch,
		Files: map[string][]fileStamp{src.Name: pl.listing(src).stamps}}
	raw, _ := json.Marshal(fp)
	return raw
}
