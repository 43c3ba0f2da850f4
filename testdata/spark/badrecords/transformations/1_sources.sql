-- The sources, one per mode and format. PERMISSIVE is the default: csv_perm
-- does not name it.
CREATE TEMPORARY VIEW csv_perm (a INT, b STRING, c DOUBLE, _corrupt_record STRING)
AS SELECT * FROM read_files('data/bad.csv', format => 'csv', header => 'true');

CREATE TEMPORARY VIEW csv_drop (a INT, b STRING, c DOUBLE)
AS SELECT * FROM read_files('data/bad.csv', format => 'csv', header => 'true', mode => 'DROPMALFORMED');

CREATE TEMPORARY VIEW json_perm (a INT, b STRING, c DOUBLE, bad STRING)
AS SELECT * FROM read_files('data/bad.jsonl', format => 'json', mode => 'permissive', columnNameOfCorruptRecord => 'bad');

CREATE TEMPORARY VIEW json_drop (a INT, b STRING, c DOUBLE)
AS SELECT * FROM read_files('data/bad.jsonl', format => 'json', mode => 'DropMalformed');
