-- Every record of the topic as Kafka gave it, the value as text. Both
-- engines read read_committed (Spark's lowering adds the isolation level),
-- so the aborted transaction's records are in neither.
CREATE STREAMING TABLE raw AS
SELECT CAST(key AS STRING) AS key, CAST(value AS STRING) AS value, topic, partition, offset, timestamp, timestampType
FROM STREAM read_kafka(bootstrapServers => 'KAFKA_BROKERS', subscribe => 'KAFKA_TOPIC', startingOffsets => 'earliest');

-- The JSON events, parsed in the flow.
CREATE STREAMING TABLE events AS
SELECT e.id, e.k, e.v, to_timestamp(e.ts) AS ts, partition
FROM (SELECT from_json(CAST(value AS STRING), 'id BIGINT, k STRING, v INT, ts STRING') AS e, partition
      FROM STREAM read_kafka(bootstrapServers => 'KAFKA_BROKERS', subscribe => 'KAFKA_TOPIC', startingOffsets => 'earliest'));
