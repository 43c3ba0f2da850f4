-- Nexmark (the auction benchmark of Tucker et al., as Flink and Beam run it):
-- person, auction and bid events land as Parquet files in watched folders.
-- pipeline.thund beside this project is the same pipeline, with the comments
-- on where each query differs from the standard definition.

-- Event times are disordered by at most 2s (the generator's default); a 4s
-- delay keeps every row on time when files land in event order.
CREATE TEMPORARY VIEW person (
  id BIGINT, name STRING, email_address STRING, credit_card STRING, city STRING, state STRING,
  date_time TIMESTAMP, extra STRING
) AS SELECT * FROM STREAM read_files('data/person/*.parquet', format => 'parquet')
WATERMARK date_time DELAY OF INTERVAL 4 SECONDS;

CREATE TEMPORARY VIEW auction (
  id BIGINT, item_name STRING, description STRING, initial_bid BIGINT, reserve BIGINT,
  date_time TIMESTAMP, expires TIMESTAMP, seller BIGINT, category BIGINT, extra STRING
) AS SELECT * FROM STREAM read_files('data/auction/*.parquet', format => 'parquet')
WATERMARK date_time DELAY OF INTERVAL 4 SECONDS;

CREATE TEMPORARY VIEW bid (
  auction BIGINT, bidder BIGINT, price BIGINT, channel STRING, url STRING, date_time TIMESTAMP, extra STRING
) AS SELECT * FROM STREAM read_files('data/bid/*.parquet', format => 'parquet')
WATERMARK date_time DELAY OF INTERVAL 4 SECONDS;
