package etl

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/nordisk/thund/rt/warehouse"
)

// The Kafka sink, exactly once for read_committed readers (docs/streaming.md,
// "Kafka sink: exactly once"). For each epoch N that gives a Kafka sink rows:
//
//  1. While the flows run, the rows are staged in the warehouse (an Arrow
//     IPC stream under _thund/checkpoints/N/) and produced, in the same
//     order, into one Kafka transaction of the sink's transactional
//     producer. Every record carries the headers thund.sink (the
//     transactional id) and thund.epoch (N).
//  2. Before the warehouse commit, the producer is flushed: every record is
//     acknowledged (a produce error fails the run, which commits nothing and
//     aborts the transaction). The first record's topic, partition and
//     offset are the epoch's probe.
//  3. The commit record of epoch N holds, under sink/NAME, the staged
//     object (name, size, sha256), the transactional id, N and the probe.
//  4. After the commit, the Kafka transaction is committed, and a note
//     (warehouse.WriteNote) is written beside the staged rows.
//
// A run that begins with a head whose entry for the sink is an epoch not
// known to be in Kafka (no note: a run died between its commit and the
// note) resolves it before anything else: the producer
// initializes with the same transactional id, which fences the old producer
// and makes the brokers abort a transaction it left open; then the probe's
// partition is read with read_committed from the probe's offset. A record of
// this sink and epoch N there means epoch N is in Kafka (a transaction's
// records are all visible or none). Otherwise the staged rows are produced
// again, the first record to the probe's partition, in a new transaction,
// which is committed. Either way N is then in Kafka exactly once, and the
// next commit records it as published (and drops the staged object).

// KafkaSinks opens the Kafka sinks of a run.
type KafkaSinks interface {
	// OpenSink parses sink ds's options and checks its columns (value, and
	// optionally key, topic, partition, headers); id is its transactional
	// id. It connects to nothing yet.
	OpenSink(ds *Dataset, id string) (KafkaSink, error)
}

// KafkaSink is one Kafka sink's transactional producer for one run.
type KafkaSink interface {
	// Begin fences earlier producers of the transactional id (the brokers
	// abort a transaction one left open) and starts epoch's transaction; a
	// non-nil probe sends its first record to the probe's partition.
	Begin(ctx context.Context, epoch int64, probe *KafkaProbe) error
	// Write produces one record per row (asynchronously: a failed produce
	// is Flush's error); it fails on a row no record can be made of.
	Write(ctx context.Context, rec arrow.RecordBatch) error
	// Flush waits for every record's acknowledgement; it returns where the
	// first record went and how many records the transaction holds.
	Flush(ctx context.Context) (KafkaProbe, int64, error)
	Commit(ctx context.Context) error
	Abort(ctx context.Context) error
	// Published fences earlier producers, then reports whether a record of
	// this sink and epoch is in the probe's partition at or after the
	// probe's offset, read with read_committed.
	Published(ctx context.Context, epoch int64, probe KafkaProbe) (bool, error)
	// Close closes the client without ending an open transaction.
	Close()
}

// KafkaProbe is where the first record of an epoch's transaction went.
type KafkaProbe struct {
	Topic     string `json:"topic"`
	Partition int32  `json:"partition"`
	Offset    int64  `json:"offset"`
}

// kafkaState is a Kafka sink's entry in the commit record's state map. The
// object fields are those of warehouse.StateRef, so that a run verifies
// the staged rows (size, checksum) before it resumes from the commit.
type kafkaState struct {
	Object          string      `json:"object,omitempty"`
	SHA256          string      `json:"sha256,omitempty"`
	Bytes           *int64      `json:"bytes,omitempty"`
	TransactionalID string      `json:"transactional_id"`
	Epoch           int64       `json:"epoch"`
	Probe           *KafkaProbe `json:"probe,omitempty"`
	Records         int64       `json:"records"`
	Published       bool        `json:"published"`
}

// testKafkaCrash, when set by a test, is asked at each step of the protocol
// (produce, committed, published, republish, republished) whether the
// process dies there: the sink then stops without ending its transaction.
// At flush, true means the transaction was lost instead (the run goes on).
var testKafkaCrash func(sink, point string) bool

var errKafkaCrash = errors.New("simulated crash (test)")

func (ex *executor) kafkaCrash(sink, point string) bool {
	return testKafkaCrash != nil && testKafkaCrash(sink, point)
}

// kafkaRef is one Kafka sink of the epoch.
type kafkaRef struct {
	ds       *Dataset
	id       string
	sink     KafkaSink
	head     *kafkaState // the head commit's entry (nil: none)
	resolved bool        // head's epoch is known to be in Kafka
}

func isKafkaSink(ds *Dataset) bool { return ds.Kind == Sink && sinkFormat(ds) == kafkaFormat }

// kafkaID derives a sink's transactional id from the pipeline, the sink
// and the warehouse's location. It is recorded in the commit record and
// kept from then on, so that a moved warehouse keeps its id.
func kafkaID(pipeline, sink, location string) string {
	h := sha256.Sum256([]byte(location + "\x00" + pipeline + "\x00" + sink))
	return fmt.Sprintf("thund-%s-%s-%s", pipeline, sink, hex.EncodeToString(h[:6]))
}

// openKafka opens the run's selected Kafka sinks and resolves an epoch a
// dead run committed without knowing whether it reached Kafka.
func (ex *executor) openKafka(head *warehouse.Commit) error {
	for _, ds := range ex.p.Datasets {
		if !isKafkaSink(ds) || !ex.sel.has(ds.Name) {
			continue
		}
		if ex.p.Kafka == nil {
			return fmt.Errorf("sink %s: this program was built without Kafka support", ds.Name)
		}
		ref := &kafkaRef{ds: ds}
		if head != nil {
			if raw, ok := head.State[sinkStateKey(ds.Name)]; ok {
				var st kafkaState
				if err := json.Unmarshal(raw, &st); err != nil {
					return fmt.Errorf("sink %s: the commit record of epoch %d: %w", ds.Name, head.Epoch, err)
				}
				ref.head, ref.id = &st, st.TransactionalID
			}
		}
		if ref.id == "" {
			ref.id = kafkaID(ex.p.Name, ds.Name, ex.r.WH.Location(""))
		}
		s, err := ex.p.Kafka.OpenSink(ds, ref.id)
		if err != nil {
			return fmt.Errorf("sink %s: %w", ds.Name, err)
		}
		ref.sink = s
		ex.kafka[ds.Name] = ref
		if err := ex.resolveKafka(ex.ctx, ref); err != nil {
			return err
		}
	}
	return nil
}

// resolveKafka makes sure the epoch the head commit left pending for a
// Kafka sink is in Kafka, once.
func (ex *executor) resolveKafka(ctx context.Context, ref *kafkaRef) error {
	st := ref.head
	if st == nil || st.Published || st.Object == "" || st.Probe == nil {
		return nil
	}
	if ex.c.kafkaPublished[ref.ds.Name] == st.Epoch {
		ref.resolved = true // this process committed it (run --follow)
		return nil
	}
	name := ref.ds.Name
	if ok, _ := ex.r.WH.HasNote(ctx, st.Object, publishedNote); ok {
		ref.resolved = true // the run that committed it noted it
		return nil
	}
	if ex.sel != nil && ex.sel.full[name] {
		ex.r.Warn(fmt.Sprintf("sink %s: --full-refresh sends every row again; whether epoch %d reached Kafka is not checked", name, st.Epoch))
		return nil
	}
	found, err := ref.sink.Published(ctx, st.Epoch, *st.Probe)
	if err != nil {
		return fmt.Errorf("sink %s: epoch %d is committed in the warehouse, but whether it reached Kafka cannot be told: %w (the next run tries again; --full-refresh %s sends every row again instead)", name, st.Epoch, err, name)
	}
	if found {
		ex.r.Warn(fmt.Sprintf("sink %s: epoch %d was already in Kafka (the run that committed it stopped before saying so)", name, st.Epoch))
		ref.resolved = true
		if msg := ex.notePublished(ctx, name, st); msg != "" {
			ex.r.Warn(msg)
		}
		return nil
	}
	if _, _, err := ex.replayKafka(ctx, ref, st, st.Probe); err != nil {
		return fmt.Errorf("sink %s: publishing epoch %d again: %w (the next run tries again)", name, st.Epoch, err)
	}
	if ex.kafkaCrash(name, "republish") {
		ref.sink.Close()
		return errKafkaCrash
	}
	if err := ref.sink.Commit(ctx); err != nil {
		return fmt.Errorf("sink %s: committing epoch %d again: %w (the next run tries again)", name, st.Epoch, err)
	}
	if ex.kafkaCrash(name, "republished") {
		ref.sink.Close()
		return errKafkaCrash
	}
	ex.r.Warn(fmt.Sprintf("sink %s: published epoch %d (%d records) to Kafka again: the run that committed it stopped before its Kafka transaction committed", name, st.Epoch, st.Records))
	ref.resolved = true
	if msg := ex.notePublished(ctx, name, st); msg != "" {
		ex.r.Warn(msg)
	}
	return nil
}

// replayKafka produces the rows staged for epoch st.Epoch in a new
// transaction (not committed), checking them against the recorded size and
// checksum before the caller commits. probe, when set, is where the first
// record goes.
func (ex *executor) replayKafka(ctx context.Context, ref *kafkaRef, st *kafkaState, probe *KafkaProbe) (KafkaProbe, int64, error) {
	obj, err := ex.r.WH.FS.Open(ctx, st.Object)
	if err != nil {
		return KafkaProbe{}, 0, fmt.Errorf("the staged rows: %w", err)
	}
	defer obj.Close()
	h := sha256.New()
	cr := &countingReader{r: io.TeeReader(obj, h)}
	if err := ref.sink.Begin(ctx, st.Epoch, probe); err != nil {
		return KafkaProbe{}, 0, err
	}
	fail := func(err error) (KafkaProbe, int64, error) {
		ref.sink.Abort(ctx)
		return KafkaProbe{}, 0, err
	}
	rd, err := ipc.NewReader(cr, ipc.WithAllocator(ex.mem))
	if err != nil {
		return fail(fmt.Errorf("the staged rows %s: %w", ex.r.WH.Location(st.Object), err))
	}
	for rd.Next() {
		if err := ref.sink.Write(ctx, rd.RecordBatch()); err != nil {
			rd.Release()
			return fail(err)
		}
	}
	err = rd.Err()
	rd.Release()
	if err != nil {
		return fail(fmt.Errorf("the staged rows %s: %w", ex.r.WH.Location(st.Object), err))
	}
	if _, err := io.Copy(io.Discard, cr); err != nil {
		return fail(err)
	}
	if sum := hex.EncodeToString(h.Sum(nil)); sum != st.SHA256 || st.Bytes != nil && cr.n != *st.Bytes {
		return fail(fmt.Errorf("the staged rows %s do not match their record (sha256 %s, %d bytes)", ex.r.WH.Location(st.Object), sum, cr.n))
	}
	p, n, err := ref.sink.Flush(ctx)
	if err != nil {
		return fail(err)
	}
	return p, n, nil
}

type countingReader struct {
	r io.Reader
	n int64
}

func (c *countingReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += int64(n)
	return n, err
}

// finishKafka records, in a commit this epoch makes anyway, that the head's
// pending epoch of each Kafka sink is in Kafka (so that later runs need not
// look, and the staged rows are no longer referenced).
func (ex *executor) finishKafka() {
	if !ex.r.Txn.Changed() {
		return
	}
	for name, ref := range ex.kafka {
		if !ref.resolved {
			continue
		}
		key := sinkStateKey(name)
		cur, _ := ex.r.Txn.State(key)
		var st kafkaState
		if json.Unmarshal(cur, &st) != nil || st.Epoch != ref.head.Epoch || st.Published {
			continue // this epoch wrote the sink again
		}
		done, _ := json.Marshal(kafkaState{TransactionalID: st.TransactionalID, Epoch: st.Epoch, Probe: st.Probe, Records: st.Records, Published: true})
		ex.r.Txn.SetState(key, done)
	}
}

// closeKafka closes the epoch's Kafka clients.
func (ex *executor) closeKafka() {
	for _, ref := range ex.kafka {
		if ref.sink != nil {
			ref.sink.Close()
		}
	}
}

// kafkaTarget is a Kafka sink's target for one epoch: it stages the rows
// in the warehouse and produces them into the epoch's transaction, which
// publish commits after the warehouse commit.
type kafkaTarget struct {
	ex    *executor
	ref   *kafkaRef
	stage *kafkaStage
	st    kafkaState
	dead  bool // a simulated crash: leave everything as it is
}

// kafkaStage is the staged rows of an epoch: an Arrow IPC stream, a state
// object of the epoch.
type kafkaStage struct {
	sw   *warehouse.StateWriter
	ipcw *ipc.Writer
}

func (t *kafkaTarget) open() error {
	ex, ds := t.ex, t.ref.ds
	sw, err := ex.r.Txn.CreateState(ex.ctx, sinkStateKey(ds.Name), ".arrows")
	if err != nil {
		return fmt.Errorf("sink %s: staging its rows: %w", ds.Name, err)
	}
	t.stage = &kafkaStage{sw: sw, ipcw: ipc.NewWriter(sw, ipc.WithSchema(ds.Schema), ipc.WithAllocator(ex.mem))}
	if err := t.ref.sink.Begin(ex.ctx, ex.r.Txn.Epoch(), nil); err != nil {
		return fmt.Errorf("sink %s: %w", ds.Name, err)
	}
	return nil
}

func (t *kafkaTarget) emit(rec arrow.RecordBatch) error {
	if t.dead {
		return errKafkaCrash
	}
	first := t.stage == nil
	if first {
		if err := t.open(); err != nil {
			return err
		}
	}
	if err := t.stage.ipcw.Write(rec); err != nil {
		return fmt.Errorf("sink %s: staging its rows: %w", t.ref.ds.Name, err)
	}
	if err := t.ref.sink.Write(t.ex.ctx, rec); err != nil {
		return fmt.Errorf("sink %s: %w", t.ref.ds.Name, err)
	}
	if first && t.ex.kafkaCrash(t.ref.ds.Name, "produce") {
		t.dead = true
		t.ref.sink.Close()
		return errKafkaCrash
	}
	return nil
}

// close finishes the staged rows and waits until Kafka has every record;
// a produce that failed is tried once more from the staged rows (the
// transaction may have timed out under a long flow) before the run fails.
func (t *kafkaTarget) close() error {
	if t.stage == nil || t.dead {
		return nil
	}
	ex, name := t.ex, t.ref.ds.Name
	key := sinkStateKey(name)
	err := t.stage.ipcw.Close()
	if err == nil {
		err = t.stage.sw.Close()
	}
	if err != nil {
		t.abort()
		return fmt.Errorf("sink %s: staging its rows: %w", name, err)
	}
	t.stage.sw = nil
	raw, _ := ex.r.Txn.State(key)
	if err := json.Unmarshal(raw, &t.st); err != nil {
		return fmt.Errorf("sink %s: %w", name, err)
	}
	t.st.TransactionalID, t.st.Epoch = t.ref.id, ex.r.Txn.Epoch()
	probe, n, err := t.ref.sink.Flush(ex.ctx)
	if err == nil && ex.kafkaCrash(name, "flush") {
		err = errors.New("the transaction was lost (test)") // a fault, not a crash: the run goes on
	}
	if err != nil {
		t.ref.sink.Abort(ex.ctx)
		t.ref.sink.Close()
		if t.ref.sink, err = ex.p.Kafka.OpenSink(t.ref.ds, t.ref.id); err == nil {
			probe, n, err = ex.replayKafka(ex.ctx, t.ref, &t.st, nil)
		}
		if err != nil {
			return fmt.Errorf("sink %s: %w", name, err)
		}
	}
	t.st.Probe, t.st.Records = &probe, n
	raw, _ = json.Marshal(t.st)
	ex.r.Txn.SetState(key, raw)
	ex.sinks = append(ex.sinks, t)
	return nil
}

func (t *kafkaTarget) abort() {
	if t.dead || t.stage == nil {
		return
	}
	// An interrupted run aborts its transaction all the same.
	ctx, cancel := context.WithTimeout(context.WithoutCancel(t.ex.ctx), time.Minute)
	defer cancel()
	t.ref.sink.Abort(ctx)
	if t.stage.sw != nil {
		t.stage.sw.Abort() // the staged object, if finished, goes with the transaction
	}
}

// publish commits the epoch's Kafka transaction, after the warehouse
// commit. When that fails, the epoch is resolved as a new run would.
func (t *kafkaTarget) publish(io.Writer) error {
	ex, name := t.ex, t.ref.ds.Name
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ex.ctx), 5*time.Minute)
	defer cancel()
	if ex.kafkaCrash(name, "committed") {
		t.dead = true
		t.ref.sink.Close()
		return errKafkaCrash
	}
	err := t.ref.sink.Commit(ctx)
	if err != nil {
		t.ref.sink.Close()
		ref := &kafkaRef{ds: t.ref.ds, id: t.ref.id, head: &t.st}
		if ref.sink, err = ex.p.Kafka.OpenSink(t.ref.ds, t.ref.id); err == nil {
			t.ref.sink = ref.sink
			err = ex.resolveKafka(ctx, ref)
		}
		if err != nil {
			return fmt.Errorf("sink %s: epoch %d is committed, but not yet in Kafka: %w (the next run publishes it)", name, t.st.Epoch, err)
		}
	}
	ex.c.kafkaPublished[name] = t.st.Epoch
	if ex.kafkaCrash(name, "published") {
		t.dead = true
		return errKafkaCrash
	}
	if msg := ex.notePublished(ctx, name, &t.st); msg != "" {
		fmt.Fprintln(ex.c.stderr, "warning: "+msg) // the run's event log is written
	}
	return nil
}

// publishedNote is the note beside an epoch's staged rows that says they
// reached Kafka: a run that finds it need not ask Kafka.
const publishedNote = "published"

// notePublished writes the published note. It is best effort: without it,
// the next run asks Kafka; the returned message says so.
func (ex *executor) notePublished(ctx context.Context, name string, st *kafkaState) string {
	data, _ := json.Marshal(map[string]any{"epoch": st.Epoch, "records": st.Records, "transactional_id": st.TransactionalID})
	if err := ex.r.WH.WriteNote(ctx, st.Object, publishedNote, data); err != nil {
		return fmt.Sprintf("sink %s: epoch %d is in Kafka, but noting it in the warehouse failed (the next run asks Kafka): %v", name, st.Epoch, err)
	}
	return ""
}

// discard aborts the transaction of a run that did not commit.
func (t *kafkaTarget) discard() {
	if t.dead {
		return
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(t.ex.ctx), time.Minute)
	defer cancel()
	t.ref.sink.Abort(ctx) // the staged rows go with the warehouse transaction
}
