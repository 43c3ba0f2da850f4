-- The sources of ../../bench.thund: the NOT NULL ones with the same column
-- lists; bids_n and people_n as a user writes them, with the schema
-- inferred from the files (every column nullable: DuckDB writes them
-- OPTIONAL).
CREATE TEMPORARY VIEW bids (
  auction BIGINT NOT NULL, bidder BIGINT NOT NULL, price BIGINT NOT NULL, channel STRING NOT NULL,
  url STRING NOT NULL, date_time TIMESTAMP NOT NULL, extra STRING NOT NULL,
  auction_s STRING NOT NULL, auction_d DATE NOT NULL
) AS SELECT * FROM read_files('data/bids/*.parquet', format => 'parquet');

CREATE TEMPORARY VIEW people (
  id BIGINT NOT NULL, name STRING NOT NULL, city STRING NOT NULL, state STRING NOT NULL,
  state_id INT NOT NULL, joined DATE NOT NULL
) AS SELECT * FROM read_files('data/people/*.parquet', format => 'parquet');

CREATE TEMPORARY VIEW auctions (
  id BIGINT NOT NULL, item_name STRING NOT NULL, category STRING NOT NULL, seller BIGINT NOT NULL
) AS SELECT * FROM read_files('data/auctions/*.parquet', format => 'parquet');

CREATE TEMPORARY VIEW bids_n AS SELECT * FROM read_files('data/bids/*.parquet', format => 'parquet');

CREATE TEMPORARY VIEW people_n AS SELECT * FROM read_files('data/people/*.parquet', format => 'parquet');

CREATE TEMPORARY VIEW people2 (
  id BIGINT NOT NULL, state_id INT NOT NULL
) AS SELECT * FROM read_files('data/people2/*.parquet', format => 'parquet');

CREATE TEMPORARY VIEW people20 AS SELECT * FROM read_files('data/people20/*.parquet', format => 'parquet');
