CREATE TEMPORARY VIEW valid_orders AS
SELECT order_id, customer_id, amount, CAST(ordered_at AS DATE) AS order_day
FROM orders
WHERE status IN ('paid', 'shipped') AND amount > 0;

CREATE MATERIALIZED VIEW enriched (
  CONSTRAINT known_customer EXPECT (name IS NOT NULL) ON VIOLATION DROP ROW
)
COMMENT 'paid orders with their customer'
PARTITIONED BY (country)
AS SELECT o.order_id, o.customer_id, c.name, coalesce(c.country, 'unknown') AS country, o.amount, o.order_day
FROM valid_orders AS o
LEFT JOIN customers AS c USING (customer_id);

CREATE MATERIALIZED VIEW revenue_by_country AS
SELECT country, sum(amount) AS revenue, count(*) AS orders, avg(amount) AS avg_order
FROM enriched
GROUP BY country
HAVING orders >= 1
ORDER BY revenue DESC NULLS LAST, country
LIMIT 10;
