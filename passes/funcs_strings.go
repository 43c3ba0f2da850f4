package passes

// stringFunctions are the string functions (famString) whose answers the Spark lane checks
// (testdata/spark/fn_*).
var stringFunctions = []funcSig{}
