-- words: s is the string, d a delimiter or search string, n a count or
-- length (zero, negative, NULL), k a part index (never zero). The file
-- spells an empty string <e>: Spark's CSV reader reads an empty field,
-- quoted or not, as NULL.
CREATE TEMPORARY VIEW words_file (id BIGINT NOT NULL, s STRING, d STRING, n INT, k INT)
AS SELECT * FROM read_files('data/words.csv', format => 'csv', header => 'true', nullValue => 'NULL');

CREATE TEMPORARY VIEW words AS
SELECT id, replace(s, '<e>', '') AS s, replace(d, '<e>', '') AS d, n, k FROM words_file;
