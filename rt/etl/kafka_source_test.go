package etl

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"

	"github.com/nordisk/thund/internal/kafkaopt"
)

func mustKafkaOpts(t *testing.T, stream bool, kv ...string) *kafkaopt.Source {
	t.Helper()
	opts := [][2]string{{"bootstrapServers", "127.0.0.1:9092"}}
	for i := 0; i < len(kv); i += 2 {
		opts = append(opts, [2]string{kv[i], kv[i+1]})
	}
	o, err := kafkaopt.ParseSource(opts, stream)
	if err != nil {
		t.Fatal(err)
	}
	return o
}

func rangesText(pl *kafkaPlan) string {
	var out []string
	for _, r := range pl.ranges {
		out = append(out, fmt.Sprintf("%s-%d:[%d,%d)", r.Topic, r.Partition, r.From, r.To))
	}
	return strings.Join(out, " ")
}

func TestPlanKafkaStream(t *testing.T) {
	l := &KafkaListing{Partitions: []KafkaPartition{
		{Topic: "a", Partition: 0, Earliest: 0, End: 10},
		{Topic: "a", Partition: 1, Earliest: 5, End: 8},
		{Topic: "b", Partition: 0, Earliest: 0, End: 4},
	}}
	for _, tc := range []struct {
		name      string
		opts      []string
		committed kafkaNext
		want      string // ranges, or the error's text
		lost      int
		left      int64
	}{
		{name: "first read, latest (the stream default)", opts: []string{"subscribe", "a,b"},
			want: "a-0:[10,10) a-1:[8,8) b-0:[4,4)"},
		{name: "first read, earliest", opts: []string{"subscribe", "a,b", "startingOffsets", "earliest"},
			want: "a-0:[0,10) a-1:[5,8) b-0:[0,4)"},
		{name: "first read, specific", opts: []string{"subscribe", "a,b", "startingOffsets", `{"a":{"0":3,"1":-2},"b":{"0":-1}}`},
			want: "a-0:[3,10) a-1:[5,8) b-0:[4,4)"},
		{name: "first read, a partition without an offset", opts: []string{"subscribe", "a,b", "startingOffsets", `{"a":{"0":3}}`},
			want: "startingOffsets names no offset for topic a partition 1"},
		{name: "resume; a new partition and topic start at earliest", opts: []string{"subscribe", "a,b"},
			committed: kafkaNext{"a": {0: 7}}, want: "a-0:[7,10) a-1:[5,8) b-0:[0,4)"},
		{name: "resume, caught up", opts: []string{"subscribe", "a,b"},
			committed: kafkaNext{"a": {0: 10, 1: 8}, "b": {0: 4}}, want: "a-0:[10,10) a-1:[8,8) b-0:[4,4)"},
		{name: "records deleted below the committed offset", opts: []string{"subscribe", "a,b"},
			committed: kafkaNext{"a": {0: 10, 1: 2}, "b": {0: 4}},
			want:      "data loss: topic a partition 1: the committed offset is 2, but the earliest offset left is 5 (records 2 to 4 were deleted)"},
		{name: "records deleted, failOnDataLoss false", opts: []string{"subscribe", "a,b", "failOnDataLoss", "false"},
			committed: kafkaNext{"a": {0: 10, 1: 2}, "b": {0: 4}}, want: "a-0:[10,10) a-1:[5,8) b-0:[4,4)", lost: 1},
		{name: "committed offset past the end", opts: []string{"subscribe", "a,b"},
			committed: kafkaNext{"a": {0: 12}}, want: "topic a partition 0: the committed offset is 12, past the partition's end 10"},
		{name: "a topic gone", opts: []string{"subscribe", "a,b,c"},
			committed: kafkaNext{"c": {0: 3}}, want: "data loss: topic c partition 0 (committed offset 3) no longer exists"},
		{name: "a topic gone, failOnDataLoss false", opts: []string{"subscribe", "a,b,c", "failOnDataLoss", "false"},
			committed: kafkaNext{"a": {0: 10, 1: 8}, "b": {0: 4}, "c": {0: 3}}, want: "a-0:[10,10) a-1:[8,8) b-0:[4,4)", lost: 1},
		{name: "a topic no longer subscribed is no loss", opts: []string{"subscribe", "a,b"},
			committed: kafkaNext{"a": {0: 10, 1: 8}, "b": {0: 4}, "old": {0: 3}}, want: "a-0:[10,10) a-1:[8,8) b-0:[4,4)"},
		{name: "maxOffsetsPerTrigger shares by backlog", opts: []string{"subscribe", "a,b", "startingOffsets", "earliest", "maxOffsetsPerTrigger", "8"},
			want: "a-0:[0,5) a-1:[5,6) b-0:[0,2)", left: 9},
		{name: "maxOffsetsPerTrigger above the backlog", opts: []string{"subscribe", "a,b", "startingOffsets", "earliest", "maxOffsetsPerTrigger", "100"},
			want: "a-0:[0,10) a-1:[5,8) b-0:[0,4)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := mustKafkaOpts(t, true, tc.opts...)
			pl, err := planKafkaStream("src", o, l, tc.committed)
			if err != nil {
				if !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %q, want it to contain %q", err, tc.want)
				}
				return
			}
			if got := rangesText(pl); got != tc.want {
				t.Fatalf("ranges %s, want %s", got, tc.want)
			}
			if len(pl.lost) != tc.lost || pl.left != tc.left {
				t.Errorf("lost %q, left %d; want %d lost, %d left", pl.lost, pl.left, tc.lost, tc.left)
			}
			var total int64
			for _, r := range pl.ranges {
				total += r.To - r.From
				if pl.next[r.Topic][r.Partition] != r.To {
					t.Errorf("next of %s-%d is %d, want %d", r.Topic, r.Partition, pl.next[r.Topic][r.Partition], r.To)
				}
			}
			if total != pl.records {
				t.Errorf("records %d, want %d", pl.records, total)
			}
		})
	}
}

func TestPlanKafkaBatch(t *testing.T) {
	l := &KafkaListing{Partitions: []KafkaPartition{
		{Topic: "a", Partition: 0, Earliest: 2, End: 10},
		{Topic: "a", Partition: 1, Earliest: 0, End: 8},
	}}
	for _, tc := range []struct {
		name   string
		stream bool // the source is a STREAM source read as a snapshot
		opts   []string
		want   string
	}{
		{name: "defaults: earliest to latest", opts: []string{"subscribe", "a"}, want: "a-0:[2,10) a-1:[0,8)"},
		{name: "snapshot of a stream source starting at latest", stream: true, opts: []string{"subscribe", "a"}, want: "a-0:[2,10) a-1:[0,8)"},
		{name: "ending offsets", opts: []string{"subscribe", "a", "endingOffsets", `{"a":{"0":5,"1":-1}}`}, want: "a-0:[2,5) a-1:[0,8)"},
		{name: "ending offset past the end", opts: []string{"subscribe", "a", "endingOffsets", `{"a":{"0":50,"1":-1}}`},
			want: "topic a partition 0 ends at 10, before 50"},
		{name: "starting offset deleted", opts: []string{"subscribe", "a", "startingOffsets", `{"a":{"0":1,"1":0}}`},
			want: "data loss: topic a partition 0: startingOffsets is 1, but the earliest offset left is 2"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			o := mustKafkaOpts(t, tc.stream, tc.opts...)
			pl, err := planKafkaBatch("src", o, l, tc.stream)
			if err != nil {
				if !strings.Contains(err.Error(), tc.want) {
					t.Fatalf("error %q, want it to contain %q", err, tc.want)
				}
				return
			}
			if got := rangesText(pl); got != tc.want {
				t.Fatalf("ranges %s, want %s", got, tc.want)
			}
		})
	}
}

// TestKafkaOffsetJSON checks the commit record's form of a Kafka offset,
// and that an empty one (no partition yet) is not taken for none.
func TestKafkaOffsetJSON(t *testing.T) {
	next := kafkaNext{"t": {0: 5, 1: 7}}
	raw, _ := json.Marshal(offset{Kafka: &next})
	if string(raw) != `{"kafka":{"t":{"0":5,"1":7}}}` {
		t.Errorf("offset %s", raw)
	}
	empty := kafkaNext{}
	raw, _ = json.Marshal(offset{Kafka: &empty})
	var o offset
	if err := json.Unmarshal(raw, &o); err != nil || o.Kafka == nil {
		t.Errorf("offset %s read back as %+v, %v: an empty Kafka offset must stay one", raw, o, err)
	}
	raw, _ = json.Marshal(offset{})
	if string(raw) != `{}` {
		t.Errorf("a file offset carries %s", raw)
	}
}
