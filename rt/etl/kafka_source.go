package etl

import (
	"context"
	"fmt"
	"sort"
	"strings"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/internal/kafkaopt"
	"github.com/nordisk/thund/rt/format"
)

// Kafka sources.
//
// At the start of a run (and at each poll of --follow) the planner lists a
// Kafka source's partitions (KafkaSources.ListKafka): every partition of the
// topics it subscribes to, matches or is assigned, as the metadata has them
// now (so new partitions and new topics matching a pattern are found), with
// each one's earliest offset and its end, the last stable offset (the
// source reads with isolation level read_committed). A stream read then
// reads each partition from the offset recorded in the commit record (the
// offset after the last record it read) up to that end, capped by
// maxOffsetsPerTrigger; the new offsets go into the epoch's commit record
// with the rows. A replay after a crash reads the same records again. A
// first read (or a full refresh) starts at startingOffsets; a partition met
// after the first read starts at its earliest offset.
//
// A batch (snapshot) read reads startingOffsets (default earliest) to
// endingOffsets (default latest) at every run; a snapshot read of a STREAM
// source whose startingOffsets is latest reads every retained record.
//
// Records lost under the pipeline (a committed offset below the partition's
// earliest offset, or past its end; a partition or topic gone) fail the run
// with topic, partition and offsets, unless failOnDataLoss is false: then
// the run warns and goes on from the earliest offset left.

// KafkaSources reads Kafka sources for the runtime (rt/kafka implements it).
type KafkaSources interface {
	// ListKafka lists the partitions src reads now, with their offsets.
	ListKafka(ctx context.Context, src *kafkaopt.Source) (*KafkaListing, error)
	// ReadKafka reads the records of ranges (read_committed; To is
	// exclusive) into batches of schema, whose columns are Spark's Kafka
	// source columns, filled by name: only the columns cols (indexes into
	// schema; nil: all of them), the others all NULL, as a Parquet source
	// decodes only the columns a flow reads (FlowContext.ReadColumns).
	ReadKafka(ctx context.Context, src *kafkaopt.Source, schema *arrow.Schema, cols []int, ranges []KafkaRange, mem memory.Allocator) (format.BatchReader, error)
}

// KafkaPartition is one partition of a Kafka source as listed.
type KafkaPartition struct {
	Topic     string
	Partition int32
	Earliest  int64 // the log start offset
	End       int64 // the last stable offset: the end of a read_committed read
}

// KafkaListing is the partitions of a Kafka source, by topic and partition.
type KafkaListing struct {
	Partitions []KafkaPartition
	// Missing: topics named by subscribe or assign that do not exist (yet).
	Missing []string
}

// KafkaRange is the records of one partition a read takes: [From, To).
type KafkaRange struct {
	Topic     string
	Partition int32
	From, To  int64
}

// kafkaNext is a Kafka stream read's offset in the commit record: per topic
// and partition, the offset of the next record to read.
type kafkaNext map[string]map[int32]int64

// kafkaPlan is what one read of a Kafka source takes.
type kafkaPlan struct {
	ranges  []KafkaRange // every listed partition, To >= From
	next    kafkaNext    // the offset after the read
	lost    []string     // records lost, when failOnDataLoss is false
	records int64        // offsets in the ranges (an upper bound on records)
	left    int64        // offsets maxOffsetsPerTrigger left for a later epoch
}

// isKafka reports whether a source reads Kafka.
func isKafka(src *Dataset) bool {
	return src.Kind == Source && src.Source != nil && strings.EqualFold(src.Source.Format, kafkaFormat)
}

// kafkaOptions parses a Kafka source's options (thundc check refused what
// ParseSource refuses: this is the safety net).
func kafkaOptions(src *Dataset) (*kafkaopt.Source, error) {
	o, err := kafkaopt.ParseSource(src.Source.Options, src.Source.Unbounded)
	if err != nil {
		return nil, fmt.Errorf("source %s: %w", src.Name, err)
	}
	return o, nil
}

// subscribed reports whether the source reads partition p of topic t.
func subscribed(o *kafkaopt.Source, t string, p int32) bool {
	switch {
	case o.Pattern != nil:
		return o.Pattern.MatchString(t)
	case o.Assign != nil:
		for _, q := range o.Assign[t] {
			if q == p {
				return true
			}
		}
		return false
	}
	for _, x := range o.Topics {
		if x == t {
			return true
		}
	}
	return false
}

// planKafkaStream plans a stream read: from committed (nil: the first read,
// from startingOffsets) to the listed ends, capped by maxOffsetsPerTrigger.
func planKafkaStream(name string, o *kafkaopt.Source, l *KafkaListing, committed kafkaNext) (*kafkaPlan, error) {
	pl := &kafkaPlan{next: kafkaNext{}}
	listed := map[string]map[int32]bool{}
	for _, p := range l.Partitions {
		if listed[p.Topic] == nil {
			listed[p.Topic] = map[int32]bool{}
		}
		listed[p.Topic][p.Partition] = true
		var from int64
		what := "the committed offset"
		if committed == nil {
			var err error
			if from, err = startOffset(o.Starting, p, "startingOffsets"); err != nil {
				return nil, fmt.Errorf("source %s: %w", name, err)
			}
			what = "startingOffsets"
		} else if c, ok := committed[p.Topic][p.Partition]; ok {
			from = c
		} else {
			from = p.Earliest // a partition (or topic) new since the last read
		}
		var err error
		if from, err = pl.checkLoss(name, o, p, from, what); err != nil {
			return nil, err
		}
		pl.ranges = append(pl.ranges, KafkaRange{Topic: p.Topic, Partition: p.Partition, From: from, To: p.End})
	}
	var gone []string
	for t, ps := range committed {
		for p := range ps {
			if !listed[t][p] && subscribed(o, t, p) {
				gone = append(gone, fmt.Sprintf("topic %s partition %d (committed offset %d) no longer exists", t, p, ps[p]))
			}
		}
	}
	sort.Strings(gone)
	for _, g := range gone {
		if o.FailOnDataLoss {
			return nil, fmt.Errorf("source %s: data loss: %s; with failOnDataLoss false the run warns and goes on without it", name, g)
		}
		pl.lost = append(pl.lost, g)
	}
	capRanges(pl.ranges, o.MaxPerTrigger, &pl.left)
	pl.finish()
	return pl, nil
}

// planKafkaBatch plans a batch read: startingOffsets to endingOffsets.
func planKafkaBatch(name string, o *kafkaopt.Source, l *KafkaListing, stream bool) (*kafkaPlan, error) {
	pl := &kafkaPlan{next: kafkaNext{}}
	starting := o.Starting
	if stream && starting.Latest {
		// a snapshot of a STREAM source: every record retained
		starting = kafkaopt.Offsets{Earliest: true}
	}
	for _, p := range l.Partitions {
		from, err := startOffset(starting, p, "startingOffsets")
		if err != nil {
			return nil, fmt.Errorf("source %s: %w", name, err)
		}
		if from, err = pl.checkLoss(name, o, p, from, "startingOffsets"); err != nil {
			return nil, err
		}
		to := p.End
		if !stream && o.Ending.Specific != nil {
			e, ok := o.Ending.Specific[p.Topic][p.Partition]
			switch {
			case !ok:
				return nil, fmt.Errorf("source %s: endingOffsets names no offset for topic %s partition %d (name every partition, -1 for latest)", name, p.Topic, p.Partition)
			case e > p.End:
				return nil, fmt.Errorf("source %s: endingOffsets: topic %s partition %d ends at %d, before %d", name, p.Topic, p.Partition, p.End, e)
			case e >= 0:
				to = e
			}
		}
		if to < from {
			to = from
		}
		pl.ranges = append(pl.ranges, KafkaRange{Topic: p.Topic, Partition: p.Partition, From: from, To: to})
	}
	pl.finish()
	return pl, nil
}

// startOffset is where a first read of p starts.
func startOffset(s kafkaopt.Offsets, p KafkaPartition, key string) (int64, error) {
	switch {
	case s.Earliest:
		return p.Earliest, nil
	case s.Latest:
		return p.End, nil
	}
	off, ok := s.Specific[p.Topic][p.Partition]
	switch {
	case !ok:
		return 0, fmt.Errorf("%s names no offset for topic %s partition %d (name every partition: -2 for earliest, -1 for latest)", key, p.Topic, p.Partition)
	case off == -2:
		return p.Earliest, nil
	case off == -1:
		return p.End, nil
	}
	return off, nil
}

// checkLoss checks that the records from `from` on are still there: not
// below the partition's earliest offset (retention, DeleteRecords), not past
// its end (the topic was recreated or truncated). Lost records fail the read
// unless failOnDataLoss is false; then the read goes on from the earliest
// offset and the loss is noted.
func (pl *kafkaPlan) checkLoss(name string, o *kafkaopt.Source, p KafkaPartition, from int64, what string) (int64, error) {
	var msg string
	switch {
	case from < p.Earliest:
		msg = fmt.Sprintf("topic %s partition %d: %s is %d, but the earliest offset left is %d (records %d to %d were deleted)",
			p.Topic, p.Partition, what, from, p.Earliest, from, p.Earliest-1)
	case from > p.End:
		msg = fmt.Sprintf("topic %s partition %d: %s is %d, past the partition's end %d (was the topic deleted and recreated?)",
			p.Topic, p.Partition, what, from, p.End)
	default:
		return from, nil
	}
	if o.FailOnDataLoss {
		return 0, fmt.Errorf("source %s: data loss: %s; with failOnDataLoss false the run warns and goes on from the earliest offset", name, msg)
	}
	pl.lost = append(pl.lost, msg+"; reading on from offset "+fmt.Sprint(p.Earliest))
	return p.Earliest, nil
}

// capRanges shares max offsets among the ranges in proportion to their
// backlogs (Spark's maxOffsetsPerTrigger), rounding down, then gives what
// rounding left to the largest remainders (the first range on a tie).
// left receives what waits.
func capRanges(rs []KafkaRange, max int64, left *int64) {
	var total int64
	for _, r := range rs {
		total += r.To - r.From
	}
	if max <= 0 || total <= max {
		return
	}
	*left = total - max
	var given int64
	n := make([]int64, len(rs))
	frac := make([]float64, len(rs))
	order := make([]int, len(rs))
	for i, r := range rs {
		lag := r.To - r.From
		share := float64(lag) * float64(max) / float64(total)
		n[i] = min(lag, int64(share))
		frac[i] = share - float64(n[i])
		given += n[i]
		order[i] = i
	}
	sort.SliceStable(order, func(a, b int) bool { return frac[order[a]] > frac[order[b]] })
	for _, i := range order {
		if given >= max {
			break
		}
		if rs[i].To-rs[i].From > n[i] {
			n[i]++
			given++
		}
	}
	for i := range rs {
		rs[i].To = rs[i].From + n[i]
	}
}

// finish records the offsets after the read and counts them.
func (pl *kafkaPlan) finish() {
	for _, r := range pl.ranges {
		if pl.next[r.Topic] == nil {
			pl.next[r.Topic] = map[int32]int64{}
		}
		pl.next[r.Topic][r.Partition] = r.To
		pl.records += r.To - r.From
	}
}

// nonEmpty is the ranges that hold records.
func (pl *kafkaPlan) nonEmpty() []KafkaRange {
	var out []KafkaRange
	for _, r := range pl.ranges {
		if r.To > r.From {
			out = append(out, r)
		}
	}
	return out
}

// describe says what a read takes, for plan reasons: "120 new records in
// SRC (topics a, b)".
func (pl *kafkaPlan) describe(src string) string {
	topics := map[string]bool{}
	for _, r := range pl.ranges {
		if r.To > r.From {
			topics[r.Topic] = true
		}
	}
	var names []string
	for t := range topics {
		names = append(names, t)
	}
	sort.Strings(names)
	if pl.records == 0 && len(pl.lost) > 0 {
		return fmt.Sprintf("records lost in %s (failOnDataLoss is false: reading on from the earliest offsets left)", src)
	}
	s := fmt.Sprintf("new records in %s (%s, topic %s", src, plural(pl.records, "offset", "offsets"), someNames(names))
	if pl.left > 0 {
		s += fmt.Sprintf("; %d more wait for maxOffsetsPerTrigger", pl.left)
	}
	return s + ")"
}

// describeListing says what a Kafka source holds, for plan: "topics a, b:
// 3 partitions, 120 records retained".
func describeListing(l *KafkaListing) string {
	topics := map[string]bool{}
	var n int64
	for _, p := range l.Partitions {
		topics[p.Topic] = true
		n += p.End - p.Earliest
	}
	var names []string
	for t := range topics {
		names = append(names, t)
	}
	sort.Strings(names)
	s := "Kafka: no topic to read yet"
	if len(names) > 0 {
		s = fmt.Sprintf("Kafka topic %s: %s, %s retained", someNames(names), plural(int64(len(l.Partitions)), "partition", "partitions"), plural(n, "offset", "offsets"))
	}
	if len(l.Missing) > 0 {
		s += "; " + missingText(l.Missing)
	}
	return s
}

// kafkaListing lists a Kafka source's partitions into l (once per run).
func (pl *planner) kafkaListing(src *Dataset, l *sourceListing) {
	o, err := kafkaOptions(src)
	if err != nil {
		l.err = err
		return
	}
	if pl.p.Kafka == nil {
		l.err = fmt.Errorf("source %s reads Kafka, but this program has no Kafka client (Pipeline.Kafka is nil)", src.Name)
		return
	}
	kl, err := pl.p.Kafka.ListKafka(pl.ctx, o)
	if err != nil {
		l.err = fmt.Errorf("source %s: %w", src.Name, err)
		return
	}
	l.kafka, l.kafkaOpts = kl, o
}

// kafkaRead plans flow f of ds's read of the Kafka source x: a stream read
// from the flow's offset (from startingOffsets when full), or a snapshot.
func (pl *planner) kafkaRead(ds *Dataset, f *Flow, x *Dataset, stream, full bool) (*kafkaPlan, error) {
	l := pl.listing(x)
	if l.err != nil {
		return nil, l.err
	}
	if !stream {
		return planKafkaBatch(x.Name, l.kafkaOpts, l.kafka, x.Source.Unbounded)
	}
	var committed kafkaNext
	if !full {
		if k := pl.offset(ds.Name, f.Name, x.Name).Kafka; k != nil {
			committed = *k
			if committed == nil {
				committed = kafkaNext{}
			}
		}
	}
	return planKafkaStream(x.Name, l.kafkaOpts, l.kafka, committed)
}

// kafkaReader reads flow fr's input x, a Kafka source: a stream read takes
// the records after the flow's offset (streamKafka), a snapshot the records
// from startingOffsets to endingOffsets.
func (fr *flowReads) kafkaReader(x *Dataset, stream bool, cols []int) (format.BatchReader, error) {
	ex := fr.ex
	var kp *kafkaPlan
	if stream {
		sr, err := fr.streamKafka(x)
		if err != nil {
			return nil, err
		}
		kp = sr.kafka
	} else {
		var err error
		if kp, err = ex.pl.kafkaRead(fr.ds, fr.f, x, false, false); err != nil {
			return nil, err
		}
		for _, m := range kp.lost {
			ex.r.Warn(fmt.Sprintf("source %s: data loss: %s", x.Name, m))
		}
	}
	if l := ex.pl.listing(x).kafka; len(l.Missing) > 0 && !ex.warnedMissing[x.Name] {
		if ex.warnedMissing == nil {
			ex.warnedMissing = map[string]bool{}
		}
		ex.warnedMissing[x.Name] = true
		ex.r.Warn(fmt.Sprintf("source %s: %s (a stream reads it from its earliest offset once it does)", x.Name, missingText(l.Missing)))
	}
	ex.srcRead[x.Name] = true
	rs := kp.nonEmpty()
	if len(rs) == 0 {
		return &memReader{schema: x.Schema}, nil
	}
	br, err := ex.p.Kafka.ReadKafka(ex.ctx, ex.pl.listing(x).kafkaOpts, x.Schema, cols, rs, ex.mem)
	if err != nil {
		return nil, fmt.Errorf("source %s: %w", x.Name, err)
	}
	return br, nil
}

// streamKafka is a stream read of a Kafka source: the records after the
// flow's offset (after startingOffsets on a full refresh), up to the ends
// listed at the start of the run, capped by maxOffsetsPerTrigger.
func (fr *flowReads) streamKafka(src *Dataset) (*streamRead, error) {
	if sr := fr.streams[src.Name]; sr != nil {
		return sr, nil
	}
	ex := fr.ex
	kp, err := ex.pl.kafkaRead(fr.ds, fr.f, src, true, fr.full)
	if err != nil {
		return nil, err
	}
	for _, m := range kp.lost {
		ex.r.Warn(fmt.Sprintf("source %s: data loss (failOnDataLoss is false): %s", src.Name, m))
	}
	ex.kafkaLeft += kp.left
	next := kp.next
	sr := &streamRead{key: offsetKey(fr.ds.Name, fr.f.Name, src.Name), kafka: kp, next: offset{Kafka: &next}}
	fr.streams[src.Name] = sr
	return sr, nil
}

// cappedKafka reports whether a selected dataset reads a Kafka source with
// maxOffsetsPerTrigger: a --once run then commits epochs of at most that
// many offsets until none is left, as with --max-files-per-epoch (Spark's
// Trigger.AvailableNow).
func (c *cli) cappedKafka(sel *selection) bool {
	for _, ds := range c.p.Datasets {
		if !isKafka(ds) || !c.readBySelection(ds, sel) {
			continue
		}
		if o, err := kafkaOptions(ds); err == nil && o.MaxPerTrigger > 0 {
			return true
		}
	}
	return false
}

// missingText says which topics do not exist.
func missingText(topics []string) string {
	if len(topics) == 1 {
		return "topic " + topics[0] + " does not exist"
	}
	return "topics " + someNames(topics) + " do not exist"
}
