// Package sparkemit lowers a resolved pipeline to Spark Connect: the ordered
// ExecutePlanRequest messages of a Spark Declarative Pipelines bundle, the
// per-flow lowering report, a bundle writer and a gRPC client.
// It is a pure function of the resolved plan; only cmd/thundc touches the disk.
package sparkemit
