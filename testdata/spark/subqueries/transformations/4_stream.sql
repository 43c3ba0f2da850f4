-- Subqueries over snapshots in streaming tables: a filter, a projection and
-- a scalar subquery over the stream.
CREATE STREAMING TABLE streamed_in AS
SELECT id FROM STREAM(feed) WHERE k IN (SELECT k FROM deny) OR k NOT IN (SELECT k FROM allow);

CREATE STREAMING TABLE streamed_values AS
SELECT id, k IN (SELECT k FROM allow) AS in_allow, k NOT IN (SELECT k FROM deny) AS not_in_deny,
  v - (SELECT max(v) FROM items) AS gap
FROM STREAM(feed);
