-- from_json with DDL schemas (PERMISSIVE, partial results): numbers,
-- booleans, objects and arrays read into a STRING field as their text, a
-- string or an out-of-range number into a numeric field is NULL, an array
-- with an element that does not convert is NULL, names match exactly (the
-- last of a repeated one wins), malformed JSON is a struct of NULLs and an
-- empty text NULL.
CREATE MATERIALIZED VIEW parsed AS
SELECT id, from_json(j, 'a STRING, s STRING, d DOUBLE, n INT, t BOOLEAN, big BIGINT, e DOUBLE, g INT, h TINYINT') AS flat,
  from_json(j, 'STRUCT<a: STRUCT<b: ARRAY<STRING>>, s: STRUCT<x: ARRAY<BOOLEAN>>>') AS deep,
  from_json(j, 'a ARRAY<STRUCT<b: INT, c: BIGINT>>, d FLOAT, f DOUBLE') AS arr,
  from_json(j, 'a MAP<STRING, STRING>, `a b` STRUCT<`c]`: INT>') AS maps,
  from_json(j, 'a INT').a AS a_int, from_json(to_json(named_struct('k', id, 'v', p)), 'k SMALLINT, v STRING') AS round_trip
FROM docs;
