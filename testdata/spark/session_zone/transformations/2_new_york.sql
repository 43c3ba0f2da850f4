SET spark.sql.session.timeZone = America/New_York;

CREATE TEMPORARY VIEW ny_events AS SELECT id, CAST(s AS TIMESTAMP) AS ts, local FROM events;

CREATE MATERIALIZED VIEW ny_fields AS
SELECT id, ts, hour(ts) AS h, minute(ts) AS mi, second(ts) AS se, day(ts) AS d, dayofmonth(ts) AS dom,
       month(ts) AS mo, year(ts) AS y, EXTRACT(HOUR FROM ts) AS xh,
       CAST(ts AS DATE) AS dt, to_date(ts) AS td, CAST(ts AS STRING) AS str,
       date_trunc('DAY', ts) AS tr_day, date_trunc('HOUR', ts) AS tr_hour, date_trunc('MONTH', ts) AS tr_month,
       date_trunc('YEAR', CAST(ts AS DATE)) AS tr_year_of_date,
       CAST(local AS TIMESTAMP) AS parsed, to_timestamp(local) AS parsed2,
       CAST(CAST(ts AS DATE) AS TIMESTAMP) AS midnight, unix_timestamp(CAST(ts AS DATE)) AS midnight_secs,
       ts > TIMESTAMP '2024-03-10 01:00:00' AS after_one, ts - TIMESTAMP '2024-03-10 00:00:00' > INTERVAL 3 HOURS AS since_ntz,
       ts - CAST('2024-03-10 00:00:00' AS TIMESTAMP) > INTERVAL 3 HOURS AS since_ltz,
       ts - CAST('2024-03-10 00:00:00' AS TIMESTAMP) > INTERVAL 2 HOURS AS since_ltz2,
       CAST(ts AS TIMESTAMP) = CAST(local AS TIMESTAMP) AS round_trips,
       hour(TIMESTAMP '2024-03-10 12:00:00Z') AS lit_z_h, CAST(TIMESTAMP '2024-11-03 05:30:00+01:00' AS STRING) AS lit_off_str,
       ts > TIMESTAMP '2024-03-10 06:00:00Z' AS after_lit_z
FROM ny_events;
