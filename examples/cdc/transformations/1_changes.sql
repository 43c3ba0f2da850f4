-- CDC with expectations: a change feed of customers (CSV files under data/changes) applied as SCD type 1 and type 2.
CREATE TEMPORARY VIEW customer_changes (
  id BIGINT NOT NULL,
  name STRING,
  email STRING,
  city STRING,
  op STRING,
  seq BIGINT,
  changed_at TIMESTAMP,
  CONSTRAINT valid_op EXPECT (op IN ('INSERT', 'UPDATE', 'DELETE')) ON VIOLATION FAIL UPDATE,
  CONSTRAINT has_seq EXPECT (seq IS NOT NULL) ON VIOLATION DROP ROW
) AS SELECT * FROM STREAM read_files('data/changes/*.csv', format => 'csv', header => 'true');
