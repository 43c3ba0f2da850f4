package kafka

import (
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"

	"github.com/nordisk/thund/internal/kafkaopt"
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
