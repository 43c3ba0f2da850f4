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
//     \"12x\""). Bad input is never a panic or a silently changed value (no
//     rounding, no truncation, no guessing): for Parquet and IPC it is an
//     error; a malformed CSV or JSON lines record is what Options.Mode says
//     (badrecords.go: an error in FAILFAST, the zero value; a row with
//     NULLs, or none, in PERMISSIVE and DROPMALFORMED, counted in
//     Options.Malformed). With a rescued-data column, a value that does not
//     parse is rescued instead, and columns the schema lacks are what
//     Options.Evolution says (rescue.go).
//   - hostile files: every length, offset and count a file states is checked
//     against the bytes that hold it before anything is allocated by it, and
//     a malformed file is an error naming it and what was wrong, never a
//     panic or a Go runtime message. For Parquet: the footer
//     (parquetcheck.go), the page headers arrow-go reads (parquetpages.go)
//     and those pqfast decodes (rt/format/pqfast); for Arrow IPC, and the
//     Arrow schema a Parquet footer holds, every message's flatbuffer
//     (ipcverify.go) and its body (ipcmessages.go). The fuzz targets
//     (fuzz_test.go) hold the readers to it, under an allocation budget.
//   - the Parquet read path (parquetread.go): row groups decoded by
//     Options.Threads goroutines ahead of the caller, in file order; only
//     Options.Columns decoded; row groups whose integer statistics exclude
//     one of Options.Bounds skipped; rows missing a string equality bound
//     dropped before their strings are made (rowfilter.go); flat columns
//     decoded by rt/format/pqfast, the rest by rt/format/pqread (pqarrow's
//     reader without Arrow Flight); with Options.Reuse,
//     decoded buffers come from a pool (pool.go).
//   - Glob: source patterns against --root, sorted and deduplicated, with
//     "**"; a pattern that matches nothing is an error.
//   - writers (Writer): Parquet (snappy.go, ParquetRowGroupRows; pages
//     encoded by pqwrite.go into buffers that last the whole file, the
//     footer pqarrow's writer would write), CSV in the `read` contract's
//     text forms (text.go), JSON lines, Arrow IPC.
//   - the text forms of values (AppendFloat, AppendTimestamp, ParseDecimal,
//     ...) and the DSL spelling of types (TypeString, ParseType), which the
//     warehouse's commit records use.
//
// It must not: know about the warehouse layout, versions or commits
// (rt/warehouse), touch the disk except through store.Object and the source
// files Glob finds, or import anything of the compiler.
package format
