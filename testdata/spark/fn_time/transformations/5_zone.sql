-- The same functions under a session zone that is not UTC: fields, dates,
-- texts and parses are New York's wall clock (the DST gap of 2024-03-10
-- and the overlap of 2024-11-03 are in the data), offsets New York's.
SET TIME ZONE 'America/New_York';

CREATE MATERIALIZED VIEW time_zone AS
SELECT d.id, dayofweek(ts) AS dow1, weekofyear(ts) AS woy, last_day(ts) AS ld, date_part('hour', ts) AS h,
       EXTRACT(SECOND FROM ts) AS sec, EXTRACT(DOY FROM d) AS doy, datediff(ts, d) AS dd, months_between(ts, d) AS mb,
       trunc(ts, 'MM') AS tr, next_day(ts, 'su') AS nd, unix_seconds(ts) AS us, unix_date(CAST(ts AS DATE)) AS ud,
       date_format(ts, 'yyyy-MM-dd HH:mm:ss.SSS XXX Z') AS f1, date_format(d, 'yyyy-MM-dd HH:mm xxx') AS f2,
       from_unixtime(unix_seconds(ts), 'yyyy-MM-dd HH:mm:ss X') AS fu, unix_timestamp(d) AS ut,
       to_timestamp(CASE WHEN t.id IN (1, 9, 12) THEN t.t END, 'yyyy-MM-dd HH:mm:ss') AS p1,
       to_timestamp(CASE WHEN t.id = 10 THEN t.t END, 'yyyy-MM-dd HH:mm:ss Z') AS p2,
       to_date(CASE WHEN t.id = 6 THEN t.t END, 'yyyy-MM-dd\'T\'HH:mm:ss.SXXX') AS p3,
       unix_timestamp(CASE WHEN t.id IN (1, 9, 12) THEN t.t END) AS p4
FROM days d JOIN texts t ON d.id = t.id;

-- current_date(), current_timestamp() and their kin are fixed once per run
-- (natively) or per query (Spark), so the lane compares stable facts about
-- them, not their values.
CREATE MATERIALIZED VIEW time_now AS
SELECT id, current_date() >= DATE'2026-01-01' AS d_recent, current_timestamp() > TIMESTAMP'2026-01-01 00:00:00' AS ts_recent,
       curdate() = current_date AS same_day, now() = current_timestamp AS same_ts,
       current_date() = CAST(current_timestamp() AS DATE) AS date_of_ts, hour(localtimestamp()) = hour(now()) AS local_hour,
       unix_timestamp() = unix_seconds(current_timestamp()) AS unix_now, datediff(current_date(), d) > 0 AS past
FROM days;

CREATE MATERIALIZED VIEW time_zones_ny AS
SELECT id, from_utc_timestamp(ts, 'UTC') AS fu1, to_utc_timestamp(ts, '-08:00') AS tu1, from_utc_timestamp(d, 'Asia/Kolkata') AS fu2
FROM days;

CREATE MATERIALIZED VIEW time_units_ny AS
SELECT id, timestampadd(HOUR, 24, ts) AS a_hour, timestampadd(DAY, 1, ts) AS a_day, timestampadd(MONTH, 1, ts) AS a_month,
       timestampdiff(DAY, d, ts) AS d_day, timestampdiff(HOUR, d, ts) AS d_hour, timestampdiff(MONTH, ts, TIMESTAMP'2024-11-03 01:30:00') AS d_month
FROM days;

CREATE MATERIALIZED VIEW time_make_ny AS
SELECT id, make_timestamp(2024, 3, 10, 2, abs(n % 60), 0) AS mt1, make_timestamp(2024, 11, 3, 1, 30, abs(n % 60)) AS mt2
FROM days;
