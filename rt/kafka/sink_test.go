package kafka

import (
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/etl"
)

// TestOpenSinkRefusals: the runtime refuses, as a safety net behind thundc
// check, the columns and options a Kafka sink does not take, before it
// connects to anything.
func TestOpenSinkRefusals(t *testing.T) {
	str, bin := arrow.BinaryTypes.String, arrow.BinaryTypes.Binary
	hdr := arrow.ListOf(arrow.StructOf(arrow.Field{Name: "key", Type: str, Nullable: true}, arrow.Field{Name: "value", Type: bin, Nullable: true}))
	field := func(name string, t arrow.DataType) arrow.Field {
		return arrow.Field{Name: name, Type: t, Nullable: true}
	}
	opts := [][2]string{{"kafka.bootstrap.servers", "127.0.0.1:1"}, {"topic", "t"}}
	for _, tc := range []struct {
		name   string
		fields []arrow.Field
		opts   [][2]string
		want   string // "" accepts
	}{
		{"every column", []arrow.Field{field("key", bin), field("value", str), field("topic", str), field("partition", arrow.PrimitiveTypes.Int32), field("headers", hdr)}, opts, ""},
		{"value only", []arrow.Field{field("value", bin)}, opts, ""},
		{"topic column, no option", []arrow.Field{field("value", bin), field("topic", str)}, opts[:1], ""},
		{"no value", []arrow.Field{field("key", str)}, opts, "a Kafka sink needs a value column"},
		{"other column", []arrow.Field{field("value", str), field("id", arrow.PrimitiveTypes.Int64)}, opts, "column id is not one a Kafka sink writes"},
		{"value int", []arrow.Field{field("value", arrow.PrimitiveTypes.Int64)}, opts, "column value is int64; a Kafka sink takes string or binary"},
		{"partition int64", []arrow.Field{field("value", str), field("partition", arrow.PrimitiveTypes.Int64)}, opts, "column partition is int64; a Kafka sink takes int"},
		{"topic binary", []arrow.Field{field("value", str), field("topic", bin)}, opts, "column topic is binary; a Kafka sink takes string"},
		{"headers map-like", []arrow.Field{field("value", str), field("headers", arrow.ListOf(str))}, opts, "column headers is list<item: utf8, nullable>; a Kafka sink takes array<struct<key string, value binary>>"},
		{"no topic", []arrow.Field{field("value", str)}, opts[:1], "a Kafka sink needs the topic option, or a topic column"},
		{"no brokers", []arrow.Field{field("value", str)}, opts[1:], "the kafka.bootstrap.servers option is required"},
		{"transactional id", []arrow.Field{field("value", str)}, append(opts, [2]string{"kafka.transactional.id", "x"}), "option kafka.transactional.id: not accepted"},
	} {
		ds := &etl.Dataset{Name: "out", Kind: etl.Sink, Format: "kafka", Schema: arrow.NewSchema(tc.fields, nil), SinkOptions: tc.opts}
		s, err := New().OpenSink(ds, "thund-test")
		switch {
		case tc.want == "" && err != nil:
			t.Errorf("%s: %v", tc.name, err)
		case tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)):
			t.Errorf("%s: error %v, want %q", tc.name, err, tc.want)
		}
		if s != nil {
			s.Close()
		}
	}
}
