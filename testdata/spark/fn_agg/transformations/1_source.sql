-- g groups: a (five rows, NULLs), b (one row), c (x all NULL), é (unicode,
-- a huge x), NULL (the NULL key); z overflows a bigint sum in a and b.
CREATE TEMPORARY VIEW m (id BIGINT NOT NULL, g STRING, x DOUBLE, y BIGINT, i INT, b BOOLEAN, s STRING,
  d DECIMAL(10,2), t SMALLINT, f BIGINT, z BIGINT)
AS SELECT * FROM read_files('data/m.csv', format => 'csv', header => 'true', nullValue => '');
