// Package format reads and writes the file formats of sources, sinks and the
// warehouse: Parquet, CSV, JSON lines and Arrow IPC (file and stream), all
// over arrow-go record batches.
//
// It owns:
//   - readers that produce batches of a declared Arrow schema (BatchReader):
//     Parquet and IPC files are matched by column name and cast only where
//     lossless, else a SchemaError names file, column and both types; CSV and
//     JSON lines are parsed by typed per-column parsers whose DataErrors name
//     file:row:col, the column and what was expected ("want int64, got
//     \"12x\""). Bad input is always an error, never a panic or a silently
//     changed value (no rounding, no truncation, no guessing).
//   - the Parquet read path (parquetread.go): whole row groups decoded by
//     Options.Threads goroutines ahead of the caller, handed out in file
//     order; only Options.Columns decoded (the others are all-NULL fillers);
//     row groups whose integer min/max statistics exclude one of
//     Options.Bounds skipped; a string column with an equality bound read
//     as dictionary indices, and the rows missing any bound dropped before
//     their strings are made (rowfilter.go); flat INT32, INT64, FLOAT,
//     DOUBLE and BYTE_ARRAY chunks (PLAIN or dictionary-encoded, data pages
//     v1 or v2, uncompressed, Snappy or Zstd) decoded by the package's own
//     decoder (pqfast.go, pqthrift.go: one ReadAt per chunk, the arrays
//     pqarrow would make, dictionaries included), every other column by
//     pqarrow through a 256KiB buffer; with Options.Reuse, decoded buffers
//     come from a pool (pool.go) and are reused once the caller released
//     the batches that held them.
//   - Glob: source patterns against --root, sorted and deduplicated, with
//     "**"; a pattern that matches nothing is an error.
//   - writers (Writer): Parquet (Snappy in s2's fast mode: snappy.go;
//     ParquetRowGroupRows; dictionary pages for strings and binary only,
//     and not for a column whose first batch is mostly distinct), CSV in the
//     `read` contract's text forms (see text.go), JSON lines, Arrow IPC.
//   - the text forms of values (AppendFloat, AppendTimestamp, ParseDecimal,
//     ...) and the DSL spelling of types (TypeString, ParseType), which the
//     warehouse's commit records use.
//
// It must not: know about the warehouse layout, versions or commits
// (rt/warehouse), touch the disk except through store.Object and the source
// files Glob finds, or import anything of the compiler.
package format
