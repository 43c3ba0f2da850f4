package passes

import (
	"fmt"
	"strings"

	"github.com/nordisk/thund/ir"
)

// Target is a backend the pipeline is compiled for.
type Target string

const (
	Native  Target = "native"
	Spark41 Target = "spark-4.1"
	Spark42 Target = "spark-4.2"
)

// IsSpark reports whether t lowers to Spark Connect.
func (t Target) IsSpark() bool { return t == Spark41 || t == Spark42 }

// Targets lists every target.
func Targets() []Target { return []Target{Native, Spark41, Spark42} }

// ParseTarget parses a target name.
func ParseTarget(s string) (Target, error) {
	for _, t := range Targets() {
		if string(t) == s {
			return t, nil
		}
	}
	return "", fmt.Errorf("unknown target %q (want native, spark-4.1 or spark-4.2)", s)
}

// Options control a run of the passes.
type Options struct {
	Target    Target // default Native
	StopAfter string // "" runs every pass
	Verify    bool   // check IR invariants after every pass

	// Expectations is how a Spark target takes expectations that drop rows
	// (on violation drop), which OSS Spark lacks: ExpectRefuse (the
	// default) refuses them; ExpectFilter lowers each to a filter on its
	// condition, which keeps the rows the native backend keeps but counts
	// nothing. Expectations that fail the run stay refused either way.
	Expectations ExpectMode
}

// ExpectMode is how a Spark target takes drop expectations.
type ExpectMode string

const (
	ExpectRefuse ExpectMode = "refuse"
	ExpectFilter ExpectMode = "filter"
)

// ExpectModes lists the values of --expectations; the first is the default.
func ExpectModes() []string { return []string{string(ExpectRefuse), string(ExpectFilter)} }

// Unit is the pipeline and everything the passes learned about it. The
// passes never modify Pipeline; each fills its own fields, keyed by IR node.
type Unit struct {
	Pipeline *ir.Pipeline
	Opts     Options
	Diags    ir.Diagnostics
	Ran      []string // the passes that ran, in order

	// resolve
	Types    map[ir.Expr]ir.Type // every expression's type; TUnknown is NULL or an external table's column
	Nullable map[ir.Expr]bool    // whether an expression can be NULL
	Refs     map[*ir.ColumnRef]ColumnBinding
	// FieldRefs: a dotted reference to a struct column's field (s.f,
	// t.s.f) maps to how many of its trailing parts are fields; Refs binds
	// it to the struct column (resolve_nested.go)
	FieldRefs   map[*ir.ColumnRef]int
	Schemas     map[ir.Rel]Schema         // every operator's output, subqueries included
	Projections map[*ir.Project][]ProjCol // where each output column of a projection comes from
	Joins       map[*ir.Join]*JoinInfo
	AggCalls    map[*ir.Aggregate][]*ir.Call // the aggregate calls an Aggregate computes, in order
	Calls       map[*ir.Call]*Func           // the catalogue entry each call resolved to
	Datasets    map[*ir.Dataset]Schema       // each dataset's resolved schema

	// resolve (session confs): each flow's session time zone and ANSI mode (conf.go)
	Sessions map[*ir.Flow]Session

	// resolve (Output), sanity (Inputs, Bounded, Emission) and fuse (Stages)
	Flows map[*ir.Flow]*FlowInfo

	// sanity: the watermark a stream read of each dataset defaults to (a
	// source's declared one, or one carried through a streaming table's
	// flows); nil for none
	Watermarks map[*ir.Dataset]*ir.Watermark

	// capability
	Caps   *Capabilities
	Report *LoweringReport

	// capability (datasets) and plan (late tables), native target: the
	// tables the native build publishes as Iceberg tables, by lower-case
	// name (tableformat.go)
	Iceberg map[string]bool

	// plan: the physical plan
	Plan *Plan

	index *datasetIndex // name lookups, built on first use
}

// datasetIndex finds datasets and the flows into them by name in constant
// time (ir.Pipeline.LookupDataset scans the list).
type datasetIndex struct {
	byName map[string]*ir.Dataset
	into   map[*ir.Dataset][]*ir.Flow
}

// lookup returns the dataset with the given name (case-insensitive), or nil.
func (u *Unit) lookup(name string) *ir.Dataset {
	return u.datasets().byName[strings.ToLower(name)]
}

// flowsInto returns the flows targeting d, in declaration order.
func (u *Unit) flowsInto(d *ir.Dataset) []*ir.Flow {
	return u.datasets().into[d]
}

func (u *Unit) datasets() *datasetIndex {
	if u.index != nil {
		return u.index
	}
	x := &datasetIndex{byName: map[string]*ir.Dataset{}, into: map[*ir.Dataset][]*ir.Flow{}}
	for _, d := range u.Pipeline.Datasets {
		if n := strings.ToLower(d.Name); x.byName[n] == nil {
			x.byName[n] = d
		}
	}
	for _, f := range u.Pipeline.Flows {
		if d := x.byName[strings.ToLower(f.Target)]; d != nil {
			x.into[d] = append(x.into[d], f)
		}
	}
	u.index = x
	return x
}

// pass is one named step of the pipeline.
type pass struct {
	name string
	fn   func(*Unit)
}

// passes is the one ordered table of passes. Run runs them in this order.
var passes = []pass{
	{name: "validate", fn: validate},
	{name: "resolve", fn: resolve},
	{name: "sanity", fn: sanity},
	{name: "capability", fn: capability},
	{name: "fuse", fn: fuse},
	{name: "plan", fn: plan},
}

// constraint says that pass a must run before pass b, and why.
type constraint struct {
	a, b   string
	reason string
}

// passOrder lists the ordering constraints between passes; a test checks the
// table against them.
var passOrder = []constraint{
	{"validate", "resolve", "resolve assumes unique names, no dangling reads and an acyclic graph (TopoOrder)"},
	{"resolve", "sanity", "sanity traces column references to event-time columns and windows through the bindings"},
	{"resolve", "capability", "type conversions (unsigned, nanoseconds) are found in the resolved schemas"},
	{"sanity", "capability", "whether dropping an output mode is harmless depends on the flow's emission"},
	{"capability", "fuse", "expectations join a fused stage only where the target runs them"},
	{"sanity", "plan", "the stream plan reads each flow's inputs, watermarks and emission"},
	{"fuse", "plan", "the plan is per fused stage: codegen prints the stages and their operators' plans"},
}

// Names lists the passes in order.
func Names() []string {
	out := make([]string, len(passes))
	for i, p := range passes {
		out[i] = p.name
	}
	return out
}

// Run runs the passes in order, stopping after Options.StopAfter, or at the
// first pass that reports errors. The error is u.Diags.Err(), a usage error
// for an unknown target or pass name, or an internal error when Verify finds
// a broken invariant.
func Run(p *ir.Pipeline, opts Options) (*Unit, error) {
	if opts.Target == "" {
		opts.Target = Native
	}
	if _, err := ParseTarget(string(opts.Target)); err != nil {
		return nil, err
	}
	switch opts.Expectations {
	case "":
		opts.Expectations = ExpectRefuse
	case ExpectRefuse, ExpectFilter:
	default:
		return nil, fmt.Errorf("unknown expectations mode %q (want refuse or filter)", opts.Expectations)
	}
	if opts.StopAfter != "" && !isPass(passes, opts.StopAfter) {
		return nil, fmt.Errorf("unknown pass %q (want one of %s)", opts.StopAfter, strings.Join(Names(), ", "))
	}
	u := newUnit(p, opts)
	return u, u.run(passes)
}

func isPass(list []pass, name string) bool {
	for _, p := range list {
		if p.name == name {
			return true
		}
	}
	return false
}

func newUnit(p *ir.Pipeline, opts Options) *Unit {
	return &Unit{
		Pipeline:    p,
		Opts:        opts,
		Types:       map[ir.Expr]ir.Type{},
		Nullable:    map[ir.Expr]bool{},
		Refs:        map[*ir.ColumnRef]ColumnBinding{},
		FieldRefs:   map[*ir.ColumnRef]int{},
		Schemas:     map[ir.Rel]Schema{},
		Projections: map[*ir.Project][]ProjCol{},
		Joins:       map[*ir.Join]*JoinInfo{},
		AggCalls:    map[*ir.Aggregate][]*ir.Call{},
		Calls:       map[*ir.Call]*Func{},
		Datasets:    map[*ir.Dataset]Schema{},
		Flows:       map[*ir.Flow]*FlowInfo{},
		Watermarks:  map[*ir.Dataset]*ir.Watermark{},
		Iceberg:     map[string]bool{},
	}
}

// run is the driver: it runs list in order with the Unit's options.
func (u *Unit) run(list []pass) error {
	var before []byte
	for _, ps := range list {
		if u.Opts.Verify {
			before = snapshot(u.Pipeline)
		}
		runOne(ps, u)
		u.Ran = append(u.Ran, ps.name)
		u.Diags.Sort()
		failed := u.Diags.HasErrors()
		if u.Opts.Verify {
			if err := u.verify(ps.name, before, failed); err != nil {
				return err
			}
		}
		if failed || ps.name == u.Opts.StopAfter {
			break
		}
	}
	return u.Diags.Err()
}

// runOne runs one pass, naming it in any panic.
func runOne(ps pass, u *Unit) {
	defer func() {
		if r := recover(); r != nil {
			if err, ok := r.(error); ok {
				panic(fmt.Errorf("pass %s: %w", ps.name, err))
			}
			panic(fmt.Sprintf("pass %s: %v", ps.name, r))
		}
	}()
	ps.fn(u)
}

// validate is ir.Validate. For a Spark target, a read of a name the
// pipeline does not define is an external table that Spark resolves in its
// catalog, as an unqualified name too; natively it must be bound.
func validate(u *Unit) {
	opts := ir.ValidateOptions{CatalogReads: u.Opts.Target.IsSpark()}
	u.Diags = append(u.Diags, ir.ValidateWith(u.Pipeline, opts)...)
}

// ran reports whether the named pass has run.
func (u *Unit) ran(name string) bool {
	for _, n := range u.Ran {
		if n == name {
			return true
		}
	}
	return false
}
