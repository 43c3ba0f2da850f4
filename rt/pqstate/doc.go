// Package pqstate encodes operator state snapshots as Parquet files.
//
// A snapshot is a Go struct of plain exported values (the watermark
// tracker's and a window state's or an interval join's Snapshot, with the
// generated key, accumulator and row structs inside). Marshal writes it as a
// Parquet file of one row, one column per field of the struct: nested
// structs become Parquet groups, slices repeated groups (lists), pointers
// and time.Time optional values, so a checkpoint's state can be read by any
// Parquet reader (for example DuckDB: SELECT * FROM 'object'), not only by
// the program that wrote it. The Arrow schema is stored in the file's
// metadata, so Unmarshal gets back exactly the types Marshal wrote.
//
// Supported: bool, signed and unsigned integers, float32/64 (NaN and -0
// keep their bits), string, []byte, time.Time (UTC nanoseconds; the zero
// time is null), pointers, slices and structs of these. Maps, arrays,
// interfaces and unexported fields are refused with an error that names the
// field's path, except fields tagged `pqstate:"-"`, which are not stored
// (an index the owner rebuilds from the stored fields, as
// rt/stream.Distinct's): Unmarshal leaves them zero.
//
// The file is written by rt/format's Parquet writer and read by
// rt/format/pqread, so that programs with state link no other Parquet
// writer or reader than the ones they read and write tables with.
//
// It must not: know where snapshots are stored or under which commit
// (rt/etl and rt/warehouse do), or import anything of the compiler or of
// the rest of rt but rt/format.
package pqstate
