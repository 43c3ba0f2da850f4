-- What each engine keeps of the malformed records.
CREATE MATERIALIZED VIEW csv_kept AS SELECT a, b, c, _corrupt_record FROM csv_perm;
CREATE MATERIALIZED VIEW csv_dropped AS SELECT a, b, c FROM csv_drop;
CREATE MATERIALIZED VIEW json_kept AS SELECT a, b, c, bad FROM json_perm;
CREATE MATERIALIZED VIEW json_dropped AS SELECT a, b, c FROM json_drop;
