-- regexp_extract_all: every match of Java's find loop, a group that did not
-- take part as '', an empty match stepping one character on, group 0 the
-- whole match.
CREATE MATERIALIZED VIEW extract_all AS
SELECT id,
  regexp_extract_all(s, '([a-z]+) ?([a-z]*)') AS ea, regexp_extract_all(s, '([a-z]+) ?([a-z]*)', 2) AS ea2,
  regexp_extract_all(s, '(x)?([a-zé😀])', 1) AS ea3, regexp_extract_all(s, '[^,]+', 0) AS ea4,
  size(regexp_extract_all(s, '(?i)(L)', 1)) AS n
FROM words;
