-- Bronze: clicks as they arrive, and the countries they come from.
CREATE OR REFRESH STREAMING TABLE clicks (
  CONSTRAINT known_user EXPECT (user_id IS NOT NULL) ON VIOLATION DROP ROW
)
COMMENT 'clicks as they arrive'
AS SELECT * FROM STREAM(landing.raw_clicks);

CREATE TEMPORARY VIEW countries AS
SELECT * FROM read_files('data/countries.csv', header => true);
