package etl

// flagAllowOlder is run's --allow-older-checkpoint: see run.Config's
// AllowOlderCheckpoint and rt/run's chooseHead.
var flagAllowOlder = &flagSpec{name: "allow-older-checkpoint",
	usage: "when the latest commit's record or state fails verification, resume from the newest older commit that verifies"}
