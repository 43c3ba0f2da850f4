-- The DOUBLE functions: trigonometric, hyperbolic, logarithms, constants.
-- asinh skips row 7 (d = -1e-300): Spark 4.1 computes ln(x + sqrt(x² + 1))
-- as written, which cancels for negative x (asinh(-1e-300) is 0.0 and
-- asinh(-1e8) -Infinity on 4.1.4), while 4.2 and the native engine give the
-- accurate -1e-300.
CREATE MATERIALIZED VIEW trig AS
SELECT id,
  sin(d) AS sin_d, cos(d) AS cos_d, tan(d) AS tan_d, cot(d) AS cot_d, sec(d) AS sec_d, csc(d) AS csc_d,
  asin(d) AS asin_d, acos(d) AS acos_d, atan(d) AS atan_d, atan2(d, i) AS atan2_di, atan2(-0.0, -1) AS atan2_neg_zero,
  sinh(d) AS sinh_d, cosh(d) AS cosh_d, tanh(d) AS tanh_d, CASE WHEN id <> 7 THEN asinh(d) END AS asinh_d, acosh(d) AS acosh_d, atanh(d) AS atanh_d,
  cbrt(d) AS cbrt_d, expm1(d) AS expm1_d, degrees(d) AS degrees_d, radians(i) AS radians_i, rint(d) AS rint_d,
  signum(d) AS signum_d, sign(i) AS sign_i, signum(m) AS signum_m, hypot(d, l) AS hypot_dl,
  sin(m) AS sin_m, cos(l) AS cos_l, atan(n) AS atan_n
FROM nums;

CREATE MATERIALIZED VIEW logs AS
SELECT id,
  log(d) AS log_d, log(2, d) AS log2_d, log(d, 8) AS log_base_d, log(i, l) AS log_il, log2(d) AS log2_fn, log2(l) AS log2_l,
  log1p(d) AS log1p_d, log1p(m) AS log1p_m, pi() AS pi, e() AS e, pi() * n AS pi_n
FROM nums;
