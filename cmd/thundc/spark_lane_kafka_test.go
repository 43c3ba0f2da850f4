//go:build spark

package main

import (
	"context"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"

	"github.com/nordisk/thund/internal/testenv"
)

// The Kafka lane case (testdata/spark/kafka): both engines read the same
// topic of the lane's broker (THUND_TEST_KAFKA_BROKERS; .ci/run starts one,
// and .ci/spark-lane puts Spark's Kafka connector on the server's class
// path when it runs). Spark reads it with the Kafka connector that
// sparkemit's lowering names, with read_committed, as native does.

// kafkaData makes a topic of two partitions for one lane case, produces its
// records, and puts the broker and the topic into the case's files.
func kafkaData(t *testing.T, dir string) {
	t.Helper()
	brokers := testenv.Kafka(t)
	topic := fmt.Sprintf("lane-%s-%d", filepath.Base(t.Name()), rand.Int63())
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	cl, err := kgo.NewClient(kgo.SeedBrokers(brokers))
	if err != nil {
		t.Fatal(err)
	}
	defer cl.Close()
	adm := kadm.NewClient(cl)
	if _, err := adm.CreateTopic(ctx, 2, 1, testenv.KafkaTopicConfigs(), topic); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		adm.DeleteTopics(ctx, topic)
	})
	produceLaneRecords(t, ctx, brokers, topic)
	for _, f := range []string{"pipeline.thund", filepath.Join("transformations", "1_raw.sql"), filepath.Join("transformations", "2_views.sql")} {
		path := filepath.Join(dir, f)
		laneEditAll(t, path, "KAFKA_BROKERS", brokers)
		laneEditAll(t, path, "KAFKA_TOPIC", topic)
	}
}

// produceLaneRecords writes the case's records: JSON events with keys (one
// NULL, one repeated), headers, explicit timestamps, a value that is not
// JSON and a NULL value (a tombstone); some in a committed transaction, and
// one transaction aborted, whose records neither engine may read.
func produceLaneRecords(t *testing.T, ctx context.Context, brokers, topic string) {
	t.Helper()
	base := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	event := func(i int, k string) *kgo.Record {
		r := &kgo.Record{Topic: topic, Partition: int32(i % 2), Timestamp: base.Add(time.Duration(i) * time.Second),
			Value: fmt.Appendf(nil, `{"id":%d,"k":%q,"v":%d,"ts":"2026-01-01 00:%02d:%02d"}`, i, k, i*7%11, i/60, i%60)}
		if i%5 != 0 {
			r.Key = []byte("key-" + k)
		}
		if i%3 == 0 {
			r.Headers = []kgo.RecordHeader{{Key: "source", Value: []byte("lane")}}
		}
		return r
	}
	plain, err := kgo.NewClient(kgo.SeedBrokers(brokers), kgo.RecordPartitioner(kgo.ManualPartitioner()))
	if err != nil {
		t.Fatal(err)
	}
	defer plain.Close()
	var recs []*kgo.Record
	for i := range 40 {
		recs = append(recs, event(i, []string{"a", "b", "c"}[i%3]))
	}
	recs = append(recs,
		&kgo.Record{Topic: topic, Partition: 0, Timestamp: base.Add(time.Hour), Key: []byte("bad"), Value: []byte("not json")},
		&kgo.Record{Topic: topic, Partition: 1, Timestamp: base.Add(time.Hour), Key: []byte("gone")}) // a tombstone
	if err := plain.ProduceSync(ctx, recs...).FirstErr(); err != nil {
		t.Fatal(err)
	}
	for _, commit := range []bool{true, false} {
		tx, err := kgo.NewClient(kgo.SeedBrokers(brokers), kgo.RecordPartitioner(kgo.ManualPartitioner()),
			kgo.TransactionalID(fmt.Sprintf("%s-%v", topic, commit)))
		if err != nil {
			t.Fatal(err)
		}
		if err := tx.BeginTransaction(); err != nil {
			t.Fatal(err)
		}
		var batch []*kgo.Record
		for i := 40; i < 50; i++ {
			r := event(i, "t")
			if !commit {
				r.Value = []byte(`{"id":-1,"k":"aborted","v":0,"ts":"2026-01-01 00:00:00"}`)
			}
			batch = append(batch, r)
		}
		if err := tx.ProduceSync(ctx, batch...).FirstErr(); err != nil {
			t.Fatal(err)
		}
		if err := tx.EndTransaction(ctx, kgo.TransactionEndTry(commit)); err != nil {
			t.Fatal(err)
		}
		tx.Close()
	}
}

// laneEditAll replaces every occurrence of old in a file of a case's copy
// (at least one).
func laneEditAll(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(data), old) {
		t.Fatalf("%s: no %q", path, old)
	}
	if err := os.WriteFile(path, []byte(strings.ReplaceAll(string(data), old, new)), 0o644); err != nil {
		t.Fatal(err)
	}
}
