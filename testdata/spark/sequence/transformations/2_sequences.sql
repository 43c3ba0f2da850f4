CREATE MATERIALIZED VIEW by_default AS
SELECT id, sequence(a, b) AS days, sequence(t, u) AS stamps, sequence(a, u) AS mixed
FROM spans;

-- a step away from stop fails, as it does in Spark: only rows that go up
CREATE MATERIALIZED VIEW by_step AS
SELECT id, sequence(a, b, INTERVAL 2 DAYS) AS days2, sequence(b, a, INTERVAL -1 DAY) AS down,
       sequence(t, u, INTERVAL 7 HOURS) AS stamps7, size(sequence(a, b, INTERVAL '3' DAY)) AS n3
FROM spans WHERE id <> 2;
