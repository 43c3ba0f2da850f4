-- q8, monitor new users: people who opened an auction in the same 10s
-- tumbling window in which they registered; an interval join of the two
-- streams plus the same-window condition, one row per such auction.
CREATE STREAMING TABLE q8 AS
SELECT p.id, p.name,
  timestamp_seconds(unix_timestamp(p.date_time) - unix_timestamp(p.date_time) % 10) AS window_start,
  a.id AS auction
FROM STREAM(person) AS p
JOIN STREAM(auction) AS a
  ON p.id = a.seller
  AND a.date_time BETWEEN p.date_time - INTERVAL 10 SECONDS AND p.date_time + INTERVAL 10 SECONDS
  AND unix_timestamp(p.date_time) - unix_timestamp(p.date_time) % 10 = unix_timestamp(a.date_time) - unix_timestamp(a.date_time) % 10;
