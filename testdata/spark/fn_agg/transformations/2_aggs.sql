-- The moments: one row per group (NULL below two rows where Spark's are).
CREATE MATERIALIZED VIEW moments AS
SELECT g, stddev(x) AS sd, stddev_samp(y) AS sd_y, std(i) AS sd_i, stddev_pop(x) AS sdp, variance(x) AS v,
  var_samp(d) AS v_d, var_pop(y) AS vp_y, skewness(x) AS sk, kurtosis(y) AS ku, skewness(t) AS sk_t
FROM m GROUP BY g;

-- Pairs: rows where either is NULL are skipped; regr_*(y, x).
CREATE MATERIALIZED VIEW pairs AS
SELECT g, corr(x, y) AS r, covar_samp(i, t) AS cs, covar_pop(x, d) AS cp,
  regr_count(y, x) AS rc, regr_avgx(y, x) AS ax, regr_avgy(y, x) AS ay, regr_avgx(y, i) AS ax_i,
  regr_sxx(y, x) AS sxx, regr_syy(y, x) AS syy, regr_sxy(y, x) AS sxy,
  regr_slope(y, x) AS slope, regr_intercept(y, x) AS icpt, regr_r2(y, x) AS r2, regr_r2(i, t) AS r2_it
FROM m GROUP BY g;

-- Conditions and bits, in their input types.
CREATE MATERIALIZED VIEW conds AS
SELECT g, count_if(b) AS ci, count_if(x > 0) AS ci_x, bool_and(b) AS ba, every(b) AS ev, bool_or(b) AS bo,
  some(b) AS so, any(x > 1) AS an, bit_and(t) AS bat, bit_or(i) AS boi, bit_xor(y) AS bxy, bit_and(z) AS baz,
  bit_xor(t) AS bxt
FROM m GROUP BY g;

-- max_by / min_by (ties on b: the last tied row), percentiles, try_.
CREATE MATERIALIZED VIEW ranks AS
SELECT g, max_by(s, y) AS mxs, min_by(s, y) AS mns, max_by(id, x) AS mxi, min_by(d, s) AS mnd,
  max_by(s, b) AS mxb, min_by(s, b) AS mnb, max_by(x, i) AS mxx,
  median(x) AS med, percentile(y, 0.25) AS p25, percentile(x, 0.9, f) AS p90f, percentile(i, 1) AS p1,
  percentile(d, 0) AS p0, percentile_approx(y, 0.5) AS pa, approx_percentile(x, 0.1, 100) AS pa10,
  percentile_approx(t, 1.0) AS pat,
  try_sum(y) AS ts, try_sum(z) AS tsz, try_sum(d) AS tsd, try_avg(x) AS ta, try_avg(d) AS tad, try_avg(z) AS taz
FROM m GROUP BY g;

-- Global aggregates, FILTER and DISTINCT.
CREATE MATERIALIZED VIEW whole AS
SELECT stddev(x) AS sd, stddev(DISTINCT y) AS sd_dy, count_if(DISTINCT b) AS ci_d, median(DISTINCT i) AS med_d,
  var_pop(x) FILTER (WHERE b) AS vp_b, count_if(b) FILTER (WHERE x > 0) AS ci_f, corr(x, y) FILTER (WHERE id < 12) AS r_f,
  max_by(s, id) FILTER (WHERE g = 'a') AS mx_f, percentile(y, 0.75) AS p75, bit_or(t) AS bo, try_sum(z) AS tsz,
  regr_slope(y, i) AS slope, kurtosis(x) AS ku
FROM m;

-- Over no rows: NULL, and count_if and regr_count 0.
CREATE MATERIALIZED VIEW empty AS
SELECT stddev(x) AS sd, var_pop(x) AS vp, corr(x, y) AS r, count_if(b) AS ci, regr_count(y, x) AS rc,
  bool_and(b) AS ba, bit_xor(i) AS bx, max_by(s, y) AS mx, median(x) AS med, percentile_approx(y, 0.5) AS pa,
  try_sum(y) AS ts, try_avg(d) AS ta
FROM m WHERE id > 100;

-- Grouping sets: each set's groups keep their own accumulators.
CREATE MATERIALIZED VIEW rolled AS
SELECT g, b, var_samp(x) AS v, max_by(s, id) AS mx, count_if(x > 0) AS ci, percentile(y, 0.5) AS p,
  bit_xor(i) AS bx, try_avg(d) AS ta
FROM m GROUP BY ROLLUP (g, b);

-- In expressions and HAVING.
CREATE MATERIALIZED VIEW spread AS
SELECT g, stddev(x) * 2 + 1 AS sd2, coalesce(bool_and(b), false) AS all_b
FROM m GROUP BY g HAVING stddev(x) > 1 OR count_if(b) > 1;

-- The moments, percentiles and pair statistics over windows: growing,
-- whole-partition, sliding and RANGE frames.
CREATE MATERIALIZED VIEW rolling AS
SELECT id, g, stddev(x) OVER (PARTITION BY g ORDER BY id) AS sd_run,
  var_pop(y) OVER (PARTITION BY g) AS vp_all,
  skewness(x) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND 2 FOLLOWING) AS sk_slide,
  kurtosis(i) OVER (PARTITION BY g ORDER BY id ROWS BETWEEN UNBOUNDED PRECEDING AND 1 FOLLOWING) AS ku,
  stddev_pop(t) OVER (ORDER BY y RANGE BETWEEN 5 PRECEDING AND CURRENT ROW) AS sdp_range,
  variance(t) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 PRECEDING) AS v_prev,
  var_samp(f) OVER (PARTITION BY b) AS vs_b, std(z) OVER (PARTITION BY g ORDER BY id DESC) AS sd_z,
  median(x) OVER (PARTITION BY g) AS med_g, percentile(y, 0.25) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS p25_slide,
  percentile(i, 1) OVER (PARTITION BY g ORDER BY id) AS p1_run,
  corr(x, y) OVER (PARTITION BY g) AS r_g, covar_pop(i, t) OVER (ORDER BY id ROWS BETWEEN 2 PRECEDING AND CURRENT ROW) AS cp_slide,
  covar_samp(x, f) OVER (PARTITION BY b ORDER BY id) AS cs_run, regr_slope(y, x) OVER (PARTITION BY g ORDER BY id) AS slope_run,
  regr_intercept(y, i) OVER () AS icpt_all, regr_r2(y, t) OVER (ORDER BY id ROWS BETWEEN 3 PRECEDING AND 1 FOLLOWING) AS r2_slide,
  regr_sxx(y, x) OVER (PARTITION BY g) AS sxx_g, regr_syy(y, x) OVER (PARTITION BY g) AS syy_g, regr_sxy(t, i) OVER (ORDER BY y) AS sxy_y
FROM m;
