-- A generator as a SELECT item, with Spark's default names and with AS.
CREATE MATERIALIZED VIEW tag_rows AS
SELECT id, explode(tags) AS tag FROM events;

CREATE MATERIALIZED VIEW tag_rows_outer AS
SELECT id, posexplode_outer(tags) AS (p, tag) FROM events;

CREATE MATERIALIZED VIEW tag_pos AS
SELECT id, posexplode(tags) FROM events;

-- maps: key and value columns
CREATE MATERIALIZED VIEW attr_rows AS
SELECT id, explode_outer(attrs) FROM events;

-- arrays of structs: a column per field; a NULL struct is a row of NULLs
CREATE MATERIALIZED VIEW item_rows AS
SELECT id, inline(items) FROM events;

CREATE MATERIALIZED VIEW item_rows_outer AS
SELECT id, inline_outer(items) AS (s, q) FROM events;

-- stack: the values in rows
CREATE MATERIALIZED VIEW stacked AS
SELECT id, stack(2, 'a', id, 'b', id * 10) AS (k, v) FROM events;

-- json_tuple: one row per input row, fields as text (numbers as Jackson
-- writes them, nested values compact), NULL when missing, not an object
-- or malformed
CREATE MATERIALIZED VIEW doc_fields AS
SELECT id, json_tuple(doc, 'name', 'n', 'f', 'o', 'e', 'missing') FROM events;

CREATE MATERIALIZED VIEW doc_named AS
SELECT d.id, j.name, j.o FROM events d LATERAL VIEW json_tuple(d.doc, 'name', 'o') j AS name, o;

-- LATERAL VIEW: chained, OUTER, the alias as qualifier, a filter on a
-- generated column
CREATE MATERIALIZED VIEW lateral_rows AS
SELECT e.id, t.tag, a.key, a.value
FROM events e
LATERAL VIEW OUTER explode(e.tags) t AS tag
LATERAL VIEW explode(e.attrs) a
WHERE t.tag IS NULL OR t.tag <> 'b';

CREATE MATERIALIZED VIEW lateral_star AS
SELECT * FROM events LATERAL VIEW posexplode(tags) p AS i, tag;

-- nested: a generator over a function's result, over the column of an
-- earlier LATERAL VIEW, and a generated struct's fields
CREATE MATERIALIZED VIEW words AS
SELECT DISTINCT explode(split(line, ',')) AS w FROM events ORDER BY w;

CREATE MATERIALIZED VIEW cells AS
SELECT id, r, c, x, size(row) AS width
FROM events LATERAL VIEW posexplode(grid) g AS r, row LATERAL VIEW OUTER posexplode(row) h AS c, x;

CREATE MATERIALIZED VIEW item_fields AS
SELECT id, it.sku, i.it.qty * 2 AS q2 FROM events LATERAL VIEW explode(items) i AS it;

-- a stream read exploded
CREATE STREAMING TABLE page_views AS
SELECT user, explode(pages) AS page FROM STREAM(clicks);
