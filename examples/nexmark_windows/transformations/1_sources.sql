-- Nexmark-like streaming: bids arrive in a watched folder; windows count and rank them.
CREATE TEMPORARY VIEW bids (
  auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, date_time TIMESTAMP
)
TBLPROPERTIES ('thund.allowedLateness' = '10s', 'thund.idleTimeout' = '1m')
AS SELECT * FROM STREAM read_files('data/bids/*.parquet', format => 'parquet')
WATERMARK date_time DELAY OF INTERVAL 5 SECONDS;

CREATE TEMPORARY VIEW auctions (
  id BIGINT NOT NULL, seller BIGINT, category BIGINT, reserve BIGINT, expires TIMESTAMP
) AS SELECT * FROM read_files('data/auctions/*.parquet', format => 'parquet');
