-- from_json's malformed values (issue 20), PERMISSIVE: the value is kept
-- with what converted and its text in the corrupt-record field
-- (_corrupt_record when the schema declares it, or the field
-- columnNameOfCorruptRecord names). Malformed: not JSON, not an object
-- (an array, a string), a field that does not convert (a BIGINT out of
-- range, an INT array with an object in it, a number for a STRUCT); not
-- malformed: a key in another case, an unknown key, an empty text (NULL).
CREATE MATERIALIZED VIEW corrupt AS
SELECT id, from_json(j, 'a STRING, big BIGINT, _corrupt_record STRING') AS c,
  from_json(j, 'a STRUCT<b: ARRAY<INT>>, bad STRING', map('mode', 'PERMISSIVE', 'columnNameOfCorruptRecord', 'bad')) AS named
FROM docs;
