// Package crashtest holds the kill -9 suite (tests only): it builds real
// pipelines with the real thundc, feeds input files into their watched
// folders in steps (write, then rename into place), runs `etl run` and
// SIGKILLs it at random points, then checks that a final run's outputs equal
// those of an uninterrupted run over the same input (no row lost, none
// duplicated), that a run after a commit re-reads only the input that came
// after it, and that no partial file is ever visible. One scenario
// (streams_capped) runs with --max-files-per-epoch and --keep-checkpoints:
// no epoch reads more than its files, and a kill after a run's first commit
// costs at most the epoch in flight. TestKillVacuum SIGKILLs `etl vacuum`
// at least 20 times, mostly after it removed something: every dataset
// version a remaining commit record lists must read back, and a final
// vacuum completes. TestKillSpilling SIGKILLs a group by while it spills
// past --memory-limit, three times: each next run removes the spill folder
// the killed one left, and the last leaves none. The random delays come
// from a seeded generator whose seed is logged; THUND_CRASH_SEED replays one.
// Those counts are the full form's (THUND_TEST_FULL=1, as CI runs it); by
// default the suite runs every scenario and every check with fewer kills:
// one killed run per step instead of 1 to 3, at least 4 kills per scenario
// and 12 in all instead of 8 and 20, and 8 kills of `etl vacuum` (4
// mid-removal) instead of 20 (10). The scenarios run in parallel.
// With -tags s3 the same suite runs against the S3 lane's server
// (TestS3Kill; see internal/testenv). With -tags kafka, against the Kafka
// lane's broker: TestKafkaToWarehouseKill (SQL), TestKafkaToKafkaKill and
// TestKafkaToKafkaFollowKill (the DSL, the exactly-once sink; --once runs
// and --follow) feed an input topic in steps and compare with an
// uninterrupted run in a warehouse of its own over the same topic, and
// TestKafkaKill writes a watched folder to the sink.
package crashtest
