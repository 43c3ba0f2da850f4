-- No SET here: inherited reads ny_events, a view whose conf sets the zone,
-- and a view's query runs inside its reader's, under its conf (Spark merges
-- the two; a conflict is DUPLICATE_FLOW_SQL_CONF).
CREATE MATERIALIZED VIEW inherited AS
SELECT id, hour(ts) AS h, CAST(ts AS DATE) AS dt, CAST(ts AS STRING) AS str FROM ny_events;
