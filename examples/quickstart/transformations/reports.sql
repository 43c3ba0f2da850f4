CREATE MATERIALIZED VIEW daily_revenue AS
SELECT day, sum(revenue) AS revenue, count(*) AS sales
FROM clean_sales
GROUP BY day
ORDER BY day;

CREATE MATERIALIZED VIEW top_products AS
SELECT product, sum(revenue) AS revenue, sum(quantity) AS units
FROM clean_sales
GROUP BY product
ORDER BY revenue DESC, product
LIMIT 3;
