-- items has NULLs in k and v; allow has a NULL k; deny has none.
CREATE TEMPORARY VIEW items (id BIGINT NOT NULL, k BIGINT, v BIGINT)
AS SELECT * FROM read_files('data/items.csv', format => 'csv', header => 'true', nullValue => '');

CREATE TEMPORARY VIEW allow (k BIGINT, note STRING)
AS SELECT * FROM read_files('data/allow.csv', format => 'csv', header => 'true', nullValue => '');

CREATE TEMPORARY VIEW deny (k BIGINT)
AS SELECT * FROM read_files('data/deny.csv', format => 'csv', header => 'true', nullValue => '');

-- feed is items again, read as a stream by the streaming tables.
CREATE TEMPORARY VIEW feed (id BIGINT NOT NULL, k BIGINT, v BIGINT)
AS SELECT * FROM read_files('data/feed/*.csv', format => 'csv', header => 'true', nullValue => '');
