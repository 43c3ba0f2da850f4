-- events: JSON lines with a NULL array, map and array of structs, empty
-- ones, NULL elements and a NULL struct element.
CREATE TEMPORARY VIEW events (id BIGINT, tags ARRAY<STRING>, attrs MAP<STRING, BIGINT>,
  items ARRAY<STRUCT<sku: STRING, qty: BIGINT>>, doc STRING,
  line STRING, grid ARRAY<ARRAY<INT>>)
AS SELECT * FROM read_files('data/events.jsonl', format => 'json');

-- clicks: a watched folder of JSON lines, read as a stream.
CREATE TEMPORARY VIEW clicks (user STRING, pages ARRAY<STRING>)
AS SELECT * FROM STREAM read_files('data/clicks/*.jsonl', format => 'json');
