SET TIME ZONE '+05:30';

CREATE MATERIALIZED VIEW offset_fields AS
SELECT id, hour(ts) AS h, minute(ts) AS mi, CAST(ts AS DATE) AS dt, CAST(ts AS STRING) AS str,
       CAST(local AS TIMESTAMP) AS parsed
FROM (SELECT id, CAST(s AS TIMESTAMP) AS ts, local FROM events);

SET TIME ZONE 'UTC';

CREATE MATERIALIZED VIEW utc_fields AS
SELECT id, hour(ts) AS h, CAST(ts AS DATE) AS dt, CAST(ts AS STRING) AS str, date_trunc('DAY', ts) AS tr_day,
       CAST(local AS TIMESTAMP) AS parsed
FROM (SELECT id, CAST(s AS TIMESTAMP) AS ts, local FROM events);
