-- docs: JSON text (j) with a path per row (p); id 8 is a NULL text, id 7
-- an empty one, id 15 a NULL path.
CREATE TEMPORARY VIEW docs (id BIGINT, j STRING, p STRING)
AS SELECT * FROM read_files('data/docs.jsonl', format => 'json');
