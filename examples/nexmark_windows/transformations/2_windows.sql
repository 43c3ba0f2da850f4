-- q1-like: a stateless currency conversion, streamed straight through.
CREATE STREAMING TABLE bids_eur
TBLPROPERTIES ('thund.trigger' = 'every 10s')
AS SELECT auction, bidder, price * 0.908 AS price_eur, date_time FROM STREAM(bids);

-- Tumbling windows, final rows once the watermark passes end + allowed lateness.
CREATE STREAMING TABLE bids_per_window (
  CONSTRAINT top_positive EXPECT (top >= 0) ON VIOLATION DROP ROW
)
TBLPROPERTIES ('thund.outputMode' = 'append', 'thund.emit' = 'on window close', 'thund.lateTable' = 'bids_per_window_late')
AS SELECT auction, window_start, window_end, count(*) AS bids, max(price) AS top
FROM TUMBLE(TABLE STREAM(bids), DESCRIPTOR(date_time), INTERVAL 10 SECONDS)
GROUP BY auction, window_start, window_end;

-- q5-like: hopping windows, updated every micro-batch.
CREATE STREAMING TABLE hot_items
TBLPROPERTIES ('thund.boundRows' = '10000', 'thund.boundBytes' = '64MB', 'thund.outputMode' = 'update', 'thund.emit' = 'on update')
AS SELECT auction, window_start, count(*) AS num
FROM HOP(TABLE STREAM(bids), DESCRIPTOR(date_time), INTERVAL 2 SECONDS, INTERVAL 10 SECONDS)
GROUP BY auction, window_start;

-- Sessions of bidder activity.
CREATE STREAMING TABLE bidder_sessions
TBLPROPERTIES ('thund.emit' = 'on window close')
AS SELECT bidder, window_start, window_end, count(*) AS bids, sum(price) AS spent
FROM SESSION(TABLE STREAM(bids), DESCRIPTOR(date_time), INTERVAL 30 SECONDS)
GROUP BY bidder, window_start, window_end;

-- q3-like: enrich the stream with a bounded table.
CREATE STREAMING TABLE bids_by_category AS
SELECT b.auction, a.category, b.price, b.date_time
FROM STREAM(bids) AS b
JOIN auctions AS a ON b.auction = a.id;
