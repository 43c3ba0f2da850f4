package main

import (
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/nordisk/thund/internal/suggest"
	"github.com/nordisk/thund/passes"
)

// flagSpec is one flag of a command. The command-line parser (args.go) reads
// these, so what help shows is what is accepted.
type flagSpec struct {
	name   string   // -name or --name; one letter for gofmt-style flags (-w)
	short  string   // a one-letter alias (-q for --quiet), or ""
	arg    string   // the value's placeholder; "" for a boolean flag
	values []string // the allowed values (nil: any)
	def    string   // the default value, shown in help ("" = none)
	repeat bool     // the flag may be given several times; every value counts
	defDoc string   // the default as help shows it when def is "" ("" = none)
	usage  string   // one line
}

// command documents one subcommand.
type command struct {
	name    string
	args    string // positional arguments, as in the usage line
	minArgs int
	maxArgs int
	// pipeline: the positional argument at pathArg is a pipeline PATH,
	// which may be several .sql files (invocation.paths).
	pipeline bool
	pathArg  int
	summary  string // one line, for the command list
	text     string // what it does, in paragraphs
	flags    []flagSpec
	example  string // one or more command lines
}

// jsonFlag is the --json flag; usage says what this command prints.
func jsonFlag(usage string) flagSpec { return flagSpec{name: "json", usage: usage} }

func targetNames() []string {
	var out []string
	for _, t := range passes.Targets() {
		out = append(out, string(t))
	}
	return out
}

// s3Flag links S3 support into the executable (build and run).
var s3Flag = flagSpec{
	name:  "s3",
	usage: "link S3 support, so that the executable takes --warehouse s3://BUCKET/PREFIX: the default of build, and of run when its ETL-ARGS give an s3:// --warehouse; --s3=false leaves it out, for a lighter executable, faster to build, that refuses S3 warehouses",
}

// quietFlag silences build's and run's report of what they compile and
// write (errors still print).
var quietFlag = flagSpec{
	name: "quiet", short: "q",
	usage: "print nothing but errors: not that the runtime is being compiled, its progress, nor what was written and how long it took",
}

// bindFlag binds a table an SQL pipeline reads but does not define (an
// external table) to a file source, as spark-pipeline.yml's
// thund.source.<name> configuration does.
var bindFlag = flagSpec{
	name: "bind", arg: "NAME=SOURCE", repeat: true,
	usage: "read the external table NAME of an SQL pipeline from SOURCE: read_files('PATH', format => 'csv', ...), read_kafka(bootstrapServers => ..., subscribe => ...) or an Iceberg table's iceberg.`LOCATION` (optionally STREAM ... WATERMARK ...), or just a PATH; repeatable",
}

var targetFlag = flagSpec{
	name: "target", arg: "TARGET", values: targetNames(), def: string(passes.Native),
	usage: "the backend to compile for",
}

// expectationsFlag says how a Spark target takes drop expectations.
var expectationsFlag = flagSpec{
	name: "expectations", arg: "MODE", values: passes.ExpectModes(), def: passes.ExpectModes()[0],
	usage: "on a Spark target: refuse drop expectations (OSS Spark has none), or lower each to a filter on its condition, named in the lowering report (fail stays refused)",
}

// verifyFlag and dumpFlag are the compiler driver's debugging flags, after
// the Go compiler's -d=ssa/check/on and -d=ssa/PASS/dump. compile applies
// them for every command that has them.
var (
	verifyFlag = flagSpec{
		name:  "verify-ir",
		usage: "after every pass, check that it left the IR unchanged and well formed and that what it recorded is complete; a broken invariant is an internal error naming the pass (a compiler bug)",
	}
	dumpFlag = flagSpec{
		name: "dump-after", arg: "PASS", values: passes.Names(), repeat: true,
		usage: "print the plan so far (explain's text) to stderr, unless a pass up to it reports errors, after the pass (repeatable)",
	}
)

// sqlElementsFlag lowers a SQL project as DefineSqlGraphElements, the
// server parsing its files; check and explain take it so that they give
// the verdict spark emit and spark run give with it.
var sqlElementsFlag = flagSpec{
	name:  "sql-elements",
	usage: "on a Spark target: send a SQL project's files whole as DefineSqlGraphElements (as spark-pipelines does)",
}

// graphFormats are the values of graph --format; the first is the default.
var graphFormats = []string{"dot", "mermaid", "json"}

// commands is the command table: every subcommand's help text and flags, in
// the order `thundc help` lists them. main.go's runners holds the code.
var commands = []*command{
	{
		name: "check", args: "PATH", minArgs: 1, maxArgs: 1, pipeline: true,
		summary: "parse a pipeline and run the compiler passes, reporting diagnostics",
		text: `Check loads the pipeline at PATH, runs every compiler pass for the target
(` + strings.Join(passes.Names(), `, `) + `), and prints each
diagnostic to stderr as

    file:line:col: message [code]

sorted by position, followed by the offending source line and a caret under
the column when the position is known. Warnings say "warning:" before the
message. On a Spark target it also lowers the pipeline as spark emit does, so
that what only the lowering refuses is a [capability] diagnostic here too.
Check prints nothing when the pipeline is clean.`,
		flags: []flagSpec{
			targetFlag,
			expectationsFlag,
			sqlElementsFlag,
			bindFlag,
			verifyFlag,
			dumpFlag,
			jsonFlag(`print {"ok": bool, "diagnostics": [{file, line, col, severity, code, message}]} to stdout instead`),
		},
		example: `thundc check pipeline.thund
thundc check pipeline.thund --target spark-4.1 --json`,
	},
	{
		name: "fmt", args: "PATH", minArgs: 1, maxArgs: 1, pipeline: true,
		summary: "print a pipeline in canonical .thund form",
		text: `Fmt parses the pipeline at PATH and prints it in canonical .thund form
(docs/dsl.md) to stdout. Formatting canonical text leaves it unchanged.
Comments (# and --) are not part of the pipeline and are dropped; use
comment "..." clauses for text that must survive.

-w rewrites the .thund file in place instead of printing, and only when its
text changed; the new text is written to a temporary file that is renamed
over the old one. -d prints a unified diff from the file to its canonical
form (nothing when they are equal) and still exits 0. -w and -d combine.`,
		flags: []flagSpec{
			{name: "w", usage: "rewrite the file in place (only when it changed)"},
			{name: "d", usage: "print a diff from the file to its canonical form"},
			jsonFlag(`print the IR as versioned JSON ({"thund_ir": 1, "pipeline": ...}) instead; not with -w or -d`),
		},
		example: `thundc fmt pipeline.thund
thundc fmt -d pipeline.thund
thundc fmt -w pipeline.thund`,
	},
	{
		name: "explain", args: "PATH", minArgs: 1, maxArgs: 1, pipeline: true,
		summary: "print the plan after the compiler passes",
		text: `Explain runs the compiler passes over the pipeline at PATH for the target,
up to and including the --stop-after pass, and prints the plan: the fused
stages, boundedness and emission per flow, and the lowering report.
Diagnostics go to stderr as with check; when there is an error, no plan is
printed and the exit status is 1.`,
		flags: []flagSpec{
			targetFlag,
			expectationsFlag,
			sqlElementsFlag,
			bindFlag,
			{name: "stop-after", arg: "PASS", values: passes.Names(), defDoc: "all", usage: "the last pass to run"},
			verifyFlag,
			dumpFlag,
			jsonFlag(`print {"ok", "target", "ran": [pass], "diagnostics": [...], "plan": {...}} to stdout instead`),
		},
		example: `thundc explain pipeline.thund --target spark-4.1
thundc explain pipeline.thund --stop-after resolve --json`,
	},
	{
		name: "graph", args: "PATH", minArgs: 1, maxArgs: 1, pipeline: true,
		summary: "draw the pipeline's datasets and flows (Graphviz, Mermaid or JSON)",
		text: `Graph checks the structure of the pipeline at PATH (the validate pass) and
prints its dataflow graph for Graphviz (dot), Mermaid (a flowchart LR) or
as JSON. Each dataset is a node, and so is each external table a flow reads
(a qualified name such as catalog.db.table). Each flow draws one edge from
every dataset it reads to its target, labelled with the flow's name when
that differs from the target's.

    kind                dot                      mermaid
    source              parallelogram            [/ /]  parallelogram
    materialized view   box                      [ ]    rectangle
    streaming table     box with a double line   [[ ]]  subroutine
    temporary view      rounded box, dashed      ( )    rounded
    view                ellipse                  ([ ])  stadium
    sink                invtrapezium             [\ /]  trapezoid
    external table      cylinder                 [( )]  cylinder

A stream read (from stream x) is a solid edge; a snapshot read (from x) is
dashed (dotted in Mermaid). Nodes come in declaration order, external
tables after them; edges in flow order, so the output is deterministic.

The JSON form is {"pipeline", "nodes": [{name, kind}], "edges": [{from, to,
flow, stream}]}, where every edge names its flow.`,
		flags: []flagSpec{
			{name: "format", arg: "FORMAT", values: graphFormats, def: graphFormats[0], usage: "the output format"},
			jsonFlag(`the same as --format json`),
		},
		example: `thundc graph pipeline.thund | dot -Tsvg > pipeline.svg
thundc graph pipeline.thund --format mermaid`,
	},
	{
		name: "build", args: "PATH", minArgs: 1, maxArgs: 1, pipeline: true,
		summary: "compile a pipeline into a standalone executable",
		text: `Build compiles the pipeline at PATH for the native target: it runs every
pass, generates one Go program (a specialized loop per fused operator chain,
calling the runtime embedded in thundc), and builds it with the go command
into BIN. Builds are cached by content under $THUND_CACHE (default: the user
cache directory's thund folder), and the Go build cache is shared, so a
rebuild of an unchanged pipeline is a copy.

S3 support (--warehouse s3://BUCKET/PREFIX) is linked unless --s3=false:
the AWS SDK weighs on every build. An executable without it refuses
an S3 warehouse and says so.

With --emit-go DIR, build also writes the generated Go module to DIR: the
program's files (main.go, pipeline.go, schemas/schemas.go, and a package
per flow, flow_NAME/flow.go) and the runtime beside them, so that "go
build" in DIR builds it. With --emit-go
and no -o, build only generates: it writes DIR and runs no go build.

Build says what it does on stderr. When the go build cache lacks packages
the program needs besides its own (the first build of this runtime and Go
version), it says that it compiles the runtime and its dependencies, once,
how many packages and about how long, and shows go build's progress: a bar
on a terminal, a line at each quarter otherwise. On success it prints what
it wrote, its size and how long the command took ("thundc: wrote etl (54 MB)
in 2.1 s"), or that it came from the cache: one line for a warm build.
--quiet (-q) prints nothing but errors.

The executable's commands are run, plan, history, read and version; run it
with --help.`,
		flags: []flagSpec{
			{name: "o", arg: "BIN", usage: "the executable to write (required unless --emit-go is given)"},
			{name: "emit-go", arg: "DIR", usage: "also write the generated Go module to DIR; without -o, only that"},
			s3Flag,
			quietFlag,
			bindFlag,
			verifyFlag,
			dumpFlag,
			jsonFlag(`print {"ok", "binary", "cached", "key", "diagnostics"} (without -o: {"ok", "emit_go", "files", "diagnostics"}) to stdout instead of diagnostics on stderr`),
		},
		example: `thundc build pipeline.thund -o etl && ./etl run && ./etl read top_products
thundc build pipeline.thund --emit-go gen && less gen/flow_top_products/flow.go`,
	},
	{
		name: "run", args: "PATH [-- ETL-ARGS]", minArgs: 1, maxArgs: 1 << 20, pipeline: true,
		summary: "build (cached) and run a pipeline's executable",
		text: `Run builds the pipeline at PATH as build does (cached), then runs the
executable from the pipeline's folder with ETL-ARGS (default: run), so that
relative source paths and the default ./warehouse are the pipeline's. Its
exit status is the executable's. Interrupts are passed on, and the
executable stops cleanly at a commit point. Before it runs the executable,
it says on stderr what build says: what it compiles when the go build cache
is cold, and then one line, what it built and how long that took (--quiet,
-q: nothing).`,
		flags: []flagSpec{
			{name: "emit-go", arg: "DIR", usage: "also write the generated Go module to DIR"},
			s3Flag,
			quietFlag,
			bindFlag,
			jsonFlag(`print build diagnostics as JSON, and pass --json to the executable (its event records go to stdout)`),
		},
		example: `thundc run examples/quickstart/pipeline.thund
thundc run examples/quickstart/pipeline.thund -- read top_products`,
	},
	sparkCommand,
	{
		name: "version", args: "", minArgs: 0, maxArgs: 0,
		summary: "print the version of thundc and of the IR's JSON encoding",
		text: `Version prints thundc's module version ("(devel)" for a build from a
checkout), the Go version and platform it was built with, and the version of
the IR's JSON encoding (fmt --json) that it reads and writes.`,
		flags: []flagSpec{
			jsonFlag(`print {"thundc", "go", "platform", "ir_json"} to stdout instead`),
		},
		example: `thundc version`,
	},
	{
		name: "help", args: "[COMMAND]", minArgs: 0, maxArgs: 1,
		summary: "show the commands, or one command's flags and an example",
		text: `Help lists the commands, or documents one. "thundc COMMAND --help" (or -h)
does the same.`,
		flags: []flagSpec{
			jsonFlag(`print the command table (name, usage, summary, flags) as JSON instead`),
		},
		example: `thundc help fmt`,
	},
}

// lookupCommand returns the named command, or nil.
// commandNames lists the commands, in help order.
func commandNames() []string {
	out := make([]string, len(commands))
	for i, c := range commands {
		out[i] = c.name
	}
	return out
}

// didYouMean is " (did you mean X?)" when word is likely a slip of one of
// the names, else "".
func didYouMean(word string, names []string) string {
	if s, ok := suggest.Closest(word, names); ok {
		return " (did you mean " + s + "?)"
	}
	return ""
}

func lookupCommand(name string) *command {
	for _, c := range commands {
		if c.name == name {
			return c
		}
	}
	return nil
}

// flagName renders a flag as typed: -w for one letter, --name otherwise.
func flagName(name string) string {
	if len(name) == 1 {
		return "-" + name
	}
	return "--" + name
}

// shortName is a flag's one-letter alias as typed, or "".
func shortName(short string) string {
	if short == "" {
		return ""
	}
	return flagName(short)
}

// placeholder is the flag's value in the usage line: the values themselves
// when there are few, else the placeholder name.
func (f *flagSpec) placeholder() string {
	if f.values != nil && len(f.values) <= 3 {
		return strings.Join(f.values, "|")
	}
	return f.arg
}

// usage is the command's one-line synopsis.
func (c *command) usage() string {
	parts := []string{"thundc", c.name}
	for _, f := range c.flags {
		s := flagName(f.name)
		if f.arg != "" {
			s += " " + f.placeholder()
		}
		parts = append(parts, "["+s+"]")
	}
	if c.args != "" {
		parts = append(parts, c.args)
	}
	return strings.Join(parts, " ")
}

const topUsageHint = "usage: thundc COMMAND [flags] [PATH] (run 'thundc help' for the commands)"

const topText = `Thundc compiles Þund data pipelines.

usage: thundc COMMAND [flags] PATH

commands:
%s
PATH is one pipeline: one .thund file, one or more .sql files (Spark
Declarative Pipelines SQL, read together in the order given), or a folder
holding spark-pipeline.yml. Flags may stand before or after PATH ("--" ends
the flags), and every command takes --json for machine-readable output on
stdout.

exit status: 0 success; 1 diagnostics (an error in the pipeline, or an
input that cannot be read); 2 usage.

Run 'thundc help COMMAND' for a command's flags and an example.
`

func writeTopHelp(w io.Writer) {
	var list strings.Builder
	for _, c := range commands {
		fmt.Fprintf(&list, "  %-8s %s\n", c.name, c.summary)
	}
	fmt.Fprintf(w, topText, list.String())
}

func writeCommandHelp(w io.Writer, c *command) {
	fmt.Fprintf(w, "usage: %s\n\n%s\n\nflags:\n", c.usage(), c.text)
	rows := [][2]string{}
	for _, f := range c.flags {
		left := flagName(f.name)
		if f.short != "" {
			left = flagName(f.short) + ", " + left
		}
		if f.arg != "" {
			left += " " + f.arg
		}
		right := f.usage
		if f.values != nil {
			right += ": " + strings.Join(f.values, ", ")
		}
		if f.def != "" {
			right += " (default " + f.def + ")"
		} else if f.defDoc != "" {
			right += " (default " + f.defDoc + ")"
		}
		rows = append(rows, [2]string{left, right})
	}
	rows = append(rows, [2]string{"-h, --help", "print this help"})
	width := 0
	for _, r := range rows {
		width = max(width, len(r[0]))
	}
	for _, r := range rows {
		fmt.Fprintf(w, "  %-*s  %s\n", width, r[0], r[1])
	}
	fmt.Fprintf(w, "\nexample:\n")
	for _, line := range strings.Split(c.example, "\n") {
		fmt.Fprintf(w, "  %s\n", line)
	}
}

// helpJSON is the machine-readable form of one command's help.
type helpJSON struct {
	Name    string         `json:"name"`
	Usage   string         `json:"usage"`
	Summary string         `json:"summary"`
	Flags   []helpFlagJSON `json:"flags"`
}

type helpFlagJSON struct {
	Name    string   `json:"name"`
	Arg     string   `json:"arg,omitempty"`
	Values  []string `json:"values,omitempty"`
	Default string   `json:"default,omitempty"`
	Short   string   `json:"short,omitempty"` // a one-letter alias: -q
	Usage   string   `json:"usage"`
}

func commandJSON(c *command) helpJSON {
	h := helpJSON{Name: c.name, Usage: c.usage(), Summary: c.summary, Flags: []helpFlagJSON{}}
	for _, f := range c.flags {
		h.Flags = append(h.Flags, helpFlagJSON{Name: flagName(f.name), Arg: f.arg, Values: f.values, Default: f.def, Short: shortName(f.short), Usage: f.usage})
	}
	return h
}

// runHelp implements `thundc help [COMMAND]`.
func runHelp(c *cli, inv *invocation) int {
	var one *command
	if len(inv.args) == 1 {
		if one = lookupCommand(inv.args[0]); one == nil {
			return fail(c, inv.cmd, usagef("unknown command %q%s", inv.args[0], didYouMean(inv.args[0], commandNames())))
		}
	}
	if inv.bool("json") {
		var v any
		if one != nil {
			v = commandJSON(one)
		} else {
			var all []helpJSON
			for _, cmd := range commands {
				all = append(all, commandJSON(cmd))
			}
			v = map[string]any{"commands": all}
		}
		return writeJSON(c, v)
	}
	if one != nil {
		writeCommandHelp(c.stdout, one)
	} else {
		writeTopHelp(c.stdout)
	}
	return exitOK
}

// writeJSON prints v as indented JSON to stdout.
func writeJSON(c *cli, v any) int {
	b, err := marshalJSON(v)
	if err != nil {
		fmt.Fprintf(c.stderr, "thundc: %v\n", err)
		return exitDiags
	}
	c.stdout.Write(b)
	return exitOK
}

func marshalJSON(v any) ([]byte, error) {
	var b strings.Builder
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(b.String()), nil
}
