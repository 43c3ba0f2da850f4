//go:build kafka

package etl_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"fmt"
	"math/big"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/rt/etl"
	"github.com/nordisk/thund/rt/kafka"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Kafka sources and sinks over the broker's secured listeners
// (testenv.KafkaSecure): SASL PLAIN and SCRAM, TLS with the CA from a file
// or inline, SASL over TLS, the host-name check; and the errors of a wrong
// password, an untrusted certificate and a certificate for another host.
// Topics are made, filled and read through the PLAINTEXT listener; only
// the pipeline goes through the listener under test.

// kafkaSourceSchema is Spark's Kafka source schema, without headers.
var kafkaSourceSchema = arrow.NewSchema([]arrow.Field{
	{Name: "key", Type: arrow.BinaryTypes.Binary, Nullable: true},
	{Name: "value", Type: arrow.BinaryTypes.Binary, Nullable: true},
	{Name: "topic", Type: arrow.BinaryTypes.String, Nullable: true},
	{Name: "partition", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
	{Name: "offset", Type: arrow.PrimitiveTypes.Int64, Nullable: true},
	{Name: "timestamp", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}, Nullable: true},
	{Name: "timestampType", Type: arrow.PrimitiveTypes.Int32, Nullable: true},
}, nil)

var keyValueSchema = arrow.NewSchema([]arrow.Field{
	{Name: "key", Type: arrow.BinaryTypes.Binary, Nullable: true},
	{Name: "value", Type: arrow.BinaryTypes.Binary, Nullable: true},
}, nil)

// relayPipeline is, in the DSL's words:
//
//	source events stream from kafka options (in...)
//	sink out format kafka options (out...) = from stream events | select key, value
//
// ran, when not nil, is set when the flow starts.
func relayPipeline(in, out [][2]string, ran *bool) *etl.Pipeline {
	run := func(fc *etl.FlowContext) error {
		if ran != nil {
			*ran = true
		}
		return fc.EachBatch("events", func(rec arrow.RecordBatch) error {
			kv := array.NewRecordBatch(keyValueSchema, []arrow.Array{rec.Column(0), rec.Column(1)}, rec.NumRows())
			err := fc.Emit(kv)
			kv.Release()
			rec.Release()
			return err
		})
	}
	return &etl.Pipeline{Name: "krelay", File: "krelay.thund", Compiler: "v0.0.0-test", Kafka: kafka.New(), Datasets: []*etl.Dataset{
		{Name: "events", Kind: etl.Source, Schema: kafkaSourceSchema,
			Source:     &etl.FileSource{Format: "kafka", Options: in, Unbounded: true},
			Definition: fmt.Sprintf("source events stream from kafka options %q", in)},
		{Name: "out", Kind: etl.Sink, Schema: keyValueSchema, Format: "kafka", SinkOptions: out,
			Flows:      []*etl.Flow{{Name: "out", Inputs: []etl.Input{{Name: "events", Stream: true}}, Run: run}},
			Definition: "sink out format kafka = from stream events | select key, value"},
	}}
}

// secEnv is the broker with its secured listeners, and two topics: in
// (produced to through PLAINTEXT) and out (the sink's).
type secEnv struct {
	*kenv
	lane    testenv.KafkaSecureLane
	in, out string
	sent    []string // the records produced to in, as key=value
}

func newSecEnv(t *testing.T) *secEnv {
	t.Helper()
	lane := testenv.KafkaSecure(t)
	e := &secEnv{kenv: newKenv(t), lane: lane}
	e.in, e.out = e.topic(2), e.topic(2)
	return e
}

// send produces n records to in through PLAINTEXT.
func (e *secEnv) send(n int) {
	e.t.Helper()
	cl, err := kgo.NewClient(kgo.SeedBrokers(e.brokers))
	if err != nil {
		e.t.Fatal(err)
	}
	defer cl.Close()
	var rs []*kgo.Record
	for range n {
		i := len(e.sent) + len(rs)
		k, v := fmt.Sprint("k", i), fmt.Sprint("v", i)
		rs = append(rs, &kgo.Record{Topic: e.in, Key: []byte(k), Value: []byte(v)})
	}
	if err := cl.ProduceSync(context.Background(), rs...).FirstErr(); err != nil {
		e.t.Fatalf("producing: %v", err)
	}
	for _, r := range rs {
		e.sent = append(e.sent, string(r.Key)+"="+string(r.Value))
	}
}

// received is what a read_committed reader finds in out, sorted.
func (e *secEnv) received() []string {
	e.t.Helper()
	var got []string
	for _, r := range e.readCommitted(e.out) {
		got = append(got, string(r.Key)+"="+string(r.Value))
	}
	slices.Sort(got)
	return got
}

// sec are the security options of one listener, for sources and sinks
// alike; brokers is the listener's address.
type sec struct {
	name    string
	brokers func(testenv.KafkaSecureLane) string
	opts    func(testenv.KafkaSecureLane) [][2]string
}

func jaas(mech, user, password string) [2]string {
	module := "org.apache.kafka.common.security.scram.ScramLoginModule"
	if mech == "PLAIN" {
		module = "org.apache.kafka.common.security.plain.PlainLoginModule"
	}
	return [2]string{"kafka.sasl.jaas.config", fmt.Sprintf(`%s required username="%s" password="%s";`, module, user, password)}
}

func saslOpts(protocol, mech string) func(testenv.KafkaSecureLane) [][2]string {
	return func(l testenv.KafkaSecureLane) [][2]string {
		o := [][2]string{{"kafka.security.protocol", protocol}, {"kafka.sasl.mechanism", mech}, jaas(mech, l.User, l.Password)}
		if protocol == "SASL_SSL" {
			o = append(o, [2]string{"kafka.ssl.truststore.location", l.CA})
		}
		return o
	}
}

// readPEM reads a PEM file.
func readPEM(t testing.TB, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// pipeline is the relay with the source and the sink both reaching the
// broker as s says, with extra options on both.
func (e *secEnv) pipeline(s sec, extra [][2]string, ran *bool) *etl.Pipeline {
	brokers, opts := s.brokers(e.lane), append(s.opts(e.lane), extra...)
	in := append([][2]string{{"bootstrapServers", brokers}, {"subscribe", e.in}, {"startingOffsets", "earliest"}}, opts...)
	out := append([][2]string{{"kafka.bootstrap.servers", brokers}, {"topic", e.out}}, opts...)
	return relayPipeline(in, out, ran)
}

// TestKafkaSecurity reads a source and writes a transactional sink through
// each secured listener: two runs, the second reading only what is new,
// and a read_committed reader finds every record once.
func TestKafkaSecurity(t *testing.T) {
	sasl := func(l testenv.KafkaSecureLane) string { return l.SASL }
	ssl := func(l testenv.KafkaSecureLane) string { return l.SSL }
	for _, s := range []sec{
		{"SASL_PLAINTEXT PLAIN", sasl, saslOpts("SASL_PLAINTEXT", "PLAIN")},
		{"SASL_PLAINTEXT SCRAM-SHA-256", sasl, saslOpts("SASL_PLAINTEXT", "SCRAM-SHA-256")},
		{"SASL_PLAINTEXT SCRAM-SHA-512", sasl, saslOpts("SASL_PLAINTEXT", "SCRAM-SHA-512")},
		{"SSL truststore file", ssl, func(l testenv.KafkaSecureLane) [][2]string {
			return [][2]string{{"kafka.security.protocol", "SSL"}, {"kafka.ssl.truststore.type", "PEM"}, {"kafka.ssl.truststore.location", l.CA}}
		}},
		{"SSL truststore inline", ssl, func(l testenv.KafkaSecureLane) [][2]string {
			return [][2]string{{"kafka.security.protocol", "SSL"}, {"kafka.ssl.truststore.certificates", readPEM(t, l.CA)}}
		}},
		{"SASL_SSL PLAIN", func(l testenv.KafkaSecureLane) string { return l.SASLSSL }, saslOpts("SASL_SSL", "PLAIN")},
		{"SASL_SSL SCRAM-SHA-512", func(l testenv.KafkaSecureLane) string { return l.SASLSSL }, saslOpts("SASL_SSL", "SCRAM-SHA-512")},
		{"mutual TLS keystore file", func(l testenv.KafkaSecureLane) string { return l.MTLS }, func(l testenv.KafkaSecureLane) [][2]string {
			// One PEM file with the chain and the key, as Kafka's
			// ssl.keystore.location of type PEM holds them.
			both := filepath.Join(t.TempDir(), "client.pem")
			if err := os.WriteFile(both, []byte(readPEM(t, l.ClientKey)+readPEM(t, l.ClientCert)), 0o600); err != nil {
				t.Fatal(err)
			}
			return [][2]string{{"kafka.security.protocol", "SSL"}, {"kafka.ssl.truststore.location", l.CA},
				{"kafka.ssl.keystore.type", "PEM"}, {"kafka.ssl.keystore.location", both}}
		}},
		{"mutual TLS keystore inline", func(l testenv.KafkaSecureLane) string { return l.MTLS }, func(l testenv.KafkaSecureLane) [][2]string {
			return [][2]string{{"kafka.security.protocol", "SSL"}, {"kafka.ssl.truststore.location", l.CA},
				{"kafka.ssl.keystore.certificate.chain", readPEM(t, l.ClientCert)}, {"kafka.ssl.keystore.key", readPEM(t, l.ClientKey)}}
		}},
		// The certificate names other.invalid, not 127.0.0.1: with the
		// host-name check off, the chain alone is checked.
		{"SSL no host-name check", func(l testenv.KafkaSecureLane) string { return l.OtherHost }, func(l testenv.KafkaSecureLane) [][2]string {
			return [][2]string{{"kafka.security.protocol", "SSL"}, {"kafka.ssl.truststore.location", l.CA},
				{"kafka.ssl.endpoint.identification.algorithm", ""}}
		}},
	} {
		t.Run(strings.ReplaceAll(s.name, " ", "_"), func(t *testing.T) {
			e := newSecEnv(t)
			p := e.pipeline(s, nil, nil)
			e.send(5)
			e.mustRun(p)
			if got := e.received(); !slices.Equal(got, e.sent) {
				t.Fatalf("first run: out holds %q, want %q", got, e.sent)
			}
			e.send(3)
			e.mustRun(p)
			if got := e.received(); !slices.Equal(got, e.sent) {
				t.Fatalf("second run: out holds %q, want %q", got, e.sent)
			}
		})
	}
}

// untrustedCA is the PEM of a CA that signed nothing the broker has.
func untrustedCA(t *testing.T) string {
	t.Helper()
	cert, _ := selfSigned(t, true)
	return cert
}

// selfSigned is a self-signed certificate and its key, in PEM: a CA's or a
// client's.
func selfSigned(t *testing.T, ca bool) (cert, key string) {
	t.Helper()
	priv, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "not the broker's CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	if !ca {
		tmpl = &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "a client no CA signed"},
			NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
			KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageClientAuth}}
	}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &priv.PublicKey, priv)
	if err != nil {
		t.Fatal(err)
	}
	pk, err := x509.MarshalPKCS8PrivateKey(priv)
	if err != nil {
		t.Fatal(err)
	}
	return string(pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: der})),
		string(pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: pk}))
}

// TestKafkaSecurityErrors: a wrong password, an untrusted certificate and a
// certificate for another host fail the run with a clear error, found by
// the preflight before any flow runs when the source cannot connect, and
// nothing reaches the sink's topic.
func TestKafkaSecurityErrors(t *testing.T) {
	e := newSecEnv(t)
	e.send(2)
	plain := sec{"PLAINTEXT", func(l testenv.KafkaSecureLane) string { return l.Brokers }, func(testenv.KafkaSecureLane) [][2]string { return nil }}
	wrongPassword := func(protocol, mech string) sec {
		return sec{protocol + " " + mech, func(l testenv.KafkaSecureLane) string {
			if protocol == "SASL_SSL" {
				return l.SASLSSL
			}
			return l.SASL
		}, func(l testenv.KafkaSecureLane) [][2]string {
			o := saslOpts(protocol, mech)(l)
			o[2] = jaas(mech, l.User, l.Password+"-wrong")
			return o
		}}
	}
	ssl := func(addr func(testenv.KafkaSecureLane) string, opts ...[2]string) sec {
		return sec{"SSL", addr, func(l testenv.KafkaSecureLane) [][2]string {
			return append([][2]string{{"kafka.security.protocol", "SSL"}}, opts...)
		}}
	}
	sslAddr := func(l testenv.KafkaSecureLane) string { return l.SSL }
	clientCert, clientKey := selfSigned(t, false)
	otherHost := func(l testenv.KafkaSecureLane) string { return l.OtherHost }
	for _, tc := range []struct {
		name string
		s    sec
		// sinkOnly: the source reads through PLAINTEXT, the sink through s.
		sinkOnly bool
		want     []string
	}{
		{"wrong password PLAIN", wrongPassword("SASL_PLAINTEXT", "PLAIN"), false,
			[]string{"source events: listing the topics of " + e.lane.SASL, "SASL_AUTHENTICATION_FAILED", "Invalid username or password",
				`the brokers refused user "thund" with SASL PLAIN: check the username and password of kafka.sasl.jaas.config`}},
		{"wrong password SCRAM-SHA-256", wrongPassword("SASL_PLAINTEXT", "SCRAM-SHA-256"), false,
			[]string{"source events", "SASL_AUTHENTICATION_FAILED", "invalid credentials with SASL mechanism SCRAM-SHA-256",
				`the brokers refused user "thund" with SASL SCRAM-SHA-256`}},
		{"wrong password SASL_SSL SCRAM-SHA-512", wrongPassword("SASL_SSL", "SCRAM-SHA-512"), false,
			[]string{"source events", "SASL_AUTHENTICATION_FAILED", `the brokers refused user "thund" with SASL SCRAM-SHA-512`}},
		{"untrusted certificate", ssl(sslAddr, [2]string{"kafka.ssl.truststore.certificates", untrustedCA(t)}), false,
			[]string{"source events", "x509: certificate signed by unknown authority",
				"no CA of kafka.ssl.truststore.location or kafka.ssl.truststore.certificates signed the brokers' certificate"}},
		{"system truststore", ssl(sslAddr), false,
			[]string{"source events", "x509: certificate signed by unknown authority",
				"no CA the system trusts signed the brokers' certificate: name their CA with kafka.ssl.truststore.location"}},
		// The host-name check is on by default (https).
		{"certificate for another host", ssl(otherHost, [2]string{"kafka.ssl.truststore.location", e.lane.CA}), false,
			[]string{"source events", "x509: cannot validate certificate for 127.0.0.1",
				"the brokers' certificate does not name the address they were reached at",
				"an empty kafka.ssl.endpoint.identification.algorithm turns the host-name check off and keeps the chain's"}},
		{"certificate for another host, check asked", ssl(otherHost, [2]string{"kafka.ssl.truststore.location", e.lane.CA},
			[2]string{"kafka.ssl.endpoint.identification.algorithm", "https"}), false,
			[]string{"source events", "x509: cannot validate certificate for 127.0.0.1"}},
		{"TLS to the PLAINTEXT listener", ssl(func(l testenv.KafkaSecureLane) string { return l.Brokers },
			[2]string{"kafka.ssl.truststore.location", e.lane.CA}), false,
			[]string{"source events", "broker closed the connection immediately after a dial, which often happens if the client is using TLS when the broker is not expecting it"}},
		{"PLAINTEXT to the SSL listener", sec{"PLAINTEXT", func(l testenv.KafkaSecureLane) string { return l.SSL },
			func(testenv.KafkaSecureLane) [][2]string { return nil }}, false,
			[]string{"source events", "is this a plaintext connection speaking to a tls endpoint?"}},
		{"PLAINTEXT to the SASL listener", sec{"PLAINTEXT", func(l testenv.KafkaSecureLane) string { return l.SASL },
			func(testenv.KafkaSecureLane) [][2]string { return nil }}, false,
			[]string{"source events", "which often happens when SASL is required but not provided: is SASL missing?"}},
		{"SASL to the PLAINTEXT listener", sec{"SASL", func(l testenv.KafkaSecureLane) string { return l.Brokers },
			saslOpts("SASL_PLAINTEXT", "SCRAM-SHA-256")}, false,
			[]string{"source events", "ILLEGAL_SASL_STATE", "the brokers take no SASL at this address: check kafka.security.protocol and the port"}},
		{"mutual TLS without a client certificate", ssl(func(l testenv.KafkaSecureLane) string { return l.MTLS },
			[2]string{"kafka.ssl.truststore.location", e.lane.CA}), false,
			[]string{"source events", "remote error: tls:",
				"the brokers want a client certificate: give kafka.ssl.keystore.location, or kafka.ssl.keystore.certificate.chain and kafka.ssl.keystore.key"}},
		{"mutual TLS with a client certificate no CA signed", ssl(func(l testenv.KafkaSecureLane) string { return l.MTLS },
			[2]string{"kafka.ssl.truststore.location", e.lane.CA}, [2]string{"kafka.ssl.keystore.certificate.chain", clientCert},
			[2]string{"kafka.ssl.keystore.key", clientKey}), false,
			[]string{"source events", "remote error: tls:", "the brokers refused the client certificate of kafka.ssl.keystore.*"}},
		{"sink wrong password", wrongPassword("SASL_PLAINTEXT", "SCRAM-SHA-512"), true,
			[]string{"sink out: initializing the transactional producer", "SASL_AUTHENTICATION_FAILED", `the brokers refused user "thund" with SASL SCRAM-SHA-512`}},
		{"sink certificate for another host", ssl(otherHost, [2]string{"kafka.ssl.truststore.location", e.lane.CA}), true,
			[]string{"sink out: initializing the transactional producer", "x509: cannot validate certificate for 127.0.0.1",
				"the brokers' certificate does not name the address"}},
	} {
		t.Run(strings.ReplaceAll(tc.name, " ", "_"), func(t *testing.T) {
			var ran bool
			p := e.pipeline(tc.s, nil, &ran)
			if tc.sinkOnly {
				src := e.pipeline(plain, nil, nil)
				p.Datasets[0] = src.Datasets[0]
			}
			start := time.Now()
			code, stderr := e.run(p)
			d := time.Since(start)
			t.Logf("exit %d after %v:\n%s", code, d.Round(time.Millisecond), stderr)
			if code != 1 {
				t.Fatalf("exit %d, want 1", code)
			}
			for _, w := range tc.want {
				if !strings.Contains(stderr, w) {
					t.Errorf("stderr lacks %q", w)
				}
			}
			if !tc.sinkOnly {
				if ran {
					t.Error("the flow ran: the preflight did not stop the run")
				}
				if !strings.Contains(stderr, "before any flow ran") {
					t.Error("stderr does not say the source failed before any flow ran")
				}
			}
			if d > 20*time.Second {
				t.Errorf("the run took %v to fail", d)
			}
			if got := e.received(); len(got) != 0 {
				t.Errorf("out holds %q, want nothing", got)
			}
		})
	}
}
