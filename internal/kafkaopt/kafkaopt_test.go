package kafkaopt

import (
	"errors"
	"strings"
	"testing"
)

func TestParseSource(t *testing.T) {
	s, err := ParseSource([][2]string{
		{"bootstrapServers", "127.0.0.1:9092, 127.0.0.2:9093"},
		{"SUBSCRIBE", "a, b"},
		{"startingOffsets", `{"a":{"0":23,"1":-2}}`},
		{"maxOffsetsPerTrigger", "1000"},
		{"failOnDataLoss", "FALSE"},
		{"includeHeaders", "true"},
		{"kafka.security.protocol", "sasl_ssl"},
		{"kafka.sasl.mechanism", "SCRAM-SHA-512"},
		{"kafka.sasl.jaas.config", `org.apache.kafka.common.security.scram.ScramLoginModule required username="al\"ice" password="s3cret";`},
		{"kafka.ssl.endpoint.identification.algorithm", ""},
	}, true)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Join(s.Brokers, " ") != "127.0.0.1:9092 127.0.0.2:9093" || strings.Join(s.Topics, " ") != "a b" {
		t.Errorf("brokers %v, topics %v", s.Brokers, s.Topics)
	}
	if s.Starting.Specific["a"][0] != 23 || s.Starting.Specific["a"][1] != -2 || s.Starting.Latest || !s.Ending.Latest {
		t.Errorf("offsets: starting %+v ending %+v", s.Starting, s.Ending)
	}
	if s.MaxPerTrigger != 1000 || s.FailOnDataLoss || !s.IncludeHeaders {
		t.Errorf("max %d, failOnDataLoss %v, headers %v", s.MaxPerTrigger, s.FailOnDataLoss, s.IncludeHeaders)
	}
	sec := s.Security
	if sec.Protocol != "SASL_SSL" || sec.Mechanism != "SCRAM-SHA-512" || sec.User != `al"ice` || sec.Password != "s3cret" || !sec.NoHostName || !sec.TLS() {
		t.Errorf("security %+v", sec)
	}
}

func TestSourceDefaults(t *testing.T) {
	base := [][2]string{{"bootstrapServers", "h:1"}, {"subscribePattern", "ev.*"}}
	s, err := ParseSource(base, true)
	if err != nil {
		t.Fatal(err)
	}
	if !s.Starting.Latest || !s.FailOnDataLoss || s.IncludeHeaders || !s.Pattern.MatchString("events") || s.Pattern.MatchString("xevents") {
		t.Errorf("stream defaults: %+v", s)
	}
	if s, err = ParseSource(base, false); err != nil || !s.Starting.Earliest || !s.Ending.Latest {
		t.Errorf("batch defaults: %+v, %v", s, err)
	}
}

func TestSourceErrors(t *testing.T) {
	for _, c := range []struct {
		kvs    [][2]string
		stream bool
		key    string
		want   string
	}{
		{[][2]string{{"subscribe", "a"}}, true, "", "bootstrapServers option is required"},
		{[][2]string{{"bootstrapServers", "h"}, {"subscribe", "a"}}, true, "bootstrapServers", "not host:port"},
		{[][2]string{{"bootstrapServers", "h:1"}}, true, "", "exactly one of subscribe"},
		{[][2]string{{"bootstrapServers", "h:1"}, {"subscribe", "a"}, {"assign", `{"a":[0]}`}}, true, "", "exactly one of"},
		{[][2]string{{"bootstrapServers", "h:1"}, {"subscribe", "a"}, {"subscribe", "b"}}, true, "subscribe", "given twice"},
		{[][2]string{{"bootstrapServers", "h:1"}, {"assign", `[0]`}}, true, "assign", "want JSON"},
		{[][2]string{{"bootstrapServers", "h:1"}, {"subscribePattern", `a(?=b)`}}, true, "subscribePattern", "not a regular expression"},
		{[][2]string{{"bootstrapServers", "h:1"}, {"subscribe", "a"}, {"startingOffsets", "first"}}, true, "startingOffsets", "want earliest, latest or JSON"},
		{[][2]string{{"bootstrapServers", "h:1"}, {"subscribe", "a"}, {"startingOffsets", `{"a":{"0":-3}}`}}, true, "startingOffsets", "offset -3"},
		{[][2]string{{"bootstrapServers", "h:1"}, {"subscribe", "a"}, {"endingOffsets", "latest"}}, true, "endingOffsets", "batch reads only"},
		{[][2]string{{"bootstrapServers", "h:1"}, {"subscribe", "a"}, {"startingOffsets", "latest"}}, false, "startingOffsets", "read nothing"},
		{[][2]string{{"bootstrapServers", "h:1"}, {"subscribe", "a"}, {"maxOffsetsPerTrigger", "0"}}, true, "maxOffsetsPerTrigger", "positive"},
		{[][2]string{{"bootstrapServers", "h:1"}, {"subscribe", "a"}, {"failOnDataLoss", "yes"}}, true, "failOnDataLoss", `"yes" is not one of "true", "false"`},
		{[][2]string{{"bootstrapServers", "h:1"}, {"subscribe", "a"}, {"groupIdPrefix", "g"}}, true, "groupIdPrefix", "consumer group"},
		{[][2]string{{"bootstrapServers", "h:1"}, {"subscribe", "a"}, {"kafka.bootstrap.servers", "h:1"}}, true, "kafka.bootstrap.servers", "unknown Kafka option"},
		{[][2]string{{"bootstrapServers", "h:1"}, {"subscribe", "a"}, {"kafka.security.protocol", "SASL_SSL"}}, true, "", "needs kafka.sasl.jaas.config"},
		{[][2]string{{"bootstrapServers", "h:1"}, {"subscribe", "a"}, {"kafka.ssl.truststore.type", "JKS"}}, true, "kafka.ssl.truststore.type", `"JKS" is not one of "PEM"`},
		{[][2]string{{"bootstrapServers", "h:1"}, {"subscribe", "a"}, {"kafka.ssl.truststore.certificates", "x"}}, true, "kafka.ssl.truststore.certificates", "needs kafka.security.protocol SSL"},
	} {
		_, err := ParseSource(c.kvs, c.stream)
		var oe *Error
		if !errors.As(err, &oe) || oe.Key != c.key || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%v: got %v, want key %q and %q", c.kvs, err, c.key, c.want)
		}
	}
}

func TestParseSink(t *testing.T) {
	s, err := ParseSink([][2]string{{"kafka.bootstrap.servers", "h:1"}, {"topic", "out"}, {"kafka.compression.type", "ZSTD"}}, false)
	if err != nil || s.Topic != "out" || s.Compression != "zstd" {
		t.Fatalf("%+v, %v", s, err)
	}
	if _, err := ParseSink([][2]string{{"kafka.bootstrap.servers", "h:1"}}, false); err == nil || !strings.Contains(err.Error(), "topic") {
		t.Errorf("no topic: %v", err)
	}
	if _, err := ParseSink([][2]string{{"kafka.bootstrap.servers", "h:1"}}, true); err != nil {
		t.Errorf("topic column: %v", err)
	}
	if _, err := ParseSink([][2]string{{"kafka.bootstrap.servers", "h:1"}, {"topic", "t"}, {"kafka.transactional.id", "x"}}, false); err == nil || !strings.Contains(err.Error(), "transactional id") {
		t.Errorf("transactional.id: %v", err)
	}
}

func TestCheckDoesNotReadFiles(t *testing.T) {
	kvs := [][2]string{{"bootstrapServers", "h:1"}, {"subscribe", "a"}, {"kafka.security.protocol", "SSL"},
		{"kafka.ssl.truststore.location", "/nonexistent/ca.pem"}}
	if err := CheckSource(kvs, true); err != nil {
		t.Errorf("check: %v", err)
	}
	if _, err := ParseSource(kvs, true); err == nil || !strings.Contains(err.Error(), "/nonexistent/ca.pem") {
		t.Errorf("parse reads the file: %v", err)
	}
}

func TestSparkSourceOptions(t *testing.T) {
	got := SparkSourceOptions([][2]string{{"subscribe", "a"}, {"BOOTSTRAPSERVERS", "h:1"}, {"startingoffsets", "earliest"}})
	want := [][2]string{{"kafka.bootstrap.servers", "h:1"}, {"startingOffsets", "earliest"}, {"subscribe", "a"}}
	if len(got) != len(want) {
		t.Fatalf("%v", got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("%d: %v, want %v", i, got[i], want[i])
		}
	}
}

// FuzzKafkaOptions: any option text (a key and value as a user writes them,
// beside a good base) parses or fails with an *Error naming a key; it never
// panics, and check and parse agree for options that name no file.
func FuzzKafkaOptions(f *testing.F) {
	for _, kv := range [][2]string{{"startingOffsets", `{"t":{"0":23,"1":-2}}`}, {"assign", `{"t":[0,1]}`},
		{"kafka.sasl.jaas.config", `x required username="u\"s" password="p";`}, {"subscribePattern", `ev(a|b)+`},
		{"maxOffsetsPerTrigger", "12"}, {"endingOffsets", "latest"}, {"kafka.security.protocol", "sasl_ssl"}} {
		f.Add(kv[0], kv[1], true)
	}
	f.Fuzz(func(t *testing.T, key, value string, stream bool) {
		base := [][2]string{{"bootstrapServers", "h:1"}}
		if !strings.EqualFold(key, "subscribePattern") && !strings.EqualFold(key, "assign") {
			base = append(base, [2]string{"subscribe", "t"})
		}
		kvs := append(base, [2]string{key, value})
		_, err := ParseSource(kvs, stream)
		var oe *Error
		if err != nil && !errors.As(err, &oe) {
			t.Fatalf("%q = %q: %T %v, want an *Error", key, value, err, err)
		}
		if !strings.HasSuffix(strings.ToLower(key), ".location") {
			if cerr := CheckSource(kvs, stream); (cerr == nil) != (err == nil) {
				t.Fatalf("%q = %q: check says %v, parse says %v", key, value, cerr, err)
			}
		}
		if _, err := ParseSink([][2]string{{"kafka.bootstrap.servers", "h:1"}, {key, value}}, true); err != nil && !errors.As(err, &oe) {
			t.Fatalf("sink %q = %q: %T %v, want an *Error", key, value, err, err)
		}
	})
}
