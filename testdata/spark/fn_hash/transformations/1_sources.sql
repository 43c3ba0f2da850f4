-- rows: one row of NULLs (id 4), an empty string (id 2), unicode, each
-- integer's bounds, -0.0, a wide DECIMAL, dates and timestamps before 1970.
CREATE TEMPORARY VIEW rows (id BIGINT NOT NULL, s STRING, n BIGINT, i INT, t TINYINT, f DOUBLE, dec DECIMAL(10,2),
  wide DECIMAL(30,4), dt DATE, ts TIMESTAMP, flag BOOLEAN, b64 STRING, hx STRING, url STRING, num STRING, base INT)
AS SELECT * FROM read_files('data/rows.csv', format => 'csv', header => 'true', nullValue => '');
