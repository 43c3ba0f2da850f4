-- Rounding, integral and positive remainders, factorial, width_bucket, and
-- the try_ operators on the boundaries (NULL where the operator would fail).
CREATE MATERIALIZED VIEW rounding AS
SELECT id,
  bround(d) AS bround_d, bround(d, 1) AS bround_d1, bround(d, -1) AS bround_dm1,
  bround(m) AS bround_m, bround(m, 2) AS bround_m2, bround(m, -1) AS bround_mm1,
  bround(n, -1) AS bround_n, bround(CAST(n AS BIGINT) * 5, -1) AS bround_l, bround(CAST(n AS TINYINT), -1) AS bround_t,
  bround(CAST(d AS FLOAT), 1) AS bround_f, round(d, 1) AS round_d1
FROM nums;

CREATE MATERIALIZED VIEW integral AS
SELECT id,
  pmod(i, 3) AS pmod_i, pmod(l, -7) AS pmod_l, pmod(n, nullif(i, 0)) AS pmod_ni, pmod(d, 2.5) AS pmod_d, pmod(m, 0.7) AS pmod_m,
  pmod(CAST(n AS SMALLINT), CAST(4 AS SMALLINT)) AS pmod_s,
  div(l, 3) AS div_l, div(i, -2) AS div_i, div(n, 4) AS div_n, div(l, nullif(i, 0)) AS div_li,
  positive(m) AS positive_m, positive(i) AS positive_i, negative(d) AS negative_d, negative(m) AS negative_m,
  negative(n) AS negative_n, negative(CAST(n AS BIGINT)) AS negative_l,
  factorial(n) AS factorial_n, factorial(CAST(n AS BIGINT)) AS factorial_l,
  width_bucket(d, 0, 10, 4) AS wb_d, width_bucket(i, 10, -10, 3) AS wb_i, width_bucket(m, -1, 1, n) AS wb_m,
  width_bucket(n, 0, 20, l) AS wb_nl
FROM nums;

CREATE MATERIALIZED VIEW tries AS
SELECT id,
  try_add(i, 1) AS add_i, try_add(l, l) AS add_l, try_add(m, m) AS add_m, try_add(d, i) AS add_d,
  try_subtract(i, 1) AS sub_i, try_subtract(l, 1) AS sub_l, try_subtract(n, m) AS sub_nm,
  try_multiply(i, 2) AS mul_i, try_multiply(l, l) AS mul_l, try_multiply(m, m) AS mul_m, try_multiply(d, 2) AS mul_d,
  try_divide(l, i) AS div_li, try_divide(m, n) AS div_mn, try_divide(d, i) AS div_di, try_divide(i, 0) AS div_zero,
  try_mod(l, i) AS mod_li, try_mod(m, n) AS mod_mn, try_mod(d, i) AS mod_di
FROM nums;
