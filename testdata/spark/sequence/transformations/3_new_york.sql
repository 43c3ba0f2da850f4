-- New York: the default step is a day of wall clock (23 hours across March
-- 10), an interval step is that many hours of elapsed time.
SET spark.sql.session.timeZone = America/New_York;

CREATE MATERIALIZED VIEW ny_steps AS
SELECT id, sequence(t, u) AS stamps, sequence(t, u, INTERVAL 12 HOURS) AS stamps12
FROM spans WHERE id = 5;
