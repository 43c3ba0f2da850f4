-- Every non-regular-expression string function, over columns and constants.
-- (The UTF-8 functions see valid strings only: pipeline SQL has no binary
-- literal, and a CSV reader decodes its bytes; sqlfn's tests hold the
-- invalid cases, with Spark's answers.)
CREATE MATERIALIZED VIEW shapes AS
SELECT id,
  concat_ws('|', s, d, NULL, 'z') AS cws, concat_ws(d, s, s) AS cws2, concat_ws(NULL, s) AS cws_null,
  split_part(s, d, k) AS sp, split_part(s, ' ', -1) AS sp_last, split_part(s, '', 1) AS sp_empty,
  initcap(s) AS ic, lpad(s, n, d) AS lp, lpad(s, 12) AS lp2, rpad(s, n, 'xé') AS rp, rpad(s, 4) AS rp2,
  translate(s, 'elo😀', 'EL0') AS tr, instr(s, d) AS ins, locate(d, s) AS loc, locate(d, s, n) AS loc3,
  position(d, s, 2) AS pos, POSITION('o' IN s) AS pos2, repeat(s, n) AS rep, reverse(s) AS rev, left(s, n) AS l, right(s, n) AS r,
  btrim(s) AS bt, btrim(s, ' paéd') AS bt2, ascii(s) AS asc, chr(n * 30) AS ch, char(id + 60) AS ch2,
  bit_length(s) AS bits, octet_length(s) AS octets, len(s) AS ln, space(n) AS sp3
FROM words;

CREATE MATERIALIZED VIEW measures AS
SELECT id,
  substring_index(s, d, n) AS si, substring_index(s, ' ', -1) AS si2,
  overlay(s, '#', 3) AS ov, overlay(s, d, n, k) AS ov2, overlay(s, 'XY', n) AS ov3,
  levenshtein(s, 'hello') AS lev, levenshtein(s, d, 3) AS lev2, levenshtein(s, 'hallo world', n) AS lev3,
  soundex(s) AS sx, soundex(d) AS sx2, find_in_set(d, s) AS fis, find_in_set('b', s) AS fis2,
  elt(1, s, d) AS e1, elt(abs(k), s, d, 'three', NULL, 'five') AS e2,
  mask(s) AS m1, mask(s, 'U', NULL, '#', '_') AS m2, mask(d, NULL, 'é') AS m3,
  format_number(n * 1234.5678, k) AS fn1, format_number(CAST(n AS DOUBLE) * -1234.5625, 3) AS fn2,
  format_number(n * 1000000, abs(k)) AS fn3, format_number(CAST(id AS DECIMAL(6,1)) / -8, 2) AS fn4,
  luhn_check(s) AS lu, luhn_check(d) AS lu2, quote(s) AS q, is_valid_utf8(s) AS v1, make_valid_utf8(s) AS v2,
  validate_utf8(s) AS v3, try_validate_utf8(s) AS v4,
  format_string('%s-%05d|%-6s|%S|%2$s%%%n', s, n, d, s) AS fs, printf('[%8s] %d %s', d, id, n > 0) AS pf,
  format_string('%d|%5s', NULL, NULL) AS fs2
FROM words;
