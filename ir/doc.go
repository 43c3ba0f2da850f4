// Package ir is Þund's intermediate representation: the single source of truth
// that every frontend produces and every pass and backend consumes.
//
// A Pipeline holds Datasets (nodes: sources, materialized views, streaming
// tables, temporary views, persisted views and sinks) and Flows (edges: each
// flow targets one dataset and computes rows with a relational query, Rel,
// over expressions, Expr). Streaming knobs (watermarks, windows, triggers,
// output and emit modes, idle timeouts, per-edge bounds, late tables), CDC,
// expectations and materialization are all part of the model.
//
// The package is also the programmatic builder: construct the structs
// directly (see examples/gobuilder) and call Validate. It offers TopoOrder,
// a canonical printer back to the .thund DSL (Print), and lossless, versioned
// JSON (MarshalJSON / UnmarshalJSON). Every node keeps its source position
// (Pos); positions are ignored by Equal.
//
// It owns the facts every phase spells the same way: FormatExpr is the one
// expression printer (canonical DSL text, the labels of unaliased columns
// and diagnostics, and the column names Spark gives); Type.String and
// Type.SQL are the one DSL and the one Spark SQL spelling of a type;
// Type.Arrow and FromArrow are the one mapping between the model's types and
// Arrow's; and KafkaColumns is the one fixed schema of a Kafka source
// (FormatKafka, Spark's Kafka source schema).
//
// ir must not import any other package of this module, and it knows nothing of
// parsing, typing or code generation.
package ir
