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
