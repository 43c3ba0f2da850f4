// Package pqread reads Parquet files into Arrow arrays: arrow-go's
// parquet/pqarrow reader (v18.9.0, Apache License 2.0, the files keep its
// header), without its writer, so that a program that reads Parquet does not
// link pqarrow.
//
// Why a copy: pqarrow decodes the Arrow schema stored in a file's footer
// (the ARROW:schema key) with arrow/flight's DeserializeSchema, and so every
// program that imports pqarrow links Arrow Flight, gRPC and protobuf (about
// a hundred packages and 9 MB of executable, the largest share of a warm
// build's link), although reading a file uses none of them. The runtime
// writes Parquet with its own writer (rt/format/pqwrite.go); this package is
// its reader of every type, nested included, and the fallback of the fast
// decoder (rt/format/pqfast) for the leaves that one does not decode.
//
// What differs from pqarrow's reader, and only this:
//   - the stored Arrow schema, an IPC stream of the schema alone, is read
//     with arrow/ipc's reader, as flight.DeserializeSchema does (schema.go,
//     getOriginSchema);
//   - arrow-go's internal helpers (utils.Min, utils.Max,
//     utils.FormatRecoveredError) are Go's min and max and recoveredError,
//     which keeps pqarrow's "panic while reading: " prefix that rt/format's
//     parquetcheck.go recognises;
//   - the writer's half (ToParquet, ArrowWriterProperties and what only the
//     writer calls) is left out.
//
// Its tests hold it to pqarrow's reader (a test-only import), array by
// array, over files that pqarrow's writer and rt/format's write: every type
// of the model and the types other writers give, NULLs at every nesting
// level, empty lists and maps, many row groups and pages, dictionary and
// plain pages, data page v1 and v2, compressed or not.
//
// NOTICE.txt is arrow-go's notice, which the Apache License asks to keep
// with a derived work. A newer arrow-go's reader fixes are taken by copying
// its reader files again and redoing the edits above (the tests then say
// whether they hold).
package pqread
