CREATE MATERIALIZED VIEW time_arith AS
SELECT id, datediff(d, DATE'2024-01-01') AS dd, date_diff(ts, d) AS dd2, datediff(ds, '2000-02-29') AS dd3,
       date_add(d, 1) AS add1, dateadd(d, CAST(-40 AS SMALLINT)) AS add2, date_sub(d, 366) AS sub1,
       date_add(d, CAST(n % 1000 AS INT)) AS addn, date_sub(ts, CAST(n % 100 AS TINYINT)) AS subn,
       add_months(d, 1) AS am1, add_months(d, -13) AS am2, add_months(ts, CAST(n % 100 AS BIGINT)) AS amn,
       months_between(ts, d) AS mb, months_between(d, DATE'2024-02-29', false) AS mb2, months_between(ds, '2000-01-31') AS mb3,
       next_day(d, 'mon') AS nd1, next_day(d, dow) AS nd2, trunc(d, unit) AS tr1, trunc(ts, 'Q') AS tr2, trunc(d, 'week') AS tr3,
       make_date(2024, 2, 29) AS md1, make_date(year(d), month(d), 1) AS md2, make_date(CAST(n AS BIGINT) % 100 + 2000, 12, 31) AS md3
FROM days;

CREATE MATERIALIZED VIEW time_epoch AS
SELECT id, unix_date(d) AS ud, date_from_unix_date(CAST(n % 100000 AS INT)) AS dfu, date_from_unix_date(unix_date(d)) AS dfu2,
       unix_seconds(ts) AS us, unix_millis(ts) AS ums, unix_micros(ts) AS umu
FROM days;

CREATE MATERIALIZED VIEW time_zones AS
SELECT id, from_utc_timestamp(ts, 'America/New_York') AS fu1, to_utc_timestamp(ts, 'America/New_York') AS tu1,
       from_utc_timestamp(d, '+05:30') AS fu2, to_utc_timestamp(ds, 'Asia/Tokyo') AS tu2,
       to_utc_timestamp(from_utc_timestamp(ts, 'Europe/Oslo'), 'Europe/Oslo') AS round_trip
FROM days;

CREATE MATERIALIZED VIEW time_units AS
SELECT id, timestampadd(HOUR, n % 1000, ts) AS a_hour, timestampadd(day, 1, d) AS a_day, timestampadd(MONTH, n % 100, ds) AS a_month,
       timestampadd(QUARTER, CAST(n % 10 AS TINYINT), ts) AS a_q, timestampadd(YEAR, 1, d) AS a_year, timestampadd(WEEK, -1, ts) AS a_week,
       timestampadd(MICROSECOND, CAST(n AS BIGINT) * 1000000, ts) AS a_us, timestampadd(MILLISECOND, -1, ts) AS a_ms, timestampadd(DAYOFYEAR, 366, d) AS a_doy,
       timestampdiff(HOUR, ts, TIMESTAMP'2024-03-10 00:00:00') AS d_hour, timestampdiff(DAY, ts, d) AS d_day, timestampdiff(MONTH, d, DATE'2024-02-29') AS d_month,
       timestampdiff(YEAR, ds, '2024-02-29') AS d_year, timestampdiff(QUARTER, d, ts) AS d_q, timestampdiff(WEEK, d, ts) AS d_week,
       timestampdiff(MILLISECOND, ts, TIMESTAMP'2024-01-01 00:00:00.0015') AS d_ms, timestampdiff(MICROSECOND, d, ts) AS d_us,
       timestampdiff(SECOND, ts, d) AS d_sec, timestampdiff(MINUTE, d, ts) AS d_min
FROM days;

CREATE MATERIALIZED VIEW time_make AS
SELECT id, make_timestamp(year(d), month(d), day(d), 10, 30, 45.123456) AS mt1, make_timestamp(2024, 12, 31, 23, 59, 60) AS mt2,
       make_timestamp(2024, 1, 1, 1, 1, 1.2345678D) AS mt3, make_timestamp(2024, 3, 10, 2, 30, 0, 'America/New_York') AS mt4,
       make_timestamp(2024, 1, 1, 0, 0, CAST(abs(n % 60) AS DOUBLE) / 4, '+05:30') AS mt5, make_timestamp(2000, 2, 29, hour(ts), minute(ts), abs(n % 60)) AS mt6
FROM days;
