-- Scalar subqueries: in a projection, in a filter (beside a <>, which
-- Spark has as NOT (a = b)), one that returns no row (NULL), and one inside
-- another's filter.
CREATE MATERIALIZED VIEW gaps AS
SELECT id, v, v - (SELECT max(v) FROM items) AS gap, (SELECT max(k) FROM allow WHERE k > 100) AS none
FROM items;

CREATE MATERIALIZED VIEW above_average AS
SELECT id, v FROM items WHERE v > (SELECT avg(v) FROM items) AND k <> 5;

CREATE MATERIALIZED VIEW nested AS
SELECT id FROM items
WHERE id IN (SELECT id FROM items WHERE v > (SELECT avg(v) FROM items WHERE k IS NOT NULL));

CREATE MATERIALIZED VIEW grouped AS
SELECT k IS NULL AS no_k, sum(v) AS total, sum(v) > (SELECT avg(v) FROM items) AS big
FROM items
GROUP BY k IS NULL
HAVING count(*) >= (SELECT count(*) FROM deny) - 1;
