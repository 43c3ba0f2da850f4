-- Click events, JSON in the topic clicks; the records' Kafka timestamp is
-- the event time.
CREATE TEMPORARY VIEW clicks AS SELECT * FROM STREAM read_kafka(
  bootstrapServers => '127.0.0.1:9092',
  subscribe => 'clicks',
  startingOffsets => 'earliest'
) WATERMARK timestamp DELAY OF INTERVAL 10 SECONDS;
