-- Digests of strings and binaries, and sha2's bit lengths (100: NULL).
CREATE MATERIALIZED VIEW digests AS
SELECT id, md5(s) AS md5_s, md5(unhex(hx)) AS md5_b, sha1(s) AS sha1_s, sha(unhex(hx)) AS sha_b,
  sha2(s, 0) AS sha2_0, sha2(s, 224) AS sha2_224, sha2(s, 256) AS sha2_256, sha2(s, 384) AS sha2_384,
  sha2(unhex(hx), 512) AS sha2_512, sha2(s, 100) AS sha2_bad, sha2(s, base * 16) AS sha2_col,
  crc32(s) AS crc_s, crc32(unhex(hx)) AS crc_b
FROM rows;

-- Spark's hash and xxhash64 of each type, of several arguments chained
-- (a NULL is skipped: hash(NULL) is the seed, 42).
CREATE MATERIALIZED VIEW row_hashes AS
SELECT id, hash(id) AS h_id, hash(s) AS h_s, hash(n) AS h_n, hash(i) AS h_i, hash(t) AS h_t, hash(f) AS h_f,
  hash(CAST(f AS FLOAT)) AS h_float, hash(dec) AS h_dec, hash(wide) AS h_wide, hash(dt) AS h_dt, hash(ts) AS h_ts,
  hash(CAST(ts AS TIMESTAMP_NTZ)) AS h_ntz, hash(flag) AS h_flag, hash(unhex(hx)) AS h_bin, hash(NULL) AS h_null,
  hash(CAST(t AS SMALLINT)) AS h_small, hash(CAST('NaN' AS DOUBLE)) AS h_nan,
  hash(id, s, n, i, t, f, dec, wide, dt, ts, flag) AS h_all, hash(s, NULL, n) AS h_skip,
  xxhash64(id) AS x_id, xxhash64(s) AS x_s, xxhash64(n) AS x_n, xxhash64(i) AS x_i, xxhash64(t) AS x_t,
  xxhash64(f) AS x_f, xxhash64(CAST(f AS FLOAT)) AS x_float, xxhash64(dec) AS x_dec, xxhash64(wide) AS x_wide,
  xxhash64(dt) AS x_dt, xxhash64(ts) AS x_ts, xxhash64(flag) AS x_flag, xxhash64(unhex(hx)) AS x_bin,
  xxhash64(NULL) AS x_null, xxhash64(concat(s, s, s, s, s)) AS x_long,
  xxhash64(id, s, n, i, t, f, dec, wide, dt, ts, flag) AS x_all
FROM rows;
