-- Searching, building and slicing.
CREATE MATERIALIZED VIEW arr_build AS
SELECT id, array_join(ss, '|') AS joined, array_join(ss, ', ', '∅') AS joined_null,
  array_position(xs, 1) AS pos1, array_position(ds, 0.0D) AS pos_zero, array_remove(xs, 4) AS no4,
  array_repeat(kv, 2) AS rep, array_repeat(k, k) AS rep_k, array_append(xs, k) AS app,
  array_prepend(ss, NULL) AS prep, array_insert(xs, k, 99) AS ins, flatten(nn) AS flat,
  slice(xs, k, 2) AS sl, sequence(1, k) AS seq, sequence(k, 10, 3) AS seq3, arrays_zip(xs, ss) AS zipped,
  cardinality(xs) AS card, array_size(ss) AS n_s, try_element_at(xs, k) AS tea, get(xs, k) AS got, try_element_at(m, 'a') AS tea_m,
  concat(xs, ys, array(k)) AS cat, concat(kv, '!') AS cat_s, reverse(ss) AS rev, reverse(kv) AS rev_s
FROM arr
WHERE k IS NULL OR k <> 0;
