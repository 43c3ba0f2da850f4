-- get_json_object: a string is unquoted, anything else compact JSON, with
-- numbers as Jackson rewrites them; NULL for no match, a JSON null, a bad
-- path and malformed JSON (what follows the first value is ignored).
CREATE MATERIALIZED VIEW paths AS
SELECT id, get_json_object(j, '$') AS root, get_json_object(j, '$.a') AS a, get_json_object(j, '$.s') AS s,
  get_json_object(j, '$.d') AS d, get_json_object(j, '$.e') AS e, get_json_object(j, '$.f') AS f,
  get_json_object(j, '$.g') AS g, get_json_object(j, '$.h') AS h, get_json_object(j, '$.big') AS big,
  get_json_object(j, '$.n') AS n, get_json_object(j, '$.t') AS t, get_json_object(j, '$.a.b') AS ab,
  get_json_object(j, '$.a.b[1]') AS ab1, get_json_object(j, "$['a b']") AS quoted, get_json_object(j, '$.A') AS upper_a,
  get_json_object(j, '$[2]') AS i2, get_json_object(j, '$[9]') AS i9, get_json_object(j, '$[*]') AS all_elems,
  get_json_object(j, '$.a[*]') AS a_all, get_json_object(j, '$.a[*].b') AS a_b, get_json_object(j, '$.a[*][0]') AS a_first,
  get_json_object(j, '$.s.x[*]') AS sx, get_json_object(j, '$.a.*') AS star, get_json_object(j, '$..a') AS bad_path,
  get_json_object(j, p) AS by_row
FROM docs;
