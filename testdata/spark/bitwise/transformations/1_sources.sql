-- rows: one row of NULLs (id 5), each integer type's bounds, -1, 0, and
-- shift counts c (INT) and cl (BIGINT) below zero, past each width (33,
-- 64, 65) and at it.
CREATE TEMPORARY VIEW rows (id BIGINT NOT NULL, t TINYINT, s SMALLINT, i INT, l BIGINT, c INT, cl BIGINT)
AS SELECT * FROM read_files('data/rows.csv', format => 'csv', header => 'true', nullValue => '');
