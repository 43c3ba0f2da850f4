-- g groups: a (200 rows), b (10), c (i, s and d all NULL), é (unicode),
-- NULL (the NULL key).
CREATE TEMPORARY VIEW b (id BIGINT NOT NULL, g STRING, i INT, l BIGINT, s STRING, d DOUBLE, dec DECIMAL(10,2),
  dt DATE, ts TIMESTAMP, flag BOOLEAN)
AS SELECT * FROM read_files('data/b.csv', format => 'csv', header => 'true', nullValue => '');
