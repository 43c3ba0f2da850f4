-- regexp_replace's position counts characters (code points) on Spark 4, an
-- astral character (😀, 𝄞) being one; ^ matches at the position (Java's
-- anchoring bounds); a position past the end leaves the string as it is
-- (a pattern matching the empty string is refused natively: Java steps
-- through UTF-16 units after an empty match).
CREATE MATERIALIZED VIEW rr_pos AS
SELECT id, s, regexp_replace(s, '.', 'X', 2) AS r_any, regexp_replace(s, '^.', 'X', 2) AS r_anchor,
  regexp_replace(s, '[0-9]', '#', 3) AS r_digit,
  regexp_replace(concat('😀b😀', s), 'b|😀', '-', 3) AS r_emoji, regexp_replace('a😀bcb', 'b', 'X', 4) AS r_lit4,
  regexp_replace('a😀bcb', 'b', 'X', 3) AS r_lit3
FROM b WHERE id <= 40;
