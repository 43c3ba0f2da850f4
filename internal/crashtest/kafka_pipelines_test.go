//go:build kafka

package crashtest

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/rt/warehouse"
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
// them as soon as the commit record appears (mostly before the Kafka
// commit); a read_committed consumer of the output topic must see exactly
// the rows the uninterrupted run wrote to its own, and every dataset must
// be equal.
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
		resp, err := adm.CreateTopic(context.Background(), partitions, 1, testenv.KafkaTopicConfigs(), topic)
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
	// small: a step's event times span less than the watermark delay (at
	// most 60 records 100ms apart, 2s out of order), so that no record is
	// late whichever prefix of each partition an epoch reads (--follow
	// reads while the step is produced)
	small bool
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
		if f.small {
			f.clock += time.Duration(20+f.rng.Intn(80)) * time.Millisecond
		} else {
			f.clock += time.Duration(200+f.rng.Intn(1500)) * time.Millisecond
		}
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
		f.waitStable()
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

// more produces n more records, plainly.
func (f *kafkaFeed) more(n int) {
	if err := f.plain.ProduceSync(context.Background(), f.records(n)...).FirstErr(); err != nil {
		f.t.Fatal(err)
	}
	f.produced += n // (no markers to wait for; behind a transaction left open they wait for its commit)
}

// sentinel produces one event five minutes after the others: once an epoch
// has read it, the next one closes every window before it.
func (f *kafkaFeed) sentinel() {
	f.clock += 5 * time.Minute
	recs := f.records(1)
	if err := f.plain.ProduceSync(context.Background(), recs...).FirstErr(); err != nil {
		f.t.Fatal(err)
	}
	f.produced++
	f.waitStable()
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

// kafkaRun is one Kafka scenario's topics, executables and warehouses.
type kafkaRun struct {
	t                *testing.T
	p                kafkaPipeline
	sd               int64
	start            time.Time
	brokers          string
	adm              *kadm.Client
	outRef, outCrash string
	rng              *rand.Rand
	ref, cr          *scenarioRun // the uninterrupted run, the killed one
	refRoot, crRoot  *root        // their folders and warehouses
	feed             *kafkaFeed
}

// newKafkaRun creates the topics (the input, and an output topic for each
// run), builds the pipeline for each and makes two warehouses.
func newKafkaRun(t *testing.T, p kafkaPipeline) *kafkaRun {
	brokers := testenv.Kafka(t)
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(brokers, ",")...))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(cl.Close)
	k := &kafkaRun{t: t, p: p, brokers: brokers, adm: kadm.NewClient(cl), sd: seed(t), start: time.Now()}
	topics := kafkaTopics(t, k.adm, 3, "in", "out-ref", "out-crash")
	in := topics[0]
	k.outRef, k.outCrash = topics[1], topics[2]
	t.Logf("seed %d (replay: THUND_CRASH_SEED=%d)", k.sd, k.sd)
	vars := func(out string) map[string]string {
		return map[string]string{"@BROKERS@": brokers, "@TOPIC@": in, "@OUT@": out}
	}
	binRef := buildKafkaPipeline(t, p, vars(k.outRef))
	binCrash := binRef
	if p.sink {
		binCrash = buildKafkaPipeline(t, p, vars(k.outCrash))
	}
	t.Logf("built in %v", time.Since(k.start).Round(time.Millisecond))
	k.rng = rand.New(rand.NewSource(k.sd))
	targets := localTarget(t)
	sc := &scenario{name: "kafka-" + p.src, read: p.read, commitKills: 5}
	if p.sink {
		sc.commitKills = 3 // between the warehouse commit and the Kafka commit
	}
	k.ref = &scenarioRun{t: t, sc: sc, bin: binRef, rng: k.rng}
	k.cr = &scenarioRun{t: t, sc: sc, bin: binCrash, rng: k.rng}
	k.refRoot = &root{dir: t.TempDir(), tg: targets("ref")}
	k.crRoot = &root{dir: t.TempDir(), tg: targets("crash")}
	k.feed = newKafkaFeed(t, k.rng, brokers, in)
	return k
}

// kafkaKillScenario feeds one input topic in steps; after each step the
// uninterrupted run (its own warehouse) runs once, then the killed runs
// (another warehouse, offsets are per warehouse) are SIGKILLed at random
// points, and a run completes the step. After each completed step the two
// warehouses' Kafka offsets must be equal; at the end, every dataset, and
// with a sink the output topics as read_committed consumers see them.
func kafkaKillScenario(t *testing.T, p kafkaPipeline) {
	k := newKafkaRun(t, p)
	ref, cr, rng := k.ref, k.cr, k.rng
	var total time.Duration
	for i := range kafkaSteps {
		k.feed.step(i)
		t0 := time.Now()
		ref.etl(k.refRoot, 0, "run")
		total += time.Since(t0)
		cr.dur = total / time.Duration(i+1)
		for a := 2 + rng.Intn(3); a > 0 || (i == kafkaSteps-1 && cr.kills < kafkaKills); a-- {
			cr.killedRun(k.crRoot, false)
			cr.checkVisible(k.crRoot)
		}
		cr.completingRun(k.crRoot)
		cr.checkVisible(k.crRoot)
		cr.checkNoOrphans(k.crRoot)
		got, want := kafkaOffsets(t, cr, k.crRoot), kafkaOffsets(t, ref, k.refRoot)
		if got != want {
			t.Errorf("step %d: after %d kills the Kafka offsets are\n%s\nthe uninterrupted run's\n%s", i, cr.kills, got, want)
		}
		if want == "{}" {
			t.Errorf("step %d: the uninterrupted run records no Kafka offsets", i)
		}
	}
	k.compare(fmt.Sprintf("%d kills (%d after the commit record)", cr.kills, cr.after))
}

// compare checks every dataset, and the output topics, against the
// uninterrupted run's, and the kills.
func (k *kafkaRun) compare(what string) {
	t, p, ref, cr := k.t, k.p, k.ref, k.cr
	for _, ds := range p.read {
		got, want := cr.read(k.crRoot, ds), ref.read(k.refRoot, ds)
		if !slices.Equal(got, want) {
			t.Errorf("%s after %d kills differs from the uninterrupted run (sorted rows):\n%s", ds, cr.kills, diffLines(got, want))
		} else if len(want) < 2 {
			t.Errorf("%s: the uninterrupted run produced no rows", ds)
		}
	}
	// Every committed record once (the aborted ones never), in the copy.
	if got := len(ref.read(k.refRoot, p.read[0])) - 1; got != k.feed.produced {
		t.Errorf("%s of the uninterrupted run: %d rows; %d records were produced and committed (and %d aborted)", p.read[0], got, k.feed.produced, k.feed.aborted)
	}
	if p.sink {
		got, want := kafkaRows(t, k.adm, k.brokers, k.outCrash), kafkaRows(t, k.adm, k.brokers, k.outRef)
		if !slices.Equal(got, want) {
			t.Errorf("output topic after %d kills differs from the uninterrupted run's (read_committed, key and value, sorted):\n%s", cr.kills, diffLines(got, want))
		}
		n := 0
		for _, ds := range p.read {
			n += len(ref.read(k.refRoot, ds)) - 1
		}
		if len(want) != n {
			t.Errorf("output topic of the uninterrupted run: %d records, want %d (the rows of %v)", len(want), n, p.read)
		}
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
	t.Logf("seed %d: %d steps, %d records (%d aborted), %s in %v; an uninterrupted run takes %v",
		k.sd, kafkaSteps, k.feed.produced, k.feed.aborted, what, time.Since(k.start).Round(time.Millisecond), cr.dur.Round(time.Millisecond))
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

// TestKafkaToKafkaFollowKill: testdata/kkafka under `run --follow`: each
// step is produced while a following process runs, which is SIGKILLed at a
// random point (mid-epoch, between epochs, during recovery); a step brings
// more killed followers. The uninterrupted run runs once per step. A last
// follower catches up and stops on SIGTERM; then two sentinel events, each
// read by one run of each warehouse, close every window. The datasets and
// the output topics must be equal.
func TestKafkaToKafkaFollowKill(t *testing.T) {
	p := kafkaPipeline{src: "kkafka", path: "pipeline.thund", read: []string{"doubled", "per_user"}, sink: true}
	k := newKafkaRun(t, p)
	k.feed.small = true
	ref, cr, rng := k.ref, k.cr, k.rng
	follow := func() (*exec.Cmd, *syncBuffer, chan error) {
		cmd := cr.command(k.crRoot, "run", "--follow", "--poll-interval", "50ms")
		out := &syncBuffer{}
		cmd.Stdout, cmd.Stderr = out, out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		return cmd, out, done
	}
	epochs, atCommit := 0, 0 // epochs committed by followers that were then killed; kills at a commit record
	// kill SIGKILLs a follower after a delay or, with commit, as soon as
	// the commit record of epoch next appears (and up to 10ms later, around
	// the Kafka commit), or a second after the delay if none does.
	kill := func(cmd *exec.Cmd, out *syncBuffer, done chan error, next int64, after time.Duration, commit bool) {
		wait := time.After(after)
		stop := make(chan struct{})
		defer close(stop)
		if commit {
			// then up to 10ms later: before or after the Kafka commit
			settle := time.Duration(rng.Int63n(int64(10 * time.Millisecond)))
			wait = commitAppears(k.crRoot.tg.fs(), next, settle, stop)
			after += time.Second // a longer wait for the commit record
		}
		select {
		case err := <-done:
			t.Fatalf("run --follow stopped before the kill: %v\n%s", err, out)
		case <-wait:
			if commit {
				atCommit++
			}
		case <-time.After(after):
		}
		cmd.Process.Signal(syscall.SIGKILL)
		err := <-done
		cr.logs = append(cr.logs, out.String())
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
				cr.kills++
				epochs += len(committedLine.FindAllString(out.String(), -1))
				cr.checkVisible(k.crRoot)
				return
			}
		}
		t.Fatalf("run --follow: %v, not killed\n%s", err, out)
	}
	next := func() int64 {
		st, err := warehouse.New(k.crRoot.tg.fs()).Load(context.Background())
		if err != nil {
			t.Fatal(err)
		}
		return st.NextEpoch
	}
	var total time.Duration
	for i := range kafkaSteps {
		// Mostly the step is produced while a follower runs; otherwise the
		// follower starts after, and its first epoch, which reads the
		// whole step, is killed as soon as its commit record appears.
		n, commit := next(), rng.Intn(2) == 0 || (i == kafkaSteps-1 && atCommit == 0)
		var cmd *exec.Cmd
		var out *syncBuffer
		var done chan error
		if !commit {
			cmd, out, done = follow()
		}
		k.feed.step(i)
		t0 := time.Now()
		ref.etl(k.refRoot, 0, "run")
		total += time.Since(t0)
		cr.dur = total / time.Duration(i+1)
		if commit {
			cmd, out, done = follow()
		}
		kill(cmd, out, done, n, time.Duration(rng.Int63n(int64(3*cr.dur))), commit)
		// More followers: killed at random (recovering, idle, reading what
		// is left), or with a few more records produced first, killed as
		// soon as the commit record of the epoch that reads them appears.
		for a := 1 + rng.Intn(3); a > 0 || (i == kafkaSteps-1 && (cr.kills < kafkaKills || atCommit < 4)); a-- {
			n, commit := next(), rng.Intn(2) == 0
			if commit {
				k.feed.more(3 + rng.Intn(10))
			}
			cmd, out, done := follow()
			kill(cmd, out, done, n, time.Duration(rng.Int63n(int64(2*cr.dur))), commit)
		}
	}
	ref.etl(k.refRoot, 0, "run") // the last records produced
	// A last follower catches up, then stops cleanly.
	want := kafkaOffsets(t, ref, k.refRoot)
	cmd, out, done := follow()
	deadline := time.Now().Add(time.Minute)
	for kafkaOffsets(t, cr, k.crRoot) != want {
		if time.Now().After(deadline) {
			t.Fatalf("run --follow did not catch up in a minute: offsets\n%s\nwant\n%s\n%s", kafkaOffsets(t, cr, k.crRoot), want, out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	// (not before it handles signals: it says so when it starts polling)
	for !strings.Contains(out.String(), "following: polling") {
		if time.Now().After(deadline) {
			t.Fatalf("run --follow did not start polling in a minute\n%s", out)
		}
		time.Sleep(20 * time.Millisecond)
	}
	cmd.Process.Signal(syscall.SIGTERM)
	if err := <-done; err != nil {
		t.Fatalf("run --follow after SIGTERM: %v\n%s", err, out)
	}
	cr.logs = append(cr.logs, out.String())
	for range 2 {
		k.feed.sentinel()
		ref.etl(k.refRoot, 0, "run")
		cr.completingRun(k.crRoot)
	}
	cr.checkVisible(k.crRoot)
	cr.checkNoOrphans(k.crRoot)
	if got, want := kafkaOffsets(t, cr, k.crRoot), kafkaOffsets(t, ref, k.refRoot); got != want {
		t.Errorf("after the sentinels the Kafka offsets are\n%s\nthe uninterrupted run's\n%s", got, want)
	}
	k.compare(fmt.Sprintf("%d kills of run --follow (%d as soon as a commit record appeared; %d epochs committed by the killed followers)", cr.kills, atCommit, epochs))
}

// syncBuffer is a buffer a running process writes while the test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (b *syncBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.Write(p)
}

func (b *syncBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.b.String()
}
