-- Events and amounts per user and minute, final once the watermark passes
-- the window (state kept across runs).
CREATE STREAMING TABLE per_user AS
SELECT window.start AS window_start, window.end AS window_end, user, count(*) AS n, sum(amount) AS total
FROM (
  SELECT e.user AS user, e.amount AS amount, timestamp
  FROM (
    SELECT from_json(CAST(value AS STRING), 'id BIGINT, user STRING, amount BIGINT') AS e, timestamp
    FROM STREAM events_raw
  ) AS r
) AS c
GROUP BY window(timestamp, '1 minute'), user;
