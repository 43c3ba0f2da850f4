package kafka

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"
	"testing"

	"github.com/nordisk/thund/internal/kafkaopt"
	"github.com/twmb/franz-go/pkg/kerr"
)

// TestExplain: the errors of a refused password or certificate get a hint
// naming the options to look at, and keep their cause; other errors pass
// unchanged. The Kafka lane's TestKafkaSecurityErrors (rt/etl) gets each
// of these errors from the real broker.
func TestExplain(t *testing.T) {
	sasl := kafkaopt.Security{Protocol: "SASL_SSL", Mechanism: "SCRAM-SHA-256", User: "ann", Password: "x"}
	trust := kafkaopt.Security{Protocol: "SSL", TrustPEM: []byte("pem")}
	mtls := kafkaopt.Security{Protocol: "SSL", TrustPEM: []byte("pem"), CertPEM: []byte("pem"), KeyPEM: []byte("pem")}
	dial := func(err error) error { return fmt.Errorf("listing the topics of b:1: unable to dial: %w", err) }
	verify := func(err error) error { return dial(&tls.CertificateVerificationError{Err: err}) }
	alert := func(m string) error { return dial(&net.OpError{Op: "remote error", Err: errors.New(m)}) }
	for _, tc := range []struct {
		name string
		err  error
		sec  kafkaopt.Security
		want string // "" for unchanged
	}{
		{"password", fmt.Errorf("listing: %w", kerr.SaslAuthenticationFailed), sasl,
			`(the brokers refused user "ann" with SASL SCRAM-SHA-256: check the username and password of kafka.sasl.jaas.config, and kafka.sasl.mechanism)`},
		{"mechanism", kerr.UnsupportedSaslMechanism, sasl, "the brokers do not take SASL SCRAM-SHA-256 at this listener"},
		{"no SASL there", kerr.IllegalSaslState, sasl, "the brokers take no SASL at this address"},
		{"system CAs", verify(x509.UnknownAuthorityError{}), kafkaopt.Security{Protocol: "SSL"},
			"no CA the system trusts signed the brokers' certificate: name their CA with kafka.ssl.truststore.location"},
		{"truststore", verify(x509.UnknownAuthorityError{}), trust,
			"no CA of kafka.ssl.truststore.location or kafka.ssl.truststore.certificates signed"},
		{"host name", verify(x509.HostnameError{Certificate: &x509.Certificate{}, Host: "127.0.0.1"}), trust,
			"an empty kafka.ssl.endpoint.identification.algorithm turns the host-name check off"},
		{"client certificate wanted", alert("tls: certificate required"), trust, "the brokers want a client certificate"},
		{"client certificate refused", alert("tls: bad certificate"), mtls, "the brokers refused the client certificate"},
		{"other alert", alert("tls: handshake failure"), trust, ""},
		{"other", errors.New("connection refused"), trust, ""},
	} {
		got := explain(tc.err, tc.sec)
		if !errors.Is(got, tc.err) {
			t.Errorf("%s: %v does not wrap its cause", tc.name, got)
		}
		switch {
		case tc.want == "" && got.Error() != tc.err.Error():
			t.Errorf("%s: %q became %q", tc.name, tc.err, got)
		case tc.want != "" && !strings.HasPrefix(got.Error(), tc.err.Error()+" ("):
			t.Errorf("%s: %q lost its cause: %q", tc.name, tc.err, got)
		case !strings.Contains(got.Error(), tc.want):
			t.Errorf("%s: %q lacks %q", tc.name, got, tc.want)
		}
	}
	if explain(nil, sasl) != nil {
		t.Error("explain(nil) is not nil")
	}
}
