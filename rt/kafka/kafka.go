// Package kafka is the runtime's Apache Kafka client (github.com/twmb/franz-go):
// the sources and sinks of rt/etl's KafkaConnector. A generated program
// imports it only when its pipeline reads or writes Kafka.
package kafka

import (
	"github.com/nordisk/thund/rt/etl"
	_ "github.com/twmb/franz-go/pkg/kadm"
	_ "github.com/twmb/franz-go/pkg/kgo"
)

// Connector is the runtime's KafkaConnector.
type Connector struct{}

// New returns the connector a generated program sets as etl.Pipeline.Kafka.
func New() etl.KafkaConnector { return &Connector{} }
