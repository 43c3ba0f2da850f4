-- transform and filter, with the element and with its index.
CREATE MATERIALIZED VIEW mapped AS
SELECT id, transform(xs, x -> cast(x AS BIGINT) * 2) AS doubled, transform(xs, (v, i) -> i) AS idx,
  transform(ws, w -> concat(w, '!')) AS bang, transform(xs, x -> x IS NULL) AS nulls,
  transform(xs, v -> cast(v AS BIGINT) + r.x) AS plus_col, transform(ys, x -> transform(xs, y -> y * 0 + x)) AS nested,
  filter(xs, x -> x > 0) AS pos, filter(ws, (w, i) -> i % 2 = 0) AS evens, filter(xs, x -> x IS NULL) AS holes
FROM rows r;

-- exists and forall: NULL when no element decides and one is NULL.
CREATE MATERIALIZED VIEW tested AS
SELECT id, exists(xs, x -> x > 2) AS any_big, exists(xs, x -> x = 7) AS has7,
  forall(xs, x -> x > -10) AS all_above, forall(xs, x -> x < 3) AS all_small,
  exists(ws, w -> w = '') AS has_empty, forall(ys, y -> y IS NOT NULL) AS no_nulls
FROM rows;

-- aggregate and reduce: the accumulator has the start value's type.
CREATE MATERIALIZED VIEW folded AS
SELECT id, aggregate(xs, 0L, (acc, x) -> acc + x) AS total,
  aggregate(xs, 0L, (acc, x) -> acc + coalesce(x, 0), acc -> acc * 10) AS total10,
  reduce(ws, '', (acc, w) -> concat(acc, coalesce(w, '?'))) AS joined,
  aggregate(ys, 0, (acc, y) -> acc + 1) AS n
FROM rows;
