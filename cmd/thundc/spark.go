package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/signal"
	"path/filepath"
	"strings"
	"time"

	"google.golang.org/protobuf/encoding/protojson"

	"github.com/nordisk/thund/frontend/spec"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
	"github.com/nordisk/thund/sparkemit"
	pb "github.com/nordisk/thund/sparkemit/connectpb"
)

// sparkTargets are the values of spark --target; the first is the default.
var sparkTargets = []string{string(passes.Spark41), string(passes.Spark42)}

// sparkLowerFlags are the flags that shape a lowering: emit's, and run's
// for a PATH (a bundle was lowered already).
var sparkLowerFlags = []string{"target", "expectations", "storage", "data-root", "full-refresh", "full-refresh-all", "refresh", "dry-run", "sql-elements", "catalog", "database", "verify-ir", "dump-after"}

// sparkCommand is `thundc spark emit|show|run`.
var sparkCommand = &command{
	name: "spark", args: "emit|show|run PATH|BUNDLE", minArgs: 2, maxArgs: 2, pipeline: true, pathArg: 1,
	summary: "lower a pipeline to Spark Connect (a bundle), show a bundle, or run it on a server",
	text: `Spark lowers the pipeline at PATH to Spark Declarative Pipelines: the
ordered Spark Connect ExecutePlanRequests a client sends (CreateDataflowGraph,
one DefineOutput per dataset, one DefineFlow per flow, StartRun).

  thundc spark emit PATH -o BUNDLE   writes the bundle: length-delimited binary
                                     (or --format text: protobuf text format,
                                     each request after a "# N: <command>"
                                     line) and BUNDLE.report.json beside it.
  thundc spark show BUNDLE           prints a bundle (binary or text) readably.
  thundc spark run PATH|BUNDLE --remote sc://host:port/;token=...;use_ssl=true
                                     lowers PATH (or reads BUNDLE), then sends
                                     each request with ExecutePlan, threading the
                                     server's dataflow_graph_id, and prints the
                                     pipeline events as they arrive.

The target's capability pass runs first: a feature the target lacks is an
error naming the flow, the feature and the target (exit 1); a knob Spark runs
on its own defaults (trigger, allowed lateness, ...) goes in the lowering
report, printed after the summary and written to BUNDLE.report.json.
The bytes of a bundle are deterministic: the session id is the UUIDv5 of the
pipeline name, and dataflow_graph_id is left unset; spark run fills in the
server's graph id and a fresh session id (or the connection string's).

The connection string is Spark Connect's: sc://host[:port][/][;key=value]...
with token (sent as a bearer token, over TLS only, never printed; it implies
use_ssl=true), use_ssl, user_id, user_agent and session_id. The default port
is 15002.`,
	flags: []flagSpec{
		{name: "o", arg: "BUNDLE", usage: "emit: the bundle file to write (required)"},
		{name: "target", arg: "TARGET", values: sparkTargets, def: sparkTargets[0], usage: "the Spark release to lower for"},
		expectationsFlag,
		{name: "format", arg: "FORMAT", values: []string{"binary", "text"}, def: "binary", usage: "emit: the bundle's form"},
		{name: "storage", arg: "URI", defDoc: "the spec's storage", usage: "StartRun.storage: the root of checkpoints and metadata"},
		{name: "data-root", arg: "URI", usage: "rebase the sources' relative paths onto URI"},
		{name: "full-refresh", arg: "N,...", usage: "StartRun.full_refresh_selection: datasets to reset and recompute"},
		{name: "full-refresh-all", usage: "StartRun.full_refresh_all: reset and recompute every dataset"},
		{name: "refresh", arg: "N,...", usage: "StartRun.refresh_selection: datasets to update"},
		{name: "catalog", arg: "NAME", defDoc: "the spec's catalog", usage: "CreateDataflowGraph.default_catalog: where unqualified datasets go"},
		{name: "database", arg: "NAME", defDoc: "the spec's database", usage: "CreateDataflowGraph.default_database: where unqualified datasets go (it must exist)"},
		{name: "dry-run", usage: "StartRun.dry: validate the graph on the server, run nothing"},
		sqlElementsFlag,
		verifyFlag,
		dumpFlag,
		{name: "remote", arg: "sc://...", usage: "run: the Spark Connect server's connection string (required)"},
		jsonFlag(`emit: print {"ok", "bundle", "report_file", "target", "requests", "report", "diagnostics"}; show: {"requests": [...]} in protobuf JSON; run: one JSON object per event`),
	},
	example: `thundc spark emit pipeline.thund -o pipeline.bundle --target spark-4.1 --storage file:///tmp/ckpt
thundc spark emit pipeline.thund -o pipeline.txtpb --format text
thundc spark show pipeline.bundle
thundc spark run pipeline.thund --remote 'sc://localhost:15002' --dry-run`,
}

// runSpark implements `thundc spark emit|show|run`.
func runSpark(c *cli, inv *invocation) int {
	switch inv.args[0] {
	case "emit":
		return sparkEmit(c, inv)
	case "show":
		return sparkShow(c, inv)
	case "run":
		return sparkRun(c, inv)
	}
	return fail(c, inv.cmd, usagef("unknown spark command %q%s: want emit, show or run", inv.args[0], didYouMean(inv.args[0], []string{"emit", "show", "run"})))
}

// sparkOptions reads the lowering flags.
func sparkOptions(inv *invocation) (sparkemit.Options, error) {
	list := func(name string) []string {
		var out []string
		for _, s := range strings.Split(inv.str(name), ",") {
			if s = strings.TrimSpace(s); s != "" {
				out = append(out, s)
			}
		}
		return out
	}
	o := sparkemit.Options{
		Storage:        inv.str("storage"),
		DataRoot:       inv.str("data-root"),
		FullRefresh:    list("full-refresh"),
		FullRefreshAll: inv.bool("full-refresh-all"),
		Refresh:        list("refresh"),
		Dry:            inv.bool("dry-run"),
		Catalog:        inv.str("catalog"),
		Database:       inv.str("database"),
	}
	if o.FullRefreshAll && (len(o.FullRefresh) > 0 || len(o.Refresh) > 0) {
		return o, usagef("--full-refresh-all conflicts with --full-refresh and --refresh (Spark: CONFLICTING_PIPELINE_REFRESH_OPTIONS)")
	}
	for _, a := range o.FullRefresh {
		for _, b := range o.Refresh {
			if strings.EqualFold(a, b) {
				return o, usagef("%s is in both --full-refresh and --refresh", a)
			}
		}
	}
	return o, nil
}

// lowered is the outcome of lowering a PATH.
type lowered struct {
	bundle sparkemit.Bundle
	report *passes.LoweringReport
	diags  ir.Diagnostics
}

// lower compiles the invocation's PATH for the Spark target and lowers it. A non-zero status
// means it failed and said so (diagnostics printed, or usage).
func lower(c *cli, inv *invocation) (*lowered, int) {
	opts, err := sparkOptions(inv)
	if err != nil {
		return nil, fail(c, inv.cmd, err)
	}
	if inv.bool("sql-elements") {
		files, err := sqlElements(inv.pipelinePaths())
		if err != nil {
			return nil, fail(c, inv.cmd, err)
		}
		opts.SQLFiles = files
	}
	u, diags, err := compile(c, inv, passOptions(inv))
	if err != nil {
		return nil, fail(c, inv.cmd, err)
	}
	if diags.HasErrors() {
		return nil, report(c, inv.bool("json"), diags)
	}
	b, rep, err := sparkemit.Emit(u, opts)
	if err != nil {
		refusals := sparkemit.Diagnostics(u, err)
		addSourceFromFiles(refusals)
		return nil, report(c, inv.bool("json"), append(diags, refusals...))
	}
	return &lowered{bundle: b, report: rep, diags: diags}, exitOK
}

// sqlElements are the SQL files of PATH for DefineSqlGraphElements: the
// file itself, or a spec project's libraries relative to its folder.
func sqlElements(paths []string) ([]sparkemit.SQLFile, error) {
	in, err := openInput(paths...)
	if err != nil {
		return nil, err
	}
	path := paths[0]
	var files []string
	base := filepath.Dir(path)
	switch {
	case strings.EqualFold(filepath.Ext(path), ".sql"):
		files = paths
	case isSpecProject(path):
		proj, err := spec.Load(path)
		if err != nil {
			return nil, fmt.Errorf("--sql-elements: %v", err)
		}
		base = proj.Dir
		files, _ = proj.Files()
	default:
		return nil, usagef("--sql-elements needs SQL input (.sql files or a spark-pipeline.yml project), not %s", in.fe.what)
	}
	var out []sparkemit.SQLFile
	for _, f := range files {
		if !strings.EqualFold(filepath.Ext(f), ".sql") {
			continue
		}
		text, err := os.ReadFile(f)
		if err != nil {
			return nil, err
		}
		rel, err := filepath.Rel(base, f)
		if err != nil {
			rel = f
		}
		out = append(out, sparkemit.SQLFile{Path: filepath.ToSlash(rel), Text: string(text)})
	}
	return out, nil
}

// sparkEmitJSON is the --json output of spark emit.
type sparkEmitJSON struct {
	OK          bool                   `json:"ok"`
	Bundle      string                 `json:"bundle"`
	ReportFile  string                 `json:"report_file"`
	Target      string                 `json:"target"`
	Requests    []string               `json:"requests"`
	Report      *passes.LoweringReport `json:"report"`
	Diagnostics []diagJSON             `json:"diagnostics"`
}

// sparkEmit implements `thundc spark emit PATH -o BUNDLE`.
func sparkEmit(c *cli, inv *invocation) int {
	out := inv.str("o")
	if out == "" {
		return fail(c, inv.cmd, usagef("spark emit: missing -o BUNDLE: the bundle to write"))
	}
	if inv.isSet("remote") {
		return fail(c, inv.cmd, usagef("--remote is for spark run"))
	}
	l, st := lower(c, inv)
	if l == nil {
		return st
	}
	var data []byte
	var err error
	if inv.str("format") == "text" {
		data, err = l.bundle.MarshalText()
	} else {
		data, err = l.bundle.MarshalBinary()
	}
	if err != nil {
		return fail(c, inv.cmd, err)
	}
	rep, err := marshalJSON(l.report)
	if err != nil {
		return fail(c, inv.cmd, err)
	}
	reportFile := out + ".report.json"
	if err := os.WriteFile(out, data, 0o644); err != nil {
		return fail(c, inv.cmd, err)
	}
	if err := os.WriteFile(reportFile, rep, 0o644); err != nil {
		return fail(c, inv.cmd, err)
	}
	if inv.bool("json") {
		j := sparkEmitJSON{OK: true, Bundle: out, ReportFile: reportFile, Target: string(l.bundle.Target), Report: l.report, Diagnostics: diagsJSON(l.diags)}
		for _, r := range l.bundle.Requests {
			j.Requests = append(j.Requests, sparkemit.Describe(r))
		}
		return writeJSON(c, j)
	}
	writeDiags(c.stderr, l.diags) // warnings
	fmt.Fprintf(c.stdout, "wrote %s: %d requests for %s; report %s\n", out, len(l.bundle.Requests), l.bundle.Target, reportFile)
	writeReport(c, l.report)
	return exitOK
}

// writeReport prints the lowering report's entries, one per line.
func writeReport(c *cli, r *passes.LoweringReport) {
	if len(r.Entries) == 0 {
		fmt.Fprintf(c.stdout, "lowering report: every knob runs as written\n")
		return
	}
	fmt.Fprintf(c.stdout, "lowering report (%d):\n", len(r.Entries))
	for _, e := range r.Entries {
		pos := ""
		if e.Pos.IsValid() {
			pos = e.Pos.String() + ": "
		}
		fmt.Fprintf(c.stdout, "  %s%s\n", pos, e)
	}
}

// readBundleFile reads a bundle in either form.
func readBundleFile(path string) ([]*pb.ExecutePlanRequest, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	reqs, err := sparkemit.ReadBundle(data)
	if err != nil {
		return nil, fmt.Errorf("%s: not a bundle: %v", path, err)
	}
	if len(reqs) == 0 {
		return nil, fmt.Errorf("%s: an empty bundle", path)
	}
	return reqs, nil
}

// sparkShow implements `thundc spark show BUNDLE`.
func sparkShow(c *cli, inv *invocation) int {
	for _, f := range append([]string{"o", "remote", "format"}, sparkLowerFlags...) {
		if inv.isSet(f) {
			return fail(c, inv.cmd, usagef("spark show takes no %s", flagName(f)))
		}
	}
	reqs, err := readBundleFile(inv.args[1])
	if err != nil {
		return fail(c, inv.cmd, err)
	}
	if inv.bool("json") {
		var list []json.RawMessage
		for _, r := range reqs {
			raw, err := protojson.MarshalOptions{}.Marshal(r)
			if err != nil {
				return fail(c, inv.cmd, err)
			}
			list = append(list, raw)
		}
		return writeJSON(c, map[string]any{"requests": list})
	}
	text, err := sparkemit.Bundle{Requests: reqs}.MarshalText()
	if err != nil {
		return fail(c, inv.cmd, err)
	}
	c.stdout.Write(text)
	return exitOK
}

// sparkRun implements `thundc spark run PATH|BUNDLE --remote sc://...`.
func sparkRun(c *cli, inv *invocation) int {
	if !inv.isSet("remote") {
		return fail(c, inv.cmd, usagef("spark run: missing --remote sc://host:port"))
	}
	for _, f := range []string{"o", "format"} {
		if inv.isSet(f) {
			return fail(c, inv.cmd, usagef("spark run takes no %s (spark emit writes bundles)", flagName(f)))
		}
	}
	remote, err := sparkemit.ParseRemote(inv.str("remote"))
	if err != nil {
		return fail(c, inv.cmd, usagef("--remote: %v", err))
	}
	path := inv.args[1]
	var reqs []*pb.ExecutePlanRequest
	if _, err := openInput(path); err == nil {
		l, st := lower(c, inv)
		if l == nil {
			return st
		}
		if !inv.bool("json") {
			writeDiags(c.stderr, l.diags)
			writeReport(&cli{stdout: c.stderr}, l.report)
		}
		reqs = l.bundle.Requests
	} else {
		for _, f := range sparkLowerFlags {
			if inv.isSet(f) {
				return fail(c, inv.cmd, usagef("%s applies to a pipeline PATH, not to a bundle (it was lowered already)", flagName(f)))
			}
		}
		if reqs, err = readBundleFile(path); err != nil {
			return fail(c, inv.cmd, err)
		}
	}
	conn, err := sparkemit.Dial(remote)
	if err != nil {
		return fail(c, inv.cmd, err)
	}
	defer conn.Close()
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	asJSON := inv.bool("json")
	sum := &runSummary{state: map[string]string{}}
	err = sparkemit.Run(ctx, conn, remote, reqs, func(ev sparkemit.Event) {
		ts := ""
		if t := ev.Event.GetTimestamp(); t != nil {
			ts = t.AsTime().UTC().Format(time.RFC3339Nano)
		}
		msg := ev.Event.GetMessage()
		st, isState := sparkemit.ParseEvent(msg)
		if isState {
			sum.add(st)
		}
		if asJSON {
			j := sparkEventJSON{Request: ev.Request, Timestamp: ts, Message: msg, ErrorClass: sparkemit.ErrorClass(msg)}
			if isState {
				j.Flow, j.State = st.Flow, st.State
				if j.Flow == "" {
					j.Run = true
				}
			}
			writeJSONLine(c, j)
			return
		}
		fmt.Fprintf(c.stdout, "%s %s\n", ts, msg)
	})
	failed := err != nil || sum.run == "FAILED" || sum.count("FAILED") > 0
	class := ""
	if err != nil {
		class = sparkemit.ErrorClass(err.Error())
	}
	if asJSON {
		writeJSONLine(c, sparkRunJSON{Summary: true, OK: !failed, Run: sum.run, Flows: sum.flows(), ErrorClass: class, Error: errText(err)})
	} else {
		sum.write(c.stderr, remote.String(), len(reqs))
		if err != nil {
			if class != "" {
				fmt.Fprintf(c.stderr, "thundc spark run: the update failed (%s): %v\n", class, err)
			} else {
				fmt.Fprintf(c.stderr, "thundc spark run: %v\n", err)
			}
		} else if failed {
			fmt.Fprintf(c.stderr, "thundc spark run: the update failed: %d flow(s) FAILED\n", sum.count("FAILED"))
		}
	}
	if failed {
		return exitDiags
	}
	return exitOK
}

// sparkEventJSON is one event of spark run --json.
type sparkEventJSON struct {
	Request    int    `json:"request"`
	Timestamp  string `json:"timestamp"`
	Message    string `json:"message"`
	Flow       string `json:"flow,omitempty"`  // the flow a state event is about
	Run        bool   `json:"run,omitempty"`   // a state event about the run
	State      string `json:"state,omitempty"` // QUEUED, RUNNING, COMPLETED, FAILED, SKIPPED, ...
	ErrorClass string `json:"error_class,omitempty"`
}

// sparkRunJSON is the last line of spark run --json.
type sparkRunJSON struct {
	Summary    bool              `json:"summary"`
	OK         bool              `json:"ok"`
	Run        string            `json:"run_state,omitempty"`
	Flows      map[string]string `json:"flows"` // each flow's final state
	ErrorClass string            `json:"error_class,omitempty"`
	Error      string            `json:"error,omitempty"`
}

func errText(err error) string {
	if err == nil {
		return ""
	}
	return err.Error()
}

// writeJSONLine writes one compact JSON object and a newline.
func writeJSONLine(c *cli, v any) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(v)
	c.stdout.Write(b.Bytes())
}

// runSummary is the last state each flow, and the run, reported.
type runSummary struct {
	order []string
	state map[string]string
	run   string
}

func (s *runSummary) add(st sparkemit.EventState) {
	if st.Flow == "" {
		s.run = st.State
		return
	}
	if _, ok := s.state[st.Flow]; !ok {
		s.order = append(s.order, st.Flow)
	}
	s.state[st.Flow] = st.State
}

func (s *runSummary) count(state string) int {
	n := 0
	for _, v := range s.state {
		if v == state {
			n++
		}
	}
	return n
}

func (s *runSummary) flows() map[string]string {
	out := make(map[string]string, len(s.state))
	for k, v := range s.state {
		out[k] = v
	}
	return out
}

// write prints the run's outcome and each flow's final state.
func (s *runSummary) write(w io.Writer, remote string, requests int) {
	run := s.run
	if run == "" {
		run = "no run state reported"
	}
	fmt.Fprintf(w, "spark run: %d requests sent to %s; run %s\n", requests, remote, run)
	width := 0
	for _, f := range s.order {
		width = max(width, len(f))
	}
	for _, f := range s.order {
		fmt.Fprintf(w, "  %-*s  %s\n", width, f, s.state[f])
	}
}
