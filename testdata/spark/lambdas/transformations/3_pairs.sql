-- zip_with pads the shorter array with NULLs; the map functions keep the
-- map's order; map_zip_with takes the first map's keys, then the second's.
CREATE MATERIALIZED VIEW paired AS
SELECT id, zip_with(xs, ys, (a, b) -> coalesce(a, 0) + coalesce(b, 0)) AS sums,
  zip_with(ws, xs, (w, x) -> concat(coalesce(w, '-'), cast(x AS STRING))) AS labels,
  map_filter(m, (k, v) -> v > 0) AS positive, transform_values(m, (k, v) -> concat(k, cast(v AS STRING))) AS described,
  transform_keys(m, (k, v) -> upper(k)) AS upper_keys,
  map_zip_with(m, map('a', 10, 'q', 20), (k, v1, v2) -> coalesce(v1, 0) + coalesce(v2, 0)) AS merged
FROM rows;
