-- arr: JSON lines with NULL, empty and one-element arrays and maps, NULL
-- elements, unicode, -0.0 and INT's boundaries.
CREATE TEMPORARY VIEW arr (id BIGINT, xs ARRAY<INT>, ys ARRAY<INT>, ss ARRAY<STRING>, ds ARRAY<DOUBLE>,
  nn ARRAY<ARRAY<INT>>, m MAP<STRING, BIGINT>, m2 MAP<STRING, BIGINT>, kv STRING, k INT)
AS SELECT * FROM read_files('data/arrays.jsonl', format => 'json');
