package passes

// mathFunctions are the math functions (famMath) whose answers the Spark lane checks
// (testdata/spark/fn_*).
var mathFunctions = []funcSig{}
