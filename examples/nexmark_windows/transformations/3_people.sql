-- q8-like: an interval join of two streams, bounded in time.
CREATE TEMPORARY VIEW people (id BIGINT, name STRING, date_time TIMESTAMP)
AS SELECT * FROM STREAM read_files('data/people/*.jsonl', format => 'jsonl')
WATERMARK date_time DELAY OF INTERVAL 5 SECONDS;

CREATE STREAMING TABLE new_bidders AS
SELECT p.id, p.name, b.auction, b.price
FROM STREAM(people) AS p
JOIN STREAM(bids) AS b ON p.id = b.bidder AND b.date_time BETWEEN p.date_time AND p.date_time + INTERVAL 10 SECONDS;
