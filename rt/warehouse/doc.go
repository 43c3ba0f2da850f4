// Package warehouse owns the warehouse: the on-disk layout of DESIGN.md
// (layout.go), versioned datasets with hive-style partitions, the commit
// protocol, the run lock and garbage collection.
//
// The commit protocol: a run takes the lock (Acquire), loads the latest valid
// commit record (Load), collects the garbage of failed runs (Collect), stages
// each new dataset version as files in a version folder that no reader looks
// at (Txn.Write), and commits with ONE create-if-absent write of the
// warehouse-level record _thund/commits/<epoch>.json (Txn.Commit), which names
// every dataset's current version, its files, rows and schema, plus source
// offsets, state snapshots and fingerprints. Before that write nothing has
// happened; after it everything has. Two runs can never both commit one epoch
// (create-if-absent), so even a run that lost its lock cannot overwrite
// another's commit. Records carry a checksum and are validated when read; an
// invalid record (a torn write on a store without atomic create) is ignored
// and reported in State.Invalid. Readers resolve through the latest record or,
// for --version N, through the record that holds version N.
//
// State snapshots (state.go): Txn.WriteState stages an object under
// _thund/checkpoints/<epoch>/ and records it in the commit's state map with
// its size and sha256 (a StateRef; AnnotateState adds a caller's fields).
// ReadState is the one reader every state load uses: it returns the bytes
// only when they match the record, and otherwise a *StateError naming the
// object ("missing", "checksum mismatch", ...); VerifyState checks every
// object of a commit the same way, streaming, before a run starts.
//
// Vacuum (vacuum.go) is retention: it keeps the last N valid commits and
// removes older commit records, dataset files only they list, older event
// logs and checkpoints, never anything the latest commit references; it
// retires the records (oldest first) before it removes any file, so a
// killed vacuum leaves every recorded version readable. The
// protocol needs of the store only create-if-absent and compare-and-swap, so
// it holds on S3 (conditional PUTs) as on a local disk.
//
// It must not: parse or write file formats itself (rt/format), know about
// flows, expectations or events (rt/run, rt/events), or reach the storage other
// than through store.FS.
package warehouse
