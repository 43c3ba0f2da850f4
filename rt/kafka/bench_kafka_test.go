//go:build kafka

package kafka_test

import (
	"context"
	"fmt"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/twmb/franz-go/pkg/kgo"
)

// benchTopic fills a topic with n records.
func benchTopic(k *kenv, n int) string {
	topic := k.topic("bench", 1)
	cl := k.producer("")
	batch := make([]*kgo.Record, 0, 10_000)
	for i := 0; i < n; i++ {
		batch = append(batch, &kgo.Record{Topic: topic, Partition: 0, Key: []byte(fmt.Sprint("user-", i%1000)),
			Value: []byte(fmt.Sprintf(`{"auction":%d,"bidder":%d,"price":%d,"channel":"web","url":"https://example.org/a/%d"}`, i%5000, i%1000, i%997, i))})
		if len(batch) == cap(batch) || i == n-1 {
			k.produce(cl, batch...)
			batch = batch[:0]
		}
	}
	return topic
}

// BenchmarkKafkaSourceCopy measures the Kafka source end to end: 200,000
// records of ~100 bytes (JSON values, as Nexmark's bids) in one partition,
// copied by `run --threads 1` into a streaming table (Parquet), a fresh
// warehouse each time; records/cpu-s counts this process's CPU time (the
// client's, not the broker's). Run it with
//
//	go test -tags kafka -run X -bench KafkaSourceCopy -benchtime 3x ./rt/kafka
func BenchmarkKafkaSourceCopy(b *testing.B) {
	k := newKenv(b)
	const n = 200_000
	topic := benchTopic(k, n)
	p := k.pipeline(false, "subscribe", topic, "startingOffsets", "earliest")
	cpu := func() float64 {
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
	}
	b.ResetTimer()
	cpu0 := cpu()
	for i := 0; i < b.N; i++ {
		k.wh = filepath.Join(k.root, fmt.Sprint("warehouse", i))
		code, _, stderr := k.etl(context.Background(), p, "run", "--threads", "1")
		if code != 0 {
			b.Fatalf("run: exit %d\n%s", code, stderr)
		}
	}
	used := cpu() - cpu0
	b.ReportMetric(float64(n)*float64(b.N)/b.Elapsed().Seconds(), "records/s")
	// the client's CPU (this process: franz-go's fetching and decoding, the
	// copy, Parquet), not the broker's
	b.ReportMetric(float64(n)*float64(b.N)/used, "records/cpu-s")
}
