// Command thundc is Þund's compiler driver: one binary with subcommands
// (check, fmt, explain, graph, version, help) over one pipeline at a time.
//
// It owns the command line and the disk: it reads the input (load.go picks a
// frontend by the path's extension), runs the passes, prints diagnostics and
// writes files. It must not hold compiler logic of its own: parsing belongs to
// frontend/*, checking and planning to passes, printing .thund to ir. The
// rendering of `thundc graph` (graph.go) is a pure function of the IR.
//
// The command table, with every command's help text and flags, is in
// help.go; the parser of the command line reads its flags from that table,
// so the help cannot drift from what is accepted. main calls run, which
// tests call in-process (script_test.go).
//
// Exit status: 0 success, 1 diagnostics (any error in the pipeline, an
// input that cannot be read, or an internal error), 2 usage (an unknown command or flag, a missing
// path, a bad flag value, an input kind this build cannot read).
package main
