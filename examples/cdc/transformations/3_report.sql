CREATE MATERIALIZED VIEW customers_per_city AS
SELECT city, count(*) AS customers
FROM customers
GROUP BY city
ORDER BY customers DESC, city;
