// Package icebergcheck reads Iceberg tables with other engines' readers,
// and writes fixture tables with other engines' writers, for tests that
// prove Thund's tables readable elsewhere and Thund's Iceberg source
// correct on tables others wrote.
//
// Readers: PyIceberg (pyiceberg's StaticTable), Spark (a Spark Connect
// server with iceberg-spark-runtime) and Thund (a pipeline executable's
// `etl read`). Each returns a Result: the rows in a canonical form that
// does not depend on the reader (Row), the column names and types, and,
// from the Iceberg readers, the field ids, the partition spec and the
// snapshots. Equal compares two Results as multisets of rows.
//
// Writers: PyIcebergWrite (create, append, overwrite, delete with
// pyiceberg) and SparkSQL (statements on the Spark lane's server, whose
// Hadoop catalog ice writes tables under THUND_TEST_SPARK_ICEBERG_WAREHOUSE).
//
// The Python side is icebergcheck.py, embedded and run with the python of
// the venv that has the engine (internal/testenv: PyIceberg and
// SparkIceberg). This package is imported by tests only; it starts no
// server and installs nothing (.ci/pyiceberg and .ci/spark-lane do).
package icebergcheck
