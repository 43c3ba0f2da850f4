// Package sparkemit lowers a resolved pipeline to Spark Connect: the ordered
// ExecutePlanRequest messages of a Spark Declarative Pipelines bundle, the
// per-flow lowering report, a bundle writer and reader, and a gRPC client.
//
// Emit is a pure function of a *passes.Unit that ran the capability pass for
// spark-4.1 or spark-4.2: CreateDataflowGraph (default catalog, database and
// SQL conf), one DefineOutput per dataset (a source becomes a temporary view
// whose flow reads a Read.DataSource), one DefineFlow per flow with its
// query as a relation tree (reads with is_streaming, WithWatermark, project,
// filter, aggregate, join, union, deduplicate, sort, limit, window() and
// session_window(), and subquery expressions whose relations a
// WithRelations carries), or the SQL files whole as DefineSqlGraphElements,
// and StartRun. A persisted view, which DefineOutput cannot define, is a
// DefineSqlGraphElements of its own: CREATE VIEW over its query's SQL text
// (view.go). Anything it cannot express is an Errors value naming the flow,
// the feature and the target; it never drops a construct silently. Only
// cmd/thundc touches the disk.
//
// The messages come from connectpb, generated (go generate) from the
// project's own .proto subset in proto/, with Spark's field numbers at
// v4.1.0; the fields added after 4.1.0 are set only for spark-4.2. Run sends
// a bundle to a live server; sparktest is an in-process server for tests.
package sparkemit
