-- make_dt_interval over INT days, hours and minutes (NULLs, negatives) and
-- DOUBLE or DECIMAL seconds (rounded half up to microseconds), seen as a
-- timestamp (Spark writes no interval to Parquet).
CREATE MATERIALIZED VIEW dt_intervals AS
SELECT id, TIMESTAMP '2000-01-01 00:00:00' + make_dt_interval(i, i, i, d) AS t_all,
  TIMESTAMP '2000-01-01 00:00:00' + make_dt_interval(i) AS t_days,
  TIMESTAMP '2000-01-01 00:00:00' + make_dt_interval(1, cast(i AS SMALLINT), -3, dec) AS t_dec,
  TIMESTAMP '2000-01-01 00:00:00' + make_dt_interval(0, 0, i, d / 7) AS t_round,
  TIMESTAMP '2000-01-01 00:00:00' + make_dt_interval() AS t_zero
FROM b WHERE id <= 60;
