SET spark.sql.ansi.enabled = true;

CREATE MATERIALIZED VIEW clicks_per_user
PARTITIONED BY (country)
AS SELECT c.user_id, c.country, count(*) AS n
   FROM clicks AS c JOIN countries AS k ON c.country = k.code
   GROUP BY c.user_id, c.country;

CREATE STREAMING TABLE clicks_per_minute
TBLPROPERTIES ('thund.emit' = 'on window close')
AS SELECT window.start AS minute, count(*) AS n
   FROM STREAM(clicks)
   GROUP BY window(ts, '1 minute');
