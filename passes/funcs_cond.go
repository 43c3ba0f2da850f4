package passes

// condFunctions are the conditional and NULL-handling functions (famConditional) whose answers the Spark lane checks
// (testdata/spark/fn_*).
var condFunctions = []funcSig{}
