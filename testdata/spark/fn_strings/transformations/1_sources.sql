-- words: s is the string, d a delimiter or search string, n a count or
-- length (zero, negative, NULL), k a part index (never zero).
CREATE TEMPORARY VIEW words (id BIGINT NOT NULL, s STRING, d STRING, n INT, k INT)
AS SELECT * FROM read_files('data/words.csv', format => 'csv', header => 'true', nullValue => 'NULL');
