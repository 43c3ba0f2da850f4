// Package kernel holds the generic machinery of the operator loops that
// codegen specializes: the pieces every generated flow would otherwise
// carry a copy of, because they depend on no pipeline's types.
//
//   - Output: BatchRows rows per emitted batch, and GrowOutput, which
//     reserves room in a batch's builders so that fixed-width columns append
//     without capacity checks.
//   - Rows kept across batches (groups, a join's build rows, sort rows):
//     AppendZero grows their slice by doubling.
//   - Sort: SortIndex, a stable sort that moves indexes rather than rows,
//     and TopK for an order by with a limit.
//   - Hash join chains: a table value marked ChainMore heads a chain of
//     build rows that ChainNext walks; a key with one row never reads it.
//
// Generated code calls AppendZero and ChainNext per row, so they must stay
// within the Go inliner's budget: the compiler inlines them across the
// package boundary as it did when they were generated into each program.
// GrowOutput, SortIndex and TopK run once per growth or per sort.
//
// kernel must import nothing from this module (generated programs embed
// it with the rest of rt) and holds no state.
package kernel
