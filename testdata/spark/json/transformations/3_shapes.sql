-- json_array_length and json_object_keys: NULL for anything but the
-- outermost array (object), and for malformed text; a repeated key is
-- listed each time.
CREATE MATERIALIZED VIEW shapes AS
SELECT id, json_array_length(j) AS len, json_object_keys(j) AS keys,
  json_array_length(get_json_object(j, '$.a')) AS a_len, json_object_keys(get_json_object(j, '$.a[0]')) AS a0_keys
FROM docs;

-- schema_of_json of literals: Spark's inference with its default options
-- (integers BIGINT, then DECIMAL(p,0), then DOUBLE; struct fields sorted
-- by name, a repeated one kept; array elements merged; empty structs and
-- empty names dropped; names back-quoted where Spark quotes them).
CREATE MATERIALIZED VIEW schemas AS
SELECT id,
  schema_of_json('{"b":1,"a":[1.5,2],"c":"x","d":null,"e":true,"f":{"z":1,"y":[]},"g":[1,"x"],"h":12345678901234567890}') AS mixed,
  schema_of_json('[{"a":1},{"a":1.5,"b":[]},{"A":null}]') AS merged, schema_of_json('{"a":1,"a":"x","a b":2,"c`d":3,"1a":4,"é":5}') AS names,
  schema_of_json('{"a":{},"":1,"b":[{}],"c":[[]],"d":{"x":null}}') AS dropped, schema_of_json('[1, 12345678901234567890, 123456789012345678901234567890123456789012]') AS wide,
  schema_of_json('') AS empty, schema_of_json("{'a':'single'} trailing") AS single, schema_of_json('{"s":"\\ud83d\\ude00 2020-01-01"}') AS str
FROM docs
WHERE id = 1;
