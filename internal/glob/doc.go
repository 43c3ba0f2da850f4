// Package glob resolves source patterns to files: the one set of rules that
// the runtime reads sources by (rt/format.Glob, against --root) and that the
// compiler infers a read_files schema by (frontend/sql, against the SQL
// file's folder), so that check and run see the same files.
//
// It is shipped with rt into every generated program (runtime.go embeds it,
// gobuild.RuntimeDirs lists it), so it must import the standard library
// only: nothing of the compiler, nothing of rt.
package glob
