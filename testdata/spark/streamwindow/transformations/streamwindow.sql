-- one stream of events with a watermark of 2 seconds
CREATE TEMPORARY VIEW a (k STRING, v BIGINT, t TIMESTAMP)
AS SELECT * FROM STREAM read_files('data/a/*.csv', format => 'csv', header => 'true')
WATERMARK t DELAY OF INTERVAL 2 SECONDS;

-- a session is emitted once the watermark reaches its end
CREATE STREAMING TABLE sessions
TBLPROPERTIES ('thund.emit' = 'on window close')
AS SELECT k, window_start, window_end, count(*) AS n, sum(v) AS s
FROM SESSION(TABLE STREAM(a), DESCRIPTOR(t), INTERVAL 5 SECONDS)
GROUP BY k, window_start, window_end;

CREATE STREAMING TABLE tumbles
TBLPROPERTIES ('thund.emit' = 'on window close')
AS SELECT window_start, window_end, count(*) AS n, sum(v) AS s
FROM TUMBLE(TABLE STREAM(a), DESCRIPTOR(t), INTERVAL 10 SECONDS)
GROUP BY window_start, window_end;
