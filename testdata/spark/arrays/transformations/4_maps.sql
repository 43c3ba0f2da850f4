-- The map functions.
CREATE MATERIALIZED VIEW arr_maps AS
SELECT id, map_from_arrays(array('id', 'k'), array(id, k)) AS from_arrays,
  map_from_entries(array(named_struct('k', 'id', 'v', id), named_struct('k', 'k', 'v', CAST(k AS BIGINT)))) AS from_entries, map_entries(m) AS entries,
  map_concat(m, m2) AS both_maps, map_contains_key(m, 'a') AS has_a, map_contains_key(m2, '') AS has_empty,
  str_to_map(kv) AS parsed, str_to_map(kv, ',', ':') AS parsed3
FROM arr;
