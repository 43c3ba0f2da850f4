-- Reading nested values: fields, subscripts, element_at and the rest.
CREATE MATERIALIZED VIEW event_fields AS
SELECT id, tags[0] AS first_tag, attrs['k'] AS k, attrs['missing'] AS missing, who.name AS name,
  who.`home town` AS town, who.scores[1] AS s2, size(tags) AS n, element_at(tags, -1) AS last_tag,
  map_keys(attrs) AS ks, map_values(attrs) AS vs, array_contains(tags, 'x') AS has_x
FROM events;

CREATE MATERIALIZED VIEW place_fields AS
SELECT id, nums, props, place, place.lat AS lat, place.tags AS tags, element_at(props, 'a') AS a,
  size(props) AS n_props, array_contains(nums, 7) AS has7
FROM places
WHERE place IS NOT NULL;
