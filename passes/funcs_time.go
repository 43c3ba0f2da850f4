package passes

// timeFunctions are the date and time functions (famTime) whose answers the Spark lane checks
// (testdata/spark/fn_*).
var timeFunctions = []funcSig{}
