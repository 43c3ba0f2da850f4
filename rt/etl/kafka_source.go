package etl

// KafkaSources opens the Kafka sources of a run.
type KafkaSources interface {
}
