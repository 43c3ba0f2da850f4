-- rows: arrays with NULL and empty ones, NULL elements, int boundaries,
-- unicode and empty strings; x is also a column (lambdas shadow it).
CREATE TEMPORARY VIEW rows (id BIGINT, xs ARRAY<INT>, ys ARRAY<INT>, ws ARRAY<STRING>, m MAP<STRING, INT>, x INT)
AS SELECT * FROM read_files('data/rows.jsonl', format => 'json');
