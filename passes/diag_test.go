package passes

import (
	"strings"
	"testing"

	"github.com/nordisk/thund/ir"
)

// diagCase builds a pipeline that must fail with a diagnostic of code whose
// message contains want.
type diagCase struct {
	name   string
	target Target
	code   ir.Code
	want   string
	build  func(b *pb)
}

var diagCases = []diagCase{
	// resolve
	{"unknown column suggests", "", ir.CodeUnknownColumn, `unknown column "pricee" (did you mean "price"?)`, func(b *pb) {
		bids(b)
		b.mv("m", sel(scan("bids"), "pricee"))
	}},
	{"unknown column lists", "", ir.CodeUnknownColumn, `unknown column "zzz" (the input has "auction", "bidder"`, func(b *pb) {
		bids(b)
		b.mv("m", sel(scan("bids"), "zzz"))
	}},
	{"unknown qualifier", "", ir.CodeUnknownColumn, `unknown table or alias "x" in "x.price"`, func(b *pb) {
		bids(b)
		b.mv("m", sel(scan("bids"), c("x.price")))
	}},
	{"star except unknown", "", ir.CodeUnknownColumn, `* except names unknown column "chanel" (did you mean "channel"?)`, func(b *pb) {
		bids(b)
		b.mv("m", sel(scan("bids"), &ir.Star{Pos: at(), Except: []string{"chanel"}}))
	}},
	{"unknown watermark column", "", ir.CodeUnknownColumn, `watermark column "dt" is not a column of "ev"`, func(b *pb) {
		b.source("ev", true, wm("dt", "1s"), "id int64", "at timestamp(ms)")
	}},
	{"unknown partition column", "", ir.CodeUnknownColumn, `partition column "chanel" is not a column of "m" (did you mean "channel"?)`, func(b *pb) {
		bids(b)
		d, _ := b.mv("m", sel(scan("bids"), "channel", "price"))
		d.PartitionBy = []string{"chanel"}
	}},
	{"unknown cdc key", "", ir.CodeUnknownColumn, `key "idd" is not a column of "the output of flow apply"`, func(b *pb) {
		changes(b)
		b.st("customers", nil)
		f := b.flow("apply", "customers", stream("changes"))
		f.CDC = &ir.CDC{Pos: at(), Keys: []string{"idd"}, SequenceBy: c("seq"), SCDType: 1}
	}},
	{"ambiguous", "", ir.CodeAmbiguous, `column "auction" is ambiguous: it could be a.auction or b.auction`, func(b *pb) {
		bids(b)
		b.mv("m", sel(join(ir.JoinInner, aliased(scan("bids"), "a"), aliased(scan("bids"), "b"), eq(c("a.auction"), c("b.auction"))), "auction"))
	}},
	{"unknown function", "", ir.CodeUnknownFunc, `unknown function "lenght" (did you mean "length"?)`, func(b *pb) {
		bids(b)
		b.mv("m", sel(scan("bids"), call("lenght", c("channel"))))
	}},
	{"arity", "", ir.CodeArity, "round takes 1 or 2 arguments, got 3", func(b *pb) {
		bids(b)
		b.mv("m", sel(scan("bids"), call("round", c("price"), i("1"), i("2"))))
	}},
	{"star arity", "", ir.CodeArity, "sum(*) is not a function: only count takes *", func(b *pb) {
		bids(b)
		b.mv("m", groupBy(scan("bids"), nil, &ir.Call{Pos: at(), Name: "sum", Star: true}))
	}},
	{"sum of string", "", ir.CodeTypeMismatch, "sum needs a numeric argument, got string", func(b *pb) {
		bids(b)
		b.mv("m", groupBy(scan("bids"), items("auction"), call("sum", c("channel"))))
	}},
	{"timestamp vs string", "", ir.CodeTypeMismatch, "cannot compare timestamp(ms) with string (date_time > '2024-01-01'): cast the string with timestamp '2024-01-01'", func(b *pb) {
		bids(b)
		b.mv("m", where(scan("bids"), gt(c("date_time"), str("2024-01-01"))))
	}},
	{"where not bool", "", ir.CodeTypeMismatch, "where needs a bool condition, got int64", func(b *pb) {
		bids(b)
		b.mv("m", where(scan("bids"), c("price")))
	}},
	{"and needs bool", "", ir.CodeTypeMismatch, "and needs bool operands, got int64 and bool", func(b *pb) {
		bids(b)
		b.mv("m", where(scan("bids"), and(c("price"), gt(c("price"), i("1")))))
	}},
	{"like needs strings", "", ir.CodeTypeMismatch, "like needs strings, got int64 and string", func(b *pb) {
		bids(b)
		b.mv("m", where(scan("bids"), &ir.Like{Pos: at(), X: c("price"), Pattern: str("1%")}))
	}},
	{"concat needs strings", "", ir.CodeTypeMismatch, "|| needs strings, got string and int64: cast(price as string)", func(b *pb) {
		bids(b)
		b.mv("m", sel(scan("bids"), bin(ir.OpConcat, c("channel"), c("price"))))
	}},
	{"plus on strings", "", ir.CodeTypeMismatch, "cannot apply + to string and string: use || to concatenate strings", func(b *pb) {
		bids(b)
		b.mv("m", sel(scan("bids"), bin(ir.OpAdd, c("channel"), c("channel"))))
	}},
	{"case branches", "", ir.CodeTypeMismatch, "case results have no common type: int64 and string", func(b *pb) {
		bids(b)
		b.mv("m", sel(scan("bids"), &ir.Case{Pos: at(), Whens: []*ir.When{{Pos: at(), Cond: gt(c("price"), i("1")), Then: c("price")}}, Else: c("channel")}))
	}},
	{"coalesce branches", "", ir.CodeTypeMismatch, "coalesce arguments have no common type: int64 and timestamp(ms)", func(b *pb) {
		bids(b)
		b.mv("m", sel(scan("bids"), call("coalesce", c("price"), c("date_time"))))
	}},
	{"in list", "", ir.CodeTypeMismatch, "cannot compare int64 with string (price in 'a')", func(b *pb) {
		bids(b)
		b.mv("m", where(scan("bids"), &ir.In{Pos: at(), X: c("price"), List: []ir.Expr{i("1"), str("a")}}))
	}},
	{"window on a string", "", ir.CodeTypeMismatch, "window tumble needs a timestamp time column, got channel string", func(b *pb) {
		bids(b)
		b.mv("m", tumble(scan("bids"), c("channel"), "1m"))
	}},
	{"watermark not a timestamp", "", ir.CodeTypeMismatch, `watermark column "id" of "ev" is int64: event time must be a timestamp`, func(b *pb) {
		b.source("ev", true, wm("id", "1s"), "id int64")
	}},
	{"expectation not bool", "", ir.CodeTypeMismatch, `expectation "e" needs a bool condition, got int64`, func(b *pb) {
		bids(b)
		d, _ := b.mv("m", scan("bids"))
		d.Expectations = []*ir.Expectation{{Pos: at(), Name: "e", Cond: c("price")}}
	}},
	{"null column", "", ir.CodeTypeMismatch, `column "x" of flow "m" has no type (it is always NULL)`, func(b *pb) {
		bids(b)
		b.mv("m", sel(scan("bids"), as(null(), "x")))
	}},
	{"union types", "", ir.CodeTypeMismatch, "union column 1 (price) is int64 in the first input and string in input 2", func(b *pb) {
		bids(b)
		b.mv("m", &ir.Union{Pos: at(), All: true, Inputs: []ir.Rel{sel(scan("bids"), "price"), sel(scan("bids"), "channel")}})
	}},
	{"aggregate in select", "", ir.CodeBadAggregate, "aggregate sum(price) is not allowed in select", func(b *pb) {
		bids(b)
		b.mv("m", sel(scan("bids"), call("sum", c("price"))))
	}},
	{"aggregate in having", "", ir.CodeBadAggregate, "compute it in the aggregate stage with an alias", func(b *pb) {
		bids(b)
		b.mv("m", where(groupBy(scan("bids"), items("auction"), as(countStar(), "n")), gt(countStar(), i("1"))))
	}},
	{"nested aggregates", "", ir.CodeBadAggregate, "aggregate max(price) inside aggregate sum", func(b *pb) {
		bids(b)
		b.mv("m", groupBy(scan("bids"), nil, call("sum", call("max", c("price")))))
	}},
	{"non-grouped column", "", ir.CodeBadAggregate, `column "bidder" is neither grouped nor aggregated: add it to group by, or aggregate it, e.g. any_value(bidder)`, func(b *pb) {
		bids(b)
		b.mv("m", groupBy(scan("bids"), items("auction"), bin(ir.OpAdd, c("bidder"), call("max", c("price")))))
	}},
	{"window function without over", "", ir.CodeBadWindow, "window function row_number() requires an OVER clause (Spark: WINDOW_FUNCTION_WITHOUT_OVER_CLAUSE)", func(b *pb) {
		bids(b)
		b.mv("m", sel(scan("bids"), call("row_number")))
	}},
	{"distinct scalar", "", ir.CodeBadAggregate, "distinct applies to aggregate functions; lower is a scalar function", func(b *pb) {
		bids(b)
		b.mv("m", sel(scan("bids"), &ir.Call{Pos: at(), Name: "lower", Distinct: true, Args: []ir.Expr{c("channel")}}))
	}},
	{"bad cast", "", ir.CodeBadCast, "cannot cast bool to timestamp(us): a boolean is not a point in time", func(b *pb) {
		bids(b)
		b.mv("m", sel(scan("bids"), cast(boolLit(true), "timestamp")))
	}},
	{"declared columns count", "", ir.CodeSchemaMismatch, `flow "m" writes 2 columns (auction, price), but materialized view "m" declares 1 (auction)`, func(b *pb) {
		bids(b)
		d, _ := b.mv("m", sel(scan("bids"), "auction", "price"))
		d.Columns = cols("auction int64")
	}},
	{"declared column type", "", ir.CodeSchemaMismatch, `flow "m" writes channel string into column "price" of "m", declared int64`, func(b *pb) {
		bids(b)
		d, _ := b.mv("m", sel(scan("bids"), "channel"))
		d.Columns = cols("price int64")
	}},
	{"by name flow writes an undeclared column", "", ir.CodeUnknownColumn, `flow f writes column "bidder" is not a column of "all"`, func(b *pb) {
		bids(b)
		d, _ := b.st("all", nil)
		d.Columns = cols("auction int64", "price int64")
		f := b.flow("f", "all", sel(stream("bids"), "auction", "bidder"))
		f.ByName = true
	}},
	{"flows disagree", "", ir.CodeSchemaMismatch, `flow "g" writes 1 columns into "all", but flow "f" writes 2`, func(b *pb) {
		bids(b)
		b.st("all", nil)
		b.flow("f", "all", sel(stream("bids"), "auction", "price"))
		b.flow("g", "all", sel(stream("bids"), "auction"))
	}},
	{"flows disagree by name", "", ir.CodeSchemaMismatch, `flow "g" does not write column "price", which flow "f" into "all" writes`, func(b *pb) {
		bids(b)
		b.st("all", nil)
		b.flow("f", "all", sel(stream("bids"), "auction", "price"))
		g := b.flow("g", "all", sel(stream("bids"), "auction", "bidder"))
		g.ByName = true
	}},
	{"duplicate output", "", ir.CodeSchemaMismatch, `flow "m" writes two columns named "price": alias one of them`, func(b *pb) {
		bids(b)
		b.mv("m", sel(scan("bids"), "price", "price"))
	}},
	{"union arity", "", ir.CodeSchemaMismatch, "union input 2 has 2 columns (price, auction), the first has 1 (price)", func(b *pb) {
		bids(b)
		b.mv("m", &ir.Union{Pos: at(), All: true, Inputs: []ir.Rel{sel(scan("bids"), "price"), sel(scan("bids"), "price", "auction")}})
	}},
	{"empty table", "", ir.CodeSchemaMismatch, `streaming table "empty" has no columns to read`, func(b *pb) {
		b.st("empty", nil)
		b.mv("m", scan("empty"))
	}},
	{"bad literal", "", ir.CodeBadLiteral, "decimal literal 1234567890123456789012345678901234567890.5 needs more than 38 digits", func(b *pb) {
		bids(b)
		b.mv("m", sel(scan("bids"), as(dec("1234567890123456789012345678901234567890.5"), "x")))
	}},
	{"bad window size", "", ir.CodeBadDuration, "window tumble size must be positive, got 0s", func(b *pb) {
		bids(b)
		b.mv("m", tumble(scan("bids"), c("date_time"), "0s"))
	}},
	{"read a sink", "", ir.CodeBadTarget, `sink "out" cannot be read`, func(b *pb) {
		bids(b)
		b.dataset(ir.KindSink, "out", sel(stream("bids"), "auction"))
		b.mv("m", scan("out"))
	}},

	// sanity
	{"unbounded aggregate", "", ir.CodeUnboundedAgg, `aggregate over unbounded input (stream "bids") in append mode never emits a final row: add window tumble(date_time, 1m) with a watermark and group by window_start, or use output mode update or output mode complete`, func(b *pb) {
		bids(b)
		b.st("counts", groupBy(stream("bids"), items("auction"), countStar()))
	}},
	{"unbounded distinct", "", ir.CodeUnboundedDist, `distinct over unbounded input (stream "bids") keeps every row it has seen, forever`, func(b *pb) {
		bids(b)
		b.st("pairs", &ir.Distinct{Pos: at(), Input: sel(stream("bids"), "auction", "bidder")})
	}},
	{"unbounded union", "", ir.CodeUnboundedDist, "union (distinct) over unbounded input", func(b *pb) {
		bids(b)
		b.st("u", &ir.Union{Pos: at(), Inputs: []ir.Rel{sel(stream("bids"), "auction"), sel(stream("bids"), "bidder")}})
	}},
	{"unbounded sort", "", ir.CodeUnboundedSort, `order by over unbounded input (stream "bids") can never finish`, func(b *pb) {
		bids(b)
		b.st("sorted", orderBy(stream("bids"), c("price")))
	}},
	{"unbounded limit", "", ir.CodeUnboundedSort, `limit over unbounded input (stream "bids")`, func(b *pb) {
		bids(b)
		b.st("top", &ir.Limit{Pos: at(), Input: stream("bids"), N: 10})
	}},
	{"window without watermark", "", ir.CodeNoWatermark, `window over stream "ev" needs a watermark to close windows: declare watermark at delay DUR on source "ev" or on the read (from stream ev watermark at delay 10s)`, func(b *pb) {
		b.source("ev", true, nil, "id int64", "at timestamp(ms)")
		b.st("w", groupBy(tumble(stream("ev"), c("at"), "1m"), items("window_start"), countStar()))
	}},
	{"window on another column", "", ir.CodeNoWatermark, `window on other, but the watermark of stream "ev" is on at`, func(b *pb) {
		b.source("ev", true, wm("at", "1s"), "id int64", "at timestamp(ms)", "other timestamp(ms)")
		b.st("w", groupBy(tumble(stream("ev"), c("other"), "1m"), items("window_start"), countStar()))
	}},
	{"stream join without bound", "", ir.CodeUnboundedJoin, `stream-stream join of stream "bids" and stream "bids" has no time bound, so both sides' state grows forever: bound one side's event time by the other's, e.g. on ... and a.date_time between b.date_time - 10s and b.date_time + 10s`, func(b *pb) {
		bids(b)
		b.st("j", sel(join(ir.JoinInner, aliased(stream("bids"), "a"), aliased(stream("bids"), "b"), eq(c("a.auction"), c("b.auction"))), "a.auction"))
	}},
	{"stream join with a one-sided bound", "", ir.CodeUnboundedJoin, "has no time bound", func(b *pb) {
		bids(b)
		b.st("j", sel(join(ir.JoinInner, aliased(stream("bids"), "a"), aliased(stream("bids"), "b"),
			and(eq(c("a.auction"), c("b.auction")), bin(ir.OpGe, c("a.date_time"), bin(ir.OpSub, c("b.date_time"), dur("10s"))))), "a.auction"))
	}},
	{"mv reads stream", "", ir.CodeMVReadsStream, `materialized view "m" reads stream "bids": a materialized view is recomputed from snapshots; make it a streaming table, or read a snapshot (from bids) (Spark: INVALID_FLOW_QUERY_TYPE.STREAMING_RELATION_FOR_MATERIALIZED_VIEW)`, func(b *pb) {
		bids(b)
		b.mv("m", groupBy(stream("bids"), items("auction"), countStar()))
	}},
	{"emit on window close without window", "", ir.CodeBadEmit, "emit on window close needs a windowed aggregate", func(b *pb) {
		bids(b)
		_, f := b.st("s", sel(stream("bids"), "auction"))
		f.Emit = ir.EmitOnWindowClose
	}},
	{"complete without aggregate", "", ir.CodeBadEmit, "output mode complete rewrites the whole result at every micro-batch, which over unbounded unaggregated input", func(b *pb) {
		bids(b)
		_, f := b.st("s", sel(stream("bids"), "auction"))
		f.OutputMode = ir.OutputComplete
	}},
	{"emit close with update", "", ir.CodeBadEmit, "emit on window close writes each window's final row once, which is output mode append, not update", func(b *pb) {
		bids(b)
		_, f := b.st("s", groupBy(tumble(stream("bids"), c("date_time"), "1m"), items("window_start"), countStar()))
		f.Emit, f.OutputMode = ir.EmitOnWindowClose, ir.OutputUpdate
	}},
	{"streaming table from snapshot", "", ir.CodeBadEmit, `flow "s" into streaming table "s" reads only snapshots, so every run would append its whole input again: read a stream (from stream x), mark the flow once (a one-time backfill), or make "s" a materialized view (Spark: INVALID_FLOW_QUERY_TYPE.BATCH_RELATION_FOR_STREAMING_TABLE)`, func(b *pb) {
		bids(b)
		b.st("s", scan("bids"))
	}},
	{"output mode on batch", "", ir.CodeBadEmit, `flow "m" reads only snapshots (bounded input), so output mode update does not apply`, func(b *pb) {
		bids(b)
		_, f := b.mv("m", scan("bids"))
		f.OutputMode = ir.OutputUpdate
	}},
	{"once flow reads a stream", "", ir.CodeBadEmit, `once flow "backfill" reads stream "bids": a once flow is a one-time batch backfill`, func(b *pb) {
		bids(b)
		b.st("s", stream("bids"))
		f := b.flow("backfill", "s", stream("bids"))
		f.Once = true
	}},
	{"late table without watermark", "", ir.CodeBadEmit, `flow "s" has late table "late" but no watermark`, func(b *pb) {
		b.source("ev", true, nil, "id int64", "at timestamp(ms)")
		_, f := b.st("s", stream("ev"))
		f.LateTable = "late"
	}},

	// capability
	{"iceberg table of uint64", "", ir.CodeIcebergType, `materialized view m is an Iceberg table (format iceberg): column id of type uint64 has no Iceberg type (Iceberg has no unsigned integers`, func(b *pb) {
		b.source("ev", false, nil, "id uint64", "at timestamp(ms)")
		d, _ := b.mv("m", scan("ev"))
		d.Format = "iceberg"
	}},
	{"iceberg table of a nested nanosecond timestamp on spark", Spark41, ir.CodeIcebergType, `column s.at of type timestamp(ns) has no Iceberg type (nanosecond timestamps need Iceberg format v3`, func(b *pb) {
		b.source("ev", false, nil, "s struct<at: timestamp(ns)>")
		d, _ := b.mv("m", scan("ev"))
		d.Format = "ICEBERG"
	}},
	{"cdc on spark 4.1", Spark41, ir.CodeCapability, `spark-4.1 cannot run change flow "apply": CDC (AUTO CDC) arrives in spark-4.2`, func(b *pb) {
		changes(b)
		b.st("customers", nil)
		f := b.flow("apply", "customers", stream("changes"))
		f.CDC = &ir.CDC{Pos: at(), Keys: []string{"id"}, SequenceBy: c("seq"), SCDType: 1}
	}},
	{"scd type 2 on spark 4.2", Spark42, ir.CodeCapability, `spark-4.2 cannot run change flow "apply": scd type 2 is not in Spark 4.2.1's AUTO CDC (DefineFlow.SCDType has only SCD_TYPE_1)`, func(b *pb) {
		changes(b)
		b.st("customers", nil)
		f := b.flow("apply", "customers", stream("changes"))
		f.CDC = &ir.CDC{Pos: at(), Keys: []string{"id"}, SequenceBy: c("seq"), SCDType: 2}
	}},
	{"track history on spark 4.2", Spark42, ir.CodeCapability, `spark-4.2 cannot run change flow "apply": track history on * except (op) is SCD type 2 history, which Spark 4.2.1's AUTO CDC lacks`, func(b *pb) {
		changes(b)
		b.st("customers", nil)
		f := b.flow("apply", "customers", stream("changes"))
		f.CDC = &ir.CDC{Pos: at(), Keys: []string{"id"}, SequenceBy: c("seq"), SCDType: 2, TrackHistoryExcept: []string{"op"}}
	}},
	{"ignore null updates on spark 4.2", Spark42, ir.CodeCapability, `spark-4.2 cannot run change flow "apply": ignore null updates is not applied by Spark 4.2.1's server`, func(b *pb) {
		changes(b)
		b.st("customers", nil)
		f := b.flow("apply", "customers", stream("changes"))
		f.CDC = &ir.CDC{Pos: at(), Keys: []string{"id"}, SequenceBy: c("seq"), SCDType: 1, IgnoreNullUpdates: true}
	}},
	{"external table on native", Native, ir.CodeCapability, `native cannot run flow "m": external table "cat.db.orders" is outside the pipeline, and the native engine reads only the pipeline's own datasets: bind it to files with thundc --bind`, func(b *pb) {
		b.mv("m", sel(scan("cat.db.orders"), "id", "amount"))
	}},
	{"expectations on spark", Spark42, ir.CodeCapability, `spark-4.2 cannot run materialized view "m": expectation "positive" (on violation fail) is not part of OSS Spark`, func(b *pb) {
		bids(b)
		d, _ := b.mv("m", scan("bids"))
		d.Expectations = []*ir.Expectation{{Pos: at(), Name: "positive", Cond: gt(c("price"), i("0")), Action: ir.ActFail}}
	}},
	{"update mode aggregate on spark", Spark41, ir.CodeCapability, `spark-4.1 cannot run flow "counts": output mode update is not settable in SDP`, func(b *pb) {
		bids(b)
		_, f := b.st("counts", groupBy(stream("bids"), items("auction"), countStar()))
		f.OutputMode = ir.OutputUpdate
	}},
	{"late table on spark", Spark42, ir.CodeCapability, `spark-4.2 cannot run flow "w": late table "late" has no Spark counterpart`, func(b *pb) {
		bids(b)
		_, f := b.st("w", groupBy(tumble(stream("bids"), c("date_time"), "1m"), items("window_start"), countStar()))
		f.LateTable = "late"
	}},
	{"stdin on spark", Spark41, ir.CodeCapability, `spark-4.1 cannot run source "in": an Arrow IPC stream on stdin is not readable by a Spark Connect server`, func(b *pb) {
		d := b.source("in", true, nil, "id int64")
		d.Source.Paths, d.Source.Stdin, d.Source.Format = nil, true, ir.FormatArrow
	}},
	{"persisted view without SQL text", Spark41, ir.CodeCapability, `spark-4.1 cannot run view "v": a persisted view declared in .thund needs its query as SQL text`, func(b *pb) {
		b.dataset(ir.KindMaterializedView, "m", &ir.Range{Start: 0, End: 1})
		b.dataset(ir.KindView, "v", scan("m"))
	}},
	{"persisted view reads a source", Spark42, ir.CodeCapability, `spark-4.2 cannot run view "v": a read of source "bids" by a persisted view is refused by Spark, as a persistent object cannot reference a temporary one (Spark: INVALID_TEMP_OBJ_REFERENCE)`, func(b *pb) {
		bids(b)
		_, f := b.dataset(ir.KindView, "v", scan("bids"))
		f.SQL = &ir.SQLText{Query: "SELECT * FROM bids"}
	}},
	{"in subquery in an order by on spark", Spark41, ir.CodeCapability, `spark-4.1 cannot run flow "m": an IN subquery in an order by key is not allowed by Spark`, func(b *pb) {
		bids(b)
		b.mv("m", orderBy(scan("bids"), &ir.InSubquery{Pos: at(), X: c("auction"), Query: sel(scan("bids"), "bidder")}))
	}},
	{"exists subquery in an order by on spark", Spark42, ir.CodeCapability, `spark-4.2 cannot run flow "m": an EXISTS subquery in an order by key is not allowed by Spark`, func(b *pb) { // correlated subqueries
		bids(b)
		b.mv("m", orderBy(scan("bids"), &ir.Exists{Pos: at(), Query: sel(scan("bids"), "bidder")}))
	}},
	{"stream read in a subquery on spark", Spark42, ir.CodeCapability, `spark-4.2 cannot run flow "s": the stream read of bids in a subquery is not allowed by Spark`, func(b *pb) {
		bids(b)
		b.st("s", where(stream("bids"), &ir.InSubquery{Pos: at(), X: c("auction"), Query: sel(stream("bids"), "bidder")}))
	}},
	{"subquery in auto cdc on spark 4.2", Spark42, ir.CodeCapability, `spark-4.2 cannot run change flow "apply": a subquery in AUTO CDC has no Spark Connect form`, func(b *pb) {
		changes(b)
		b.st("customers", nil)
		f := b.flow("apply", "customers", stream("changes"))
		f.CDC = &ir.CDC{Pos: at(), Keys: []string{"id"}, SequenceBy: c("seq"), SCDType: 1,
			DeleteWhen: &ir.InSubquery{Pos: at(), X: c("op"), Query: sel(scan("changes"), "op")}}
	}},
	// session confs
	{"unknown session zone", "", ir.CodeBadConf, `[INVALID_CONF_VALUE.TIME_ZONE] The value 'Mars/Olympus' in the config "spark.sql.session.timeZone" is invalid`, func(b *pb) {
		bids(b)
		_, f := b.mv("m", sel(scan("bids"), "price"))
		f.Conf = []ir.KV{{Pos: at(), Key: "spark.sql.session.timeZone", Value: "Mars/Olympus"}}
	}},
}

// changes is a change feed source.
func changes(b *pb) {
	b.source("changes", true, nil, "id int64 not null", "name string", "seq int64", "op string")
}

func TestDiagnostics(t *testing.T) {
	for _, tc := range diagCases {
		t.Run(tc.name, func(t *testing.T) {
			b := newPipeline("p")
			tc.build(b)
			u := run(t, b.p, Options{Target: tc.target})
			if u.Diags.Err() == nil {
				t.Fatalf("no error; want %s: %s", tc.code, tc.want)
			}
			var found bool
			for _, d := range u.Diags {
				if d.Code == tc.code && strings.Contains(d.Msg, tc.want) {
					found = true
				}
			}
			if !found {
				t.Errorf("want a %s diagnostic containing\n\t%s\ngot\n%s", tc.code, tc.want, u.Diags.Error())
			}
			if !sortedDiags(u.Diags) {
				t.Errorf("diagnostics are not sorted:\n%s", u.Diags.Error())
			}
		})
	}
}

func sortedDiags(l ir.Diagnostics) bool {
	for i := 1; i < len(l); i++ {
		a, b := l[i-1].Pos, l[i].Pos
		if a.File > b.File || a.File == b.File && (a.Line > b.Line || a.Line == b.Line && a.Col > b.Col) {
			return false
		}
	}
	return true
}

// TestEveryCodeCovered checks that every diagnostic code of the resolve,
// sanity and capability phases has a case above.
func TestEveryCodeCovered(t *testing.T) {
	have := map[ir.Code]bool{}
	for _, tc := range diagCases {
		have[tc.code] = true
	}
	for _, ci := range ir.Codes {
		switch ci.Phase {
		case "resolve", "sanity", "capability":
			if !have[ci.Code] {
				t.Errorf("no test case produces %s (%s)", ci.Code, ci.Phase)
			}
		}
	}
}

// TestValid runs pipelines the passes must accept.
func TestPositionalSwapWarns(t *testing.T) {
	b := newPipeline("p")
	bids(b)
	d, _ := b.mv("m", sel(scan("bids"), "price", "auction"))
	d.Columns = cols("auction int64", "price int64")
	u, err := Run(b.p, Options{Verify: true})
	if err != nil {
		t.Fatalf("a warning must not fail the run: %v", err)
	}
	if len(u.Diags) != 2 || u.Diags[0].Severity != ir.Warning || !strings.Contains(u.Diags[0].Msg, `flow "m" writes price into column "auction" of "m" by position, but "m" declares price as column 2`) {
		t.Errorf("want two warnings, got:\n%s", u.Diags.Error())
	}
	if len(u.Ran) != len(passes) {
		t.Errorf("ran %v", u.Ran)
	}
}

func TestValid(t *testing.T) {
	for _, tc := range []struct {
		name  string
		build func(b *pb)
	}{
		{"stream join with a between bound", func(b *pb) {
			bids(b)
			b.st("j", sel(join(ir.JoinInner, aliased(stream("bids"), "a"), aliased(stream("bids"), "b"),
				and(eq(c("a.auction"), c("b.auction")),
					&ir.Between{Pos: at(), X: c("a.date_time"), Lo: bin(ir.OpSub, c("b.date_time"), dur("10s")), Hi: bin(ir.OpAdd, c("b.date_time"), dur("10s"))})),
				"a.auction", as(c("b.price"), "other")))
		}},
		{"stream join with a pair of bounds", func(b *pb) {
			bids(b)
			b.st("j", sel(join(ir.JoinLeft, aliased(stream("bids"), "a"), aliased(stream("bids"), "b"),
				and(bin(ir.OpLe, c("b.date_time"), bin(ir.OpAdd, c("a.date_time"), dur("1m"))),
					bin(ir.OpGe, c("b.date_time"), c("a.date_time")))),
				"a.auction"))
		}},
		{"stream-static join", func(b *pb) {
			bids(b)
			b.source("auctions", false, nil, "id int64 not null", "seller string")
			b.st("j", sel(join(ir.JoinInner, stream("bids"), scan("auctions"), eq(c("auction"), c("id"))), "auction", "seller", "date_time"))
		}},
		{"update mode aggregate", func(b *pb) {
			bids(b)
			_, f := b.st("counts", groupBy(stream("bids"), items("auction"), countStar()))
			f.OutputMode = ir.OutputUpdate
		}},
		{"complete mode sort", func(b *pb) {
			bids(b)
			_, f := b.st("top", &ir.Limit{Pos: at(), N: 10, Input: orderBy(groupBy(stream("bids"), items("auction"), as(countStar(), "n")), c("n"))})
			f.OutputMode = ir.OutputComplete
		}},
		{"distinct keeps event time", func(b *pb) {
			bids(b)
			b.st("d", &ir.Distinct{Pos: at(), Input: sel(stream("bids"), "auction", "date_time")})
		}},
		{"group by the watermarked column", func(b *pb) {
			bids(b)
			b.st("g", groupBy(stream("bids"), items("date_time"), countStar()))
		}},
		{"window over a read watermark", func(b *pb) {
			b.source("ev", true, nil, "id int64", "at timestamp(ms)")
			r := stream("ev")
			r.Watermark = wm("at", "2s")
			b.st("w", groupBy(tumble(r, c("at"), "1m"), items("window_start"), countStar()))
		}},
		{"once backfill", func(b *pb) {
			bids(b)
			b.st("s", stream("bids"))
			f := b.flow("backfill", "s", scan("bids"))
			f.Once = true
		}},
		{"cdc scd2 on native", func(b *pb) {
			changes(b)
			b.st("customers", nil)
			f := b.flow("apply", "customers", stream("changes"))
			f.CDC = &ir.CDC{Pos: at(), Keys: []string{"id"}, SequenceBy: c("seq"), DeleteWhen: eq(c("op"), str("D")), ExceptColumns: []string{"op"}, SCDType: 2}
			b.mv("current", where(scan("customers"), &ir.IsNull{Pos: at(), X: c("__END_AT")}))
		}},
		{"cdc scd1 on spark", func(b *pb) {
			changes(b)
			b.st("customers", nil)
			f := b.flow("apply", "customers", stream("changes"))
			f.CDC = &ir.CDC{Pos: at(), Keys: []string{"id"}, SequenceBy: c("seq"), DeleteWhen: eq(c("op"), str("D")), ExceptColumns: []string{"op"}, SCDType: 1}
		}},
		{"using join and qualified keys", func(b *pb) {
			b.source("l", false, nil, "k int32 not null", "a string")
			b.source("r", false, nil, "k int64 not null", "b string")
			b.mv("m", sel(join(ir.JoinFull, scan("l"), scan("r"), nil, "k"), "k", as(c("l.k"), "lk"), as(c("r.k"), "rk"), "a", "b"))
		}},
		{"correlated subquery", func(b *pb) {
			bids(b)
			sub := &ir.ScalarSubquery{Pos: at(), Query: groupBy(where(aliased(scan("bids"), "i"), eq(c("i.auction"), c("o.auction"))), nil, call("max", c("i.price")))}
			b.mv("m", where(aliased(scan("bids"), "o"), eq(c("o.price"), sub)))
		}},
		{"in subquery", func(b *pb) {
			bids(b)
			b.mv("m", where(scan("bids"), &ir.InSubquery{Pos: at(), X: c("auction"), Query: sel(scan("bids"), "bidder")}))
		}},
		{"declared schema by position widens", func(b *pb) {
			bids(b)
			d, _ := b.mv("m", sel(scan("bids"), "auction", as(c("channel"), "ch")))
			d.Columns = cols("id decimal(30,0) not null", "channel string")
		}},
		{"external tables on spark resolve leniently", func(b *pb) {
			b.mv("m", groupBy(scan("cat.db.orders"), items("customer"), as(call("sum", c("amount")), "total")))
			b.mv("n", sel(scan("m"), "customer", "total"))
		}},
		{"two flows widen", func(b *pb) {
			b.source("a", true, nil, "id int32")
			b.source("b2", true, nil, "id int64")
			b.st("all", nil)
			b.flow("fa", "all", stream("a"))
			b.flow("fb", "all", stream("b2"))
		}},
		{"global aggregate and having", func(b *pb) {
			bids(b)
			b.mv("m", where(groupBy(scan("bids"), items("auction"), as(call("max", c("price")), "top")), gt(c("top"), i("10"))))
			b.mv("g", groupBy(scan("bids"), nil, as(countStar(), "n"), as(call("sum", bin(ir.OpMul, c("price"), dec("0.908"))), "eur")))
		}},
		{"group by expression", func(b *pb) {
			bids(b)
			b.mv("m", groupBy(scan("bids"), items(as(call("lower", c("channel")), "ch")), bin(ir.OpConcat, call("lower", c("channel")), str("!")), countStar()))
		}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			b := newPipeline("p")
			tc.build(b)
			target := Native
			if strings.Contains(tc.name, "spark") {
				target = Spark42
			}
			mustRun(t, b.p, Options{Target: target, StopAfter: "fuse"}) // what the native backend runs is TestPlan*'s
		})
	}
}
