package kafka

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/internal/kafkaopt"
	"github.com/twmb/franz-go/pkg/kgo"
)

// TestKafkaFiller fills Spark's Kafka columns from records, by name and in
// the schema's order, with the timestamp in the schema's unit.
func TestKafkaFiller(t *testing.T) {
	hdr := arrow.StructOf(arrow.Field{Name: "key", Type: arrow.BinaryTypes.String, Nullable: true},
		arrow.Field{Name: "value", Type: arrow.BinaryTypes.Binary, Nullable: true})
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "offset", Type: arrow.PrimitiveTypes.Int64},
		{Name: "value", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "key", Type: arrow.BinaryTypes.Binary, Nullable: true},
		{Name: "timestamp", Type: &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"}},
		{Name: "headers", Type: arrow.ListOf(hdr), Nullable: true},
		{Name: "partition", Type: arrow.PrimitiveTypes.Int32},
		{Name: "topic", Type: arrow.BinaryTypes.String},
		{Name: "timestampType", Type: arrow.PrimitiveTypes.Int32},
	}, nil)
	fill, err := newFiller(schema)
	if err != nil {
		t.Fatal(err)
	}
	ts := time.Date(2026, 1, 2, 3, 4, 5, 6e6, time.UTC)
	recs := []*kgo.Record{
		{Topic: "t", Partition: 3, Offset: 41, Key: []byte("k"), Value: []byte("v"), Timestamp: ts,
			Headers: []kgo.RecordHeader{{Key: "a", Value: []byte("1")}, {Key: "b"}}},
		{Topic: "t", Partition: 3, Offset: 45, Value: nil, Timestamp: ts.Add(time.Second)},
	}
	b := array.NewRecordBuilder(memory.DefaultAllocator, schema)
	defer b.Release()
	for _, r := range recs {
		for i, f := range fill {
			f(b.Field(i), r)
		}
	}
	rec := b.NewRecordBatch()
	defer rec.Release()
	var got []string
	for i := 0; i < int(rec.NumRows()); i++ {
		var cells []string
		for c := 0; c < int(rec.NumCols()); c++ {
			cells = append(cells, rec.Column(c).ValueStr(i))
		}
		got = append(got, strings.Join(cells, " | "))
	}
	want := []string{
		`41 | dg== | aw== | 2026-01-02T03:04:05.006Z | [{"key":"a","value":"MQ=="},{"key":"b","value":null}] | 3 | t | 0`,
		`45 | (null) | (null) | 2026-01-02T03:04:06.006Z | [] | 3 | t | 0`,
	}
	if strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("rows\n%s\nwant\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

func TestKafkaFillerRefuses(t *testing.T) {
	for _, tc := range []struct {
		field arrow.Field
		want  string
	}{
		{arrow.Field{Name: "offset", Type: arrow.BinaryTypes.String}, "column offset has type utf8, which a Kafka source cannot fill"},
		{arrow.Field{Name: "timestamp", Type: arrow.PrimitiveTypes.Int64}, "column timestamp has type int64"},
		{arrow.Field{Name: "body", Type: arrow.BinaryTypes.Binary}, "column body is not one of a Kafka source's"},
		{arrow.Field{Name: "headers", Type: arrow.ListOf(arrow.BinaryTypes.String)}, "column headers has type list<item: utf8, nullable>"},
	} {
		_, err := newFiller(arrow.NewSchema([]arrow.Field{tc.field}, nil))
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: error %v, want %q", tc.field.Name, err, tc.want)
		}
	}
}

func TestKafkaClientOptions(t *testing.T) {
	if _, err := ClientOptions([]string{"h:1"}, kafkaopt.Security{Protocol: "SASL_PLAINTEXT", Mechanism: "SCRAM-SHA-512", User: "u", Password: "p"}); err != nil {
		t.Errorf("SCRAM: %v", err)
	}
	if _, err := ClientOptions([]string{"h:1"}, kafkaopt.Security{Protocol: "SASL_PLAINTEXT", Mechanism: "GSSAPI"}); err == nil {
		t.Errorf("GSSAPI accepted")
	}
	if _, err := TLSConfig(kafkaopt.Security{Protocol: "SSL", TrustPEM: []byte("not a certificate")}); err == nil || !strings.Contains(err.Error(), "no PEM certificate") {
		t.Errorf("a truststore without certificates: %v", err)
	}
	if _, err := TLSConfig(kafkaopt.Security{Protocol: "SSL", CertPEM: []byte("x")}); err == nil || !strings.Contains(err.Error(), "both its chain and its private key") {
		t.Errorf("a certificate without a key: %v", err)
	}
	cfg, err := TLSConfig(kafkaopt.Security{Protocol: "SSL", NoHostName: true})
	if err != nil || !cfg.InsecureSkipVerify || cfg.VerifyConnection == nil {
		t.Errorf("no host-name check must still verify the chain: %+v, %v", cfg, err)
	}
}

// TestKafkaUnreachable: brokers that refuse connections are a clear error
// at once, not a hang.
func TestKafkaUnreachable(t *testing.T) {
	o, err := kafkaopt.ParseSource([][2]string{{"bootstrapServers", "127.0.0.1:1"}, {"subscribe", "t"}}, true)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c := &Connector{}
	defer c.Close()
	_, err = c.ListKafka(ctx, o)
	if err == nil || !strings.Contains(err.Error(), "listing the topics of 127.0.0.1:1") || ctx.Err() != nil {
		t.Errorf("listing from a closed port: %v (context: %v)", err, ctx.Err())
	}
}
