-- d is a date's text, ts an instant's (with its offset); n, dow and unit are
-- the other arguments. Row 4 is all NULL.
CREATE TEMPORARY VIEW days_raw (id BIGINT NOT NULL, d STRING, ts STRING, n INT, dow STRING, unit STRING)
AS SELECT * FROM read_files('data/days.csv', format => 'csv', header => 'true', nullValue => '');

CREATE TEMPORARY VIEW days AS
SELECT id, CAST(d AS DATE) AS d, CAST(ts AS TIMESTAMP) AS ts, n, dow, unit, d AS ds FROM days_raw;
