CREATE TEMPORARY VIEW spans (id BIGINT NOT NULL, a DATE, b DATE, t TIMESTAMP, u TIMESTAMP)
AS SELECT * FROM read_files('data/spans.csv', format => 'csv', header => 'true', nullValue => '');
