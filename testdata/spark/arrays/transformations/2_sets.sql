-- Sorting, the set functions and the extremes.
CREATE MATERIALIZED VIEW arr_sets AS
SELECT id, sort_array(xs) AS asc_x, sort_array(xs, false) AS desc_x, array_sort(ss) AS sorted_s,
  sort_array(ds) AS asc_d, array_distinct(xs) AS dist_x, array_distinct(ds) AS dist_d,
  array_union(xs, ys) AS uni, array_intersect(xs, ys) AS inter, array_except(xs, ys) AS exc,
  arrays_overlap(xs, ys) AS ovl, array_max(xs) AS max_x, array_min(ss) AS min_s, array_max(ds) AS max_d,
  array_compact(ss) AS compact_s
FROM arr;
