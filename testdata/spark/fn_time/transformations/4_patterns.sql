-- t is a text, fmt the pattern it is written in (constant patterns below:
-- the native runtime runs constant patterns only). Quotes in patterns are
-- written \' : pipeline SQL reads '' in a string as two adjacent strings.
CREATE TEMPORARY VIEW texts (id BIGINT NOT NULL, t STRING, fmt STRING)
AS SELECT * FROM read_files('data/texts.csv', format => 'csv', header => 'true', nullValue => '');

CREATE MATERIALIZED VIEW time_format AS
SELECT id, date_format(ts, 'yyyy-MM-dd HH:mm:ss.SSS') AS f1, date_format(ts, 'y yy yyy yyyyy M MM MMM MMMM L LLLL d dd D DDD') AS f2,
       date_format(ts, 'H HH h hh k kk K KK a m mm s ss S SS SSSSSS SSSSSSSSS E EEE EEEE Q QQ QQQ QQQQ q') AS f3,
       date_format(ts, 'X XX XXX x xx xxx Z ZZ ZZZ') AS f4, date_format(d, '\'quarter\' Q, \'\'yy\'\' EEEE') AS f5,
       date_format(ds, 'dd.MM.yyyy') AS f6, date_format(ts, '') AS f7,
       from_unixtime(unix_seconds(ts)) AS fu1, from_unixtime(CAST(n AS BIGINT), 'yyyy-MM-dd\'T\'HH:mm:ssXXX') AS fu2,
       from_unixtime(CAST(n AS BIGINT) * 86400, 'EEE, d MMM yyyy HH:mm') AS fu3
FROM days;

CREATE MATERIALIZED VIEW time_parse AS
SELECT id,
       CASE id WHEN 1 THEN to_timestamp(t, 'yyyy-MM-dd HH:mm:ss') WHEN 2 THEN to_timestamp(t, 'dd/MM/yy hh:mm a')
               WHEN 3 THEN to_timestamp(t, 'yyyyMMdd') WHEN 5 THEN to_timestamp(t, 'yyyy MMM dd HH:mm:ss.SSS')
               WHEN 6 THEN to_timestamp(t, 'yyyy-MM-dd\'T\'HH:mm:ss.SXXX') WHEN 7 THEN to_timestamp(t, 'yyyy-D')
               WHEN 8 THEN to_timestamp(t, 'MM/dd/yyyy hh:mm') WHEN 10 THEN to_timestamp(t, 'yyyy-MM-dd HH:mm:ss Z')
               WHEN 11 THEN to_timestamp(t, 'yyyy-M-d') END AS ts,
       try_to_timestamp(t, 'yyyy-MM-dd HH:mm:ss') AS try1, try_to_timestamp(t, 'yyyy-M-d') AS try2,
       try_to_timestamp(t, 'MM/dd/yyyy hh:mm') AS try3, try_to_timestamp(t) AS try4,
       to_date(CASE WHEN id IN (1, 9, 12) THEN t END, 'yyyy-MM-dd HH:mm:ss') AS d1, to_date(CASE WHEN id = 3 THEN t END, 'yyyyMMdd') AS d2,
       to_date(CASE WHEN id = 6 THEN t END, 'yyyy-MM-dd\'T\'HH:mm:ss.SXXX') AS d3,
       unix_timestamp(CASE WHEN id IN (1, 9, 12) THEN t END) AS u1, unix_timestamp(CASE WHEN id = 6 THEN t END, 'yyyy-MM-dd\'T\'HH:mm:ss.SXXX') AS u2,
       to_unix_timestamp(CASE WHEN id = 7 THEN t END, 'yyyy-D') AS u3, unix_timestamp(TIMESTAMP'1969-12-31 23:59:59.5') AS u4,
       to_unix_timestamp(DATE'2024-01-01') AS u5, to_unix_timestamp(CASE WHEN id = 11 THEN t END, 'yyyy-M-d') AS u6
FROM texts;
