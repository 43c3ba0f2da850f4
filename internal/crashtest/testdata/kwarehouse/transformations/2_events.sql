-- Every event once, parsed, with where it was read from.
CREATE STREAMING TABLE events AS
SELECT e.id AS id, e.user AS user, e.amount AS amount, partition, `offset`, timestamp
FROM (
  SELECT from_json(CAST(value AS STRING), 'id BIGINT, user STRING, amount BIGINT') AS e, partition, `offset`, timestamp
  FROM STREAM events_raw
) AS r;
