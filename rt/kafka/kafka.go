// Package kafka is the runtime's Apache Kafka client (github.com/twmb/franz-go):
// the sources and sinks of rt/etl's KafkaConnector. A generated program
// imports it only when its pipeline reads or writes Kafka.
//
// Sources (source.go) list partitions and offsets with an admin client
// kept per set of brokers and security options for the life of the
// program, and read each run's offset ranges with a consumer of their own,
// assigned the partitions directly: no consumer group, since the offsets
// live in the warehouse's commit record (rt/etl/kafka_source.go).
package kafka

import (
	"fmt"
	"sync"
	"time"

	"github.com/nordisk/thund/internal/kafkaopt"
	"github.com/nordisk/thund/rt/etl"
	"github.com/twmb/franz-go/pkg/kadm"
	"github.com/twmb/franz-go/pkg/kgo"
)

// Connector is the runtime's KafkaConnector.
type Connector struct {
	mu     sync.Mutex
	admins map[string]*admin // by brokers and security options
}

// admin is a client for metadata and offsets.
type admin struct {
	cl  *kgo.Client
	adm *kadm.Client
}

// New returns the connector a generated program sets as etl.Pipeline.Kafka.
func New() etl.KafkaConnector { return &Connector{} }

// admin returns the admin client of brokers and sec, made once.
func (c *Connector) admin(brokers []string, sec kafkaopt.Security) (*admin, error) {
	key := fmt.Sprintf("%q %#v", brokers, sec)
	c.mu.Lock()
	defer c.mu.Unlock()
	if a := c.admins[key]; a != nil {
		return a, nil
	}
	opts, err := ClientOptions(brokers, sec)
	if err != nil {
		return nil, err
	}
	// Offsets are listed with the client's cached metadata (which
	// partition leads where); topics and partitions are listed with a
	// metadata request of their own (source.go), so that they are current.
	cl, err := kgo.NewClient(append(opts, kgo.MetadataMinAge(100*time.Millisecond))...)
	if err != nil {
		return nil, fmt.Errorf("kafka: %w", err)
	}
	if c.admins == nil {
		c.admins = map[string]*admin{}
	}
	a := &admin{cl: cl, adm: kadm.NewClient(cl)}
	c.admins[key] = a
	return a, nil
}

// Close closes the connector's clients.
func (c *Connector) Close() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for k, a := range c.admins {
		a.cl.Close()
		delete(c.admins, k)
	}
}
