//go:build kafka

package crashtest

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"math/rand"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/warehouse"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestKafkaKill: a watched folder written through to a Kafka sink
// (testdata/ksink), with 20 runs killed with SIGKILL at random points, a
// third of them just after their commit record appears (between the
// warehouse commit and the Kafka commit); then a run to the end. A
// read_committed consumer must see every row exactly once.
func TestKafkaKill(t *testing.T) {
	brokers := testenv.Kafka(t)
	bin := filepath.Join(t.TempDir(), "ksink")
	if out, err := exec.Command("go", "build", "-o", bin, "./testdata/ksink").CombinedOutput(); err != nil {
		t.Fatalf("go build ./testdata/ksink: %v\n%s", err, out)
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(brokers, ",")...))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	ctx := context.Background()
	topic := fmt.Sprintf("TestKafkaKill-%d", time.Now().UnixNano())
	if resp, err := adm.CreateTopic(ctx, 3, 1, testenv.KafkaTopicConfigs(), topic); err != nil || resp.Err != nil {
		t.Fatalf("creating topic %s: %v %v", topic, err, resp.Err)
	}
	defer adm.DeleteTopic(ctx, topic)

	root := t.TempDir()
	wh := filepath.Join(root, "wh")
	if err := os.MkdirAll(filepath.Join(root, "in"), 0o755); err != nil {
		t.Fatal(err)
	}
	sd := seed(t)
	t.Logf("seed %d (THUND_CRASH_SEED)", sd)
	rng := rand.New(rand.NewSource(sd))
	files, total := 0, 0
	feed := func() {
		n := 1 + rng.Intn(3)
		for i := 0; i < n; i++ {
			rows := 500 + rng.Intn(4000)
			var b strings.Builder
			b.WriteString("id\n")
			for j := 0; j < rows; j++ {
				total++
				fmt.Fprintf(&b, "%d\n", total)
			}
			files++
			if err := os.WriteFile(filepath.Join(root, "in", fmt.Sprintf("f%04d.csv", files)), []byte(b.String()), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	command := func() *exec.Cmd {
		cmd := exec.Command(bin, "run", "--warehouse", wh, "--root", root)
		cmd.Env = append(os.Environ(), "KSINK_BROKERS="+brokers, "KSINK_TOPIC="+topic)
		return cmd
	}
	// One run, uninterrupted, for the time a run takes.
	feed()
	start := time.Now()
	if out, err := command().CombinedOutput(); err != nil {
		t.Fatalf("first run: %v\n%s", err, out)
	}
	dur := time.Since(start)
	fs := &store.Local{Root: wh}
	kills, atCommit, attempts := 0, 0, 0
	for kills < 20 {
		if attempts++; attempts > 100 {
			t.Fatalf("only %d kills landed in %d runs", kills, attempts)
		}
		feed()
		st, err := warehouse.New(fs).Load(ctx)
		if err != nil {
			t.Fatal(err)
		}
		next := st.NextEpoch
		cmd := command()
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		done := make(chan error, 1)
		go func() { done <- cmd.Wait() }()
		commit := rng.Intn(3) == 0
		wait := time.After(time.Duration(rng.Int63n(int64(dur) * 13 / 10)))
		stop := make(chan struct{})
		if commit {
			ch := make(chan time.Time, 1)
			wait = ch
			go func() {
				for {
					select {
					case <-stop:
						return
					default:
					}
					if _, err := fs.Stat(ctx, warehouse.CommitName(next)); err == nil {
						ch <- time.Now()
						return
					}
					time.Sleep(200 * time.Microsecond)
				}
			}()
		}
		select {
		case err := <-done:
			close(stop)
			if err != nil {
				t.Fatalf("run (not killed) failed: %v\n%s", err, out.String())
			}
			continue
		case <-wait:
		}
		close(stop)
		cmd.Process.Signal(syscall.SIGKILL)
		err = <-done
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			if ws, ok := ee.Sys().(syscall.WaitStatus); ok && ws.Signaled() && ws.Signal() == syscall.SIGKILL {
				kills++
				if commit {
					atCommit++
				}
				continue
			}
		}
		if err != nil {
			t.Fatalf("run failed before the kill landed: %v\n%s", err, out.String())
		}
	}
	out, err := command().CombinedOutput()
	if err != nil {
		t.Fatalf("completing run: %v\n%s", err, out)
	}
	if out, err := command().CombinedOutput(); err != nil {
		t.Fatalf("rerun: %v\n%s", err, out)
	}
	t.Logf("%d kills (%d at the commit record) in %d runs; %d files, %d rows; a run takes about %v", kills, atCommit, attempts, files, total, dur.Round(time.Millisecond))

	seen := map[string]int{}
	for _, r := range kafkaReadCommitted(t, adm, brokers, topic) {
		seen[string(r.Value)]++
	}
	var missing, dup []string
	for i := 1; i <= total; i++ {
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
		t.Fatalf("%d rows: missing %d %v, duplicated %d %v, unexpected %d", total,
			len(missing), missing[:min(5, len(missing))], len(dup), dup[:min(5, len(dup))], len(seen))
	}
}

// kafkaReadCommitted reads a topic as a read_committed consumer sees it, to
// each partition's last stable offset once it has reached the high
// watermark (the commit markers arrive after the commit returns).
func kafkaReadCommitted(t *testing.T, adm *kadm.Client, brokers, topic string) []*kgo.Record {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Minute)
	defer cancel()
	var lso kadm.ListedOffsets
	for {
		var err error
		if lso, err = adm.ListCommittedOffsets(ctx, topic); err != nil {
			t.Fatal(err)
		}
		hw, err := adm.ListEndOffsets(ctx, topic)
		if err != nil {
			t.Fatal(err)
		}
		stable := true
		hw.Each(func(o kadm.ListedOffset) {
			if l, _ := lso.Lookup(o.Topic, o.Partition); l.Offset < o.Offset {
				stable = false
			}
		})
		if stable {
			break
		}
		if ctx.Err() != nil {
			t.Fatalf("%s: an open transaction stays open", topic)
		}
		time.Sleep(100 * time.Millisecond)
	}
	parts := map[int32]kgo.Offset{}
	left := map[int32]int64{}
	lso.Each(func(o kadm.ListedOffset) {
		if o.Offset > 0 {
			parts[o.Partition] = kgo.NewOffset().AtStart()
			left[o.Partition] = o.Offset
		}
	})
	if len(parts) == 0 {
		return nil
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(brokers, ",")...),
		kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{topic: parts}),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.KeepControlRecords())
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	var out []*kgo.Record
	for len(left) > 0 {
		fs := cl.PollFetches(ctx)
		if ctx.Err() != nil {
			t.Fatalf("reading %s: %v", topic, ctx.Err())
		}
		fs.EachError(func(_ string, p int32, err error) { t.Fatalf("reading %s-%d: %v", topic, p, err) })
		fs.EachRecord(func(r *kgo.Record) {
			end, ok := left[r.Partition]
			if ok && r.Offset >= end-1 {
				delete(left, r.Partition)
			}
			if !r.Attrs.IsControl() && (!ok || r.Offset < end) {
				out = append(out, r)
			}
		})
	}
	return out
}
