//go:build kafka

package crashtest

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// kafkaPipeline is a compiled pipeline under the Kafka kill scenarios: a
// folder of testdata whose text names the broker (@BROKERS@), the input
// topic (@TOPIC@) and, with a Kafka sink, the output topic (@OUT@).
type kafkaPipeline struct {
	src  string   // the folder under testdata
	path string   // what thundc builds, in that folder
	read []string // the datasets compared with the uninterrupted run
	sink bool     // it writes @OUT@
}

// kafkaSteps is the number of steps the input topic is fed in; kafkaKills
// the least number of kills that land in a running process.
const (
	kafkaSteps = 8
	kafkaKills = 20
)

// TestKafkaToWarehouseKill: testdata/kwarehouse, in SQL (STREAM read_kafka,
// from_json, a streaming table and a windowed aggregate on the Kafka
// timestamp, emitted on window close), killed 20 times and more; every
// dataset must equal the uninterrupted run's.
func TestKafkaToWarehouseKill(t *testing.T) {
	kafkaKillScenario(t, kafkaPipeline{src: "kwarehouse", path: ".", read: []string{"events", "per_user"}})
}

// TestKafkaToKafkaKill: testdata/kkafka, in the DSL (a Kafka source, a
// watermark on a parsed field, a copy and windowed counts written to a
// topic by the exactly-once sink), killed 20 times and more, a third of
// them as soon as the commit record appears (before the Kafka commit); a
// read_committed consumer of the output topic must see exactly the rows the
// uninterrupted run wrote to its own, and every dataset must be equal.
func TestKafkaToKafkaKill(t *testing.T) {
	kafkaKillScenario(t, kafkaPipeline{src: "kkafka", path: "pipeline.thund", read: []string{"doubled", "per_user"}, sink: true})
}

// kafkaTopics creates topics (partitions each) named after the test, and
// deletes them at the end.
func kafkaTopics(t *testing.T, adm *kadm.Client, partitions int32, names ...string) []string {
	t.Helper()
	suffix := fmt.Sprintf("%d-%d", time.Now().UnixNano(), rand.Int63())
	var out []string
	for _, n := range names {
		topic := fmt.Sprintf("%s-%s-%s", t.Name(), n, suffix)
		resp, err := adm.CreateTopic(context.Background(), partitions, 1, nil, topic)
		if err == nil {
			err = resp.Err
		}
		if err != nil {
			t.Fatalf("creating topic %s: %v", topic, err)
		}
		t.Cleanup(func() { adm.DeleteTopic(context.Background(), topic) })
		out = append(out, topic)
	}
	return out
}

// buildKafkaPipeline writes the pipeline's text with the placeholders
// replaced into a folder of its own and builds it with the real thundc.
func buildKafkaPipeline(t *testing.T, p kafkaPipeline, vars map[string]string) string {
	t.Helper()
	thundc, err := thundcBin()
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	src := filepath.Join("testdata", p.src)
	err = filepath.WalkDir(src, func(path string, d os.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, _ := filepath.Rel(src, path)
		data, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		text := string(data)
		for k, v := range vars {
			text = strings.ReplaceAll(text, k, v)
		}
		dst := filepath.Join(dir, rel)
		if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
			return err
		}
		return os.WriteFile(dst, []byte(text), 0o644)
	})
	if err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "etl")
	cmd := exec.Command(thundc, "build", p.path, "-o", bin)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "THUND_CACHE="+testenv.ThundCache())
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("thundc build %s: %v\n%s", p.src, err, out)
	}
	return bin
}

// kafkaFeed produces the input topic's records in steps: JSON events
// {"id", "user", "amount", "at"} whose Kafka timestamp is at, keyed by user
// (so spread over the partitions), event times increasing and out of order
// by at most 2s (well within the pipelines' 10s watermark delay, so no
// record is late whatever the batches). A step's records go out plainly,
// or in a committed transaction; one step ends with a transaction that is
// aborted (its records must never be read) and another with a transaction
// left open across the step's runs (reads stop at its partitions' last
// stable offset) and committed at the start of the next step.
type kafkaFeed struct {
	t        *testing.T
	rng      *rand.Rand
	topic    string
	plain    *kgo.Client
	txn      *kgo.Client
	id       int
	clock    time.Duration
	open     bool // a transaction is open across the runs
	aborted  int  // records produced in the aborted transaction
	produced int  // records produced and committed
	abortAt  int  // the step whose transaction is aborted
	openAt   int  // the step that leaves a transaction open
}

func newKafkaFeed(t *testing.T, rng *rand.Rand, brokers, topic string) *kafkaFeed {
	f := &kafkaFeed{t: t, rng: rng, topic: topic, abortAt: 1 + rng.Intn(kafkaSteps-2)}
	f.openAt = 1 + (f.abortAt+rng.Intn(kafkaSteps-3))%(kafkaSteps-2) // another step, never the last
	var err error
	seeds := kgo.SeedBrokers(strings.Split(brokers, ",")...)
	if f.plain, err = kgo.NewClient(seeds); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.plain.Close)
	if f.txn, err = kgo.NewClient(seeds, kgo.TransactionalID(topic+"-feed"), kgo.TransactionTimeout(5*time.Minute)); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(f.txn.Close)
	return f
}

// records makes n events.
func (f *kafkaFeed) records(n int) []*kgo.Record {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	var out []*kgo.Record
	for range n {
		f.id++
		f.clock += time.Duration(200+f.rng.Intn(1500)) * time.Millisecond
		at := t0.Add(f.clock - time.Duration(f.rng.Intn(2000))*time.Millisecond)
		user := fmt.Sprintf("u%d", f.rng.Intn(5))
		v := fmt.Sprintf(`{"id": %d, "user": %q, "amount": %d, "at": %q}`, f.id, user, f.rng.Intn(1000), at.Format("2006-01-02 15:04:05.000"))
		out = append(out, &kgo.Record{Topic: f.topic, Key: []byte(user), Value: []byte(v), Timestamp: at})
	}
	return out
}

// step produces step i's records.
func (f *kafkaFeed) step(i int) {
	t := f.t
	ctx := context.Background()
	if f.open {
		if err := f.txn.EndTransaction(ctx, kgo.TryCommit); err != nil {
			t.Fatalf("committing the open transaction: %v", err)
		}
		f.open = false
	}
	n := 20 + f.rng.Intn(40)
	if f.rng.Intn(2) == 0 {
		if err := f.plain.ProduceSync(ctx, f.records(n)...).FirstErr(); err != nil {
			t.Fatal(err)
		}
	} else {
		f.inTxn(f.records(n))
		if err := f.txn.EndTransaction(ctx, kgo.TryCommit); err != nil {
			t.Fatal(err)
		}
	}
	f.produced += n
	if i == f.abortAt {
		recs := f.records(5 + f.rng.Intn(10))
		f.id -= len(recs) // ids of aborted records are used again
		f.inTxn(recs)
		if err := f.txn.EndTransaction(ctx, kgo.TryAbort); err != nil {
			t.Fatal(err)
		}
		f.aborted += len(recs)
	}
	f.waitStable()
	if i == f.openAt {
		recs := f.records(5 + f.rng.Intn(10))
		f.inTxn(recs)
		f.open = true
		f.produced += len(recs)
	}
}

// waitStable waits until every partition's last stable offset is its end:
// a transaction's markers reach the partitions after EndTransaction
// returns, and a run that starts before sees less than one a moment later.
func (f *kafkaFeed) waitStable() {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	adm := kadm.NewClient(f.plain)
	for {
		lso, err := adm.ListCommittedOffsets(ctx, f.topic)
		if err != nil {
			f.t.Fatal(err)
		}
		end, err := adm.ListEndOffsets(ctx, f.topic)
		if err != nil {
			f.t.Fatal(err)
		}
		stable := true
		end.Each(func(o kadm.ListedOffset) {
			if l, _ := lso.Lookup(o.Topic, o.Partition); l.Offset < o.Offset {
				stable = false
			}
		})
		if stable {
			return
		}
		time.Sleep(20 * time.Millisecond)
	}
}

func (f *kafkaFeed) inTxn(recs []*kgo.Record) {
	if err := f.txn.BeginTransaction(); err != nil {
		f.t.Fatal(err)
	}
	if err := f.txn.ProduceSync(context.Background(), recs...).FirstErr(); err != nil {
		f.t.Fatal(err)
	}
}

// kafkaKillScenario feeds one input topic in steps; after each step the
// uninterrupted run (its own warehouse) runs once, then the killed runs
// (another warehouse, offsets are per warehouse) are SIGKILLed at random
// points, and a run completes the step. After each completed step the two
// warehouses' Kafka offsets must be equal; at the end, every dataset, and
// with a sink the output topics as read_committed consumers see them.
func kafkaKillScenario(t *testing.T, p kafkaPipeline) {
	brokers := testenv.Kafka(t)
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(brokers, ",")...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	topics := kafkaTopics(t, adm, 3, "in", "out-ref", "out-crash")
	in, outRef, outCrash := topics[0], topics[1], topics[2]
	sd := seed(t)
	t.Logf("seed %d (replay: THUND_CRASH_SEED=%d)", sd, sd)
	start := time.Now()
	vars := func(out string) map[string]string {
		return map[string]string{"@BROKERS@": brokers, "@TOPIC@": in, "@OUT@": out}
	}
	binRef := buildKafkaPipeline(t, p, vars(outRef))
	binCrash := binRef
	if p.sink {
		binCrash = buildKafkaPipeline(t, p, vars(outCrash))
	}
	t.Logf("built in %v", time.Since(start).Round(time.Millisecond))

	rng := rand.New(rand.NewSource(sd))
	targets := localTarget(t)
	sc := &scenario{name: "kafka-" + p.src, read: p.read, commitKills: 5}
	if p.sink {
		sc.commitKills = 3 // between the warehouse commit and the Kafka commit
	}
	ref := &scenarioRun{t: t, sc: sc, bin: binRef, rng: rng}
	cr := &scenarioRun{t: t, sc: sc, bin: binCrash, rng: rng}
	refRoot := &root{dir: t.TempDir(), tg: targets("ref")}
	crRoot := &root{dir: t.TempDir(), tg: targets("crash")}
	feed := newKafkaFeed(t, rng, brokers, in)
	var total time.Duration
	for i := range kafkaSteps {
		feed.step(i)
		t0 := time.Now()
		ref.etl(refRoot, 0, "run")
		total += time.Since(t0)
		cr.dur = total / time.Duration(i+1)
		for a := 2 + rng.Intn(3); a > 0 || (i == kafkaSteps-1 && cr.kills < kafkaKills); a-- {
			cr.killedRun(crRoot, false)
			cr.checkVisible(crRoot)
		}
		cr.completingRun(crRoot)
		cr.checkVisible(crRoot)
		cr.checkNoOrphans(crRoot)
		got, want := kafkaOffsets(t, cr, crRoot), kafkaOffsets(t, ref, refRoot)
		if got != want {
			t.Errorf("step %d: after %d kills the Kafka offsets are\n%s\nthe uninterrupted run's\n%s", i, cr.kills, got, want)
		}
		if want == "{}" {
			t.Errorf("step %d: the uninterrupted run records no Kafka offsets", i)
		}
	}
	for _, ds := range p.read {
		got, want := cr.read(crRoot, ds), ref.read(refRoot, ds)
		if !slices.Equal(got, want) {
			t.Errorf("%s after %d kills differs from the uninterrupted run (sorted rows):\n%s", ds, cr.kills, diffLines(got, want))
		} else if len(want) < 2 {
			t.Errorf("%s: the uninterrupted run produced no rows", ds)
		}
	}
	// Every committed record once (the aborted ones never), in the copy.
	if got := len(ref.read(refRoot, p.read[0])) - 1; got != feed.produced {
		t.Errorf("%s of the uninterrupted run: %d rows; %d records were produced and committed (and %d aborted)", p.read[0], got, feed.produced, feed.aborted)
	}
	if p.sink {
		got, want := kafkaRows(t, adm, brokers, outCrash), kafkaRows(t, adm, brokers, outRef)
		if !slices.Equal(got, want) {
			t.Errorf("output topic after %d kills differs from the uninterrupted run's (read_committed, key and value, sorted):\n%s", cr.kills, diffLines(got, want))
		}
		n := 0
		for _, ds := range p.read {
			n += len(ref.read(refRoot, ds)) - 1
		}
		if len(want) != n {
			t.Errorf("output topic of the uninterrupted run: %d records, want %d (the rows of %v)", len(want), n, p.read)
		}
	}
	if p.sink {
		// How the runs after a kill resolved an epoch left pending to Kafka.
		found, again := 0, 0
		for _, l := range cr.logs {
			found += strings.Count(l, "was already in Kafka")
			again += strings.Count(l, "to Kafka again")
		}
		t.Logf("pending epochs resolved: %d found in Kafka, %d produced again", found, again)
	}
	if cr.kills < kafkaKills {
		t.Errorf("only %d kills landed in a running process; want %d", cr.kills, kafkaKills)
	}
	t.Logf("seed %d: %d steps, %d records (%d aborted), %d kills (%d after the commit record) in %v; an uninterrupted run takes %v",
		sd, kafkaSteps, feed.produced, feed.aborted, cr.kills, cr.after, time.Since(start).Round(time.Millisecond), cr.dur.Round(time.Millisecond))
}

// kafkaOffsets is the head commit's Kafka offsets, as JSON.
func kafkaOffsets(t *testing.T, s *scenarioRun, r *root) string {
	t.Helper()
	head := s.head(r)
	if head == nil {
		t.Fatal("no commit after a completed run")
	}
	offs := map[string]json.RawMessage{}
	for k, v := range head.SourceOffsets {
		if bytes.Contains(v, []byte(`"kafka"`)) {
			offs[k] = v
		}
	}
	b, err := json.MarshalIndent(offs, "", "  ")
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// kafkaRows is the topic as a read_committed consumer sees it: each
// record's key and value, sorted.
func kafkaRows(t *testing.T, adm *kadm.Client, brokers, topic string) []string {
	var out []string
	for _, r := range kafkaReadCommitted(t, adm, brokers, topic) {
		out = append(out, string(r.Key)+" "+string(r.Value))
	}
	slices.Sort(out)
	return out
}
