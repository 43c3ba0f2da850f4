-- events: JSON lines with a NULL array, map and struct, empty ones, and
-- NULL elements, values and fields.
CREATE TEMPORARY VIEW events (id BIGINT, tags ARRAY<STRING>, attrs MAP<STRING, BIGINT>,
  who STRUCT<name: STRING, `home town`: STRING, scores: ARRAY<DOUBLE>>)
AS SELECT * FROM read_files('data/events.jsonl', format => 'json');

-- places: Parquet written by Spark 4.1 (a struct field that is NOT NULL in
-- the file reads as a nullable one).
CREATE TEMPORARY VIEW places (id BIGINT, nums ARRAY<INT>, props MAP<STRING, STRING>,
  place STRUCT<lat: DOUBLE, lon: DOUBLE, tags: ARRAY<STRING>>)
AS SELECT * FROM read_files('data/places.parquet', format => 'parquet');
