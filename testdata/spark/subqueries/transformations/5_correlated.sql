-- Correlated subqueries: EXISTS and NOT EXISTS (one with a residual beside
-- its equality correlation), a correlated count (0 for an outer row without
-- a match) and a correlated NOT IN whose candidates hold a NULL (unknown
-- unless a value matches), in a projection and a filter.
CREATE MATERIALIZED VIEW correlated AS
SELECT id, k,
  EXISTS (SELECT 1 FROM allow a WHERE a.k = i.k) AS allowed,
  NOT EXISTS (SELECT 1 FROM items j WHERE j.k = i.k AND j.v > i.v) AS top_of_k,
  (SELECT count(*) FROM items j WHERE j.k = i.k) AS same_k,
  i.k NOT IN (SELECT a.k FROM allow a WHERE a.k IS NULL OR a.k = i.k) AS nin
FROM items i;

CREATE MATERIALIZED VIEW correlated_filter AS
SELECT id FROM items i
WHERE NOT EXISTS (SELECT 1 FROM deny d WHERE d.k = i.k) AND i.v > (SELECT avg(j.v) FROM items j WHERE j.k = i.k OR j.k IS NULL);
