-- The variants of ../../bench.thund (bench -variants).

CREATE MATERIALIZED VIEW w2s AS
SELECT auction_s, count(*) AS n, sum(price) AS total, min(price) AS lo, max(price) AS hi, avg(price) AS mean
FROM bids GROUP BY auction_s;

CREATE MATERIALIZED VIEW w2d AS
SELECT auction_d, count(*) AS n, sum(price) AS total, min(price) AS lo, max(price) AS hi, avg(price) AS mean
FROM bids GROUP BY auction_d;

CREATE MATERIALIZED VIEW w2n AS
SELECT auction, count(*) AS n, sum(price) AS total, min(price) AS lo, max(price) AS hi, avg(price) AS mean
FROM bids_n GROUP BY auction;

CREATE MATERIALIZED VIEW w2nn AS
SELECT auction_n, count(*) AS n, sum(price_n) AS total, min(price_n) AS lo, max(price_n) AS hi, avg(price_n) AS mean
FROM bids_n GROUP BY auction_n;

CREATE MATERIALIZED VIEW w4i AS
SELECT p.state_id, count(*) AS n, sum(b.price) AS total, max(b.price) AS hi
FROM bids AS b JOIN people AS p ON b.bidder = p.id GROUP BY p.state_id;

CREATE MATERIALIZED VIEW w4d AS
SELECT p.joined, count(*) AS n, sum(b.price) AS total, max(b.price) AS hi
FROM bids AS b JOIN people AS p ON b.bidder = p.id GROUP BY p.joined;

CREATE MATERIALIZED VIEW w4n AS
SELECT p.state_id, count(*) AS n, sum(b.price) AS total, max(b.price) AS hi
FROM bids_n AS b JOIN people_n AS p ON b.bidder = p.id GROUP BY p.state_id;

CREATE MATERIALIZED VIEW w4nn AS
SELECT p.state_id_n, count(*) AS n, sum(b.price_n) AS total, max(b.price_n) AS hi
FROM bids_n AS b JOIN people_n AS p ON b.bidder_n = p.id GROUP BY p.state_id_n;

CREATE MATERIALIZED VIEW w4f AS
SELECT p.state_id, count(*) AS n, sum(b.price) AS total, max(b.price) AS hi
FROM bids AS b JOIN people2 AS p ON b.bidder = p.id GROUP BY p.state_id;

CREATE MATERIALIZED VIEW w4w AS
SELECT p.state_id, count(*) AS n, sum(b.price) AS total, max(b.price) AS hi
FROM bids AS b JOIN people20 AS p ON b.bidder = p.id GROUP BY p.state_id;

CREATE TEMPORARY VIEW bids_people AS
SELECT b.price, p.state_id AS sid FROM bids AS b JOIN people AS p ON b.bidder = p.id;

CREATE MATERIALIZED VIEW w4v AS
SELECT sid, count(*) AS n, sum(price) AS total, max(price) AS hi FROM bids_people GROUP BY sid;
