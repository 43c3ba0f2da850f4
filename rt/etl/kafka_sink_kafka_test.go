//go:build kafka

package etl_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/rt/etl"
	"github.com/nordisk/thund/rt/kafka"
	"github.com/nordisk/thund/rt/store"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// The Kafka sink against a real broker (THUND_TEST_KAFKA_BROKERS): each
// test creates its own topics and deletes them at the end.

var idsSchema = arrow.NewSchema([]arrow.Field{{Name: "id", Type: arrow.PrimitiveTypes.Int64}}, nil)

// kenv is a root folder with data/ and a warehouse, and the broker.
type kenv struct {
	t       *testing.T
	brokers string
	root    string
	adm     *kadm.Client
}

func newKenv(t *testing.T) *kenv {
	t.Helper()
	b := testenv.Kafka(t)
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(b, ",")...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	return &kenv{t: t, brokers: b, root: t.TempDir(), adm: kadm.NewClient(cl)}
}

// topic creates a topic unique to the test, deleted at its end.
func (e *kenv) topic(partitions int32) string {
	e.t.Helper()
	var r [4]byte
	rand.Read(r[:])
	name := regexp.MustCompile(`[^a-zA-Z0-9._-]+`).ReplaceAllString(e.t.Name(), "-") + "-" + hex.EncodeToString(r[:])
	ctx := context.Background()
	resp, err := e.adm.CreateTopic(ctx, partitions, 1, testenv.KafkaTopicConfigs(), name)
	if err == nil {
		err = resp.Err
	}
	if err != nil {
		e.t.Fatalf("creating topic %s: %v", name, err)
	}
	e.t.Cleanup(func() { e.adm.DeleteTopic(context.Background(), name) })
	return name
}

// ids writes data/NAME.csv with the ids from..to.
func (e *kenv) ids(name string, from, to int) {
	e.t.Helper()
	var b strings.Builder
	b.WriteString("id\n")
	for i := from; i <= to; i++ {
		fmt.Fprintf(&b, "%d\n", i)
	}
	p := filepath.Join(e.root, "data", name+".csv")
	if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
		e.t.Fatal(err)
	}
	if err := os.WriteFile(p, []byte(b.String()), 0o644); err != nil {
		e.t.Fatal(err)
	}
}

// run runs `etl run ARGS` and returns its exit status and stderr.
func (e *kenv) run(p *etl.Pipeline, args ...string) (int, string) {
	var out, errb bytes.Buffer
	code := etl.Run(p, append([]string{"run", "--warehouse", filepath.Join(e.root, "warehouse"), "--root", e.root}, args...),
		strings.NewReader(""), &out, &errb)
	return code, errb.String()
}

func (e *kenv) mustRun(p *etl.Pipeline) string {
	e.t.Helper()
	code, stderr := e.run(p)
	if code != 0 {
		e.t.Fatalf("run: exit %d\n%s", code, stderr)
	}
	return stderr
}

// rowFunc appends the sink row of one id.
type rowFunc func(b *array.RecordBuilder, id int64)

// valueRow is a sink of value only: "v<id>".
func valueRow(b *array.RecordBuilder, id int64) {
	b.Field(0).(*array.StringBuilder).Append("v" + strconv.FormatInt(id, 10))
}

var valueSchema = arrow.NewSchema([]arrow.Field{{Name: "value", Type: arrow.BinaryTypes.String}}, nil)

// sinkPipeline is, in the DSL's words:
//
//	source ids from csv "data/*.csv" { id int64 }
//	sink out format kafka options (...) = from stream ids | select <row(id)>
//
// fail, when set, is asked after each emitted batch whether the flow fails.
func sinkPipeline(opts [][2]string, schema *arrow.Schema, row rowFunc, fail func() bool) *etl.Pipeline {
	run := func(fc *etl.FlowContext) error {
		return fc.EachBatch("ids", func(rec arrow.RecordBatch) error {
			ids := rec.Column(0).(*array.Int64)
			b := array.NewRecordBuilder(fc.Mem, schema)
			for i := 0; i < ids.Len(); i++ {
				row(b, ids.Value(i))
			}
			out := b.NewRecordBatch()
			b.Release()
			rec.Release()
			err := fc.Emit(out)
			out.Release()
			if err != nil {
				return err
			}
			if fail != nil && fail() {
				return errors.New("the flow failed (test)")
			}
			return nil
		})
	}
	return &etl.Pipeline{Name: "ksink", File: "ksink.thund", Compiler: "v0.0.0-test", Kafka: kafka.New(), Datasets: []*etl.Dataset{
		{Name: "ids", Kind: etl.Source, Schema: idsSchema,
			Source:     &etl.FileSource{Format: "csv", Patterns: []string{"data/*.csv"}, Unbounded: true},
			Definition: `source ids from csv "data/*.csv" { id int64 }`},
		{Name: "out", Kind: etl.Sink, Schema: schema, Format: "kafka", SinkOptions: opts,
			Flows:      []*etl.Flow{{Name: "out", Inputs: []etl.Input{{Name: "ids", Stream: true}}, Run: run}},
			Definition: "sink out format kafka = from stream ids"},
	}}
}

func (e *kenv) opts(topic string) [][2]string {
	o := [][2]string{{"kafka.bootstrap.servers", e.brokers}}
	if topic != "" {
		o = append(o, [2]string{"topic", topic})
	}
	return o
}

// readCommitted reads every record of the topics as a read_committed
// consumer sees them, up to each partition's last stable offset.
func (e *kenv) readCommitted(topics ...string) []*kgo.Record {
	e.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// A transaction's commit markers reach its partitions after the commit
	// returns: wait (a little) for the last stable offsets to reach the
	// high watermarks. An open transaction (a crashed run's) holds them
	// back; then read what is stable.
	var lso kadm.ListedOffsets
	for wait := time.Now().Add(5 * time.Second); ; {
		var err error
		lso, err = e.adm.ListCommittedOffsets(ctx, topics...)
		if err != nil {
			e.t.Fatal(err)
		}
		hw, err := e.adm.ListEndOffsets(ctx, topics...)
		if err != nil {
			e.t.Fatal(err)
		}
		stable := true
		hw.Each(func(o kadm.ListedOffset) {
			if l, _ := lso.Lookup(o.Topic, o.Partition); l.Offset < o.Offset {
				stable = false
			}
		})
		if stable || time.Now().After(wait) {
			break
		}
		time.Sleep(50 * time.Millisecond)
	}
	parts := map[string]map[int32]kgo.Offset{}
	left := map[string]int64{} // topic/partition -> end
	lso.Each(func(o kadm.ListedOffset) {
		if o.Offset > 0 {
			if parts[o.Topic] == nil {
				parts[o.Topic] = map[int32]kgo.Offset{}
			}
			parts[o.Topic][o.Partition] = kgo.NewOffset().AtStart()
			left[fmt.Sprintf("%s/%d", o.Topic, o.Partition)] = o.Offset
		}
	})
	if len(parts) == 0 {
		return nil
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(e.brokers, ",")...), kgo.ConsumePartitions(parts),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.KeepControlRecords())
	if err != nil {
		e.t.Fatal(err)
	}
	defer cl.Close()
	var out []*kgo.Record
	for len(left) > 0 {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			e.t.Fatalf("reading %v: %v (partitions not read to the end: %v)", topics, ctx.Err(), left)
		}
		fs.EachError(func(t string, p int32, err error) { e.t.Fatalf("reading %s-%d: %v", t, p, err) })
		fs.EachRecord(func(r *kgo.Record) {
			k := fmt.Sprintf("%s/%d", r.Topic, r.Partition)
			if end, ok := left[k]; ok && r.Offset >= end-1 {
				delete(left, k)
			}
			if !r.Attrs.IsControl() {
				if end, ok := left[k]; !ok || r.Offset < end {
					out = append(out, r)
				}
			}
		})
	}
	return out
}

// exactlyOnce checks that the records' values are v<from>..v<to>, each
// once.
func exactlyOnce(t *testing.T, recs []*kgo.Record, from, to int) {
	t.Helper()
	seen := map[string]int{}
	for _, r := range recs {
		seen[string(r.Value)]++
	}
	var missing, dup []string
	for i := from; i <= to; i++ {
		v := "v" + strconv.Itoa(i)
		switch seen[v] {
		case 0:
			missing = append(missing, v)
		case 1:
		default:
			dup = append(dup, fmt.Sprintf("%s x%d", v, seen[v]))
		}
		delete(seen, v)
	}
	if len(missing)+len(dup)+len(seen) > 0 {
		t.Fatalf("%d records: missing %d %v, duplicated %d %v, unexpected %d",
			len(recs), len(missing), head(missing), len(dup), head(dup), len(seen))
	}
}

func head(s []string) []string { return s[:min(len(s), 5)] }

func header(r *kgo.Record, key string) (string, bool) {
	for _, h := range r.Headers {
		if h.Key == key {
			return string(h.Value), true
		}
	}
	return "", false
}

// TestKafkaSinkExactlyOnce: each epoch's rows reach a read_committed
// reader once, tagged with their epoch; a rerun with nothing new sends
// nothing. It measures the sink's throughput.
func TestKafkaSinkExactlyOnce(t *testing.T) {
	e := newKenv(t)
	topic := e.topic(3)
	p := sinkPipeline(e.opts(topic), valueSchema, valueRow, nil)
	e.ids("a", 1, 1000)
	e.mustRun(p)
	recs := e.readCommitted(topic)
	exactlyOnce(t, recs, 1, 1000)
	parts := map[int32]int{}
	for _, r := range recs {
		parts[r.Partition]++
		if ep, _ := header(r, kafka.HeaderEpoch); ep != "1" {
			t.Fatalf("record %s: thund.epoch %q, want 1", r.Value, ep)
		}
		if id, _ := header(r, kafka.HeaderSink); !strings.HasPrefix(id, "thund-ksink-out-") {
			t.Fatalf("record %s: thund.sink %q", r.Value, id)
		}
	}
	if len(parts) != 3 {
		t.Errorf("records without a key went to partitions %v, want all 3", parts)
	}
	// The next runs find the note the last one left beside its staged rows:
	// they do not ask Kafka, and have nothing to say about it.
	e.ids("b", 1001, 1500)
	for i, stderr := range []string{e.mustRun(p), e.mustRun(p) /* nothing new */} {
		if strings.Contains(stderr, "Kafka") {
			t.Errorf("run %d speaks of Kafka:\n%s", i+2, stderr)
		}
		exactlyOnce(t, e.readCommitted(topic), 1, 1500)
	}

	// Throughput: one epoch of n rows, from the CSV file to Kafka.
	n := 300_000
	e.ids("c", 1501, 1500+n)
	start := time.Now()
	e.mustRun(p)
	d := time.Since(start)
	exactlyOnce(t, e.readCommitted(topic), 1, 1500+n)
	t.Logf("throughput: %d records in %v: %.0f records/s (one run: CSV read, staging, produce, commit)", n, d.Round(time.Millisecond), float64(n)/d.Seconds())
}

// TestKafkaSinkEpochs: one process, several epochs (--max-files-per-epoch):
// each epoch is its own transaction, and the next epoch knows the last one
// reached Kafka without looking.
func TestKafkaSinkEpochs(t *testing.T) {
	e := newKenv(t)
	topic := e.topic(2)
	p := sinkPipeline(e.opts(topic), valueSchema, valueRow, nil)
	e.ids("a", 1, 100)
	e.ids("b", 101, 200)
	e.ids("c", 201, 300)
	code, stderr := e.run(p, "--max-files-per-epoch", "1")
	if code != 0 || strings.Contains(stderr, "already in Kafka") || strings.Contains(stderr, "again") {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	recs := e.readCommitted(topic)
	exactlyOnce(t, recs, 1, 300)
	// Each file is one epoch: its records carry one thund.epoch, and the
	// three files carry epochs 1, 2 and 3.
	epochOf := map[int]string{}
	for _, r := range recs {
		id, _ := strconv.Atoi(string(r.Value[1:]))
		ep, _ := header(r, kafka.HeaderEpoch)
		if was, ok := epochOf[(id-1)/100]; ok && was != ep {
			t.Fatalf("record %s: epoch %s, others of its file %s", r.Value, ep, was)
		}
		epochOf[(id-1)/100] = ep
	}
	got := []string{epochOf[0], epochOf[1], epochOf[2]}
	slices.Sort(got)
	if strings.Join(got, ",") != "1,2,3" {
		t.Fatalf("the files' epochs: %v", epochOf)
	}
}

// TestKafkaSinkTransactionLost: a transaction lost before the commit (the
// brokers aborted it: it outlived its timeout under a long flow) is
// produced again from the staged rows, and the run commits.
func TestKafkaSinkTransactionLost(t *testing.T) {
	e := newKenv(t)
	topic := e.topic(2)
	p := sinkPipeline(e.opts(topic), valueSchema, valueRow, nil)
	e.ids("a", 1, 500)
	defer etl.SetTestKafkaCrash(nil)
	fired := false
	etl.SetTestKafkaCrash(func(_, at string) bool {
		fired = fired || at == "flush"
		return at == "flush"
	})
	e.mustRun(p)
	etl.SetTestKafkaCrash(nil)
	if !fired {
		t.Fatal("the flush hook was not asked")
	}
	exactlyOnce(t, e.readCommitted(topic), 1, 500)
	e.ids("b", 501, 600)
	e.mustRun(p)
	exactlyOnce(t, e.readCommitted(topic), 1, 600)
}

// TestKafkaSinkFailureLeavesNothing: a run that fails after producing,
// before its commit (a flow error; the warehouse's commit record cannot be
// written), leaves nothing a read_committed reader sees; the rerun sends
// each row once.
func TestKafkaSinkFailureLeavesNothing(t *testing.T) {
	e := newKenv(t)
	topic := e.topic(2)
	e.ids("a", 1, 100)
	e.ids("b", 101, 200)
	failing := sinkPipeline(e.opts(topic), valueSchema, valueRow, func() bool { return true })
	code, stderr := e.run(failing)
	if code != 1 || !strings.Contains(stderr, "the flow failed (test)") {
		t.Fatalf("failing flow: exit %d\n%s", code, stderr)
	}
	if recs := e.readCommitted(topic); len(recs) != 0 {
		t.Fatalf("a failed run left %d records visible", len(recs))
	}
	p := sinkPipeline(e.opts(topic), valueSchema, valueRow, nil)
	etl.SetTestWrapFS(func(fs store.FS) store.FS {
		return store.NewFaulty(fs, store.Fault{Op: store.OpCreateIfAbsent, Match: "_thund/commits/", Err: syscall.ENOSPC})
	})
	code, stderr = e.run(p)
	etl.SetTestWrapFS(nil)
	if code != 1 || !strings.Contains(stderr, "no space left on device") {
		t.Fatalf("commit record fault: exit %d\n%s", code, stderr)
	}
	if recs := e.readCommitted(topic); len(recs) != 0 {
		t.Fatalf("a run whose commit failed left %d records visible", len(recs))
	}
	e.mustRun(p)
	exactlyOnce(t, e.readCommitted(topic), 1, 200)
}

// TestKafkaSinkCrash: a process that dies at each step of the protocol
// (mid-transaction, after the warehouse commit, after the Kafka commit,
// while recovery publishes again), then a rerun: each row once.
func TestKafkaSinkCrash(t *testing.T) {
	for _, tc := range []struct {
		name   string
		points []string // where successive runs die
		warn   string   // what the recovering run says
	}{
		{"mid-transaction", []string{"produce"}, ""},
		{"after the warehouse commit", []string{"committed"}, "published epoch 1 (100 records) to Kafka again"},
		{"after the Kafka commit", []string{"published"}, "epoch 1 was already in Kafka"},
		{"during recovery", []string{"committed", "republish"}, "published epoch 1 (100 records) to Kafka again"},
		{"during recovery, after its Kafka commit", []string{"committed", "republished"}, "epoch 1 was already in Kafka"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			e := newKenv(t)
			topic := e.topic(3)
			p := sinkPipeline(e.opts(topic), valueSchema, valueRow, nil)
			e.ids("a", 1, 100)
			defer etl.SetTestKafkaCrash(nil)
			for _, point := range tc.points {
				fired := false
				etl.SetTestKafkaCrash(func(_, at string) bool {
					if at == point && !fired {
						fired = true
						return true
					}
					return false
				})
				code, stderr := e.run(p)
				if !fired || code == 0 {
					t.Fatalf("crash at %s: fired %v, exit %d\n%s", point, fired, code, stderr)
				}
				etl.SetTestKafkaCrash(nil)
				if point == "committed" || point == "produce" || point == "republish" {
					if recs := e.readCommitted(topic); len(recs) != 0 {
						t.Fatalf("after a crash at %s, %d records are visible", point, len(recs))
					}
				}
			}
			e.ids("b", 101, 150) // new rows too: the rerun resolves epoch 1, then writes epoch 2
			stderr := e.mustRun(p)
			if tc.warn != "" && !strings.Contains(stderr, tc.warn) {
				t.Errorf("the recovering run does not say %q:\n%s", tc.warn, stderr)
			}
			exactlyOnce(t, e.readCommitted(topic), 1, 150)
			e.mustRun(p)
			exactlyOnce(t, e.readCommitted(topic), 1, 150)
		})
	}
}

// TestKafkaSinkColumns: key, topic, partition and headers columns are
// honoured, with Spark's Kafka sink's meaning.
func TestKafkaSinkColumns(t *testing.T) {
	e := newKenv(t)
	t1, t2 := e.topic(4), e.topic(2)
	hdr := arrow.ListOf(arrow.StructOf(arrow.Field{Name: "key", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "value", Type: arrow.BinaryTypes.Binary, Nullable: true}))
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "key", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "value", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "topic", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "partition", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "headers", Type: hdr, Nullable: true},
	}, nil)
	// id%2: topic t2 (else the column is NULL: the option's t1); id%3==0:
	// partition 1; id%5==0: no key; id%7==0: headers h=<id>.
	row := func(b *array.RecordBuilder, id int64) {
		s := strconv.FormatInt(id, 10)
		if id%5 == 0 {
			b.Field(0).AppendNull()
		} else {
			b.Field(0).(*array.BinaryBuilder).Append([]byte("k" + strconv.FormatInt(id%40, 10)))
		}
		b.Field(1).(*array.StringBuilder).Append("v" + s)
		if id%2 == 1 {
			b.Field(2).(*array.StringBuilder).Append(t2)
		} else {
			b.Field(2).AppendNull()
		}
		if id%3 == 0 {
			b.Field(3).(*array.Int32Builder).Append(1)
		} else {
			b.Field(3).AppendNull()
		}
		lb := b.Field(4).(*array.ListBuilder)
		if id%7 == 0 {
			lb.Append(true)
			sb := lb.ValueBuilder().(*array.StructBuilder)
			sb.Append(true)
			sb.FieldBuilder(0).(*array.StringBuilder).Append("h")
			sb.FieldBuilder(1).(*array.BinaryBuilder).Append([]byte(s))
		} else {
			lb.AppendNull()
		}
	}
	p := sinkPipeline(e.opts(t1), schema, row, nil)
	e.ids("a", 1, 300)
	e.mustRun(p)
	recs := e.readCommitted(t1, t2)
	exactlyOnce(t, recs, 1, 300)
	// Keys repeat (id%40): Kafka's partitioner sends a key to one partition
	// of its topic, epoch after epoch, unless the partition column says
	// otherwise.
	check := func(recs []*kgo.Record) {
		t.Helper()
		where := map[string]int32{}
		for _, r := range recs {
			id, _ := strconv.ParseInt(string(r.Value[1:]), 10, 64)
			s := strconv.FormatInt(id, 10)
			wantTopic := t1
			if id%2 == 1 {
				wantTopic = t2
			}
			if r.Topic != wantTopic {
				t.Errorf("id %d: topic %s, want %s", id, r.Topic, wantTopic)
			}
			if id%3 == 0 && r.Partition != 1 {
				t.Errorf("id %d: partition %d, want 1 (the partition column)", id, r.Partition)
			}
			switch {
			case id%5 == 0 && r.Key != nil:
				t.Errorf("id %d: key %q, want none", id, r.Key)
			case id%5 != 0 && string(r.Key) != "k"+strconv.FormatInt(id%40, 10):
				t.Errorf("id %d: key %q, want k%d", id, r.Key, id%40)
			}
			h, ok := header(r, "h")
			if id%7 == 0 && h != s || id%7 != 0 && ok {
				t.Errorf("id %d: header h %q (%v)", id, h, ok)
			}
			if id%3 != 0 && r.Key != nil {
				k := r.Topic + "/" + string(r.Key)
				if p, seen := where[k]; seen && p != r.Partition {
					t.Errorf("key %s: partitions %d and %d", k, p, r.Partition)
				}
				where[k] = r.Partition
			}
		}
	}
	check(recs)
	e.ids("b", 301, 600)
	e.mustRun(p)
	recs = e.readCommitted(t1, t2)
	exactlyOnce(t, recs, 1, 600)
	check(recs)
}

// TestKafkaSinkRefusals: columns and options a Kafka sink does not take
// fail the run before anything is produced, with the reason.
func TestKafkaSinkRefusals(t *testing.T) {
	e := newKenv(t)
	topic := e.topic(1)
	e.ids("a", 1, 10)
	other := arrow.NewSchema([]arrow.Field{{Name: "value", Type: arrow.BinaryTypes.String}, {Name: "extra", Type: arrow.BinaryTypes.String}}, nil)
	for _, tc := range []struct {
		name   string
		p      *etl.Pipeline
		stderr string
	}{
		{"other column", sinkPipeline(e.opts(topic), other, func(b *array.RecordBuilder, id int64) {
			b.Field(0).(*array.StringBuilder).Append("v")
			b.Field(1).(*array.StringBuilder).Append("x")
		}, nil), "sink out: column extra is not one a Kafka sink writes"},
		{"no topic", sinkPipeline(e.opts(""), valueSchema, valueRow, nil), "a Kafka sink needs the topic option, or a topic column"},
		{"transactional id", sinkPipeline(append(e.opts(topic), [2]string{"kafka.transactional.id", "x"}), valueSchema, valueRow, nil),
			"option kafka.transactional.id: not accepted: the sink derives its transactional id"},
		{"missing topic", sinkPipeline(e.opts(topic+"-absent"), valueSchema, valueRow, nil), "UNKNOWN_TOPIC_OR_PARTITION"},
		{"partition out of range", sinkPipeline(e.opts(topic), arrow.NewSchema([]arrow.Field{{Name: "value", Type: arrow.BinaryTypes.String},
			{Name: "partition", Type: arrow.PrimitiveTypes.Int32}}, nil), func(b *array.RecordBuilder, id int64) {
			b.Field(0).(*array.StringBuilder).Append("v")
			b.Field(1).(*array.Int32Builder).Append(int32(id % 3))
		}, nil), "row 1: its partition column says 1: invalid record partitioning choice of 1 from 1 available"},
	} {
		code, stderr := e.run(tc.p)
		if code != 1 || !strings.Contains(stderr, tc.stderr) {
			t.Errorf("%s: exit %d, want 1 and %q:\n%s", tc.name, code, tc.stderr, stderr)
		}
	}
	if recs := e.readCommitted(topic); len(recs) != 0 {
		t.Errorf("refused runs left %d records", len(recs))
	}
}
