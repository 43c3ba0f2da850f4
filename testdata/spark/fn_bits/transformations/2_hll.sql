-- approx_count_distinct per group, of every type, at the default
-- precision (9) and at relativeSD 0.01 (14).
CREATE MATERIALIZED VIEW acd_groups AS
SELECT g, approx_count_distinct(i) AS a_i, approx_count_distinct(l) AS a_l, approx_count_distinct(s) AS a_s,
  approx_count_distinct(d) AS a_d, approx_count_distinct(dec) AS a_dec, approx_count_distinct(dt) AS a_dt,
  approx_count_distinct(ts) AS a_ts, approx_count_distinct(flag) AS a_flag, approx_count_distinct(s, 0.01) AS a_s14,
  approx_count_distinct(cast(i AS SMALLINT)) AS a_t, approx_count_distinct(cast(d AS FLOAT)) AS a_f,
  approx_count_distinct(i) FILTER (WHERE flag) AS a_if, count(DISTINCT i) AS exact_i
FROM b GROUP BY g;

-- Global, at relativeSD 0.39 (16 registers, 300 values: from 5m up),
-- and of NULL.
CREATE MATERIALIZED VIEW acd_global AS
SELECT approx_count_distinct(id, 0.39) AS a_id, approx_count_distinct(l, 0.39) AS a_l,
  approx_count_distinct(id) AS a_id9, approx_count_distinct(NULL) AS a_null, approx_count_distinct(DISTINCT s) AS a_ds
FROM b;

-- Grouping sets, and an empty input (0).
CREATE MATERIALIZED VIEW acd_sets AS
SELECT g, flag, approx_count_distinct(s) AS a_s, approx_count_distinct(dec) AS a_dec
FROM b GROUP BY GROUPING SETS ((g), (flag), ());

CREATE MATERIALIZED VIEW acd_empty AS
SELECT approx_count_distinct(s) AS a_s FROM b WHERE id < 0;
