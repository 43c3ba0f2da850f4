package kafka

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/nordisk/thund/internal/kafkaopt"
	"github.com/nordisk/thund/rt/etl"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// The Kafka sink's client side (the protocol, and the staging of each
// epoch's rows in the warehouse, are rt/etl's kafka_sink.go): one
// transactional producer per sink and run, whose transactional id the
// runtime derives from the warehouse and the sink, so that a restarted run
// fences the producer of a run that died.

// Headers the sink adds to every record: which sink wrote it (its
// transactional id) and in which epoch of the pipeline. Recovery looks for
// them to learn whether an epoch reached Kafka.
const (
	HeaderSink  = "thund.sink"
	HeaderEpoch = "thund.epoch"
)

// transactionTimeout is how long the brokers keep a transaction of this
// sink open without an end: a run that died leaves one open at most this
// long (a restarted run fences it at once). A flow that produces for longer
// sees its transaction aborted; the runtime then produces the epoch again
// from the rows staged in the warehouse.
const transactionTimeout = 2 * time.Minute

// resolveTimeout bounds the wait for a partition's last stable offset to
// pass the records written before recovery looked (another producer's open
// transaction holds it back until that transaction ends or times out).
const resolveTimeout = 3 * time.Minute

// sinkColumns are the columns a Kafka sink's rows may have (Spark's Kafka
// sink), and the types each takes.
func checkSinkColumn(f arrow.Field) error {
	isText := func(t arrow.DataType) bool {
		switch t.ID() {
		case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY:
			return true
		}
		return false
	}
	switch f.Name {
	case "value", "key":
		if !isText(f.Type) {
			return fmt.Errorf("column %s is %s; a Kafka sink takes string or binary", f.Name, f.Type)
		}
	case "topic":
		if id := f.Type.ID(); id != arrow.STRING && id != arrow.LARGE_STRING {
			return fmt.Errorf("column topic is %s; a Kafka sink takes string", f.Type)
		}
	case "partition":
		if f.Type.ID() != arrow.INT32 {
			return fmt.Errorf("column partition is %s; a Kafka sink takes int", f.Type)
		}
	case "headers":
		if !headersType(f.Type) {
			return fmt.Errorf("column headers is %s; a Kafka sink takes array<struct<key string, value binary>>", f.Type)
		}
	default:
		return fmt.Errorf("column %s is not one a Kafka sink writes (value, and optionally key, topic, partition, headers)", f.Name)
	}
	return nil
}

func headersType(t arrow.DataType) bool {
	l, ok := t.(*arrow.ListType)
	if !ok {
		return false
	}
	st, ok := l.Elem().(*arrow.StructType)
	if !ok || st.NumFields() != 2 {
		return false
	}
	k, v := st.Field(0), st.Field(1)
	return k.Name == "key" && (k.Type.ID() == arrow.STRING || k.Type.ID() == arrow.LARGE_STRING) &&
		v.Name == "value" && (v.Type.ID() == arrow.BINARY || v.Type.ID() == arrow.LARGE_BINARY)
}

// OpenSink parses a Kafka sink's options and checks its columns; it
// connects to nothing until the sink is used.
func (c *Connector) OpenSink(ds *etl.Dataset, id string) (etl.KafkaSink, error) {
	cols := map[string]int{}
	for i, f := range ds.Schema.Fields() {
		if err := checkSinkColumn(f); err != nil {
			return nil, err
		}
		cols[f.Name] = i
	}
	if _, ok := cols["value"]; !ok {
		return nil, errors.New("a Kafka sink needs a value column (string or binary)")
	}
	_, hasTopic := cols["topic"]
	opts, err := kafkaopt.ParseSink(ds.SinkOptions, hasTopic)
	if err != nil {
		return nil, err
	}
	base, err := sinkClientOpts(opts)
	if err != nil {
		return nil, err
	}
	return &sink{id: id, opts: opts, base: base, cols: cols}, nil
}

// sinkClientOpts are the client options every client of a sink shares.
// TODO(merge): use rt/kafka's client.go (h-ksrc) for TLS and SASL.
func sinkClientOpts(o *kafkaopt.Sink) ([]kgo.Opt, error) {
	return ClientOptions(o.Brokers, o.Security)
}

// sink is one Kafka sink of a run: a transactional producer.
type sink struct {
	id   string
	opts *kafkaopt.Sink
	base []kgo.Opt
	cols map[string]int

	cl      *kgo.Client
	inTxn   bool
	epoch   []byte // the thund.epoch header's value
	forced  *etl.KafkaProbe
	n       int64 // records produced in this transaction
	rr      atomic.Uint32
	mu      sync.Mutex
	err     error          // the first produce error
	probe   etl.KafkaProbe // where the transaction's first record went
	probeOK bool
}

// client is the sink's producer, created on first use.
func (s *sink) client() (*kgo.Client, error) {
	if s.cl != nil {
		return s.cl, nil
	}
	opts := append([]kgo.Opt{}, s.base...)
	opts = append(opts, kgo.TransactionalID(s.id), kgo.TransactionTimeout(transactionTimeout),
		kgo.RecordPartitioner(kgo.BasicConsistentPartitioner(s.partitioner)),
		kgo.ProducerLinger(5*time.Millisecond), kgo.UnknownTopicRetries(2))
	if s.opts.Topic != "" {
		opts = append(opts, kgo.DefaultProduceTopic(s.opts.Topic))
	}
	if c := s.opts.Compression; c != "" && c != "none" {
		codec := map[string]kgo.CompressionCodec{"gzip": kgo.GzipCompression(), "snappy": kgo.SnappyCompression(),
			"lz4": kgo.Lz4Compression(), "zstd": kgo.ZstdCompression()}[c]
		opts = append(opts, kgo.ProducerBatchCompression(codec))
	}
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return nil, err
	}
	s.cl = cl
	return cl, nil
}

// partitioner places a record: its partition column (or the probe, for the
// first record of a republished epoch) when set, Kafka's murmur2 hash of
// its key when it has one, else round robin.
func (s *sink) partitioner(topic string) func(*kgo.Record, int) int {
	keyed := kgo.StickyKeyPartitioner(nil).ForTopic(topic)
	return func(r *kgo.Record, n int) int {
		switch {
		case r.Partition >= 0:
			return int(r.Partition)
		case r.Key != nil:
			return keyed.Partition(r, n)
		}
		return int(s.rr.Add(1) % uint32(n))
	}
}

// Begin fences earlier producers of the sink (the brokers abort a
// transaction one left open) and starts the transaction of epoch. A
// non-nil probe forces the first record to the probe's partition, where
// an earlier attempt at the epoch put its first record.
func (s *sink) Begin(ctx context.Context, epoch int64, probe *etl.KafkaProbe) error {
	cl, err := s.client()
	if err != nil {
		return err
	}
	if _, _, err := cl.ProducerID(ctx); err != nil {
		return explain(fmt.Errorf("initializing the transactional producer %s: %w", s.id, err), s.opts.Security)
	}
	if err := cl.BeginTransaction(); err != nil {
		return err
	}
	s.inTxn, s.n, s.err, s.probeOK, s.forced = true, 0, nil, false, probe
	s.epoch = strconv.AppendInt(nil, epoch, 10)
	return nil
}

// Write produces one record per row of rec (asynchronously: Flush waits,
// and reports a failed produce). It fails only on a row no record can be
// made of.
func (s *sink) Write(ctx context.Context, rec arrow.RecordBatch) error {
	col := func(name string) arrow.Array {
		if i, ok := s.cols[name]; ok {
			return rec.Column(i)
		}
		return nil
	}
	value, key, topic, part, headers := col("value"), col("key"), col("topic"), col("partition"), col("headers")
	for i := 0; i < int(rec.NumRows()); i++ {
		r := &kgo.Record{Partition: -1, Value: bytesAt(value, i), Key: bytesAt(key, i)}
		if topic != nil && topic.IsValid(i) {
			r.Topic = string(bytesAt(topic, i))
		} else if s.opts.Topic == "" {
			return fmt.Errorf("row %d: the topic column is NULL and the sink has no topic option", s.n+1)
		} else {
			r.Topic = s.opts.Topic
		}
		if part != nil && part.IsValid(i) {
			p := part.(*array.Int32).Value(i)
			if p < 0 {
				return fmt.Errorf("row %d: partition %d is negative", s.n+1, p)
			}
			r.Partition = p
		}
		if headers != nil && headers.IsValid(i) {
			r.Headers = headersAt(headers.(*array.List), i)
		}
		r.Headers = append(r.Headers, kgo.RecordHeader{Key: HeaderSink, Value: []byte(s.id)}, kgo.RecordHeader{Key: HeaderEpoch, Value: s.epoch})
		first, explicit, row := s.n == 0, r.Partition >= 0, s.n+1
		if first && s.forced != nil {
			if r.Topic != s.forced.Topic {
				return fmt.Errorf("the epoch's first record goes to topic %s, where an earlier attempt sent it to %s", r.Topic, s.forced.Topic)
			}
			r.Partition = s.forced.Partition
		}
		s.n++
		s.cl.Produce(ctx, r, func(r *kgo.Record, err error) {
			s.mu.Lock()
			defer s.mu.Unlock()
			if err != nil {
				if s.err == nil {
					if explicit {
						err = fmt.Errorf("row %d: its partition column says %d: %w", row, r.Partition, err)
					}
					s.err = fmt.Errorf("producing to %s: %w", r.Topic, err)
				}
				return
			}
			if first {
				s.probe, s.probeOK = etl.KafkaProbe{Topic: r.Topic, Partition: r.Partition, Offset: r.Offset}, true
			}
		})
	}
	return nil
}

// bytesAt is row i of a string or binary column (a copy: the record
// outlives the batch), nil when NULL or when there is no column.
func bytesAt(a arrow.Array, i int) []byte {
	if a == nil || a.IsNull(i) {
		return nil
	}
	switch c := a.(type) {
	case *array.String:
		return []byte(c.Value(i))
	case *array.LargeString:
		return []byte(c.Value(i))
	case *array.Binary:
		return append([]byte{}, c.Value(i)...)
	case *array.LargeBinary:
		return append([]byte{}, c.Value(i)...)
	}
	return nil
}

// headersAt is row i of a headers column.
func headersAt(l *array.List, i int) []kgo.RecordHeader {
	st := l.ListValues().(*array.Struct)
	start, end := l.ValueOffsets(i)
	var out []kgo.RecordHeader
	for j := start; j < end; j++ {
		if st.IsNull(int(j)) {
			continue
		}
		out = append(out, kgo.RecordHeader{Key: string(bytesAt(st.Field(0), int(j))), Value: bytesAt(st.Field(1), int(j))})
	}
	return out
}

// Flush waits until every record of the transaction is acknowledged and
// returns where the first one went and how many were produced.
func (s *sink) Flush(ctx context.Context) (etl.KafkaProbe, int64, error) {
	if err := s.cl.Flush(ctx); err != nil {
		return etl.KafkaProbe{}, 0, err
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.err != nil {
		return etl.KafkaProbe{}, 0, s.err
	}
	if s.n > 0 && !s.probeOK {
		return etl.KafkaProbe{}, 0, errors.New("the first record was not acknowledged")
	}
	return s.probe, s.n, nil
}

// Commit commits the transaction.
func (s *sink) Commit(ctx context.Context) error {
	if !s.inTxn {
		return errors.New("no transaction to commit")
	}
	s.inTxn = false
	return s.cl.EndTransaction(ctx, kgo.TryCommit)
}

// Abort aborts the transaction, if one is open.
func (s *sink) Abort(ctx context.Context) error {
	if !s.inTxn || s.cl == nil {
		return nil
	}
	s.inTxn = false
	err := s.cl.AbortBufferedRecords(ctx)
	return errors.Join(err, s.cl.EndTransaction(ctx, kgo.TryAbort))
}

// Close closes the client without ending an open transaction (as a run
// that dies would: the next one fences it).
func (s *sink) Close() {
	if s.cl != nil {
		s.cl.Close()
		s.cl = nil
	}
}

// Published fences earlier producers of the sink (which aborts a
// transaction one left open) and then reads, with read_committed, the
// probe's partition from the probe's offset, looking for a record of this
// sink and epoch. Every attempt at an epoch puts its first record in the
// probe's partition, after the probe's offset; records of a transaction are
// all visible or none, so one record says the epoch is in Kafka.
func (s *sink) Published(ctx context.Context, epoch int64, probe etl.KafkaProbe) (bool, error) {
	cl, err := s.client()
	if err != nil {
		return false, err
	}
	if _, _, err := cl.ProducerID(ctx); err != nil {
		return false, explain(fmt.Errorf("fencing the transactional producer %s: %w", s.id, err), s.opts.Security)
	}
	ctx, cancel := context.WithTimeout(ctx, resolveTimeout)
	defer cancel()
	adm := kadm.NewClient(cl)
	t, p := probe.Topic, probe.Partition
	where := fmt.Sprintf("partition %s-%d", t, p)
	offset := func(list func(context.Context, ...string) (kadm.ListedOffsets, error)) (int64, error) {
		l, err := list(ctx, t)
		if err != nil {
			return 0, err
		}
		o, ok := l.Lookup(t, p)
		if !ok {
			return 0, fmt.Errorf("%s does not exist", where)
		}
		return o.Offset, o.Err
	}
	hw, err := offset(adm.ListEndOffsets)
	if err != nil {
		return false, fmt.Errorf("%s: %w", where, err)
	}
	for {
		lso, err := offset(adm.ListCommittedOffsets)
		if err != nil {
			return false, fmt.Errorf("%s: %w", where, err)
		}
		if lso >= hw {
			break
		}
		select {
		case <-ctx.Done():
			return false, fmt.Errorf("%s: another producer's open transaction keeps its last stable offset at %d, below %d", where, lso, hw)
		case <-time.After(200 * time.Millisecond):
		}
	}
	start, err := offset(adm.ListStartOffsets)
	if err != nil {
		return false, fmt.Errorf("%s: %w", where, err)
	}
	from := max(start, probe.Offset)
	if from >= hw {
		if start > probe.Offset {
			return false, fmt.Errorf("cannot tell whether epoch %d reached Kafka: %s holds no records from offset %d on (retention or deletion removed them)", epoch, where, probe.Offset)
		}
		return false, nil
	}
	found, err := s.scan(ctx, t, p, from, hw, epoch)
	if err == nil && !found && start > probe.Offset {
		return false, fmt.Errorf("cannot tell whether epoch %d reached Kafka: %s lost offsets %d to %d (retention or deletion)", epoch, where, probe.Offset, start)
	}
	return found, err
}

// scan reads partition t-p from offset from up to end (exclusive) with
// read_committed, control records included so that the end is seen, and
// reports whether a record of this sink and epoch is there.
func (s *sink) scan(ctx context.Context, t string, p int32, from, end, epoch int64) (bool, error) {
	opts := append([]kgo.Opt{}, s.base...)
	opts = append(opts, kgo.ConsumePartitions(map[string]map[int32]kgo.Offset{t: {p: kgo.NewOffset().At(from)}}),
		kgo.FetchIsolationLevel(kgo.ReadCommitted()), kgo.KeepControlRecords(), kgo.FetchMaxWait(500*time.Millisecond))
	cl, err := kgo.NewClient(opts...)
	if err != nil {
		return false, err
	}
	defer cl.Close()
	want := strconv.FormatInt(epoch, 10)
	for {
		fs := cl.PollFetches(ctx)
		if err := ctx.Err(); err != nil {
			return false, fmt.Errorf("reading partition %s-%d from offset %d to %d: %w", t, p, from, end, err)
		}
		var ferr error
		fs.EachError(func(_ string, _ int32, err error) { ferr = err })
		if ferr != nil {
			return false, fmt.Errorf("reading partition %s-%d: %w", t, p, ferr)
		}
		found, last := false, int64(-1)
		fs.EachRecord(func(r *kgo.Record) {
			last = max(last, r.Offset)
			if r.Attrs.IsControl() {
				return
			}
			var sinkID, ep string
			for _, h := range r.Headers {
				switch h.Key {
				case HeaderSink:
					sinkID = string(h.Value)
				case HeaderEpoch:
					ep = string(h.Value)
				}
			}
			if sinkID == s.id && ep == want {
				found = true
			}
		})
		if found {
			return true, nil
		}
		if last >= end-1 {
			return false, nil
		}
	}
}

var _ etl.KafkaSinks = (*Connector)(nil)
