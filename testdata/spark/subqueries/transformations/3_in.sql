-- IN and NOT IN: allow holds a NULL, so k NOT IN allow is never TRUE;
-- deny holds none, so only a NULL k makes it NULL; NOT IN an empty query
-- is TRUE even for a NULL k.
CREATE MATERIALIZED VIEW membership AS
SELECT id, k,
  k IN (SELECT k FROM allow) AS in_allow,
  k NOT IN (SELECT k FROM allow) AS not_in_allow,
  k IN (SELECT k FROM deny) AS in_deny,
  k NOT IN (SELECT k FROM deny) AS not_in_deny,
  k NOT IN (SELECT k FROM deny WHERE k > 100) AS not_in_empty
FROM items;

CREATE MATERIALIZED VIEW allowed AS
SELECT id FROM items WHERE k IN (SELECT k FROM allow);

CREATE MATERIALIZED VIEW not_denied AS
SELECT id FROM items WHERE k NOT IN (SELECT k FROM deny);

CREATE MATERIALIZED VIEW not_allowed AS
SELECT id FROM items WHERE NOT (k IN (SELECT k FROM allow));

-- Where the NULL of an IN subquery is observable: a group key, IS NULL and
-- coalesce in a filter, NOT over OR, and a left join's condition.
CREATE MATERIALIZED VIEW by_membership AS
SELECT k IN (SELECT k FROM allow) AS member, count(*) AS n
FROM items
GROUP BY member;

CREATE MATERIALIZED VIEW unknown_membership AS
SELECT id FROM items
WHERE (k NOT IN (SELECT k FROM deny)) IS NULL OR coalesce(k IN (SELECT k FROM allow), id = 1) = false;

CREATE MATERIALIZED VIEW neither AS
SELECT id FROM items WHERE NOT (k IN (SELECT k FROM deny) OR v > 40);

CREATE MATERIALIZED VIEW paired AS
SELECT a.id, b.id AS other
FROM items AS a
LEFT JOIN items AS b ON a.id + 1 = b.id AND a.k NOT IN (SELECT k FROM deny);
