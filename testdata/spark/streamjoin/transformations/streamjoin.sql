-- two streams of events, each with a watermark of 2 seconds
CREATE TEMPORARY VIEW a (k STRING, v BIGINT, t TIMESTAMP)
AS SELECT * FROM STREAM read_files('data/a/*.csv', format => 'csv', header => 'true')
WATERMARK t DELAY OF INTERVAL 2 SECONDS;

CREATE TEMPORARY VIEW b (k STRING, w BIGINT, t TIMESTAMP)
AS SELECT * FROM STREAM read_files('data/b/*.csv', format => 'csv', header => 'true')
WATERMARK t DELAY OF INTERVAL 2 SECONDS;

-- an unmatched row is emitted NULL-padded once the watermark passes its
-- time bound
CREATE STREAMING TABLE left_j AS
SELECT a.k, a.v, a.t, bb.w, bb.t AS bt
FROM STREAM(a) LEFT OUTER JOIN STREAM(b) AS bb
  ON a.k = bb.k AND bb.t BETWEEN a.t - INTERVAL 3 SECONDS AND a.t + INTERVAL 5 SECONDS AND a.v <> bb.w;

CREATE STREAMING TABLE right_j AS
SELECT a.v, a.t, bb.k, bb.w, bb.t AS bt
FROM STREAM(a) RIGHT OUTER JOIN STREAM(b) AS bb
  ON a.k = bb.k AND bb.t BETWEEN a.t - INTERVAL 3 SECONDS AND a.t + INTERVAL 5 SECONDS AND a.v <> bb.w;

CREATE STREAMING TABLE full_j AS
SELECT a.k AS ak, a.v, a.t, bb.k AS bk, bb.w, bb.t AS bt
FROM STREAM(a) FULL OUTER JOIN STREAM(b) AS bb
  ON a.k = bb.k AND bb.t BETWEEN a.t - INTERVAL 3 SECONDS AND a.t + INTERVAL 5 SECONDS AND a.v <> bb.w;
