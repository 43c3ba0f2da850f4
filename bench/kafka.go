package main

import (
	"bufio"
	"bytes"
	"context"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"math"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"time"

	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// The Kafka ingestion bench (-kafka BROKERS): the same Nexmark-like bids as
// JSON, once in a topic and once in JSON-lines files, each copied by a
// thundc-built executable (`etl run --once`) into a streaming table
// (Parquet), and the files by DuckDB (read_json, COPY to Parquet) beside
// them. It runs only when asked: CI's smoke run has no broker.

// kafkaPartitions is the topic's partition count (and the JSON-lines
// files' count, so that both paths read as many inputs).
const kafkaPartitions = 4

// bidJSON is one event's JSON, as both paths read it (about 150 bytes).
type bidJSON struct {
	Auction  int64  `json:"auction"`
	Bidder   int64  `json:"bidder"`
	Price    int64  `json:"price"`
	Channel  string `json:"channel"`
	URL      string `json:"url"`
	DateTime string `json:"date_time"`
}

var bidChannels = []string{"apple", "google", "facebook", "baidu"}

// bidEvent is event i: deterministic, Nexmark-like (auctions 1000..,
// bidders 2000.., prices skewed as Nexmark's, 10,000 events per second of
// event time).
func bidEvent(i int64) bidJSON {
	h := uint64(i)*0x9E3779B97F4A7C15 + 0x632BE59BD9B4E019
	h ^= h >> 31
	h *= 0xBF58476D1CE4E5B9
	h ^= h >> 29
	ch := bidChannels[h%uint64(len(bidChannels))]
	t := time.Date(2026, 12, 1, 0, 0, 0, 0, time.UTC).Add(time.Duration(i) * 100 * time.Microsecond)
	return bidJSON{
		Auction:  1000 + int64(h>>8%100_000),
		Bidder:   2000 + int64(h>>24%250_000),
		Price:    int64(math.Round(math.Pow(10, float64(h>>40%1000)/1000*4))) * 100,
		Channel:  ch,
		URL:      fmt.Sprintf("https://www.nexmark.com/%s/item.htm?id=%d", ch, h>>16%1_000_000),
		DateTime: t.Format("2006-01-02 15:04:05.000"),
	}
}

// bidColumns are the events' fields as from_json reads them (every part
// nullable, as from_json's are; from_json reads no timestamp yet, so
// date_time is cast from its text, as the file source's reader parses it).
const bidColumns = "auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, date_time STRING"

// kafkaPipeline is the bench's pipeline: a Kafka source parsed with
// from_json into kafka_bids, and a watched folder of JSON lines into
// file_bids, with the same columns in the same order.
func kafkaPipeline(brokers, topic string) string {
	return fmt.Sprintf(`# The Kafka ingestion bench (bench/kafka.go), generated.
pipeline kbench

source bids_kafka stream from kafka options ("bootstrapServers" = %q, "subscribe" = %q, "startingOffsets" = "earliest") {}

streaming table kafka_bids =
  from (from stream bids_kafka | select from_json(cast(value as string), '%s') as b) as k
  | select k.b.auction as auction, k.b.bidder as bidder, k.b.price as price, k.b.channel as channel, k.b.url as url, cast(k.b.date_time as timestamp) as date_time

source bids_files stream from jsonl "data/json/*.jsonl" {
  auction int64, bidder int64, price int64, channel string, url string, date_time timestamp(us, "UTC")
}

streaming table file_bids =
  from stream bids_files
  | select auction, bidder, price, channel, url, date_time
`, brokers, topic, bidColumns)
}

// kafkaDuckQuery is DuckDB's copy of the same files.
const kafkaDuckQuery = `SELECT auction, bidder, price, channel, url, date_time FROM read_json('data/json/*.jsonl', format = 'newline_delimited',
	columns = {auction: 'BIGINT', bidder: 'BIGINT', price: 'BIGINT', channel: 'VARCHAR', url: 'VARCHAR', date_time: 'TIMESTAMP'})`

// writeBidFiles writes events bids as JSON lines, in kafkaPartitions files
// (event i in file i mod kafkaPartitions, as it goes to partition i mod
// kafkaPartitions), and returns the bytes written.
func writeBidFiles(dir string, events int64) (int64, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return 0, err
	}
	var total int64
	ws := make([]*bufio.Writer, kafkaPartitions)
	fs := make([]*os.File, kafkaPartitions)
	for p := range fs {
		f, err := os.Create(filepath.Join(dir, fmt.Sprintf("part-%d.jsonl", p)))
		if err != nil {
			return 0, err
		}
		fs[p], ws[p] = f, bufio.NewWriterSize(f, 1<<20)
	}
	for i := range events {
		b, _ := json.Marshal(bidEvent(i))
		b = append(b, '\n')
		total += int64(len(b))
		ws[i%kafkaPartitions].Write(b)
	}
	for p := range fs {
		if err := ws[p].Flush(); err != nil {
			return 0, err
		}
		if err := fs[p].Close(); err != nil {
			return 0, err
		}
	}
	return total, nil
}

// produceBids creates topic (kafkaPartitions partitions) and produces the
// events into it, batched; it is not timed.
func produceBids(ctx context.Context, cl *kgo.Client, topic string, events int64) error {
	adm := kadm.NewClient(cl)
	resp, err := adm.CreateTopic(ctx, kafkaPartitions, -1, nil, topic)
	if err != nil {
		return err
	}
	if resp.Err != nil {
		return resp.Err
	}
	const batch = 20_000
	recs := make([]*kgo.Record, 0, batch)
	for i := range events {
		b, _ := json.Marshal(bidEvent(i))
		recs = append(recs, &kgo.Record{Topic: topic, Partition: int32(i % kafkaPartitions), Value: b})
		if len(recs) == batch || i == events-1 {
			if err := cl.ProduceSync(ctx, recs...).FirstErr(); err != nil {
				return err
			}
			recs = recs[:0]
		}
	}
	return nil
}

// benchKafka runs the Kafka ingestion bench: c.kafka is the brokers.
func benchKafka(c config, dir string, rep *bytes.Buffer) (failed bool, err error) {
	ctx := context.Background()
	root := filepath.Join(dir, "kafka-"+strconv.FormatInt(c.events, 10))
	start := time.Now()
	size, err := writeBidFiles(filepath.Join(root, "data", "json"), c.events)
	if err != nil {
		return false, err
	}
	cl, err := kgo.NewClient(kgo.SeedBrokers(strings.Split(c.kafka, ",")...),
		kgo.RecordPartitioner(kgo.ManualPartitioner()), kgo.ProducerBatchMaxBytes(1<<20))
	if err != nil {
		return false, err
	}
	defer cl.Close()
	suffix := make([]byte, 4)
	rand.Read(suffix)
	topic := "thund-bench-bids-" + hex.EncodeToString(suffix)
	defer func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		if _, err := kadm.NewClient(cl).DeleteTopic(ctx, topic); err != nil {
			fmt.Fprintf(os.Stderr, "bench: delete topic %s: %v\n", topic, err)
		}
	}()
	if err := produceBids(ctx, cl, topic, c.events); err != nil {
		return false, fmt.Errorf("produce to %s: %w", topic, err)
	}
	genTime := time.Since(start)

	proj := filepath.Join(dir, "kbench")
	if err := os.MkdirAll(proj, 0o755); err != nil {
		return false, err
	}
	src := filepath.Join(proj, "kbench.thund")
	if err := os.WriteFile(src, []byte(kafkaPipeline(c.kafka, topic)), 0o644); err != nil {
		return false, err
	}
	etl := filepath.Join(dir, "etl-kbench")
	cmd := exec.Command(filepath.Join(dir, "thundc"), "build", src, "-o", etl)
	cmd.Env = append(os.Environ(), "THUND_CACHE="+filepath.Join(os.TempDir(), "thund-bench-cache"), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return false, fmt.Errorf("thundc build %s: %v\n%s", src, err, out)
	}

	fmt.Fprintf(rep, "\nKafka ingestion: %d bids as JSON (%.0f bytes each), topic %s (%d partitions) and %d JSON-lines files, to a streaming table (Parquet); %d run(s) per cell, median; GOMAXPROCS %d, %d CPUs; %s\n",
		c.events, float64(size)/float64(c.events), topic, kafkaPartitions, kafkaPartitions, c.runs, runtime.GOMAXPROCS(0), runtime.NumCPU(), time.Now().UTC().Format(time.RFC3339))
	fmt.Fprintf(rep, "data written and produced in %v (not timed)\n", genTime.Round(time.Millisecond))
	fmt.Fprintf(rep, "%-6s %3s %9s %12s %12s %9s %10s %10s  %s\n", "path", "thr", "median s", "ev/s", "ev/s/core", "peak MiB", "vs file", "core vs f", "check")
	for _, th := range c.threads {
		kafka := cell{engine: "kafka", threads: th}
		file := cell{engine: "file", threads: th}
		duck := cell{engine: "duckdb", threads: th}
		var kafkaOut, fileOut, duckOut string
		// alternate the paths run by run, so that noise from the machine's
		// other users falls on all three
		for i := range c.runs {
			wh := filepath.Join(dir, fmt.Sprintf("wh-kafka-t%d-%d", th, i))
			kafka.runs = append(kafka.runs, runIngest(etl, root, wh, "kafka_bids", th, c.profile, i))
			if i == 0 {
				kafkaOut = filepath.Join(wh, "kafka_bids", "*", "*.parquet")
			} else {
				os.RemoveAll(wh)
			}
			wh = filepath.Join(dir, fmt.Sprintf("wh-file-t%d-%d", th, i))
			file.runs = append(file.runs, runIngest(etl, root, wh, "file_bids", th, "", i))
			if i == 0 {
				fileOut = filepath.Join(wh, "file_bids", "*", "*.parquet")
			} else {
				os.RemoveAll(wh)
			}
			out := filepath.Join(dir, fmt.Sprintf("duck-kafka-t%d-%d.parquet", th, i))
			duck.runs = append(duck.runs, runDuck(root, workload{duck: kafkaDuckQuery, views: []string{"SET TimeZone = 'UTC'"}}, th, "", out))
			if i == 0 {
				duckOut = out
			} else {
				os.Remove(out)
			}
		}
		check := "-"
		// a failed run fails the command, as a difference does: a bench
		// that quotes no figure must not pass for one that did
		failed = failed || !kafka.ok() || !file.ok() || !duck.ok()
		if kafka.ok() && file.ok() && duck.ok() {
			check = "equal"
			for _, pair := range [][2]string{{duckOut, fileOut}, {duckOut, kafkaOut}} {
				if err := sameMultiset(pair[0], pair[1]); err != nil {
					check = fmt.Sprintf("DIFFERENT (%s vs %s): %v", filepath.Base(pair[0]), pair[1], err)
					failed = true
					break
				}
			}
		}
		ingestRow(rep, c.events, kafka, &file, check)
		ingestRow(rep, c.events, file, nil, "")
		ingestRow(rep, c.events, duck, &file, "")
		if kafka.ok() && duck.ok() {
			ks, kc, _ := kafka.median()
			ds, dc, _ := duck.median()
			fmt.Fprintf(rep, "       kafka/duckdb: %.2fx wall, %.2fx per core\n", ds/ks, dc/kc)
		}
		os.Remove(duckOut)
		os.RemoveAll(filepath.Join(dir, fmt.Sprintf("wh-kafka-t%d-0", th)))
		os.RemoveAll(filepath.Join(dir, fmt.Sprintf("wh-file-t%d-0", th)))
	}
	return failed, nil
}

// runIngest copies one source into its streaming table with one --once run
// in a fresh warehouse; with profile, the first run writes a CPU profile
// there (THUND_CPUPROFILE).
func runIngest(etl, root, wh, target string, threads int, profile string, i int) result {
	cmd := exec.Command(etl, "run", "--once", "--warehouse", wh, "--root", root, "--threads", strconv.Itoa(threads), "--select", target)
	if profile != "" && i == 0 {
		cmd.Env = append(os.Environ(), "THUND_CPUPROFILE="+fmt.Sprintf("%s-t%d.pprof", profile, threads))
	}
	return child(cmd)
}

// ingestRow is one path's line: events/s over the child's wall time and
// over its CPU time, and the ratios to base (the file path).
func ingestRow(w *bytes.Buffer, events int64, c cell, base *cell, check string) {
	if !c.ok() {
		for _, r := range c.runs {
			if r.err != "" {
				fmt.Fprintf(w, "%-6s %3d  failed: %s\n", c.engine, c.threads, r.err)
				return
			}
		}
	}
	secs, cpu, rss := c.median()
	ratio, cpuRatio := "", ""
	if base != nil && base.ok() {
		bs, bc, _ := base.median()
		ratio = fmt.Sprintf("%.2fx", bs/secs)
		cpuRatio = fmt.Sprintf("%.2fx", bc/cpu)
	}
	fmt.Fprintf(w, "%-6s %3d %9.3f %12.0f %12.0f %9.1f %10s %10s  %s\n", c.engine, c.threads, secs, float64(events)/secs,
		float64(events)/cpu, float64(rss)/(1<<20), ratio, cpuRatio, check)
}
