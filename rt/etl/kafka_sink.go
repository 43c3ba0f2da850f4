package etl

// KafkaSinks opens the Kafka sinks of a run.
type KafkaSinks interface {
}
