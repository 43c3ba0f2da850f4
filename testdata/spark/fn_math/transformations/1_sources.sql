-- nums: i INT and l BIGINT reach both boundaries; ds is a double written as
-- text (NaN, Infinity, -Infinity, 1e300, a subnormal-adjacent -1e-300), cast
-- in the view below; m is DECIMAL(10,3); n is a small INT (factorial, bround).
CREATE TEMPORARY VIEW nums_raw (id BIGINT NOT NULL, i INT, l BIGINT, ds STRING, m DECIMAL(10,3), n INT)
AS SELECT * FROM read_files('data/nums.csv', format => 'csv', header => 'true', nullValue => '');

CREATE TEMPORARY VIEW nums AS
SELECT id, i, l, CAST(ds AS DOUBLE) AS d, m, n FROM nums_raw;
