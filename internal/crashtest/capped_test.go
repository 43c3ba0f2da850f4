package crashtest

func init() {
	scenarios = append(scenarios, cappedScenario)
}

// cappedScenario is the streams scenario's pipeline and input with a
// checkpoint interval: its killed and completing runs take at most 2 files
// per stream read and epoch (--max-files-per-epoch 2), commit epoch after
// epoch until the input is read, and keep the last 3 commits
// (--keep-checkpoints 3, so kills land in vacuums too). Steps bring up to 5
// files, so a run has several epochs to commit, and the first kill of each
// step lands after the run's first commit when more than one epoch of input
// waits. Besides the suite's checks (outputs equal to one uninterrupted
// epoch per step, reads of exactly the unconsumed files, whole files), it
// checks that no epoch reads more than 2 files per stream read, and that a
// kill after a run's first commit keeps the epochs it committed: a restart
// reads again no more than one checkpoint interval of input.
var cappedScenario = &scenario{
	name: "streams_capped", src: "testdata/streams", exe: "streams", source: "events",
	inputs:  eventFiles,
	read:    []string{"events_copy", "big_events", "small_inc", "per_key"},
	streams: []string{"events_copy/events_copy", "big_events/big_events", "small_inc/small_inc", "out_csv/export"},
	sinkDir: "out", batchSinkDir: "out_batch",
	maxFiles: 2, keep: 3, stepFiles: 5,
}
