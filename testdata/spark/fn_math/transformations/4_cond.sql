-- The NULL and NaN handling functions. The lazy ones must not evaluate the
-- argument they do not return: div(l, i) fails where i = 0 (row 1), and
-- these calls never evaluate it there.
CREATE MATERIALIZED VIEW nulls AS
SELECT id,
  nvl(i, -1) AS nvl_i, ifnull(d, 0) AS ifnull_d, nvl(m, n) AS nvl_mn, nvl(CASE WHEN i = 0 THEN -1 END, div(l, i)) AS nvl_lazy,
  nvl2(i, 'set', 'null') AS nvl2_i, nvl2(m, n, l) AS nvl2_mnl, nvl2(nullif(i <> 0, true), 0, div(l, i)) AS nvl2_lazy,
  isnull(i) AS isnull_i, isnotnull(d) AS isnotnull_d, isnull(m + n) AS isnull_sum,
  equal_null(i, n) AS eq_in, equal_null(d, m) AS eq_dm, equal_null(n, 3) AS eq_n3,
  zeroifnull(i) AS zin_i, zeroifnull(m) AS zin_m, zeroifnull(d) AS zin_d, zeroifnull(CAST(n AS TINYINT)) AS zin_t,
  nullifzero(i) AS niz_i, nullifzero(d) AS niz_d, nullifzero(m) AS niz_m, nullifzero(l) AS niz_l,
  isnan(d) AS isnan_d, isnan(i) AS isnan_i, isnan(m) AS isnan_m,
  nanvl(d, -1) AS nanvl_d, nanvl(d, div(l, i)) AS nanvl_lazy, nanvl(CAST(d AS FLOAT), CAST(n AS FLOAT)) AS nanvl_f,
  nanvl(d, i) AS nanvl_di
FROM nums;

-- raise_error and assert_true where they hold (their failures are in
-- testdata/scripts/run_fn_math_errors.txtar): their type is NULL's, so they
-- sit in a branch or a coalesce.
CREATE MATERIALIZED VIEW checks AS
SELECT id,
  CASE WHEN n > 100 THEN raise_error(concat('n too big: ', CAST(n AS STRING))) ELSE n END AS n_checked,
  coalesce(assert_true(id > 0, 'id must be positive'), id) AS id_checked,
  isnull(assert_true(id < 100 OR i IS NULL, 'id too big')) AS asserted
FROM nums;
