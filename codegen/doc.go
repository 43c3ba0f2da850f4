// Package codegen writes one Go program per pipeline with jennifer: a
// monomorphized function per fused operator chain, typed to the concrete Arrow
// column types, and a main that wires sources, flows and sinks through rt.
// It is a pure function of the resolved plan; it never touches the disk.
package codegen
