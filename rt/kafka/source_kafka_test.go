//go:build kafka

package kafka_test

import (
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/rt/etl"
	"github.com/nordisk/thund/rt/kafka"
	"github.com/nordisk/thund/rt/stream"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// The Kafka lane's acceptance tests of the Kafka source: records produced
// to the real broker (testenv.Kafka), read through rt/etl by a pipeline
// whose flow copies the source into a streaming table, and the table's rows
// checked against what was produced.

// kafkaSchema is Spark's Kafka source schema (headers: includeHeaders).
func kafkaSchema(headers bool) *arrow.Schema {
	fs := []arrow.Field{
		{Name: "key", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "value", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "topic", Type: arrow.BinaryTypes.String, Nullable: true},
		{Name: "partition", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
		{Name: "offset", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
		{Name: "timestamp", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
		{Name: "timestampType", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	}
	if headers {
		hdr := arrow.StructOf(
			arrow.Field{Name: "key", Type: arrow.BinaryTypes.String, Nullable: true},
			arrow.Field{Name: "value", Type: arrow.BinaryTypes.Binary, Nullable: true})
		fs = append(fs, arrow.Field{Name: "headers", Type: arrow.ListOf(hdr), Nullable: true})
	}
	return arrow.NewSchema(fs, nil)
}

// copyRun copies every batch of input to the target.
func copyRun(input string) func(fc *etl.FlowContext) error {
	return func(fc *etl.FlowContext) error {
		return fc.EachBatch(input, func(rec arrow.RecordBatch) error {
			err := fc.Emit(rec)
			rec.Release()
			return err
		})
	}
}

// kenv is one test's broker, topics and warehouse.
type kenv struct {
	t       testing.TB
	brokers string
	adm     *kadm.Client
	root    string
	wh      string
}

func newKenv(t testing.TB) *kenv {
	t.Helper()
	brokers := testenv.Kafka(t)
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(brokers, ",")...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	root := t.TempDir()
	return &kenv{t: t, brokers: brokers, adm: kadm.NewClient(cl), root: root, wh: filepath.Join(root, "warehouse")}
}

// topic creates a topic named after the test, deleted at the end.
func (k *kenv) topic(suffix string, partitions int32) string {
	k.t.Helper()
	b := make([]byte, 4)
	rand.Read(b)
	name := strings.NewReplacer("/", "-", "_", "-").Replace(k.t.Name()) + "-" + suffix + "-" + hex.EncodeToString(b)
	ctx := context.Background()
	if _, err := k.adm.CreateTopic(ctx, partitions, 1, testenv.KafkaTopicConfigs(), name); err != nil {
		k.t.Fatalf("creating topic %s: %v", name, err)
	}
	k.t.Cleanup(func() { k.adm.DeleteTopic(context.Background(), name) })
	return name
}

// producer is a client producing to the broker; txid makes it
// transactional.
func (k *kenv) producer(txid string) *kgo.Client {
	k.t.Helper()
	opts := []kgo.Opt{kgo.SeedBrokers(strings.Split(k.brokers, ",")...), kgo.RecordPartitioner(kgo.ManualPartitioner())}
	if txid != "" {
		opts = append(opts, kgo.TransactionalID(txid+"-"+k.t.Name()))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		k.t.Fatal(err)
	}
	k.t.Cleanup(cl.Close)
	return cl
}

// produce sends records synchronously and returns them with their offsets.
func (k *kenv) produce(cl *kgo.Client, rs ...*kgo.Record) []*kgo.Record {
	k.t.Helper()
	if err := cl.ProduceSync(context.Background(), rs...).FirstErr(); err != nil {
		k.t.Fatalf("producing: %v", err)
	}
	return rs
}

// inTxn produces rs in one transaction, committed or aborted.
func (k *kenv) inTxn(cl *kgo.Client, commit bool, rs ...*kgo.Record) []*kgo.Record {
	k.t.Helper()
	ctx := context.Background()
	if err := cl.BeginTransaction(); err != nil {
		k.t.Fatal(err)
	}
	k.produce(cl, rs...)
	if err := cl.EndTransaction(ctx, kgo.TransactionEndTry(commit)); err != nil {
		k.t.Fatal(err)
	}
	k.settled(rs...)
	return rs
}

// settled waits until the transaction markers after rs are written: the
// coordinator writes them after EndTransaction returns, and until then the
// partitions' last stable offsets (a read_committed read's end) stay below.
func (k *kenv) settled(rs ...*kgo.Record) {
	k.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for _, r := range rs {
		for {
			ends, err := k.adm.ListCommittedOffsets(context.Background(), r.Topic)
			if err != nil {
				k.t.Fatal(err)
			}
			if o, ok := ends.Lookup(r.Topic, r.Partition); ok && o.Err == nil && o.Offset > r.Offset {
				break
			}
			if time.Now().After(deadline) {
				k.t.Fatalf("topic %s partition %d: the last stable offset did not pass %d within 10s", r.Topic, r.Partition, r.Offset)
			}
			time.Sleep(20 * time.Millisecond)
		}
	}
}

var tsBase = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

// rec is a record for partition p with value v at tsBase+sec seconds.
func rec(topic string, p int32, key, v string, sec int, headers ...string) *kgo.Record {
	r := &kgo.Record{Topic: topic, Partition: p, Value: []byte(v), Timestamp: tsBase.Add(time.Duration(sec) * time.Second)}
	if key != "" {
		r.Key = []byte(key)
	}
	for i := 0; i+1 < len(headers); i += 2 {
		r.Headers = append(r.Headers, kgo.RecordHeader{Key: headers[i], Value: []byte(headers[i+1])})
	}
	return r
}

// pipeline is: source events (Kafka, opts) and streaming table copy = from
// stream events.
func (k *kenv) pipeline(headers bool, opts ...string) *etl.Pipeline {
	kv := [][2]string{{"bootstrapServers", k.brokers}}
	for i := 0; i+1 < len(opts); i += 2 {
		kv = append(kv, [2]string{opts[i], opts[i+1]})
	}
	schema := kafkaSchema(headers)
	return &etl.Pipeline{Name: "kafka_copy", File: "kafka_copy.thund", Compiler: "v0.0.0-test", Kafka: kafka.New(), Datasets: []*etl.Dataset{
		{Name: "events", Kind: etl.Source, Schema: schema,
			Source:     &etl.FileSource{Format: "kafka", Options: kv, Unbounded: true},
			Definition: fmt.Sprintf("source events stream from kafka options %q", kv)},
		{Name: "copy", Kind: etl.StreamingTable, Schema: schema,
			Flows:      []*etl.Flow{{Name: "copy", Inputs: []etl.Input{{Name: "events", Stream: true}}, Run: copyRun("events")}},
			Definition: "streaming table copy = from stream events"},
	}}
}

// etl runs a command of p's executable; it returns the exit status, stdout
// and stderr.
func (k *kenv) etl(ctx context.Context, p *etl.Pipeline, args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	code := etl.RunContext(ctx, p, append(args, "--warehouse", k.wh, "--root", k.root), strings.NewReader(""), &out, &errb)
	return code, out.String(), errb.String()
}

func (k *kenv) mustRun(p *etl.Pipeline, args ...string) string {
	k.t.Helper()
	code, _, stderr := k.etl(context.Background(), p, append([]string{"run"}, args...)...)
	if code != 0 {
		k.t.Fatalf("run %v: exit %d\n%s", args, code, stderr)
	}
	return stderr
}

// row is one row of the copy, rendered.
type row struct {
	key, value, topic string
	partition         int32
	offset            int64
	ts                time.Time
	tsType            int32
	headers           string
}

func (r row) String() string {
	return fmt.Sprintf("%s/%d@%d key=%q value=%q ts=%s type=%d headers=%s", r.topic, r.partition, r.offset, r.key, r.value,
		r.ts.Format(time.RFC3339Nano), r.tsType, r.headers)
}

// want renders produced records as the rows the copy must hold.
func want(rs ...*kgo.Record) []string {
	var out []string
	for _, r := range rs {
		key := "<null>"
		if r.Key != nil {
			key = string(r.Key)
		}
		var hs []string
		for _, h := range r.Headers {
			hs = append(hs, h.Key+":"+string(h.Value))
		}
		out = append(out, row{key: key, value: string(r.Value), topic: r.Topic, partition: r.Partition, offset: r.Offset,
			ts: r.Timestamp.UTC().Truncate(time.Millisecond), tsType: 0, headers: "[" + strings.Join(hs, ",") + "]"}.String())
	}
	sort.Strings(out)
	return out
}

// rows reads the copy's committed rows (read --format parquet).
func (k *kenv) rows(p *etl.Pipeline, headers bool) []string {
	k.t.Helper()
	code, out, stderr := k.etl(context.Background(), p, "read", "copy", "--format", "parquet")
	if code != 0 {
		k.t.Fatalf("read copy: exit %d\n%s", code, stderr)
	}
	pf, err := file.NewParquetReader(bytes.NewReader([]byte(out)))
	if err != nil {
		k.t.Fatal(err)
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		k.t.Fatal(err)
	}
	tbl, err := fr.ReadTable(context.Background())
	if err != nil {
		k.t.Fatal(err)
	}
	defer tbl.Release()
	tr := array.NewTableReader(tbl, 1024)
	defer tr.Release()
	var got []string
	for tr.Next() {
		b := tr.RecordBatch()
		col := func(name string) arrow.Array {
			i := b.Schema().FieldIndices(name)
			if len(i) == 0 {
				k.t.Fatalf("the copy has no column %s", name)
			}
			return b.Column(i[0])
		}
		bin := func(a arrow.Array, i int) string {
			if a.IsNull(i) {
				return "<null>"
			}
			switch a := a.(type) {
			case *array.Binary:
				return string(a.Value(i))
			case *array.String:
				return a.Value(i)
			}
			k.t.Fatalf("column of type %s", a.DataType())
			return ""
		}
		for i := 0; i < int(b.NumRows()); i++ {
			r := row{key: bin(col("key"), i), value: bin(col("value"), i), topic: bin(col("topic"), i),
				partition: col("partition").(*array.Int32).Value(i), offset: col("offset").(*array.Int64).Value(i),
				ts: time.UnixMicro(int64(col("timestamp").(*array.Timestamp).Value(i))).UTC(), tsType: col("timestampType").(*array.Int32).Value(i), headers: "[]"}
			if headers {
				l := col("headers").(*array.List)
				st := l.ListValues().(*array.Struct)
				start, end := l.ValueOffsets(i)
				var hs []string
				for j := int(start); j < int(end); j++ {
					hs = append(hs, bin(st.Field(0), j)+":"+bin(st.Field(1), j))
				}
				r.headers = "[" + strings.Join(hs, ",") + "]"
			}
			got = append(got, r.String())
		}
	}
	sort.Strings(got)
	return got
}

func (k *kenv) checkRows(p *etl.Pipeline, headers bool, want []string) {
	k.t.Helper()
	got := k.rows(p, headers)
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		k.t.Fatalf("the copy holds\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// TestKafkaSourceReadCommitted reads plain records, committed and aborted
// transactions and an open one: every row matches what was produced, only
// committed records are read, nothing past an open transaction, and a run
// after a commit reads only what is new.
func TestKafkaSourceReadCommitted(t *testing.T) {
	k := newKenv(t)
	topic := k.topic("t", 2)
	plain, txn, open := k.producer(""), k.producer("txn"), k.producer("open")
	var read []*kgo.Record
	read = append(read, k.produce(plain,
		rec(topic, 0, "k1", "plain-1", 1, "h1", "v1", "h2", "v2"),
		rec(topic, 1, "", "plain-2 (no key)", 2),
		rec(topic, 0, "k3", "plain-3", 3, "h", ""))...)
	read = append(read, k.inTxn(txn, true, rec(topic, 0, "t1", "committed-1", 4), rec(topic, 1, "t2", "committed-2", 5))...)
	k.inTxn(txn, false, rec(topic, 0, "a1", "aborted-1", 6), rec(topic, 1, "a2", "aborted-2", 7))
	read = append(read, k.inTxn(txn, true, rec(topic, 0, "t3", "committed-3", 8))...)

	p := k.pipeline(true, "subscribe", topic, "startingOffsets", "earliest", "includeHeaders", "true")
	k.mustRun(p)
	k.checkRows(p, true, want(read...))

	// nothing new: nothing to do
	if stderr := k.mustRun(p); !strings.Contains(stderr, "nothing to do") {
		t.Fatalf("a run with no new record did something:\n%s", stderr)
	}
	// an open transaction holds back everything after it on its partition
	if err := open.BeginTransaction(); err != nil {
		t.Fatal(err)
	}
	pending := k.produce(open, rec(topic, 0, "o1", "open-1", 9))
	after := k.produce(plain, rec(topic, 0, "k4", "plain-after-open", 10), rec(topic, 1, "k5", "plain-other-partition", 11))
	k.mustRun(p)
	k.checkRows(p, true, want(append(append([]*kgo.Record{}, read...), after[1])...))
	if err := open.EndTransaction(context.Background(), kgo.TryCommit); err != nil {
		t.Fatal(err)
	}
	k.settled(pending...)
	read = append(read, after...)
	read = append(read, pending...)
	k.mustRun(p)
	k.checkRows(p, true, want(read...))
}

// TestKafkaSourceMaxOffsetsPerTrigger: a --once run commits epochs of at
// most maxOffsetsPerTrigger offsets until it has read everything.
func TestKafkaSourceMaxOffsetsPerTrigger(t *testing.T) {
	k := newKenv(t)
	topic := k.topic("t", 2)
	plain := k.producer("")
	var rs []*kgo.Record
	for i := 0; i < 10; i++ {
		rs = append(rs, rec(topic, int32(i%2), fmt.Sprint("k", i), fmt.Sprint("v", i), i))
	}
	k.produce(plain, rs...)
	p := k.pipeline(false, "subscribe", topic, "startingOffsets", "earliest", "maxOffsetsPerTrigger", "4")
	stderr := k.mustRun(p)
	for _, w := range []string{"epoch 1 committed", "epoch 2 committed", "epoch 3 committed", "caught up after 3 epochs"} {
		if !strings.Contains(stderr, w) {
			t.Fatalf("run: want %q in\n%s", w, stderr)
		}
	}
	if !strings.Contains(stderr, "6 offsets of Kafka wait for the next epoch") {
		t.Errorf("the first epoch does not say what waits:\n%s", stderr)
	}
	k.checkRows(p, false, want(rs...))
	more := k.produce(plain, rec(topic, 0, "k10", "v10", 10), rec(topic, 1, "k11", "v11", 11))
	stderr = k.mustRun(p)
	if !strings.Contains(stderr, "caught up after 1 epoch") {
		t.Fatalf("run: want one epoch:\n%s", stderr)
	}
	k.checkRows(p, false, want(append(rs, more...)...))
}

// TestKafkaSourceNewPartition: a stream starts at latest by default; a
// partition added between runs is found and read from its earliest offset.
func TestKafkaSourceNewPartition(t *testing.T) {
	k := newKenv(t)
	topic := k.topic("t", 1)
	plain := k.producer("")
	k.produce(plain, rec(topic, 0, "", "before the first run", 0))
	p := k.pipeline(false, "subscribe", topic)
	k.mustRun(p)
	k.checkRows(p, false, nil)
	r1 := k.produce(plain, rec(topic, 0, "", "after the first run", 1))
	k.mustRun(p)
	k.checkRows(p, false, want(r1...))

	if _, err := k.adm.CreatePartitions(context.Background(), 1, topic); err != nil {
		t.Fatal(err)
	}
	plain = k.producer("") // one that knows the new partition
	r2 := k.produce(plain, rec(topic, 1, "", "new partition, first", 2), rec(topic, 1, "", "new partition, second", 3))
	code, out, stderr := k.etl(context.Background(), p, "plan")
	lag := fmt.Sprintf("copy    stale  new records in events (2 offsets, topic %s)", topic)
	if code != 0 || !strings.Contains(out, lag) || !strings.Contains(out, "events  stale  Kafka topic "+topic+": 2 partitions, 4 offsets retained") {
		t.Errorf("plan: exit %d, want the backlog %q in\n%s%s", code, lag, out, stderr)
	}
	stderr = k.mustRun(p)
	if !strings.Contains(stderr, "new records in events") {
		t.Errorf("the run does not say why it read events:\n%s", stderr)
	}
	k.checkRows(p, false, want(append(r1, r2...)...))
}

// TestKafkaSourcePattern: subscribePattern reads a topic created later,
// from its earliest offset.
func TestKafkaSourcePattern(t *testing.T) {
	k := newKenv(t)
	a := k.topic("a", 1)
	prefix := strings.TrimSuffix(a, a[strings.LastIndex(a, "-"):])
	prefix = strings.TrimSuffix(prefix, "-a")
	plain := k.producer("")
	ra := k.produce(plain, rec(a, 0, "", "in a", 0))
	p := k.pipeline(false, "subscribePattern", regexpQuote(prefix)+"-.*", "startingOffsets", "earliest")
	k.mustRun(p)
	k.checkRows(p, false, want(ra...))
	b := k.topic("b", 1)
	if !strings.HasPrefix(b, prefix+"-") {
		t.Fatalf("topic %s does not match %s-.*", b, prefix)
	}
	rb := k.produce(plain, rec(b, 0, "", "in b", 1), rec(b, 0, "", "in b again", 2))
	k.mustRun(p)
	k.checkRows(p, false, want(append(ra, rb...)...))
	// a full refresh reads again from startingOffsets (earliest): the same rows, once
	k.mustRun(p, "--full-refresh", "copy")
	k.checkRows(p, false, want(append(ra, rb...)...))
}

func regexpQuote(s string) string {
	var b strings.Builder
	for _, c := range s {
		if strings.ContainsRune(`\.+*?()|[]{}^$`, c) {
			b.WriteByte('\\')
		}
		b.WriteRune(c)
	}
	return b.String()
}

// TestKafkaSourceDataLoss: records deleted under the pipeline fail the run
// with topic, partition and offsets; with failOnDataLoss false the run
// warns (in the event log too) and goes on from the earliest offset left.
// A deleted topic fails the run too.
func TestKafkaSourceDataLoss(t *testing.T) {
	k := newKenv(t)
	topic := k.topic("t", 1)
	plain := k.producer("")
	var first []*kgo.Record
	for i := 0; i < 5; i++ {
		first = append(first, rec(topic, 0, "", fmt.Sprint("first ", i), i))
	}
	k.produce(plain, first...)
	strict := k.pipeline(false, "subscribe", topic, "startingOffsets", "earliest")
	k.mustRun(strict)
	var second []*kgo.Record
	for i := 5; i < 10; i++ {
		second = append(second, rec(topic, 0, "", fmt.Sprint("second ", i), i))
	}
	k.produce(plain, second...)
	var del kadm.Offsets
	del.Add(kadm.Offset{Topic: topic, Partition: 0, At: 8})
	resp, err := k.adm.DeleteRecords(context.Background(), del)
	if err == nil {
		err = resp.Error()
	}
	if err != nil {
		t.Fatal(err)
	}
	code, _, stderr := k.etl(context.Background(), strict, "run")
	msg := fmt.Sprintf("data loss: topic %s partition 0: the committed offset is 5, but the earliest offset left is 8 (records 5 to 7 were deleted)", topic)
	if code != 1 || !strings.Contains(stderr, msg) {
		t.Fatalf("run after DeleteRecords: exit %d, want 1 and %q in\n%s", code, msg, stderr)
	}
	k.checkRows(strict, false, want(first...))

	lenient := k.pipeline(false, "subscribe", topic, "startingOffsets", "earliest", "failOnDataLoss", "false")
	code, stdout, stderr := k.etl(context.Background(), lenient, "run", "--json")
	if code != 0 || !strings.Contains(stderr, "warning: source events: data loss") {
		t.Fatalf("run with failOnDataLoss false: exit %d, want 0 and a warning:\n%s", code, stderr)
	}
	if !strings.Contains(stdout, `"event_type":"warning"`) || !strings.Contains(stdout, "records 5 to 7 were deleted") {
		t.Errorf("the event log has no warning of the data loss:\n%s", stdout)
	}
	k.checkRows(lenient, false, want(append(first, second[3:]...)...))

	if _, err := k.adm.DeleteTopic(context.Background(), topic); err != nil {
		t.Fatal(err)
	}
	code, _, stderr = k.etl(context.Background(), strict, "run")
	if gone := fmt.Sprintf("data loss: topic %s partition 0 (committed offset 10) no longer exists", topic); code != 1 || !strings.Contains(stderr, gone) {
		t.Fatalf("run after the topic was deleted: exit %d, want 1 and %q in\n%s", code, gone, stderr)
	}
}

// TestKafkaSourceFollow: run --follow runs an epoch when records arrive,
// and stops cleanly.
func TestKafkaSourceFollow(t *testing.T) {
	k := newKenv(t)
	topic := k.topic("t", 2)
	plain := k.producer("")
	p := k.pipeline(false, "subscribe", topic, "startingOffsets", "earliest")
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan int)
	var stderr string
	go func() {
		code, _, e := k.etl(ctx, p, "run", "--follow", "--poll-interval", "100ms")
		stderr = e
		done <- code
	}()
	var all []*kgo.Record
	for i := 0; i < 3; i++ {
		all = append(all, k.produce(plain, rec(topic, int32(i%2), "", fmt.Sprint("burst ", i), i))...)
		deadline := time.Now().Add(20 * time.Second)
		for {
			code, out, _ := k.etl(context.Background(), p, "read", "copy", "--format", "csv")
			if code == 0 && strings.Count(out, topic) == len(all) {
				break
			}
			if time.Now().After(deadline) {
				cancel()
				<-done
				t.Fatalf("record %d was not read within 20s:\n%s\nfollow:\n%s", i, out, stderr)
			}
			time.Sleep(100 * time.Millisecond)
		}
	}
	cancel()
	if code := <-done; code != 0 {
		t.Fatalf("run --follow: exit %d\n%s", code, stderr)
	}
	k.checkRows(p, false, want(all...))
}

// winState is windowRun's state between epochs.
type winState struct {
	HasSeen bool
	MaxSeen int64 // the greatest event time seen (the watermark's base)
	Open    []winOpen
}

type winOpen struct{ Start, End, N int64 }

var winSchema = arrow.NewSchema([]arrow.Field{
	{Name: "window_start", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
	{Name: "window_end", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}},
	{Name: "n", Type: arrow.PrimitiveTypes.Int64},
}, nil)

// windowRun is what generated code does for
//
//	from stream events watermark timestamp delay 0s
//	| window tumble(timestamp, 10s) | group by window_start aggregate count() as n
//	| emit on window close
//
// with rt/stream's window state, kept between epochs with LoadState and
// SaveState.
func windowRun(fc *etl.FlowContext) error {
	const size = int64(10 * time.Second / time.Microsecond)
	st, err := stream.NewState[string, stream.Count](stream.Spec{Kind: stream.Tumbling, Size: size, Grain: 1000}, stream.Append,
		func(d, s *stream.Count) error { d.Merge(s); return nil })
	if err != nil {
		return err
	}
	var saved winState
	if _, err := fc.LoadState("kafka-window-test-v1", &saved); err != nil {
		return err
	}
	snap := stream.Snapshot[string, stream.Count]{}
	if saved.HasSeen {
		wm := saved.MaxSeen
		snap.WM = &wm
	}
	for _, o := range saved.Open {
		snap.Open = append(snap.Open, stream.SnapshotEntry[string, stream.Count]{Window: stream.Window{Start: o.Start, End: o.End}, Acc: stream.Count{N: o.N}})
	}
	if err := st.Restore(snap); err != nil {
		return err
	}
	r, err := fc.Read("events")
	if err != nil {
		return err
	}
	defer r.Close()
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			return err
		}
		fc.CountIn(rec.NumRows())
		ts := rec.Column(rec.Schema().FieldIndices("timestamp")[0]).(*array.Timestamp)
		for i := 0; i < ts.Len(); i++ {
			t := int64(ts.Value(i))
			accs, late, err := st.Assign("", t)
			if err != nil {
				return err
			}
			for _, a := range accs {
				a.Add()
			}
			fc.Late(int64(late))
			if !saved.HasSeen || t > saved.MaxSeen {
				saved.HasSeen, saved.MaxSeen = true, t
			}
		}
		rec.Release()
	}
	em := st.Advance(saved.MaxSeen, saved.HasSeen)
	b := array.NewRecordBuilder(fc.Mem, winSchema)
	defer b.Release()
	for _, row := range em.Final {
		b.Field(0).(*array.TimestampBuilder).Append(arrow.Timestamp(row.Window.Start))
		b.Field(1).(*array.TimestampBuilder).Append(arrow.Timestamp(row.Window.End))
		b.Field(2).(*array.Int64Builder).Append(row.Acc.N)
	}
	out := b.NewRecordBatch()
	defer out.Release()
	if err := fc.Emit(out); err != nil {
		return err
	}
	saved.Open = nil
	for _, e := range st.Snapshot().Open {
		saved.Open = append(saved.Open, winOpen{Start: e.Window.Start, End: e.Window.End, N: e.Acc.N})
	}
	return fc.SaveState("kafka-window-test-v1", &saved)
}

// TestKafkaSourceWatermark: a watermark on the Kafka timestamp closes
// windows across epochs, and a record behind it is late, as with files.
func TestKafkaSourceWatermark(t *testing.T) {
	k := newKenv(t)
	topic := k.topic("t", 1)
	plain := k.producer("")
	p := k.pipeline(false, "subscribe", topic, "startingOffsets", "earliest")
	p.Datasets[1] = &etl.Dataset{Name: "wins", Kind: etl.StreamingTable, Schema: winSchema,
		Flows:      []*etl.Flow{{Name: "wins", Inputs: []etl.Input{{Name: "events", Stream: true}}, Run: windowRun}},
		Definition: "streaming table wins = from stream events watermark timestamp delay 0s | window tumble(timestamp, 10s) | ..."}
	read := func() string {
		code, out, stderr := k.etl(context.Background(), p, "read", "wins", "--format", "csv")
		if code != 0 {
			t.Fatalf("read wins: exit %d\n%s", code, stderr)
		}
		return out
	}
	k.produce(plain, rec(topic, 0, "", "a", 1), rec(topic, 0, "", "b", 2), rec(topic, 0, "", "c", 3))
	k.mustRun(p)
	if got := read(); got != "window_start,window_end,n\n" {
		t.Fatalf("after the first epoch (watermark none, then 12:00:03) wins holds\n%s", got)
	}
	k.produce(plain, rec(topic, 0, "", "d", 12))
	k.mustRun(p)
	w1 := "window_start,window_end,n\n2026-03-01 12:00:00,2026-03-01 12:00:10,3\n"
	if got := read(); got != w1 {
		t.Fatalf("after the second epoch (watermark 12:00:12) wins holds\n%s\nwant\n%s", got, w1)
	}
	k.produce(plain, rec(topic, 0, "", "late", 5), rec(topic, 0, "", "e", 25))
	stderr := k.mustRun(p)
	if !strings.Contains(stderr, "late rows dropped: 1") {
		t.Errorf("the third epoch does not count the late record:\n%s", stderr)
	}
	w2 := w1 + "2026-03-01 12:00:10,2026-03-01 12:00:20,1\n"
	if got := read(); got != w2 {
		t.Fatalf("after the third epoch (watermark 12:00:25) wins holds\n%s\nwant\n%s", got, w2)
	}
}

// TestKafkaSourceBatch: a batch read (read_kafka without STREAM, into a
// materialized view) reads startingOffsets to endingOffsets at every run,
// and the view is fresh while nothing new arrives.
func TestKafkaSourceBatch(t *testing.T) {
	k := newKenv(t)
	topic := k.topic("t", 1)
	plain := k.producer("")
	batch := func(opts ...string) *etl.Pipeline {
		p := k.pipeline(false, append([]string{"subscribe", topic}, opts...)...)
		p.Datasets[0].Source.Unbounded = false
		p.Datasets[1].Kind = etl.MaterializedView
		p.Datasets[1].Flows[0].Inputs[0].Stream = false
		return p
	}
	p := batch()
	rs := k.produce(plain, rec(topic, 0, "", "one", 1), rec(topic, 0, "", "two", 2), rec(topic, 0, "", "three", 3))
	k.mustRun(p)
	k.checkRows(p, false, want(rs...))
	if stderr := k.mustRun(p); !strings.Contains(stderr, "nothing to do") {
		t.Fatalf("a run with no new record did something:\n%s", stderr)
	}
	rs = append(rs, k.produce(plain, rec(topic, 0, "", "four", 4))...)
	k.mustRun(p)
	k.checkRows(p, false, want(rs...))

	p = batch("startingOffsets", fmt.Sprintf(`{%q:{"0":1}}`, topic), "endingOffsets", fmt.Sprintf(`{%q:{"0":3}}`, topic))
	k.mustRun(p)
	k.checkRows(p, false, want(rs[1:3]...))
}

// TestKafkaSourceReplay: an epoch that fails after reading commits nothing,
// its offsets included, so the next run reads the same records again:
// none lost, none twice.
func TestKafkaSourceReplay(t *testing.T) {
	k := newKenv(t)
	topic := k.topic("t", 2)
	plain := k.producer("")
	p := k.pipeline(false, "subscribe", topic, "startingOffsets", "earliest")
	fail := true
	copyFlow := p.Datasets[1].Flows[0]
	inner := copyFlow.Run
	copyFlow.Run = func(fc *etl.FlowContext) error {
		if err := inner(fc); err != nil {
			return err
		}
		if fail {
			return fmt.Errorf("injected failure after the copy")
		}
		return nil
	}
	first := k.produce(plain, rec(topic, 0, "", "a", 1), rec(topic, 1, "", "b", 2))
	fail = false
	k.mustRun(p)
	second := k.produce(plain, rec(topic, 0, "", "c", 3), rec(topic, 1, "", "d", 4), rec(topic, 1, "", "e", 5))
	fail = true
	code, _, stderr := k.etl(context.Background(), p, "run")
	if code != 1 || !strings.Contains(stderr, "injected failure") {
		t.Fatalf("the failing run: exit %d\n%s", code, stderr)
	}
	k.checkRows(p, false, want(first...))
	fail = false
	stderr = k.mustRun(p)
	if !strings.Contains(stderr, "new records in events (3 offsets") {
		t.Errorf("the run after the failure does not read the 3 records again:\n%s", stderr)
	}
	k.checkRows(p, false, want(append(first, second...)...))
}

// TestKafkaSourceMissingTopic: a subscribed topic that does not exist yet
// is a warning, and once created it is read from its earliest offset.
func TestKafkaSourceMissingTopic(t *testing.T) {
	k := newKenv(t)
	b := make([]byte, 4)
	rand.Read(b)
	later := t.Name() + "-later-" + hex.EncodeToString(b)
	p := k.pipeline(false, "subscribe", later)
	stderr := k.mustRun(p)
	if !strings.Contains(stderr, "warning: source events: topic "+later+" does not exist (a stream reads it from its earliest offset once it does)") {
		t.Errorf("no warning of the missing topic:\n%s", stderr)
	}
	if _, err := k.adm.CreateTopic(context.Background(), 1, 1, testenv.KafkaTopicConfigs(), later); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { k.adm.DeleteTopic(context.Background(), later) })
	rs := k.produce(k.producer(""), rec(later, 0, "", "first", 1))
	stderr = k.mustRun(p)
	if strings.Contains(stderr, "does not exist") {
		t.Errorf("a warning of a topic that exists:\n%s", stderr)
	}
	k.checkRows(p, false, want(rs...))
}

// TestKafkaSourceCapInAbortedTransaction: maxOffsetsPerTrigger can end an
// epoch's range on offsets no record is read at (aborted records, a
// transaction marker); the reads still end, and read each record once.
func TestKafkaSourceCapInAbortedTransaction(t *testing.T) {
	k := newKenv(t)
	topic := k.topic("t", 1)
	plain, txn := k.producer(""), k.producer("txn")
	r0 := k.produce(plain, rec(topic, 0, "", "r0", 0))                                        // offset 0
	k.inTxn(txn, false, rec(topic, 0, "", "aborted 1", 1), rec(topic, 0, "", "aborted 2", 2)) // 1, 2, marker 3
	r4 := k.inTxn(txn, true, rec(topic, 0, "", "r4", 4))                                      // 4, marker 5
	r6 := k.produce(plain, rec(topic, 0, "", "r6", 6))                                        // 6
	p := k.pipeline(false, "subscribe", topic, "startingOffsets", "earliest", "maxOffsetsPerTrigger", "2")
	stderr := k.mustRun(p)
	if !strings.Contains(stderr, "caught up after 4 epochs") {
		t.Errorf("want 4 epochs of 2 offsets for 7 offsets:\n%s", stderr)
	}
	k.checkRows(p, false, want(append(append(r0, r4...), r6...)...))
}

// TestKafkaSourceAssign: assign reads only the partitions it names (its
// option names written in another case).
func TestKafkaSourceAssign(t *testing.T) {
	k := newKenv(t)
	topic := k.topic("t", 3)
	plain := k.producer("")
	rs := k.produce(plain, rec(topic, 0, "", "p0", 0), rec(topic, 1, "", "p1", 1), rec(topic, 2, "", "p2", 2), rec(topic, 2, "", "p2 again", 3))
	p := k.pipeline(false, "ASSIGN", fmt.Sprintf(`{%q:[2,1]}`, topic), "StartingOffsets", "EARLIEST")
	k.mustRun(p)
	k.checkRows(p, false, want(rs[1:]...))
}
