-- json_array_length and json_object_keys: NULL for anything but the
-- outermost array (object), and for malformed text; a repeated key is
-- listed each time.
CREATE MATERIALIZED VIEW shapes AS
SELECT id, json_array_length(j) AS len, json_object_keys(j) AS keys,
  json_array_length(get_json_object(j, '$.a')) AS a_len, json_object_keys(get_json_object(j, '$.a[0]')) AS a0_keys
FROM docs;
