-- Bit functions: bit_count of every width (sign-extended to 64 bits),
-- bit_get at each type's top bit, shifts modulo the width (a TINYINT
-- shifts as an INT), the bitmap positions, and conv between bases (base
-- 1: NULL).
CREATE MATERIALIZED VIEW bits AS
SELECT id, bit_count(n) AS bc_n, bit_count(i) AS bc_i, bit_count(t) AS bc_t, bit_count(flag) AS bc_flag,
  bit_get(n, 63) AS bg_n, bit_get(t, 7) AS bg_t, getbit(i, 0) AS gb_i, bit_get(i, 31) AS bg_i,
  shiftleft(i, 1) AS sl_i, shiftleft(n, 3) AS sl_n, shiftleft(t, 9) AS sl_t, shiftleft(i, 33) AS sl_wrap,
  shiftright(n, 65) AS sr_n, shiftright(i, -1) AS sr_neg, shiftrightunsigned(i, 4) AS sru_i,
  shiftrightunsigned(n, 60) AS sru_n,
  conv(num, base, 10) AS cv_10, conv(num, base, -10) AS cv_signed, conv(num, base, 2) AS cv_2,
  bitmap_bucket_number(n) AS bm_bucket, bitmap_bucket_number(i) AS bm_bucket_i, bitmap_bit_position(n) AS bm_pos,
  bitmap_bit_position(t) AS bm_pos_t, bitmap_bit_position(f) AS bm_pos_f, bitmap_count(unhex(hx)) AS bm_count,
  conv(num, 10, 36) AS cv_36, conv(num, 10, -16) AS cv_neg16, conv(n, 10, 16) AS cv_int, conv(t, 10, -2) AS cv_tiny
FROM rows;
