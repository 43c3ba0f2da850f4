-- Java regular expressions: '.' does not match a line terminator, \s has
-- \x0B, (?i) folds ASCII only, a final $ also matches before a final line
-- terminator, $n and backslashes in replacements.
CREATE MATERIALIZED VIEW regexes AS
SELECT id,
  rlike(s, '^[A-Z]') AS rl, s RLIKE '\\d{3}' AS rl2, regexp(s, '(?i)é') AS rl3, regexp_like(s, 'd$') AS rl4,
  s REGEXP '[\\p{Lu}]+\\s' AS rl5, rlike(s, '(?i)[\\Qe|\\E]$') AS rl6,
  regexp_extract(s, '([a-z]+) ([a-z]+)', 2) AS ex, regexp_extract(s, '(\\d+)-(\\d+)') AS ex2,
  regexp_extract(s, '(?i)(x)?(s+|t)', 0) AS ex3, regexp_extract(s, '\\S+$', 0) AS ex4,
  regexp_replace(s, '[aeiou]', '*') AS rr, regexp_replace(s, '(\\w+) (\\w+)', '$2 $1') AS rr2,
  regexp_replace(s, 'o|😀', '\\$', 3) AS rr3, regexp_replace(s, '[^a-z]+', '_') AS rr4, regexp_replace(s, '.$', '!') AS rr5,
  regexp_count(s, '[a-z]') AS rc, regexp_count(s, '😀|\\s') AS rc2, regexp_count(s, '\\Q.\\E|,') AS rc3,
  regexp_substr(s, '[0-9]+') AS rs, regexp_substr(s, 'z*') AS rs2,
  like(s, '%o%') AS lk, ilike(s, '%É%') AS ilk, regexp_instr(s, 'o') AS ri, regexp_instr(s, '(?s).é') AS ri2, regexp_instr(s, '(\\d)', 1) AS ri3
FROM words;
