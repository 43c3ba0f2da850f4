package ir

import (
	"fmt"
	"strings"
)

// A Kafka source (FormatKafka) reads topics, not files: it has no Paths,
// its Options are read_kafka's (bootstrapServers, subscribe, ...), and its
// columns are those of Spark's Kafka source, fixed (KafkaColumns). Unbounded
// says it is read as a stream (STREAM read_kafka, `source x stream from
// kafka`); otherwise it is a bounded read, from startingOffsets to
// endingOffsets.

// KafkaColumns returns the columns of a Kafka source, Spark's Kafka source
// schema; headers adds the headers column (includeHeaders => true). Each
// column is at pos.
func KafkaColumns(pos Pos, headers bool) []*Column {
	cols := []*Column{
		{Name: "key", Type: BinaryT},
		{Name: "value", Type: BinaryT}, // NULL in a tombstone, as Spark reads it
		{Name: "topic", Type: StringT, NotNull: true},
		{Name: "partition", Type: Int32, NotNull: true},
		{Name: "offset", Type: Int64, NotNull: true},
		{Name: "timestamp", Type: Timestamp(Micro, "UTC"), NotNull: true},
		{Name: "timestampType", Type: Int32, NotNull: true},
	}
	if headers {
		cols = append(cols, &Column{Name: "headers", Type: KafkaHeadersType()})
	}
	for _, c := range cols {
		c.Pos = pos
	}
	return cols
}

// KafkaHeadersType is the type of a Kafka record's headers, as Spark's
// Kafka source and sink have it: ARRAY<STRUCT<key: STRING, value: BINARY>>.
func KafkaHeadersType() Type {
	return ArrayOf(StructOf(StructField{Name: "key", Type: StringT}, StructField{Name: "value", Type: BinaryT}), true)
}

// KafkaIncludeHeaders reports whether a Kafka source's options ask for the
// headers column (includeHeaders => true, in any case).
func KafkaIncludeHeaders(opts []KV) bool {
	for _, kv := range opts {
		if strings.EqualFold(kv.Key, "includeHeaders") && strings.EqualFold(strings.TrimSpace(kv.Value), "true") {
			return true
		}
	}
	return false
}

// KafkaColumnsDiffer says how cols differ from a Kafka source's fixed
// columns ("" when they are the same: names, types and nullability, in
// order).
func KafkaColumnsDiffer(cols []*Column, headers bool) string {
	if headers != (len(cols) > 0 && cols[len(cols)-1].Name == "headers") && KafkaColumnsDiffer(cols, !headers) == "" {
		if headers {
			return "a Kafka source with includeHeaders true has a headers column last"
		}
		return "a Kafka source has a headers column only with the option includeHeaders true"
	}
	want := KafkaColumns(Pos{}, headers)
	spell := func(cs []*Column) string {
		var parts []string
		for _, c := range cs {
			s := c.Name + " " + c.Type.String()
			if c.NotNull {
				s += " not null"
			}
			parts = append(parts, s)
		}
		return strings.Join(parts, ", ")
	}
	if len(cols) != len(want) {
		return fmt.Sprintf("a Kafka source's columns are fixed: %s", spell(want))
	}
	for i, c := range cols {
		w := want[i]
		if c.Name != w.Name || c.Type != w.Type || c.NotNull != w.NotNull {
			return fmt.Sprintf("a Kafka source's columns are fixed: %s", spell(want))
		}
	}
	return ""
}
