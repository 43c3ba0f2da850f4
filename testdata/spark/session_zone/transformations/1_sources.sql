-- s is an instant (its text carries Z); local is a wall-clock time, read in
-- the session zone of the flow that casts it.
CREATE TEMPORARY VIEW events (id BIGINT NOT NULL, s STRING, local STRING)
AS SELECT * FROM read_files('data/events.csv', format => 'csv', header => 'true', nullValue => '');
