-- q0, pass-through.
CREATE STREAMING TABLE q0 AS
SELECT auction, bidder, price, date_time, extra FROM STREAM(bid);

-- q1, currency conversion: dollars to euros, an exact decimal.
CREATE STREAMING TABLE q1 AS
SELECT auction, bidder, price * 0.908 AS price, date_time, extra FROM STREAM(bid);

-- q2, selection: the bids on every 123rd auction (Flink's form).
CREATE STREAMING TABLE q2 AS
SELECT auction, price FROM STREAM(bid) WHERE auction % 123 = 0;

-- q3, local item suggestion: a stream-table join, auctions streaming against
-- a snapshot of the persons.
CREATE STREAMING TABLE q3 AS
SELECT p.name, p.city, p.state, a.id
FROM STREAM(auction) AS a
JOIN (SELECT * FROM person WHERE state IN ('OR', 'ID', 'CA')) AS p ON a.seller = p.id
WHERE a.category = 10;
