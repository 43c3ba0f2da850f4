package passes

// hashFunctions are hashing and encoding (famHash) whose answers the Spark lane checks
// (testdata/spark/fn_*).
var hashFunctions = []funcSig{}
