-- Building nested values, and passing them through.
CREATE MATERIALIZED VIEW built AS
SELECT id, array(id, id * 2, NULL) AS a, named_struct('i', id, 't', tags) AS s, map('id', id) AS m,
  struct(id, who.name) AS st, named_struct('x', 1, 'y', 'two').y AS y, tags, attrs, who,
  split(concat(who.name, ',x,,'), ',') AS parts, split(who.name, 'n'), split('a1b22c3', '[0-9]+', 2) AS two
FROM events;
