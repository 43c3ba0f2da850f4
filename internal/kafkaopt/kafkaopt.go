// Package kafkaopt holds the options of Kafka sources (read_kafka) and sinks,
// shared by the compiler (thundc check refuses what the runtime would) and
// the runtime (rt/kafka, which parses them again as a safety net). It
// imports only the standard library: it is one of gobuild.RuntimeDirs, and
// thundc links it without a Kafka client.
package kafkaopt

import (
	"encoding/json"
	"fmt"
	"os"
	"regexp"
	"slices"
	"sort"
	"strconv"
	"strings"
	"time"
)

// Option is one option a Kafka source or sink takes.
type Option struct {
	Name   string   // as documented (Databricks' read_kafka names; Spark's for kafka.*)
	Values []string // the accepted values, any case (nil: free text, checked by the parser)
	Spark  string   // the option Spark's Kafka connector takes instead ("" = the same name; "-" = none)
	Doc    string
}

// securityOptions are the kafka.* options of both sources and sinks.
var securityOptions = []Option{
	{Name: "kafka.security.protocol", Values: []string{"PLAINTEXT", "SSL", "SASL_PLAINTEXT", "SASL_SSL"}, Doc: "how to reach the brokers (default PLAINTEXT)"},
	{Name: "kafka.sasl.mechanism", Values: []string{"PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512"}, Doc: "the SASL mechanism (default PLAIN)"},
	{Name: "kafka.sasl.jaas.config", Doc: `a PlainLoginModule or ScramLoginModule line with username="..." password="..."`},
	{Name: "kafka.ssl.truststore.type", Values: []string{"PEM"}, Doc: "PEM only (JKS and PKCS12 stores cannot be read)"},
	{Name: "kafka.ssl.truststore.location", Doc: "a PEM file of the CA certificates to trust"},
	{Name: "kafka.ssl.truststore.certificates", Doc: "PEM text of the CA certificates to trust"},
	{Name: "kafka.ssl.keystore.type", Values: []string{"PEM"}, Doc: "PEM only, for a client certificate"},
	{Name: "kafka.ssl.keystore.location", Doc: "a PEM file holding the client's certificate chain and private key"},
	{Name: "kafka.ssl.keystore.certificate.chain", Doc: "PEM text of the client's certificate chain"},
	{Name: "kafka.ssl.keystore.key", Doc: "PEM text of the client's private key"},
	{Name: "kafka.ssl.endpoint.identification.algorithm", Values: []string{"https", ""}, Doc: "https (default) checks the broker's host name; empty turns the check off"},
	{Name: "kafka.client.id", Doc: "the client id the brokers see"},
	{Name: "kafka.request.timeout.ms", Doc: "how long a request may take (default 30000)"},
}

// SourceOptions are the options of a Kafka source, in documentation order.
var SourceOptions = append([]Option{
	{Name: "bootstrapServers", Spark: "kafka.bootstrap.servers", Doc: "host:port of brokers, comma-separated (required)"},
	{Name: "subscribe", Doc: "topics to read, comma-separated (one of subscribe, subscribePattern, assign)"},
	{Name: "subscribePattern", Doc: "a regular expression of the topics to read; topics that appear later are read too"},
	{Name: "assign", Doc: `topic partitions to read, as JSON: {"t":[0,1]}`},
	{Name: "startingOffsets", Doc: `where a stream starts (or a full refresh restarts): latest (stream default), earliest (batch default), or JSON {"t":{"0":23,"1":-2}} (-2 earliest, -1 latest)`},
	{Name: "endingOffsets", Doc: "where a batch read ends: latest (default) or JSON as startingOffsets (-1 latest)"},
	{Name: "maxOffsetsPerTrigger", Doc: "at most this many records per epoch, shared among partitions by backlog"},
	{Name: "failOnDataLoss", Values: []string{"true", "false"}, Doc: "true (default): records lost to retention, deletion or truncation fail the run; false: warn and go on from the earliest offset left"},
	{Name: "includeHeaders", Values: []string{"true", "false"}, Doc: "false (default); true adds the headers column"},
}, securityOptions...)

// SinkOptions are the options of a Kafka sink, in documentation order.
var SinkOptions = append([]Option{
	{Name: "kafka.bootstrap.servers", Doc: "host:port of brokers, comma-separated (required)"},
	{Name: "topic", Doc: "the topic rows go to, unless the row has a topic column"},
	{Name: "kafka.compression.type", Values: []string{"none", "gzip", "snappy", "lz4", "zstd"}, Doc: "record batch compression (default none)"},
}, securityOptions...)

// refused are options users bring from Spark that Þund does not take, and why.
var refused = map[string]string{
	"groupidprefix":              "offsets are kept in the warehouse's commit record, not by a consumer group",
	"kafka.group.id":             "offsets are kept in the warehouse's commit record, not by a consumer group",
	"kafka.transactional.id":     "the sink derives its transactional id from the warehouse and the sink",
	"kafka.isolation.level":      "sources always read with read_committed",
	"startingtimestamp":          "not supported yet: use startingOffsets",
	"startingoffsetsbytimestamp": "not supported yet: use startingOffsets",
	"endingtimestamp":            "not supported yet: use endingOffsets",
	"endingoffsetsbytimestamp":   "not supported yet: use endingOffsets",
	"minpartitions":              "partitions are read as the brokers hold them",
	"maxtriggerdelay":            "not supported: use a trigger",
	"minoffsetspertrigger":       "not supported: use a trigger",
}

// Error is a bad option: Key names it ("" when no one option is at fault,
// as when a required one is missing).
type Error struct {
	Key string
	Msg string
}

func (e *Error) Error() string {
	if e.Key == "" {
		return e.Msg
	}
	return "option " + e.Key + ": " + e.Msg
}

func errorf(key, format string, args ...any) error {
	return &Error{Key: key, Msg: fmt.Sprintf(format, args...)}
}

// Offsets are where a read starts or ends.
type Offsets struct {
	Earliest bool                       // every partition from its earliest offset
	Latest   bool                       // every partition from its latest offset
	Specific map[string]map[int32]int64 // per topic and partition; -2 earliest, -1 latest
}

// Security says how to reach the brokers.
type Security struct {
	Protocol   string // PLAINTEXT, SSL, SASL_PLAINTEXT or SASL_SSL
	Mechanism  string // PLAIN, SCRAM-SHA-256 or SCRAM-SHA-512
	User       string
	Password   string
	TrustPEM   []byte // CA certificates (nil: the system's)
	CertPEM    []byte // client certificate chain (mTLS)
	KeyPEM     []byte // client key (mTLS)
	NoHostName bool   // ssl.endpoint.identification.algorithm is empty
	ClientID   string
	Timeout    time.Duration // 0: the client's default
}

// TLS reports whether the connection uses TLS.
func (s Security) TLS() bool { return s.Protocol == "SSL" || s.Protocol == "SASL_SSL" }

// SASL reports whether the connection authenticates with SASL.
func (s Security) SASL() bool { return s.Protocol == "SASL_PLAINTEXT" || s.Protocol == "SASL_SSL" }

// Source is a Kafka source's parsed options.
type Source struct {
	Brokers        []string
	Topics         []string           // subscribe
	Pattern        *regexp.Regexp     // subscribePattern
	Assign         map[string][]int32 // assign
	Starting       Offsets
	Ending         Offsets // batch reads only
	MaxPerTrigger  int64   // 0: no cap
	FailOnDataLoss bool
	IncludeHeaders bool
	Security       Security
}

// Sink is a Kafka sink's parsed options.
type Sink struct {
	Brokers     []string
	Topic       string // "" when the rows carry a topic column
	Compression string // "" or none, gzip, snappy, lz4, zstd
	Security    Security
}

// lookup finds the option named key (any case) in opts.
func lookup(opts []Option, key string) (Option, bool) {
	for _, o := range opts {
		if strings.EqualFold(o.Name, key) {
			return o, true
		}
	}
	return Option{}, false
}

// Names lists the options' names, for messages.
func Names(opts []Option) string {
	var names []string
	for _, o := range opts {
		names = append(names, o.Name)
	}
	return strings.Join(names, ", ")
}

// check refuses an unknown or refused key, a repeated one, and a value not
// among an option's values; it returns the options by canonical name.
func check(table []Option, kvs [][2]string) (map[string]string, error) {
	got := map[string]string{}
	for _, kv := range kvs {
		key := kv[0]
		o, ok := lookup(table, key)
		if !ok {
			if why, bad := refused[strings.ToLower(key)]; bad {
				return nil, errorf(key, "not accepted: %s", why)
			}
			return nil, errorf(key, "unknown Kafka option (accepted: %s)", Names(table))
		}
		if _, dup := got[o.Name]; dup {
			return nil, errorf(key, "given twice")
		}
		v := kv[1]
		if o.Values != nil {
			i := slices.IndexFunc(o.Values, func(a string) bool { return strings.EqualFold(a, v) })
			if i < 0 {
				return nil, errorf(key, "%q is not one of %s", v, strings.Join(quoteAll(o.Values), ", "))
			}
			v = o.Values[i]
		}
		got[o.Name] = v
	}
	return got, nil
}

func quoteAll(vs []string) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = strconv.Quote(v)
	}
	return out
}

// ParseSource parses a Kafka source's options; stream says whether the
// source is read as a stream (endingOffsets is for batch reads only). Files
// named by the TLS options are read.
func ParseSource(kvs [][2]string, stream bool) (*Source, error) {
	got, err := check(SourceOptions, kvs)
	if err != nil {
		return nil, err
	}
	s := &Source{FailOnDataLoss: got["failOnDataLoss"] != "false", IncludeHeaders: got["includeHeaders"] == "true"}
	if s.Brokers, err = brokers("bootstrapServers", got["bootstrapServers"]); err != nil {
		return nil, err
	}
	n := 0
	for _, k := range []string{"subscribe", "subscribePattern", "assign"} {
		if _, ok := got[k]; ok {
			n++
		}
	}
	if n != 1 {
		return nil, errorf("", "a Kafka source takes exactly one of subscribe, subscribePattern and assign (it has %d)", n)
	}
	if v, ok := got["subscribe"]; ok {
		for _, t := range strings.Split(v, ",") {
			if t = strings.TrimSpace(t); t != "" {
				s.Topics = append(s.Topics, t)
			}
		}
		if len(s.Topics) == 0 {
			return nil, errorf("subscribe", "names no topic")
		}
	}
	if v, ok := got["subscribePattern"]; ok {
		if s.Pattern, err = regexp.Compile("^(?:" + v + ")$"); err != nil {
			return nil, errorf("subscribePattern", "%q is not a regular expression this runtime reads: %v", v, err)
		}
	}
	if v, ok := got["assign"]; ok {
		if err := json.Unmarshal([]byte(v), &s.Assign); err != nil || len(s.Assign) == 0 {
			return nil, errorf("assign", `want JSON such as {"topicA":[0,1]}, not %q`, v)
		}
	}
	def := "latest"
	if !stream {
		def = "earliest"
	}
	if s.Starting, err = offsets("startingOffsets", got, def); err != nil {
		return nil, err
	}
	if _, ok := got["endingOffsets"]; ok && stream {
		return nil, errorf("endingOffsets", "is for batch reads only; a stream reads on as records arrive")
	}
	if s.Ending, err = offsets("endingOffsets", got, "latest"); err != nil {
		return nil, err
	}
	if s.Ending.Earliest {
		return nil, errorf("endingOffsets", "cannot be earliest")
	}
	for t, ps := range s.Ending.Specific {
		for p, o := range ps {
			if o == -2 {
				return nil, errorf("endingOffsets", "partition %s-%d: -2 (earliest) cannot end a read", t, p)
			}
		}
	}
	if s.Starting.Latest && !stream {
		return nil, errorf("startingOffsets", "a batch read cannot start at latest: it would read nothing")
	}
	if v, ok := got["maxOffsetsPerTrigger"]; ok {
		if s.MaxPerTrigger, err = strconv.ParseInt(v, 10, 64); err != nil || s.MaxPerTrigger <= 0 {
			return nil, errorf("maxOffsetsPerTrigger", "want a positive whole number, not %q", v)
		}
	}
	if s.Security, err = security(got); err != nil {
		return nil, err
	}
	return s, nil
}

// ParseSink parses a Kafka sink's options. hasTopicColumn says whether its
// rows carry a topic column (then the topic option is optional).
func ParseSink(kvs [][2]string, hasTopicColumn bool) (*Sink, error) {
	got, err := check(SinkOptions, kvs)
	if err != nil {
		return nil, err
	}
	s := &Sink{Topic: got["topic"], Compression: got["kafka.compression.type"]}
	if s.Brokers, err = brokers("kafka.bootstrap.servers", got["kafka.bootstrap.servers"]); err != nil {
		return nil, err
	}
	if s.Topic == "" && !hasTopicColumn {
		return nil, errorf("", "a Kafka sink needs the topic option, or a topic column in its rows")
	}
	if s.Security, err = security(got); err != nil {
		return nil, err
	}
	return s, nil
}

func brokers(key, v string) ([]string, error) {
	if v == "" {
		return nil, errorf("", "the %s option is required: host:port of the brokers, comma-separated", key)
	}
	var out []string
	for _, b := range strings.Split(v, ",") {
		b = strings.TrimSpace(b)
		i := strings.LastIndexByte(b, ':')
		if i <= 0 {
			return nil, errorf(key, "%q is not host:port", b)
		}
		if p, err := strconv.Atoi(b[i+1:]); err != nil || p <= 0 || p > 65535 {
			return nil, errorf(key, "%q is not host:port", b)
		}
		out = append(out, b)
	}
	return out, nil
}

func offsets(key string, got map[string]string, def string) (Offsets, error) {
	v, ok := got[key]
	if !ok {
		v = def
	}
	switch strings.ToLower(strings.TrimSpace(v)) {
	case "earliest":
		return Offsets{Earliest: true}, nil
	case "latest":
		return Offsets{Latest: true}, nil
	}
	var raw map[string]map[string]int64
	if err := json.Unmarshal([]byte(v), &raw); err != nil || len(raw) == 0 {
		return Offsets{}, errorf(key, `want earliest, latest or JSON such as {"topicA":{"0":23,"1":-2}}, not %q`, v)
	}
	o := Offsets{Specific: map[string]map[int32]int64{}}
	for t, ps := range raw {
		o.Specific[t] = map[int32]int64{}
		for p, off := range ps {
			n, err := strconv.ParseInt(p, 10, 32)
			if err != nil || n < 0 {
				return Offsets{}, errorf(key, "topic %s: %q is not a partition number", t, p)
			}
			if off < -2 {
				return Offsets{}, errorf(key, "topic %s partition %d: offset %d (want -2 earliest, -1 latest, or an offset)", t, n, off)
			}
			o.Specific[t][int32(n)] = off
		}
	}
	return o, nil
}

// jaasField reads key="value" out of a JAAS configuration line.
func jaasField(line, key string) (string, bool) {
	re := regexp.MustCompile(`(?:^|\s)` + regexp.QuoteMeta(key) + `\s*=\s*"((?:[^"\\]|\\.)*)"`)
	m := re.FindStringSubmatch(line)
	if m == nil {
		return "", false
	}
	return strings.NewReplacer(`\"`, `"`, `\\`, `\`).Replace(m[1]), true
}

func security(got map[string]string) (Security, error) {
	s := Security{Protocol: got["kafka.security.protocol"], Mechanism: got["kafka.sasl.mechanism"], ClientID: got["kafka.client.id"]}
	if s.Protocol == "" {
		s.Protocol = "PLAINTEXT"
	}
	if s.Mechanism == "" {
		s.Mechanism = "PLAIN"
	}
	if v, ok := got["kafka.request.timeout.ms"]; ok {
		ms, err := strconv.ParseInt(v, 10, 64)
		if err != nil || ms <= 0 {
			return s, errorf("kafka.request.timeout.ms", "want a positive number of milliseconds, not %q", v)
		}
		s.Timeout = time.Duration(ms) * time.Millisecond
	}
	if jaas, ok := got["kafka.sasl.jaas.config"]; ok {
		if !s.SASL() {
			return s, errorf("kafka.sasl.jaas.config", "needs kafka.security.protocol SASL_PLAINTEXT or SASL_SSL")
		}
		u, okU := jaasField(jaas, "username")
		p, okP := jaasField(jaas, "password")
		if !okU || !okP {
			return s, errorf("kafka.sasl.jaas.config", `want a login module line with username="..." password="..."`)
		}
		s.User, s.Password = u, p
	} else if s.SASL() {
		return s, errorf("", "kafka.security.protocol %s needs kafka.sasl.jaas.config (username and password)", s.Protocol)
	}
	if _, ok := got["kafka.sasl.mechanism"]; ok && !s.SASL() {
		return s, errorf("kafka.sasl.mechanism", "needs kafka.security.protocol SASL_PLAINTEXT or SASL_SSL")
	}
	pem := func(textKey, fileKey string) ([]byte, error) {
		text, hasText := got[textKey]
		file, hasFile := got[fileKey]
		if hasText && hasFile {
			return nil, errorf(fileKey, "give %s or %s, not both", fileKey, textKey)
		}
		if hasText {
			return []byte(text), nil
		}
		if hasFile {
			b, err := os.ReadFile(file)
			if err != nil {
				return nil, errorf(fileKey, "%v", err)
			}
			return b, nil
		}
		return nil, nil
	}
	var err error
	if s.TrustPEM, err = pem("kafka.ssl.truststore.certificates", "kafka.ssl.truststore.location"); err != nil {
		return s, err
	}
	if s.CertPEM, err = pem("kafka.ssl.keystore.certificate.chain", "kafka.ssl.keystore.location"); err != nil {
		return s, err
	}
	if v, ok := got["kafka.ssl.keystore.key"]; ok {
		s.KeyPEM = []byte(v)
	} else if _, ok := got["kafka.ssl.keystore.location"]; ok {
		s.KeyPEM = s.CertPEM // one PEM file with the chain and the key
	}
	if v, ok := got["kafka.ssl.endpoint.identification.algorithm"]; ok && v == "" {
		s.NoHostName = true
	}
	for _, k := range []string{"kafka.ssl.truststore.location", "kafka.ssl.truststore.certificates", "kafka.ssl.keystore.location",
		"kafka.ssl.keystore.certificate.chain", "kafka.ssl.keystore.key", "kafka.ssl.endpoint.identification.algorithm"} {
		if _, ok := got[k]; ok && !s.TLS() {
			return s, errorf(k, "needs kafka.security.protocol SSL or SASL_SSL")
		}
	}
	return s, nil
}

// fileKeys are the options that name files, which may exist only where the
// program runs: CheckSource and CheckSink do not read them.
func fileKeys() []string {
	return []string{"kafka.ssl.truststore.location", "kafka.ssl.keystore.location"}
}

// withoutFiles drops the options naming files, which only the machine that
// runs the pipeline can read.
func withoutFiles(kvs [][2]string) [][2]string {
	var out [][2]string
	for _, kv := range kvs {
		if slices.ContainsFunc(fileKeys(), func(k string) bool { return strings.EqualFold(k, kv[0]) }) {
			kv[1] = os.DevNull
		}
		out = append(out, kv)
	}
	return out
}

// CheckSource is ParseSource for thundc check: files named by options are
// not read (they need only exist where the program runs).
func CheckSource(kvs [][2]string, stream bool) error {
	_, err := ParseSource(withoutFiles(kvs), stream)
	return err
}

// CheckSink is ParseSink for thundc check.
func CheckSink(kvs [][2]string, hasTopicColumn bool) error {
	_, err := ParseSink(withoutFiles(kvs), hasTopicColumn)
	return err
}

// SparkSourceOptions renames a source's options for Spark's Kafka connector
// (format kafka): bootstrapServers is kafka.bootstrap.servers; the others
// keep their names. The result is sorted by key.
func SparkSourceOptions(kvs [][2]string) [][2]string {
	var out [][2]string
	for _, kv := range kvs {
		k := kv[0]
		if o, ok := lookup(SourceOptions, k); ok {
			k = o.Name
			if o.Spark != "" {
				k = o.Spark
			}
		}
		out = append(out, [2]string{k, kv[1]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i][0] < out[j][0] })
	return out
}
