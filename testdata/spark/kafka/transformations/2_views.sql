-- A batch read of the same topic, and an aggregate over the stream's table.
CREATE MATERIALIZED VIEW per_key AS
SELECT k, count(*) AS n, sum(v) AS total, min(ts) AS first_ts
FROM events GROUP BY k;

CREATE MATERIALIZED VIEW batch_count AS
SELECT partition, count(*) AS n, max(offset) AS last_offset
FROM read_kafka(bootstrapServers => 'KAFKA_BROKERS', subscribe => 'KAFKA_TOPIC')
GROUP BY partition;
