-- Per group: NULLs skipped, c's arrays empty; collect_set's columns are
-- compared as multisets (the lane's unordered columns).
CREATE MATERIALIZED VIEW lists AS
SELECT g, collect_list(x) AS xs, array_agg(s) AS ss, collect_list(d) AS ds, collect_list(b) AS bs,
  collect_set(x) AS set_x, collect_set(s) AS set_s,
  collect_list(coalesce(s, '')) AS ss_empty, collect_set(coalesce(s, '')) AS set_empty,
  size(collect_list(id)) AS n, size(collect_set(b)) AS nb
FROM c GROUP BY g;

-- collect_set of doubles: Spark 4.2 (and native) keep one of -0.0 and
-- 0.0, and one NaN; Spark 4.1 keeps them apart (laneCase.targetSkip).
CREATE MATERIALIZED VIEW float_sets AS
SELECT g, collect_set(d) AS set_d FROM c GROUP BY g;

-- FILTER (a group it empties gives an empty array) and DISTINCT.
CREATE MATERIALIZED VIEW filtered AS
SELECT g, collect_list(s) FILTER (WHERE x > 0) AS pos, collect_list(DISTINCT x) AS dx,
  collect_set(s) FILTER (WHERE b) AS set_true, collect_set(DISTINCT s) AS set_ds, collect_list(DISTINCT d) AS dd
FROM c GROUP BY g;

-- Global: one row, also over no input.
CREATE MATERIALIZED VIEW global AS
SELECT collect_list(id) AS ids, collect_set(g) AS set_g, count(*) AS n FROM c;

CREATE MATERIALIZED VIEW empty AS
SELECT collect_list(id) AS ids, collect_set(s) AS set_s FROM c WHERE id < 0;

-- Nested values: collect_list of arrays and structs (built per row).
CREATE MATERIALIZED VIEW nested_lists AS
SELECT g, collect_list(array(x, id)) AS pairs, collect_list(named_struct('id', id, 's', s)) AS rows
FROM c GROUP BY g;

-- Nested group keys: an ARRAY (with -0.0 and 0.0, NaN, NULL elements) and
-- a STRUCT (NULL fields); the groups' keys show normalized floats.
CREATE MATERIALIZED VIEW array_keys AS
SELECT a, count(*) AS n, collect_list(id) AS ids
FROM (SELECT id, array(d, CAST(x AS DOUBLE)) AS a FROM c) GROUP BY a;

CREATE MATERIALIZED VIEW struct_keys AS
SELECT st, count(*) AS n, sum(x) AS sx
FROM (SELECT x, named_struct('g', g, 'b', b, 'd', d) AS st FROM c) GROUP BY st;

-- DISTINCT, UNION, INTERSECT and EXCEPT over nested rows (the rows keep
-- normalized floats, as Spark's aggregate does).
CREATE TEMPORARY VIEW nested_rows AS
SELECT id, array(d, CAST(x AS DOUBLE)) AS a, named_struct('g', g, 'b', b) AS st FROM c;

CREATE MATERIALIZED VIEW nested_distinct AS
SELECT DISTINCT a, st FROM nested_rows;

CREATE MATERIALIZED VIEW nested_union AS
SELECT a, st FROM nested_rows WHERE id < 5 UNION SELECT a, st FROM nested_rows WHERE id > 2;

CREATE MATERIALIZED VIEW nested_intersect AS
SELECT st FROM nested_rows WHERE id < 6 INTERSECT SELECT st FROM nested_rows WHERE id > 2;

CREATE MATERIALIZED VIEW nested_except AS
SELECT a FROM nested_rows WHERE id < 9 EXCEPT ALL SELECT a FROM nested_rows WHERE id = 3;

-- ORDER BY an ARRAY and a STRUCT (NULL parts first, shorter arrays first,
-- NaN last), each direction; LIMIT keeps the order the lane compares.
CREATE MATERIALIZED VIEW nested_sorted AS
SELECT a, id FROM nested_rows ORDER BY a, id LIMIT 6;

CREATE MATERIALIZED VIEW nested_top AS
SELECT st, a, id FROM nested_rows ORDER BY st DESC NULLS LAST, a DESC, id LIMIT 5;

-- Comparisons and joins on nested values: a NULL part equals a NULL part,
-- NaN equals NaN, -0.0 equals 0.0 (as Spark's ordering compares them).
CREATE MATERIALIZED VIEW nested_compare AS
SELECT l.id, r.id AS rid, l.a, l.a < r.a AS lt, l.st <=> r.st AS same_st
FROM nested_rows l JOIN nested_rows r ON l.a = r.a;
