-- Quickstart: daily revenue and the top products, from a CSV shipped with the repository.
CREATE TEMPORARY VIEW sales (
  sale_id BIGINT NOT NULL,
  product STRING,
  quantity INT,
  unit_price DECIMAL(10, 2),
  sold_at TIMESTAMP
) AS SELECT * FROM read_files('data/sales.csv', format => 'csv', header => 'true');

CREATE MATERIALIZED VIEW clean_sales (
  CONSTRAINT positive_quantity EXPECT (quantity > 0) ON VIOLATION DROP ROW
) AS SELECT sale_id, product, quantity, unit_price * quantity AS revenue, CAST(sold_at AS DATE) AS day
FROM sales
WHERE product IS NOT NULL;
