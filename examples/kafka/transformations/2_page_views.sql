-- Clicks per page and minute, final once the watermark passes the window:
-- the JSON value is parsed in the flow that windows it, so that the read of
-- clicks carries the source's watermark on both engines.
CREATE STREAMING TABLE page_views AS
SELECT window.start AS window_start, window.end AS window_end, page, count(*) AS views
FROM (
  SELECT from_json(CAST(value AS STRING), 'user STRING, page STRING').page AS page, timestamp
  FROM STREAM clicks
) AS c
GROUP BY window(timestamp, '1 minute'), page;
