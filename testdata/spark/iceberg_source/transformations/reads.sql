CREATE MATERIALIZED VIEW totals AS
SELECT customer, sum(amount) AS total, count(*) AS n FROM shop.sales.orders GROUP BY customer;

CREATE MATERIALIZED VIEW first AS SELECT id, customer, amount, ts FROM shop.sales.orders VERSION AS OF 1;

CREATE STREAMING TABLE copy AS SELECT id, customer, amount, ts FROM STREAM shop.sales.orders;
