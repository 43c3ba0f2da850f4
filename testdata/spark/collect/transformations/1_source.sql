-- g groups: a (NULLs, a repeated value, -0.0 before 0.0), b (unicode),
-- c (every value NULL), NULL (the NULL key, bigint extremes).
CREATE TEMPORARY VIEW c (id BIGINT NOT NULL, g STRING, x BIGINT, s STRING, d DOUBLE, b BOOLEAN)
AS SELECT * FROM read_files('data/c.csv', format => 'csv', header => 'true', nullValue => '');
