package etl

// Kafka: a source read from topics (STREAM read_kafka(...), `source NAME
// stream from kafka options (...)`) and a sink written to a topic (`sink
// NAME format kafka options (...)`). The client lives in rt/kafka, which the
// generated program imports, and sets as Pipeline.Kafka, only when the
// pipeline reads or writes Kafka: other programs do not link a Kafka client
// (as OpenS3 keeps the AWS SDK out of programs built without S3).
//
// A Kafka source is a Dataset of Kind Source whose FileSource.Format is
// "kafka"; its FileSource.Options are the read_kafka options as written
// (bootstrapServers, subscribe, startingOffsets, kafka.* ...), matched
// without regard to case. A Kafka sink is a Dataset of Kind Sink whose
// Format is "kafka"; its SinkOptions are Spark's Kafka sink options
// (kafka.bootstrap.servers, topic, kafka.* ...).

// KafkaConnector reads and writes Kafka for the runtime.
type KafkaConnector interface {
	KafkaSources
	KafkaSinks
}

// kafkaFormat is the format name of a Kafka source or sink.
const kafkaFormat = "kafka"
