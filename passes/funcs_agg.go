package passes

// aggFunctions are the aggregate functions beyond count, sum, avg, min, max, first, last and any_value (famAggregate) whose answers the Spark lane checks
// (testdata/spark/fn_*).
var aggFunctions = []funcSig{}
