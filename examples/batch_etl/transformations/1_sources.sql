-- Batch ETL: clean raw orders, enrich them with customers, and rank countries by revenue.
CREATE TEMPORARY VIEW orders (
  order_id BIGINT NOT NULL,
  customer_id BIGINT,
  amount DECIMAL(12, 2),
  status STRING,
  ordered_at TIMESTAMP
) AS SELECT * FROM read_files('data/orders/*.csv', format => 'csv', header => 'true', nullValue => '');

CREATE TEMPORARY VIEW customers (
  customer_id BIGINT NOT NULL, name STRING, country STRING, signup DATE
) AS SELECT * FROM read_files('data/customers.csv', format => 'csv', header => 'true');
