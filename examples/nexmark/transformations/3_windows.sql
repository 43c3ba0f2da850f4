-- q5, hot items: bids per auction per hopping window (10s, sliding by 2s),
-- final once the watermark closes the window; q5_hot keeps, per window, the
-- auctions with the most bids, over the committed windows.
CREATE STREAMING TABLE q5
TBLPROPERTIES ('thund.emit' = 'on window close')
AS SELECT auction, window_start, window_end, count(*) AS num
FROM HOP(TABLE STREAM(bid), DESCRIPTOR(date_time), INTERVAL 2 SECONDS, INTERVAL 10 SECONDS)
GROUP BY auction, window_start, window_end;

CREATE MATERIALIZED VIEW q5_hot AS
SELECT c.auction, c.num, c.window_start, c.window_end
FROM q5 AS c
JOIN (SELECT window_start, window_end, max(num) AS maxn FROM q5 GROUP BY window_start, window_end) AS m
  ON c.window_start = m.window_start AND c.window_end = m.window_end AND c.num >= m.maxn;

-- q7, highest bid: the maximum price per 10s tumbling window, emitted when
-- the window closes, joined back to the bids within the window (both ends
-- included, as in Flink's q7).
CREATE STREAMING TABLE q7_max
TBLPROPERTIES ('thund.emit' = 'on window close')
AS SELECT window_start, window_end, max(price) AS maxprice
FROM TUMBLE(TABLE STREAM(bid), DESCRIPTOR(date_time), INTERVAL 10 SECONDS)
GROUP BY window_start, window_end;

CREATE STREAMING TABLE q7 AS
SELECT b.auction, b.price, b.bidder, b.date_time, b.extra
FROM STREAM(bid) AS b
JOIN STREAM(q7_max) WATERMARK window_end DELAY OF INTERVAL 0 SECONDS AS m
  ON b.price = m.maxprice AND b.date_time BETWEEN m.window_end - INTERVAL 10 SECONDS AND m.window_end;
