-- Building nested values, and passing them through.
CREATE MATERIALIZED VIEW built AS
SELECT id, array(id, id * 2, NULL) AS a, named_struct('i', id, 't', tags) AS s, map('id', id) AS m,
  struct(id, who.name) AS st, named_struct('x', 1, 'y', 'two').y AS y, tags, attrs, who
FROM events;
