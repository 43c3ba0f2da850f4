CREATE MATERIALIZED VIEW time_fields AS
SELECT id, dayofweek(d) AS dow1, weekday(d) AS wd, dayofyear(d) AS doy, weekofyear(d) AS woy, quarter(d) AS q,
       dayofweek(ts) AS ts_dow, weekofyear(ds) AS s_woy, last_day(d) AS ld, last_day(ts) AS ts_ld,
       date_part('YEAROFWEEK', d) AS yow, date_part('dow_iso', d) AS dow_iso, date_part('doy', ts) AS p_doy,
       date_part('week', d) AS p_week, date_part('qtr', d) AS p_q, date_part('hour', d) AS p_hour,
       date_part('SECOND', ts) AS p_sec, date_part('sec', ts) AS p_sec2,
       date_part('minute', ts) AS p_min, date_part('y', ts) AS p_y,
       EXTRACT(HOUR FROM ts) AS x_hour, EXTRACT(QUARTER FROM d) AS x_q, EXTRACT(SECOND FROM ts) AS x_sec,
       EXTRACT(DOW FROM ts) AS x_dow, EXTRACT(WEEK FROM ts) AS x_week
FROM days;
