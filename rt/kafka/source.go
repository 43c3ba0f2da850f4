package kafka

import (
	"context"
	"errors"
	"fmt"
	"io"
	"slices"
	"sort"
	"strings"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/internal/kafkaopt"
	"github.com/nordisk/thund/rt/etl"
	"github.com/nordisk/thund/rt/format"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/kmsg"
)

// stallTimeout is how long a read waits for the next record of a partition
// it has not read to its end before it fails.
const stallTimeout = 30 * time.Second

// ListKafka lists the partitions src reads, from the brokers' metadata now,
// with their earliest offsets and their last stable offsets (the end of a
// read_committed read). A subscribed topic that does not exist has no
// partitions; an assigned partition that does not exist is left out (the
// planner notices a committed one is gone).
func (c *Connector) ListKafka(ctx context.Context, src *kafkaopt.Source) (*etl.KafkaListing, error) {
	l, err := c.listKafka(ctx, src)
	return l, explain(err, src.Security)
}

func (c *Connector) listKafka(ctx context.Context, src *kafkaopt.Source) (*etl.KafkaListing, error) {
	a, err := c.admin(src.Brokers, src.Security)
	if err != nil {
		return nil, err
	}
	adm := a.adm
	var ask []string
	switch {
	case src.Pattern != nil:
	case src.Assign != nil:
		for t := range src.Assign {
			ask = append(ask, t)
		}
	default:
		ask = src.Topics
	}
	sort.Strings(ask)
	if src.Pattern == nil && len(ask) == 0 {
		return &etl.KafkaListing{}, nil
	}
	// A metadata request of its own, not the client's cache: the topics and
	// partitions as they are now.
	req := kmsg.NewPtrMetadataRequest()
	for _, t := range ask {
		rt := kmsg.NewMetadataRequestTopic()
		rt.Topic = kmsg.StringPtr(t)
		req.Topics = append(req.Topics, rt)
	}
	resp, err := req.RequestWith(ctx, a.cl)
	if err != nil {
		return nil, fmt.Errorf("listing the topics of %s: %w", strings.Join(src.Brokers, ","), err)
	}
	var names []string
	want := map[string]map[int32]bool{}
	l := &etl.KafkaListing{}
	for _, td := range resp.Topics {
		if td.Topic == nil {
			continue
		}
		topic := *td.Topic
		err := kerr.ErrorForCode(td.ErrorCode)
		switch {
		case errors.Is(err, kerr.UnknownTopicOrPartition):
			if src.Pattern == nil {
				l.Missing = append(l.Missing, topic)
			}
			continue
		case td.IsInternal || src.Pattern != nil && !src.Pattern.MatchString(topic):
			continue
		case err != nil:
			return nil, fmt.Errorf("topic %s: %w", topic, err)
		}
		want[topic] = map[int32]bool{}
		for _, p := range td.Partitions {
			if src.Assign == nil || contains(src.Assign[topic], p.Partition) {
				want[topic][p.Partition] = true
			}
		}
		names = append(names, topic)
	}
	sort.Strings(names)
	sort.Strings(l.Missing)
	if len(names) == 0 {
		return l, nil
	}
	// A topic deleted since the metadata was read has no offsets: it is
	// left out, as one deleted before.
	starts, err := adm.ListStartOffsets(ctx, names...)
	if err == nil {
		err = offsetsError(starts)
	}
	if err != nil {
		return nil, fmt.Errorf("listing the earliest offsets of %s: %w", strings.Join(names, ", "), err)
	}
	ends, err := adm.ListCommittedOffsets(ctx, names...)
	if err == nil {
		err = offsetsError(ends)
	}
	if err != nil {
		return nil, fmt.Errorf("listing the end offsets of %s: %w", strings.Join(names, ", "), err)
	}
	for _, t := range names {
		for p := range want[t] {
			s, ok1 := starts.Lookup(t, p)
			e, ok2 := ends.Lookup(t, p)
			if !ok1 || !ok2 || s.Err != nil || e.Err != nil {
				continue // created after the metadata request: the next run sees it
			}
			l.Partitions = append(l.Partitions, etl.KafkaPartition{Topic: t, Partition: p, Earliest: s.Offset, End: e.Offset})
		}
	}
	sort.Slice(l.Partitions, func(i, j int) bool {
		a, b := l.Partitions[i], l.Partitions[j]
		return a.Topic < b.Topic || a.Topic == b.Topic && a.Partition < b.Partition
	})
	return l, nil
}

// offsetsError is the first error of listed offsets other than a topic or
// partition that does not exist.
func offsetsError(l kadm.ListedOffsets) error {
	var first error
	l.Each(func(o kadm.ListedOffset) {
		if o.Err != nil && first == nil && !errors.Is(o.Err, kerr.UnknownTopicOrPartition) {
			first = fmt.Errorf("topic %s partition %d: %w", o.Topic, o.Partition, o.Err)
		}
	})
	return first
}

func contains(ps []int32, p int32) bool {
	for _, q := range ps {
		if q == p {
			return true
		}
	}
	return false
}

// ReadKafka reads ranges with a consumer of its own: the partitions
// assigned directly from each range's From, isolation level
// read_committed, and control records kept so that a partition whose last
// offsets before To are transaction markers is known to be read to its end
// (offsets are not contiguous: markers and aborted records take offsets no
// record is read at). A partition is done at its first offset >= To-1.
func (c *Connector) ReadKafka(ctx context.Context, src *kafkaopt.Source, schema *arrow.Schema, cols []int, ranges []etl.KafkaRange, mem memory.Allocator) (format.BatchReader, error) {
	if mem == nil {
		mem = memory.DefaultAllocator
	}
	fill, err := newFiller(schema)
	if err != nil {
		return nil, err
	}
	if cols != nil {
		// the columns the flow does not read stay NULL: nothing is copied
		for i := range fill {
			if !slices.Contains(cols, i) {
				fill[i] = func(b array.Builder, _ *kgo.Record) { b.AppendNull() }
			}
		}
	}
	opts, err := ClientOptions(src.Brokers, src.Security)
	if err != nil {
		return nil, err
	}
	assign := map[string]map[int32]kgo.Offset{}
	r := &reader{schema: schema, mem: mem, fill: fill, ctx: ctx, todo: map[string]map[int32]etl.KafkaRange{}, stall: stallTimeout}
	if src.Security.Timeout > r.stall {
		r.stall = src.Security.Timeout
	}
	for _, rg := range ranges {
		if rg.To <= rg.From {
			continue
		}
		if assign[rg.Topic] == nil {
			assign[rg.Topic] = map[int32]kgo.Offset{}
			r.todo[rg.Topic] = map[int32]etl.KafkaRange{}
		}
		assign[rg.Topic][rg.Partition] = kgo.NewOffset().At(rg.From)
		r.todo[rg.Topic][rg.Partition] = rg
		r.left++
	}
	opts = append(opts,
		kgo.ConsumePartitions(assign),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()),
		kgo.KeepControlRecords(),
		kgo.ConsumeResetOffset(kgo.NoResetOffset()),
		kgo.FetchMaxWait(time.Second),
	)
	if r.cl, err = kgo.NewClient(opts...); err != nil {
		return nil, fmt.Errorf("kafka: %w", err)
	}
	return r, nil
}

// reader is one ReadKafka: format.BatchReader over the polled records.
type reader struct {
	schema *arrow.Schema
	mem    memory.Allocator
	fill   []func(b array.Builder, r *kgo.Record)
	ctx    context.Context
	cl     *kgo.Client
	todo   map[string]map[int32]etl.KafkaRange // partitions not read to their end
	left   int
	stall  time.Duration
	buf    []*kgo.Record // polled, not yet in a batch
}

func (r *reader) Schema() *arrow.Schema { return r.schema }

// Next returns the next batch of at most format.DefaultBatchRows records.
func (r *reader) Next() (arrow.RecordBatch, error) {
	for len(r.buf) < format.DefaultBatchRows && r.left > 0 {
		if err := r.poll(); err != nil {
			return nil, err
		}
	}
	if len(r.buf) == 0 {
		return nil, io.EOF
	}
	n := min(len(r.buf), format.DefaultBatchRows)
	b := array.NewRecordBuilder(r.mem, r.schema)
	defer b.Release()
	for _, rec := range r.buf[:n] {
		for i, f := range r.fill {
			f(b.Field(i), rec)
		}
	}
	r.buf = r.buf[n:]
	return b.NewRecordBatch(), nil
}

// poll fetches once, keeping the data records below their partition's To.
func (r *reader) poll() error {
	ctx, cancel := context.WithTimeout(r.ctx, r.stall)
	defer cancel()
	fs := r.cl.PollFetches(ctx)
	if err := r.ctx.Err(); err != nil {
		return err
	}
	for _, fe := range fs.Errors() {
		switch {
		case errors.Is(fe.Err, context.DeadlineExceeded):
			return fmt.Errorf("kafka: no record arrived for %v while reading %s", r.stall, r.pending())
		case errors.Is(fe.Err, kerr.OffsetOutOfRange):
			rg := r.todo[fe.Topic][fe.Partition]
			return fmt.Errorf("data loss: topic %s partition %d: offsets %d to %d are no longer there (deleted while the run read them)", fe.Topic, fe.Partition, rg.From, rg.To-1)
		case fe.Topic != "":
			return fmt.Errorf("kafka: reading topic %s partition %d: %w", fe.Topic, fe.Partition, fe.Err)
		default:
			return fmt.Errorf("kafka: %w", fe.Err)
		}
	}
	done := map[string][]int32{}
	fs.EachRecord(func(rec *kgo.Record) {
		rg, ok := r.todo[rec.Topic][rec.Partition]
		if !ok {
			return // done already
		}
		if rec.Offset < rg.To && !rec.Attrs.IsControl() {
			r.buf = append(r.buf, rec)
		}
		if rec.Offset >= rg.To-1 {
			delete(r.todo[rec.Topic], rec.Partition)
			r.left--
			done[rec.Topic] = append(done[rec.Topic], rec.Partition)
		}
	})
	if len(done) > 0 {
		r.cl.PauseFetchPartitions(done)
	}
	return nil
}

// pending names the partitions not read to their end, for messages.
func (r *reader) pending() string {
	var out []string
	for t, ps := range r.todo {
		for p, rg := range ps {
			out = append(out, fmt.Sprintf("topic %s partition %d up to offset %d", t, p, rg.To))
		}
	}
	sort.Strings(out)
	return strings.Join(out, ", ")
}

func (r *reader) Close() error {
	if r.cl != nil {
		r.cl.Close()
		r.cl = nil
	}
	r.buf = nil
	return nil
}

// newFiller returns, per column of schema, what appends a record's value
// of that column: Spark's Kafka source columns, by name.
func newFiller(schema *arrow.Schema) ([]func(b array.Builder, r *kgo.Record), error) {
	var out []func(array.Builder, *kgo.Record)
	for _, f := range schema.Fields() {
		var fn func(array.Builder, *kgo.Record)
		bad := func() error {
			return fmt.Errorf("kafka: column %s has type %s, which a Kafka source cannot fill", f.Name, f.Type)
		}
		bytesOf := func(get func(*kgo.Record) []byte) func(array.Builder, *kgo.Record) {
			nullable := f.Nullable
			return func(b array.Builder, r *kgo.Record) {
				v := get(r)
				switch b := b.(type) {
				case *array.BinaryBuilder:
					if v == nil && nullable {
						b.AppendNull()
					} else {
						b.Append(v)
					}
				case *array.StringBuilder:
					if v == nil && nullable {
						b.AppendNull()
					} else {
						b.Append(string(v))
					}
				}
			}
		}
		isBytes := func(t arrow.DataType) bool {
			switch t.ID() {
			case arrow.BINARY, arrow.STRING:
				return true
			}
			return false
		}
		intOf := func(get func(*kgo.Record) int64) (func(array.Builder, *kgo.Record), error) {
			switch f.Type.ID() {
			case arrow.INT32:
				return func(b array.Builder, r *kgo.Record) { b.(*array.Int32Builder).Append(int32(get(r))) }, nil
			case arrow.INT64:
				return func(b array.Builder, r *kgo.Record) { b.(*array.Int64Builder).Append(get(r)) }, nil
			}
			return nil, bad()
		}
		var err error
		switch f.Name {
		case "key", "value":
			if !isBytes(f.Type) {
				return nil, bad()
			}
			if f.Name == "key" {
				fn = bytesOf(func(r *kgo.Record) []byte { return r.Key })
			} else {
				fn = bytesOf(func(r *kgo.Record) []byte { return r.Value })
			}
		case "topic":
			if !isBytes(f.Type) {
				return nil, bad()
			}
			fn = func(b array.Builder, r *kgo.Record) {
				if sb, ok := b.(*array.StringBuilder); ok {
					sb.Append(r.Topic) // no copy through []byte
					return
				}
				b.(*array.BinaryBuilder).AppendString(r.Topic)
			}
		case "partition":
			fn, err = intOf(func(r *kgo.Record) int64 { return int64(r.Partition) })
		case "offset":
			fn, err = intOf(func(r *kgo.Record) int64 { return r.Offset })
		case "timestampType":
			fn, err = intOf(func(r *kgo.Record) int64 { return int64(r.Attrs.TimestampType()) })
		case "timestamp":
			ts, ok := f.Type.(*arrow.TimestampType)
			if !ok {
				return nil, bad()
			}
			unit := ts.Unit
			fn = func(b array.Builder, r *kgo.Record) {
				ns := r.Timestamp.UnixNano()
				var v int64
				switch unit {
				case arrow.Second:
					v = ns / 1e9
				case arrow.Millisecond:
					v = ns / 1e6
				case arrow.Microsecond:
					v = ns / 1e3
				default:
					v = ns
				}
				b.(*array.TimestampBuilder).Append(arrow.Timestamp(v))
			}
		case "headers":
			lt, ok := f.Type.(*arrow.ListType)
			if !ok {
				return nil, bad()
			}
			st, ok := lt.Elem().(*arrow.StructType)
			if !ok || st.NumFields() != 2 || st.Field(0).Name != "key" || st.Field(1).Name != "value" ||
				!isBytes(st.Field(0).Type) || !isBytes(st.Field(1).Type) {
				return nil, bad()
			}
			fn = func(b array.Builder, r *kgo.Record) {
				lb := b.(*array.ListBuilder)
				lb.Append(true)
				sb := lb.ValueBuilder().(*array.StructBuilder)
				for _, h := range r.Headers {
					sb.Append(true)
					appendBytes(sb.FieldBuilder(0), []byte(h.Key), false)
					appendBytes(sb.FieldBuilder(1), h.Value, true)
				}
			}
		default:
			return nil, fmt.Errorf("kafka: column %s is not one of a Kafka source's (key, value, topic, partition, offset, timestamp, timestampType, headers)", f.Name)
		}
		if err != nil {
			return nil, err
		}
		out = append(out, fn)
	}
	return out, nil
}

// appendBytes appends v to a binary or string builder (nil: null, when
// nullable).
func appendBytes(b array.Builder, v []byte, nullable bool) {
	if v == nil && nullable {
		b.AppendNull()
		return
	}
	switch b := b.(type) {
	case *array.BinaryBuilder:
		b.Append(v)
	case *array.StringBuilder:
		b.Append(string(v))
	}
}
