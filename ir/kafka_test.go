package ir

import (
	"strings"
	"testing"
)

// TestKafkaSourceValidate: a Kafka source reads no files, and its columns
// are Spark's Kafka source schema (headers only with includeHeaders).
func TestKafkaSourceValidate(t *testing.T) {
	opts := []KV{{Key: "bootstrapServers", Value: "h:1"}, {Key: "subscribe", Value: "t"}}
	src := func(spec SourceSpec, cols []*Column) *Pipeline {
		spec.Format = FormatKafka
		return &Pipeline{Name: "p", Datasets: []*Dataset{{Kind: KindSource, Name: "k", Source: &spec, Columns: cols}}}
	}
	for _, c := range []struct {
		name string
		p    *Pipeline
		want string // "" = valid
	}{
		{"fixed columns", src(SourceSpec{Options: opts, Unbounded: true}, KafkaColumns(Pos{}, false)), ""},
		{"headers", src(SourceSpec{Options: append(opts, KV{Key: "INCLUDEHEADERS", Value: "TRUE"})}, KafkaColumns(Pos{}, true)), ""},
		{"headers without includeHeaders", src(SourceSpec{Options: opts}, KafkaColumns(Pos{}, true)), "headers column only with the option includeHeaders true"},
		{"a path", src(SourceSpec{Options: opts, Paths: []string{"x"}}, KafkaColumns(Pos{}, false)), "reads Kafka topics"},
		{"stdin", src(SourceSpec{Options: opts, Stdin: true}, KafkaColumns(Pos{}, false)), "reads Kafka topics"},
		{"other columns", src(SourceSpec{Options: opts}, []*Column{{Name: "value", Type: StringT}}), "drop the column list"},
		{"topic nullable", src(SourceSpec{Options: opts}, func() []*Column {
			cs := KafkaColumns(Pos{}, false)
			cs[2].NotNull = false
			return cs
		}()), "columns are fixed"},
	} {
		d := Validate(c.p)
		switch {
		case c.want == "" && d.HasErrors():
			t.Errorf("%s: %v", c.name, d)
		case c.want != "" && !strings.Contains(d.Error(), c.want):
			t.Errorf("%s: got %v, want %q", c.name, d, c.want)
		}
	}
}

// TestKafkaSourcePrint: the printer leaves a Kafka source's fixed columns
// out, and prints a column list that differs (for Validate to refuse).
func TestKafkaSourcePrint(t *testing.T) {
	p := &Pipeline{Name: "p", Datasets: []*Dataset{{Kind: KindSource, Name: "k", Columns: KafkaColumns(Pos{}, false),
		Source: &SourceSpec{Format: FormatKafka, Unbounded: true, Options: []KV{{Key: "subscribe", Value: "t"}}}}}}
	got := string(Print(p))
	if !strings.Contains(got, "source k stream from kafka options (\"subscribe\" = \"t\") {\n}\n") {
		t.Errorf("printed:\n%s", got)
	}
	p.Datasets[0].Columns = p.Datasets[0].Columns[:2]
	if got := string(Print(p)); !strings.Contains(got, "key binary, value binary\n") {
		t.Errorf("printed:\n%s", got)
	}
}

// TestKafkaSourceJSON: the JSON encoding keeps a Kafka source (format
// "kafka"), its options and its columns.
func TestKafkaSourceJSON(t *testing.T) {
	p := &Pipeline{Name: "p", Datasets: []*Dataset{{Kind: KindSource, Name: "k", Columns: KafkaColumns(Pos{}, true),
		Source: &SourceSpec{Format: FormatKafka, Unbounded: true, Options: []KV{{Key: "subscribe", Value: "t"}, {Key: "includeHeaders", Value: "true"}}}}}}
	b, err := MarshalJSON(p)
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(b), `"format": "kafka"`) && !strings.Contains(string(b), `"format":"kafka"`) {
		t.Errorf("no kafka format in %s", b)
	}
	back, err := UnmarshalJSON(b)
	if err != nil {
		t.Fatal(err)
	}
	if d := Diff(p, back); d != "" {
		t.Errorf("round trip: %s", d)
	}
}
