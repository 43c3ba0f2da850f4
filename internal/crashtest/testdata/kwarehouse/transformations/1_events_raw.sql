-- The topic's records; the Kafka timestamp (set by the test) is the event
-- time.
CREATE TEMPORARY VIEW events_raw AS SELECT * FROM STREAM read_kafka(
  bootstrapServers => '@BROKERS@',
  subscribe => '@TOPIC@',
  startingOffsets => 'earliest'
) WATERMARK timestamp DELAY OF INTERVAL 10 SECONDS;
