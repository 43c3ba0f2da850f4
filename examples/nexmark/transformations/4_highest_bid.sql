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
