-- W1: filter + project to Parquet
CREATE MATERIALIZED VIEW w1 AS
SELECT auction, bidder, price, date_time FROM bids WHERE price > 5000000 AND channel = 'apple';

-- W2: group by about 100K keys
CREATE MATERIALIZED VIEW w2 AS
SELECT auction, count(*) AS n, sum(price) AS total, min(price) AS lo, max(price) AS hi, avg(price) AS mean
FROM bids GROUP BY auction;

-- W3: top-N
CREATE MATERIALIZED VIEW w3 AS
SELECT auction, bidder, price, date_time FROM bids ORDER BY price DESC, auction, bidder, date_time LIMIT 100;

-- W4: hash join with the 100K-row dimension, then aggregate
CREATE MATERIALIZED VIEW w4 AS
SELECT p.state, count(*) AS n, sum(b.price) AS total, max(b.price) AS hi
FROM bids AS b JOIN people AS p ON b.bidder = p.id GROUP BY p.state;

-- W6: a join whose build side exceeds the harness's --memory-limit
CREATE MATERIALIZED VIEW w6 AS
SELECT a.category, count(*) AS n, sum(b.price) AS total, max(a.item_name) AS top_item
FROM bids AS b JOIN auctions AS a ON b.auction = a.id GROUP BY a.category;

-- W7: dedup to the latest bid per auction
CREATE MATERIALIZED VIEW w7 AS
SELECT auction, bidder, price, date_time, rn FROM (
  SELECT auction, bidder, price, date_time, row_number() OVER (PARTITION BY auction ORDER BY date_time DESC) AS rn
  FROM bids)
WHERE rn = 1;

-- W8: a running sum of the price per auction
CREATE MATERIALIZED VIEW w8 AS
SELECT auction, date_time, price,
  sum(price) OVER (PARTITION BY auction ORDER BY date_time ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS running
FROM bids;

-- gb50m: a group by over 50M distinct int64 keys (bench -gb-keys), run under
-- -gb-memory-limit: the groups spill (its own input, data/gb under the root)
CREATE TEMPORARY VIEW gb (k BIGINT NOT NULL, v BIGINT NOT NULL)
AS SELECT * FROM read_files('data/gb/*.parquet', format => 'parquet');
CREATE MATERIALIZED VIEW gb50m AS SELECT k, count(*) AS n, sum(v) AS total FROM gb GROUP BY k;
