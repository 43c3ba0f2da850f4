// Package iceberg is Thund's side of Apache Iceberg tables, with
// iceberg-go's root package only (schemas, types, manifests, manifest
// lists; never its table, catalog or io packages).
//
// It owns, by file:
//   - the table metadata file (metadata.go): parsing format versions 1 to
//     3, finding a table folder's newest metadata file (the Hadoop layout's
//     v<N> or catalogs' NNNNN-uuid naming), snapshots and their ancestry;
//   - publishing (publish.go, types.go): every committed dataset version
//     as a snapshot of a format-v2 table in the Hadoop layout, after the
//     warehouse commit, with the Arrow-to-Iceberg type map (TypeOf);
//   - reading any engine's tables (scan.go, read.go, arrowtype.go): a
//     table at a location (a folder or s3://bucket/prefix), a snapshot by
//     id or time, its live data files, an incremental append scan between
//     two snapshots (AppendScan), data files read into the declared schema
//     by field id through rt/format's Parquet reader, and the
//     Iceberg-to-Arrow type map (ArrowType) the compiler shares.
//
// It must not: import rt/etl or rt/run (they import it), or anything of the
// compiler; write to a table it reads; read delete files (merge-on-read is
// refused, naming the file).
package iceberg
