package main

import (
	"fmt"
	thund "github.com/nordisk/thund"
	"runtime"
	"runtime/debug"
	"slices"
	"strings"

	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
	"github.com/nordisk/thund/sparkemit"
)

// compile loads the input and runs the passes with opts. It returns the unit
// (nil when the input did not load) and every diagnostic, with source lines
// filled in; a non-nil error is a usage error or an internal one. The
// driver's debugging flags apply here, for every command that has them:
// --verify-ir sets Options.Verify, and --dump-after prints the plan after
// each pass it names to stderr (dumpAfter).
func compile(c *cli, inv *invocation, opts passes.Options) (*passes.Unit, ir.Diagnostics, error) {
	in, err := openInput(inv.pipelinePaths()...)
	if err != nil {
		return nil, nil, err
	}
	if in.binds, err = parseBinds(inv.strs("bind")); err != nil {
		return nil, nil, err
	}
	dumps, err := dumpPasses(inv.strs("dump-after"), opts.StopAfter)
	if err != nil {
		return nil, nil, err
	}
	opts.Verify = opts.Verify || inv.bool("verify-ir")
	p, diags := in.load()
	if p != nil {
		for _, name := range dumps {
			if err := dumpAfter(c, p, opts, name); err != nil {
				return nil, diags, err
			}
		}
		u, err := passes.Run(p, opts)
		if u == nil {
			// Run refuses only options, which parseArgs checked against
			// the same tables.
			return nil, diags, fmt.Errorf("internal error: %v", err)
		}
		diags = append(diags, u.Diags...)
		if err != nil && !u.Diags.HasErrors() {
			return nil, diags, fmt.Errorf("internal error: %v", err) // Verify found a broken invariant
		}
		addSource(diags, in.path, in.text)
		return u, diags, nil
	}
	addSource(diags, in.path, in.text)
	return nil, diags, nil
}

// dumpPasses checks the passes --dump-after names (parseArgs checked each
// against passes.Names) and returns them in pass order, once each. A pass
// after --stop-after's never runs, and is a usage error.
func dumpPasses(names []string, stopAfter string) ([]string, error) {
	all := passes.Names()
	last := len(all) - 1
	if stopAfter != "" {
		last = slices.Index(all, stopAfter)
	}
	var out []string
	for i, name := range all {
		if !slices.Contains(names, name) {
			continue
		}
		if i > last {
			return nil, usagef("--dump-after %s: the pass does not run with --stop-after %s", name, stopAfter)
		}
		out = append(out, name)
	}
	return out, nil
}

// dumpAfter prints the plan after the named pass (explain's text) to
// stderr, as the Go compiler's -d=ssa/PASS/dump does: it runs the passes
// again up to that one, which changes nothing, as they never modify the
// pipeline (Verify checks that). When an earlier pass or the pass itself
// reports errors, it prints nothing: the run that follows reports them.
func dumpAfter(c *cli, p *ir.Pipeline, opts passes.Options, name string) error {
	opts.StopAfter = name
	u, err := passes.Run(p, opts)
	if u == nil || (err != nil && !u.Diags.HasErrors()) {
		return fmt.Errorf("internal error: %v", err)
	}
	if u.Diags.HasErrors() || !slices.Contains(u.Ran, name) {
		return nil
	}
	text := u.ExplainText()
	if !strings.HasSuffix(text, "\n") {
		text += "\n"
	}
	fmt.Fprintf(c.stderr, "# after pass %s\n%s\n", name, text)
	return nil
}

// passOptions are the options of the passes that the invocation's flags
// set: --target (checked by parseArgs), --expectations and --stop-after.
func passOptions(inv *invocation) passes.Options {
	target, _ := passes.ParseTarget(inv.str("target"))
	return passes.Options{Target: target, Expectations: passes.ExpectMode(inv.str("expectations")), StopAfter: inv.str("stop-after")}
}

// runCheck implements `thundc check PATH`.
func runCheck(c *cli, inv *invocation) int {
	opts := passOptions(inv)
	u, diags, err := compile(c, inv, opts)
	if err != nil {
		return fail(c, inv.cmd, err)
	}
	// what the lowering refuses too, so that a pipeline check passes is one
	// spark emit lowers
	_, refusals, err := lowerRefusals(inv, u, diags)
	if err != nil {
		return fail(c, inv.cmd, err)
	}
	return report(c, inv.bool("json"), append(diags, refusals...))
}

// explainJSON is the --json output of explain.
type explainJSON struct {
	OK          bool       `json:"ok"`
	Target      string     `json:"target"`
	Ran         []string   `json:"ran"`
	Diagnostics []diagJSON `json:"diagnostics"`
	Plan        any        `json:"plan,omitempty"` // passes.Unit.ExplainJSON; absent on errors
}

// runExplain implements `thundc explain PATH`.
func runExplain(c *cli, inv *invocation) int {
	opts := passOptions(inv)
	target := opts.Target
	u, diags, err := compile(c, inv, opts)
	if err != nil {
		return fail(c, inv.cmd, err)
	}
	// The lowering report a bundle gets: the capability pass's, plus what
	// only the lowering converts or refuses.
	rep, refusals, err := lowerRefusals(inv, u, diags)
	if err != nil {
		return fail(c, inv.cmd, err)
	}
	diags = append(diags, refusals...)
	failed := diags.HasErrors()
	var plan *passes.Explain
	if u != nil {
		plan = u.Explain()
		if rep != nil {
			plan.Report = rep
		}
	}
	if inv.bool("json") {
		out := explainJSON{OK: !failed, Target: string(target), Ran: []string{}, Diagnostics: diagsJSON(diags)}
		if u != nil {
			out.Ran = append(out.Ran, u.Ran...)
			if !failed {
				out.Plan = plan
			}
		}
		if st := writeJSON(c, out); st != exitOK || failed {
			return max(st, exitDiags)
		}
		return exitOK
	}
	writeDiags(c.stderr, diags)
	if failed {
		return exitDiags
	}
	text := plan.Text()
	if text != "" && text[len(text)-1] != '\n' {
		text += "\n"
	}
	fmt.Fprint(c.stdout, text)
	return exitOK
}

// lowerRefusals lowers the unit to Spark as spark emit would: the
// lowering's report (what the capability pass reported, plus what only the
// lowering converts), or what it refuses as diagnostics. It does nothing
// for the native target, or for a unit that has errors or stopped before
// the plan pass. --sql-elements lowers as spark emit does with it.
func lowerRefusals(inv *invocation, u *passes.Unit, diags ir.Diagnostics) (*passes.LoweringReport, ir.Diagnostics, error) {
	if u == nil || diags.HasErrors() || !slices.Contains(u.Ran, "plan") || !u.Opts.Target.IsSpark() {
		return nil, nil, nil
	}
	var opts sparkemit.Options
	if inv.bool("sql-elements") {
		files, err := sqlElements(inv.pipelinePaths())
		if err != nil {
			return nil, nil, err
		}
		opts.SQLFiles = files
	}
	rep, refusals := sparkemit.Lower(u, opts)
	addSourceFromFiles(refusals)
	return rep, refusals, nil
}

// runGraph implements `thundc graph PATH`.
func runGraph(c *cli, inv *invocation) int {
	format := inv.str("format")
	if inv.bool("json") {
		if inv.isSet("format") && format != "json" {
			return fail(c, inv.cmd, usagef("--json conflicts with --format %s", format))
		}
		format = "json"
	}
	// Only the structure matters to the graph: stop once names and
	// references are known to resolve.
	u, diags, err := compile(c, inv, passes.Options{StopAfter: "validate"})
	if err != nil {
		return fail(c, inv.cmd, err)
	}
	if diags.HasErrors() {
		return report(c, format == "json", diags)
	}
	writeDiags(c.stderr, diags) // warnings
	out, err := renderGraph(u.Pipeline, format)
	if err != nil {
		return fail(c, inv.cmd, err)
	}
	c.stdout.Write(out)
	return exitOK
}

// versionInfo is what `thundc version` reports.
type versionInfo struct {
	Thundc   string `json:"thundc"`   // the module version, "(devel)" from a checkout
	Go       string `json:"go"`       // the Go release thundc was built with
	Platform string `json:"platform"` // GOOS/GOARCH
	IRJSON   int    `json:"ir_json"`  // ir.JSONVersion
	Runtime  string `json:"runtime"`  // the embedded runtime every built pipeline links
}

func currentVersion() versionInfo {
	v := "(devel)"
	if bi, ok := debug.ReadBuildInfo(); ok && bi.Main.Version != "" {
		v = bi.Main.Version
	}
	return versionInfo{Thundc: v, Go: runtime.Version(), Platform: runtime.GOOS + "/" + runtime.GOARCH, IRJSON: ir.JSONVersion, Runtime: thund.RuntimeVersion()}
}

// runVersion implements `thundc version`.
func runVersion(c *cli, inv *invocation) int {
	v := currentVersion()
	if inv.bool("json") {
		return writeJSON(c, v)
	}
	fmt.Fprintf(c.stdout, "thundc %s (%s %s)\nir json v%d\nruntime %s\n", v.Thundc, v.Go, v.Platform, v.IRJSON, v.Runtime)
	return exitOK
}
