package kafka

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"strings"

	"github.com/nordisk/thund/internal/kafkaopt"
	"github.com/twmb/franz-go/pkg/kerr"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"
)

// ClientOptions are the franz-go options that reach brokers as sec says:
// the seed brokers, TLS from PEM (the CA certificates to trust, a client
// certificate and key for mutual TLS, the host-name check), SASL PLAIN or
// SCRAM, the client id and the request timeout. Sources and sinks both build
// their clients from it, adding their own options.
func ClientOptions(brokers []string, sec kafkaopt.Security) ([]kgo.Opt, error) {
	opts := []kgo.Opt{kgo.SeedBrokers(brokers...)}
	if sec.ClientID != "" {
		opts = append(opts, kgo.ClientID(sec.ClientID))
	} else {
		opts = append(opts, kgo.ClientID("thund"))
	}
	if sec.Timeout > 0 {
		opts = append(opts, kgo.RequestTimeoutOverhead(sec.Timeout))
	}
	if sec.TLS() {
		cfg, err := TLSConfig(sec)
		if err != nil {
			return nil, err
		}
		opts = append(opts, kgo.DialTLSConfig(cfg))
	}
	if sec.SASL() {
		switch sec.Mechanism {
		case "", "PLAIN":
			opts = append(opts, kgo.SASL(plain.Auth{User: sec.User, Pass: sec.Password}.AsMechanism()))
		case "SCRAM-SHA-256":
			opts = append(opts, kgo.SASL(scram.Auth{User: sec.User, Pass: sec.Password}.AsSha256Mechanism()))
		case "SCRAM-SHA-512":
			opts = append(opts, kgo.SASL(scram.Auth{User: sec.User, Pass: sec.Password}.AsSha512Mechanism()))
		default:
			return nil, fmt.Errorf("kafka: SASL mechanism %q is not supported (PLAIN, SCRAM-SHA-256, SCRAM-SHA-512)", sec.Mechanism)
		}
	}
	return opts, nil
}

// TLSConfig is the TLS configuration sec asks for: trust sec.TrustPEM's
// certificates (the system's when nil), present sec.CertPEM and sec.KeyPEM
// when given, and check the broker's host name unless sec.NoHostName (the
// chain is checked either way).
func TLSConfig(sec kafkaopt.Security) (*tls.Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if sec.TrustPEM != nil {
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(sec.TrustPEM) {
			return nil, errors.New("kafka: the truststore holds no PEM certificate")
		}
		cfg.RootCAs = pool
	}
	if sec.CertPEM != nil || sec.KeyPEM != nil {
		if sec.CertPEM == nil || sec.KeyPEM == nil {
			return nil, errors.New("kafka: a client certificate needs both its chain and its private key")
		}
		cert, err := tls.X509KeyPair(sec.CertPEM, sec.KeyPEM)
		if err != nil {
			return nil, fmt.Errorf("kafka: the keystore: %v", err)
		}
		cfg.Certificates = []tls.Certificate{cert}
	}
	if sec.NoHostName {
		// Verify the chain ourselves, without the host name: Go's TLS has no
		// switch for only that check.
		roots := cfg.RootCAs
		cfg.InsecureSkipVerify = true
		cfg.VerifyConnection = func(cs tls.ConnectionState) error {
			if len(cs.PeerCertificates) == 0 {
				return errors.New("kafka: the broker sent no certificate")
			}
			inter := x509.NewCertPool()
			for _, c := range cs.PeerCertificates[1:] {
				inter.AddCert(c)
			}
			_, err := cs.PeerCertificates[0].Verify(x509.VerifyOptions{Roots: roots, Intermediates: inter})
			return err
		}
	}
	return cfg, nil
}

// explain adds to err, when the brokers refused the client's credentials or
// the client refused their certificate, which options to look at. The first
// request of a source (its listing, in the run's preflight) and of a sink
// (its producer id, when it begins an epoch or resolves a pending one) go
// through it.
func explain(err error, sec kafkaopt.Security) error {
	if err == nil {
		return nil
	}
	var (
		unknown x509.UnknownAuthorityError
		host    x509.HostnameError
		remote  *net.OpError
		hint    string
	)
	switch {
	case errors.Is(err, kerr.SaslAuthenticationFailed):
		hint = fmt.Sprintf("the brokers refused user %q with SASL %s: check the username and password of kafka.sasl.jaas.config, and kafka.sasl.mechanism", sec.User, sec.Mechanism)
	case errors.Is(err, kerr.UnsupportedSaslMechanism):
		hint = fmt.Sprintf("the brokers do not take SASL %s at this listener: check kafka.sasl.mechanism", sec.Mechanism)
	case errors.Is(err, kerr.IllegalSaslState):
		hint = "the brokers take no SASL at this address: check kafka.security.protocol and the port"
	case errors.As(err, &remote) && clientCertAlert(remote) && sec.CertPEM == nil:
		hint = "the brokers want a client certificate: give kafka.ssl.keystore.location, " +
			"or kafka.ssl.keystore.certificate.chain and kafka.ssl.keystore.key"
	case errors.As(err, &remote) && clientCertAlert(remote):
		hint = "the brokers refused the client certificate of kafka.ssl.keystore.*: is it signed by a CA they trust?"
	case errors.As(err, &unknown) && sec.TrustPEM == nil:
		hint = "no CA the system trusts signed the brokers' certificate: name their CA with kafka.ssl.truststore.location or kafka.ssl.truststore.certificates"
	case errors.As(err, &unknown):
		hint = "no CA of kafka.ssl.truststore.location or kafka.ssl.truststore.certificates signed the brokers' certificate"
	case errors.As(err, &host):
		hint = "the brokers' certificate does not name the address they were reached at, their advertised listener; " +
			"an empty kafka.ssl.endpoint.identification.algorithm turns the host-name check off and keeps the chain's"
	default:
		return err
	}
	return fmt.Errorf("%w (%s)", err, hint)
}

// clientCertAlert reports whether the brokers ended the TLS handshake with
// the alert bad_certificate or certificate_required (Go's tls package
// returns a peer's alert as a net.OpError of an unexported type).
func clientCertAlert(e *net.OpError) bool {
	if e.Op != "remote error" || e.Err == nil {
		return false
	}
	m := e.Err.Error()
	return strings.HasSuffix(m, "bad certificate") || strings.HasSuffix(m, "certificate required")
}
