package codegen

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"go/format"
	"maps"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"sort"
	"strings"
	"testing"

	"github.com/dave/jennifer/jen"
	"github.com/nordisk/thund/frontend/dsl"
	"github.com/nordisk/thund/internal/gobuild"
	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/ir"
	"github.com/nordisk/thund/passes"
	"github.com/rogpeppe/go-internal/txtar"
)

// compile parses a .thund text and runs the passes.
func compile(t testing.TB, name string, src []byte) *passes.Unit {
	t.Helper()
	p, diags := dsl.Parse(name, src)
	if diags.HasErrors() {
		t.Fatalf("parse %s:\n%v", name, diags)
	}
	u, err := passes.Run(p, passes.Options{})
	if err != nil {
		t.Fatalf("passes %s:\n%v", name, err)
	}
	return u
}

// generate compiles and generates a pipeline's program.
func generate(t testing.TB, name string, src []byte) map[string][]byte {
	t.Helper()
	files, err := Generate(compile(t, name, src), Options{SourceFile: name, Compiler: "thundc test"})
	if err != nil {
		t.Fatalf("generate %s:\n%v", name, err)
	}
	return files
}

// harness is the test driver that replaces the generated main.go.
func harness(t testing.TB) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", "harness", "main.go"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// moduleDir writes a generated program's module (the repository as the
// runtime tree) to a temporary folder and returns it. The runtime's sources
// go to the tests' shared thundc cache (testenv.ThundCache) as a build lays
// them out (gobuild.WriteModule), so that the go command compiles them once,
// not once per test run in a new folder.
func moduleDir(t testing.TB, files map[string][]byte) string {
	t.Helper()
	mod, err := gobuild.ModuleFiles(files, os.DirFS(".."))
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	if err := gobuild.WriteModule(testenv.ThundCache(), dir, mod); err != nil {
		t.Fatal(err)
	}
	return dir
}

// sharedModuleDir is moduleDir in a folder of the tests' shared cache named
// by the module's content (vet/HASH), written once: the go command keys
// its cached results (go vet's among them) by folder and content, so the
// same generated programs are vetted once, and again as soon as one byte
// of them changes.
func sharedModuleDir(t testing.TB, files map[string][]byte) string {
	t.Helper()
	mod, err := gobuild.ModuleFiles(files, os.DirFS(".."))
	if err != nil {
		t.Fatal(err)
	}
	names := slices.Sorted(maps.Keys(mod))
	h := sha256.New()
	for _, n := range names {
		fmt.Fprintf(h, "%s %d\n", n, len(mod[n]))
		h.Write(mod[n])
	}
	cache := testenv.ThundCache()
	dir := filepath.Join(cache, "vet", hex.EncodeToString(h.Sum(nil))[:24])
	if _, err := os.Stat(dir); err == nil {
		return dir
	}
	if err := os.MkdirAll(filepath.Dir(dir), 0o755); err != nil {
		t.Fatal(err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(dir), filepath.Base(dir)+".tmp-")
	if err != nil {
		t.Fatal(err)
	}
	defer os.RemoveAll(tmp)
	if err := gobuild.WriteModule(cache, tmp, mod); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, dir); err != nil {
		if _, statErr := os.Stat(dir); statErr != nil {
			t.Fatal(err)
		}
	}
	return dir
}

const e2eArchive = "testdata/e2e.txtar"

// runE2E generates the pipeline of testdata/e2e.txtar, replaces its main
// with the harness, builds it with gobuild (the repository as the runtime
// tree: go.mod, go.sum, rt/) and runs it over the archive's data files. It
// returns the archive and the program's output.
func runE2E(t *testing.T) (*txtar.Archive, string) {
	arch, err := txtar.ParseFile(e2eArchive)
	if err != nil {
		t.Fatal(err)
	}
	dir := t.TempDir()
	var src []byte
	for _, f := range arch.Files {
		if f.Name == "pipeline.thund" {
			src = f.Data
		}
		if strings.HasPrefix(f.Name, "data/") {
			p := filepath.Join(dir, filepath.FromSlash(f.Name))
			if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(p, f.Data, 0o644); err != nil {
				t.Fatal(err)
			}
		}
	}
	files := generate(t, "pipeline.thund", src)
	files["main.go"] = harness(t)
	bin := filepath.Join(dir, "etl")
	// The tests' shared cache: the executable is built once per content
	// (generated program, runtime and go version), and the runtime is
	// compiled once per runtime.
	req := gobuild.Request{Files: files, Runtime: os.DirFS(".."), Out: bin, CacheDir: testenv.ThundCache()}
	if _, err := gobuild.Build(context.Background(), req); err != nil {
		t.Fatal(err)
	}
	var stdout, stderr bytes.Buffer
	cmd := exec.Command(bin, dir)
	cmd.Stdout, cmd.Stderr = &stdout, &stderr
	if err := cmd.Run(); err != nil {
		t.Fatalf("running the program: %v\n%s", err, stderr.String())
	}
	return arch, stdout.String()
}

// sections splits the harness output by dataset.
func sections(out string) map[string][]string {
	m := map[string][]string{}
	cur := ""
	for _, l := range strings.Split(strings.TrimSuffix(out, "\n"), "\n") {
		if n, ok := strings.CutPrefix(l, "== "); ok {
			cur = n
			m[cur] = []string{}
			continue
		}
		m[cur] = append(m[cur], l)
	}
	return m
}

// TestEndToEnd builds one program for the pipeline of testdata/e2e.txtar
// and compares each dataset with its want/NAME section, hand-derived.
// Rows compare as a multiset unless the want section starts with
// "# ordered"; "-- error:" lines compare as prefixes.
func TestEndToEnd(t *testing.T) {
	if testing.Short() {
		t.Skip("builds a generated program")
	}
	arch, out := runE2E(t)
	got := sections(out)
	markers := markerLines(arch)
	for _, f := range arch.Files {
		name, ok := strings.CutPrefix(f.Name, "want/")
		if !ok {
			continue
		}
		t.Run(name, func(t *testing.T) {
			lines, ok := got[name]
			if !ok {
				t.Fatalf("no output for dataset %s; output:\n%s", name, out)
			}
			want := strings.Split(strings.TrimSuffix(markers.Replace(string(f.Data)), "\n"), "\n")
			ordered := len(want) > 0 && want[0] == "# ordered"
			if ordered {
				want = want[1:]
			}
			if msg := compareSection(want, lines, ordered); msg != "" {
				t.Errorf("%s:\n%s\ngot:\n%s\nwant:\n%s", name, msg, strings.Join(lines, "\n"), strings.Join(want, "\n"))
			}
		})
	}
}

// markerLines replaces {{line NAME}} by the number of the pipeline's line
// that ends in the comment "# <- NAME".
func markerLines(arch *txtar.Archive) *strings.Replacer {
	var pairs []string
	for _, f := range arch.Files {
		if f.Name != "pipeline.thund" {
			continue
		}
		for i, l := range strings.Split(string(f.Data), "\n") {
			if _, name, ok := strings.Cut(l, "# <- "); ok {
				pairs = append(pairs, "{{line "+strings.TrimSpace(name)+"}}", fmt.Sprint(i+1))
			}
		}
	}
	return strings.NewReplacer(pairs...)
}

// compareSection compares a dataset's output with its expectation: the
// header, the rows (as a multiset unless ordered), then the -- lines.
func compareSection(want, got []string, ordered bool) string {
	split := func(ls []string) (rows, meta []string) {
		for _, l := range ls {
			if strings.HasPrefix(l, "-- ") {
				meta = append(meta, l)
			} else if l != "" || len(rows) > 0 {
				rows = append(rows, l)
			}
		}
		return
	}
	wr, wm := split(want)
	gr, gm := split(got)
	if len(wr) > 0 && len(gr) == 0 {
		return "no rows and no header"
	}
	if len(wr) > 0 && len(gr) > 0 {
		if wr[0] != gr[0] {
			return "header differs"
		}
		wb, gb := append([]string(nil), wr[1:]...), append([]string(nil), gr[1:]...)
		if !ordered {
			sort.Strings(wb)
			sort.Strings(gb)
		}
		if strings.Join(wb, "\n") != strings.Join(gb, "\n") {
			return "rows differ"
		}
	}
	if len(wm) != len(gm) {
		return "expectation and error lines differ"
	}
	for i := range wm {
		if strings.HasPrefix(wm[i], "-- error: ") {
			if !strings.HasPrefix(gm[i], wm[i]) {
				return "error differs"
			}
		} else if wm[i] != gm[i] {
			return "expectation counts differ"
		}
	}
	return ""
}

// TestGeneratedIsFormatted checks the files of several pipelines: the
// header, gofmt, and imports written by jennifer only.
func TestGeneratedIsFormatted(t *testing.T) {
	for _, p := range pipelinesForVet(t) {
		for name, src := range p.files {
			if !bytes.HasPrefix(src, []byte("// Code generated by thundc. DO NOT EDIT.\n// source: ")) {
				t.Errorf("%s/%s: missing header", p.name, name)
			}
			formatted, err := format.Source(src)
			if err != nil {
				t.Errorf("%s/%s: %v", p.name, name, err)
			} else if !bytes.Equal(formatted, src) {
				t.Errorf("%s/%s is not gofmt'ed", p.name, name)
			}
		}
	}
}

type genPipeline struct {
	name  string
	files map[string][]byte
}

// pipelinesForVet generates the repository's examples and the end-to-end
// pipeline.
func pipelinesForVet(t *testing.T) []genPipeline {
	var out []genPipeline
	ex, _ := filepath.Glob(filepath.Join("..", "examples", "*", "pipeline.thund"))
	for _, p := range ex {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		name := filepath.Base(filepath.Dir(p))
		u := compile(t, "pipeline.thund", src)
		files, err := Generate(u, Options{SourceFile: "pipeline.thund", Compiler: "thundc test"})
		var diags ir.Diagnostics
		if errors.As(err, &diags) {
			continue // refused (streaming state): see TestRefusals
		}
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		out = append(out, genPipeline{name, files})
	}
	arch, err := txtar.ParseFile(e2eArchive)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range arch.Files {
		if f.Name == "pipeline.thund" {
			out = append(out, genPipeline{"e2e", generate(t, "pipeline.thund", f.Data)})
		}
	}
	return out
}

// TestGeneratedVet lays out one module holding the end-to-end program (at
// the root, with the harness as main), the repository's examples and the
// pipelines of testdata/vet (one package each), and runs go vet on all of
// them once: every generated file type-checks against the runtime and is
// vet-clean.
func TestGeneratedVet(t *testing.T) {
	if testing.Short() {
		t.Skip("runs go vet")
	}
	ps := pipelinesForVet(t)
	vetDir, _ := filepath.Glob(filepath.Join("testdata", "vet", "*.thund"))
	for _, p := range vetDir {
		src, err := os.ReadFile(p)
		if err != nil {
			t.Fatal(err)
		}
		ps = append(ps, genPipeline{"vet_" + strings.TrimSuffix(filepath.Base(p), ".thund"), generate(t, "pipeline.thund", src)})
	}
	files := map[string][]byte{}
	for _, p := range ps {
		for name, src := range p.files {
			if p.name == "e2e" {
				files[name] = src
			} else {
				// the program's own packages, moved under its folder
				own := []byte(`"` + gobuild.ProgramModule + "/")
				files["ex_"+p.name+"/"+name] = bytes.ReplaceAll(src, own, append(own, "ex_"+p.name+"/"...))
			}
		}
	}
	files["main.go"] = harness(t)
	dir := sharedModuleDir(t, files)
	cmd := exec.Command("go", "vet", "./...")
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("go vet of the generated programs: %v\n%s", err, out)
	}
}

// TestRefusals checks the capability diagnostics of constructs the native
// backend does not run yet: positioned, with code capability, naming the
// backend; every flow is checked.
func TestRefusals(t *testing.T) {
	const src = `source s from csv "s.csv" { t timestamp(ms), k int64, v int64 watermark t delay 5s }
source u from csv "u.csv" { k int64, v int64 }

streaming table agg =
  from stream s
  | where k > 0
  | aggregate count(*) as c
  output mode update

materialized view sess =
  from s
  | window session(t, 10s)
  | group by window_start aggregate count(*) as c

materialized view corr =
  from u
  | where exists (from s | where s.k = u.k | limit 1)

streaming table cdc_target (k int64, v int64)

flow changes into cdc_target =
  from stream u
  apply changes keys (k) sequence by v scd type 1

materialized view ok =
  from u
  | select k

streaming table stream_build =
  from u
  | join (from stream s) as w on u.k = w.k
  | select u.k

streaming table stream_full =
  from stream s
  | full join u on s.k = u.k
  | select s.k, u.v

streaming table stream_probe =
  from stream s
  | left join u on s.k = u.k
  | select s.k, u.v
`
	// the plan pass refuses them, so that check says what build says;
	// Generate returns the same diagnostics for the unit
	p, pd := dsl.Parse("p.thund", []byte(src))
	if pd.HasErrors() {
		t.Fatal(pd)
	}
	u, _ := passes.Run(p, passes.Options{})
	_, err := Generate(u, Options{SourceFile: "p.thund"})
	var diags ir.Diagnostics
	if !errors.As(err, &diags) {
		t.Fatalf("want diagnostics, got %v", err)
	}
	if u.Diags.Error() != diags.Error() || u.Ran[len(u.Ran)-1] != "plan" {
		t.Errorf("Generate's diagnostics differ from the plan pass's (ran %v):\n%s\n%s", u.Ran, diags, u.Diags)
	}
	want := []string{
		"p.thund:7:5: native backend: output mode update of an aggregate without group keys into agg is not supported yet (its one row has no key to be upserted by): use output mode complete [capability]",
		"p.thund:12:5: native backend: session windows over bounded input are not supported yet (over a stream they are) [capability]",
		"p.thund:17:40: native backend: a correlated reference (u.k) below the subquery's where is not supported yet: correlate the subquery in a where over its input [capability]",
		"p.thund:31:5: native backend: a join whose right input (the build side) reads a stream is not supported yet (streaming state): compute it in a materialized view over a snapshot read, or target spark-4.1 [capability]",
		"p.thund:36:5: native backend: a full join over a stream is not supported yet (streaming state): compute it in a materialized view over a snapshot read, or target spark-4.1 [capability]",
	}
	if got := strings.Split(diags.Error(), "\n"); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("got:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	for _, d := range diags {
		if d.Code != ir.CodeCapability {
			t.Errorf("%v: code %s", d, d.Code)
		}
	}
}

// TestGenerateNeedsResolvedUnit refuses a unit that has not run every pass.
func TestGenerateNeedsResolvedUnit(t *testing.T) {
	p, diags := dsl.Parse("p.thund", []byte("source s from csv \"s.csv\" { a int64 }\nmaterialized view v = from s\n"))
	if diags.HasErrors() {
		t.Fatal(diags)
	}
	u, err := passes.Run(p, passes.Options{StopAfter: "resolve"})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := Generate(u, Options{}); err == nil || !strings.Contains(err.Error(), "needs every pass") {
		t.Fatalf("got %v", err)
	}
}

// TestFormatErrorShowsSource renders generated source that does not format:
// the error lists it with line numbers.
func TestFormatErrorShowsSource(t *testing.T) {
	f := jen.NewFile("main")
	f.Func().Id("broken").Params().Block(jen.Id("x").Op(":=").Op(")"))
	_, err := render(f, "broken.go")
	var fe *FormatError
	if !errors.As(err, &fe) {
		t.Fatalf("want a *FormatError, got %v", err)
	}
	msg := err.Error()
	for _, want := range []string{"codegen: broken.go does not format:", "1  package main", "5  x := )"} {
		if !strings.Contains(msg, want) {
			t.Errorf("message lacks %q:\n%s", want, msg)
		}
	}
}

// TestGenerateIsDeterministic generates the end-to-end pipeline twice.
func TestGenerateIsDeterministic(t *testing.T) {
	arch, err := txtar.ParseFile(e2eArchive)
	if err != nil {
		t.Fatal(err)
	}
	var src []byte
	for _, f := range arch.Files {
		if f.Name == "pipeline.thund" {
			src = f.Data
		}
	}
	a, b := generate(t, "pipeline.thund", src), generate(t, "pipeline.thund", src)
	if len(a) != len(b) {
		t.Fatalf("%d files, then %d", len(a), len(b))
	}
	for name := range a {
		if !bytes.Equal(a[name], b[name]) {
			t.Errorf("%s differs between two runs", name)
		}
	}
}

// TestPipelineSpec checks the wiring in pipeline.go: datasets in
// dependency order, kinds, sources, flows with their inputs, expectations
// and definitions.
func TestPipelineSpec(t *testing.T) {
	const src = `pipeline spec
source s stream from csv "in/*.csv" options ("header" = "true") { a int64, b string }
streaming table copy
  expect has_b: b is not null on violation drop
  = from stream s | select a, b
materialized view counts partitioned by (b) = from copy | group by b aggregate count(*) as n
`
	files := generate(t, "spec.thund", []byte(src))
	p := strings.Join(strings.Fields(string(files["pipeline.go"])+string(files["schemas/schemas.go"])), " ") // spacing aside
	for _, want := range []string{
		`Name: "spec",`,
		`File: "spec.thund",`,
		`Compiler: "thundc test",`,
		`{Name: "a", Type: arrow.PrimitiveTypes.Int64, Nullable: true},`,
		`Source: &etl.FileSource{Format: "csv", Patterns: []string{"in/*.csv"}, Options: [][2]string{{"header", "true"}}, Unbounded: true},`,
		`{Name: "copy", Inputs: []etl.Input{{Name: "s", Stream: true}}, Run: flow_copy.Run},`,
		`Expectations: []etl.Expectation{{Name: "has_b", Action: run.Drop}},`,
		`PartitionBy: []string{"b"},`,
		`Definition: "materialized view counts\n partitioned by (b)\n = from copy\n | group by b aggregate count(*) as n\n",`,
	} {
		if !strings.Contains(p, want) {
			t.Errorf("pipeline.go and schemas/schemas.go lack %s\n%s", want, p)
		}
	}
	if i, j := strings.Index(p, `Name: "copy", Kind`), strings.Index(p, `Name: "counts", Kind`); i < 0 || j < i {
		t.Errorf("datasets not in dependency order:\n%s", p)
	}
	if m := string(files["main.go"]); !strings.Contains(m, "etl.Main(newPipeline())") {
		t.Errorf("main.go:\n%s", m)
	}
}

// TestS3ImportGraph: a program built without S3 does not link the AWS SDK
// (nor rt/store/s3store): its import graph, as the go command loads it, has
// none of their packages; with Options.S3 its main sets etl.Pipeline.OpenS3
// to s3store.Open and the graph has the SDK's S3 client (leaving the SDK
// out makes builds lighter: docs/performance.md, build latency). Either
// way, every package outside rt/ is one that installing thundc compiled.
func TestS3ImportGraph(t *testing.T) {
	src := []byte(`pipeline p

source t from csv "t/*.csv" { n int64 }

materialized view v = from t | where n > 1
`)
	deps := func(s3 bool) (map[string][]byte, []string) {
		files, err := Generate(compile(t, "p.thund", src), Options{SourceFile: "p.thund", S3: s3})
		if err != nil {
			t.Fatal(err)
		}
		dir := moduleDir(t, files)
		cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".")
		cmd.Dir = dir
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps (s3=%v): %v\n%s", s3, err, out)
		}
		return files, strings.Fields(string(out))
	}
	has := func(pkgs []string, prefix string) bool {
		return slices.ContainsFunc(pkgs, func(p string) bool { return strings.HasPrefix(p, prefix) })
	}
	const sdk, s3store = "github.com/aws/", "github.com/nordisk/thund/rt/store/s3store"

	files, pkgs := deps(false)
	if has(pkgs, sdk) || has(pkgs, s3store) {
		t.Errorf("without S3 the program imports the AWS SDK or s3store:\n%s", strings.Join(pkgs, "\n"))
	}
	if m := string(files["main.go"]); !strings.Contains(m, "etl.Main(newPipeline())") || strings.Contains(m, "OpenS3") {
		t.Errorf("main.go without S3:\n%s", m)
	}

	files, pkgs = deps(true)
	if !has(pkgs, sdk+"aws-sdk-go-v2/service/s3") || !has(pkgs, s3store) {
		t.Errorf("with S3 the program does not import the AWS SDK's S3 client and s3store:\n%s", strings.Join(pkgs, "\n"))
	}

	// The first build after installing thundc compiles rt/ and main only:
	// every other package a program imports, with S3 or without, is in
	// thundc's own dependency set (deps.go), so installing thundc compiled
	// it into the Go build cache.
	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./cmd/thundc")
	cmd.Dir = ".."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/thundc: %v\n%s", err, out)
	}
	thundc := strings.Fields(string(out))
	for _, p := range pkgs {
		if !strings.HasPrefix(p, "github.com/nordisk/thund/rt") && p != gobuild.ProgramModule && !strings.HasPrefix(p, gobuild.ProgramModule+"/") && !slices.Contains(thundc, p) {
			t.Errorf("the program imports %s, which thundc does not: the first build after installing thundc compiles it (add it to deps.go)", p)
		}
	}
	if m := strings.Join(strings.Fields(string(files["main.go"])), " "); !strings.Contains(m, "p.OpenS3 = s3store.Open") || !strings.Contains(m, "etl.Main(p)") {
		t.Errorf("main.go with S3:\n%s", files["main.go"])
	}
}

// TestKafkaImportGraph: only a program whose pipeline reads or writes
// Kafka links a Kafka client: without a Kafka source or sink its import
// graph has neither rt/kafka nor franz-go, and newPipeline sets no
// etl.Pipeline.Kafka; with one (a source, or a sink alone) newPipeline sets
// Kafka to kafka.New() and the graph has rt/kafka and franz-go's client,
// both in thundc's own dependency set (a warm first build).
func TestKafkaImportGraph(t *testing.T) {
	deps := func(src string) (map[string][]byte, []string) {
		files, err := Generate(compile(t, "p.thund", []byte(src)), Options{SourceFile: "p.thund"})
		if err != nil {
			t.Fatal(err)
		}
		cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", ".")
		cmd.Dir = moduleDir(t, files)
		cmd.Env = append(os.Environ(), "GOWORK=off", "GOFLAGS=-mod=readonly")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("go list -deps: %v\n%s", err, out)
		}
		return files, strings.Fields(string(out))
	}
	has := func(pkgs []string, prefix string) bool {
		return slices.ContainsFunc(pkgs, func(p string) bool { return strings.HasPrefix(p, prefix) })
	}
	const franz, rtKafka = "github.com/twmb/franz-go/", "github.com/nordisk/thund/rt/kafka"

	files, pkgs := deps("pipeline p\nsource t from csv \"t/*.csv\" { n int64 }\nmaterialized view v = from t | where n > 1\n")
	if has(pkgs, franz) || has(pkgs, rtKafka) {
		t.Errorf("without Kafka the program imports franz-go or rt/kafka:\n%s", strings.Join(pkgs, "\n"))
	}
	if p := string(files["pipeline.go"]); strings.Contains(p, "Kafka") || strings.Contains(p, "rt/kafka") {
		t.Errorf("pipeline.go without Kafka:\n%s", p)
	}

	cmd := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./cmd/thundc")
	cmd.Dir = ".."
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps ./cmd/thundc: %v\n%s", err, out)
	}
	thundc := strings.Fields(string(out))
	for name, src := range map[string]string{
		"source": `pipeline p
source k stream from kafka options ("bootstrapServers" = "h:1", "subscribe" = "t") { }
streaming table v = from stream k | select cast(value as string) as v
`,
		"sink": `pipeline p
source t stream from csv "t/*.csv" { n int64 }
sink out (value string) format kafka options ("kafka.bootstrap.servers" = "h:1", "topic" = "t")
flow f into out = from stream t | select cast(n as string) as value
`,
	} {
		files, pkgs := deps(src)
		if !has(pkgs, franz+"pkg/kgo") || !has(pkgs, rtKafka) {
			t.Errorf("%s: with Kafka the program does not import rt/kafka and franz-go's kgo:\n%s", name, strings.Join(pkgs, "\n"))
		}
		if p := strings.Join(strings.Fields(string(files["pipeline.go"])), " "); !strings.Contains(p, "Kafka: kafka.New(),") {
			t.Errorf("%s: pipeline.go does not set Kafka:\n%s", name, files["pipeline.go"])
		}
		for _, p := range pkgs {
			if !strings.HasPrefix(p, "github.com/nordisk/thund/rt") && p != gobuild.ProgramModule && !strings.HasPrefix(p, gobuild.ProgramModule+"/") && !slices.Contains(thundc, p) {
				t.Errorf("%s: the program imports %s, which thundc does not: the first build after installing thundc compiles it (add it to deps.go)", name, p)
			}
		}
	}
}

// TestScanBoundsPrinted checks that codegen prints the plan's scan bounds
// (passes.TestScanBounds checks the plan) into the reader call.
func TestScanBoundsPrinted(t *testing.T) {
	src := []byte(`pipeline p

source t from parquet "t/*.parquet" {
  n int64 not null, m int32, s string, u string
}

materialized view v =
  from t
  | where n > 5 and 's' = u
  | select n, s
`)
	flow := string(generate(t, "p.thund", src)["flow_v/flow.go"])
	i := strings.Index(flow, "fc.ReadPruned(")
	if i < 0 {
		t.Fatalf("the scan has no bounds:\n%s", flow)
	}
	call := flow[i:]
	call = strings.Join(strings.Fields(call[:strings.Index(call, "\n\tif err != nil")]), " ")
	want := `fc.ReadPruned("t", []format.Bound{{ Col: 0, Op: ">", Value: int64(5), }, { Col: 3, Op: "=", Text: "s", }}, 0, 2, 3)`
	if call != want {
		t.Errorf("reader call:\n%s\nwant:\n%s", call, want)
	}
}

// TestMemoizedGroups checks which aggregates over a join look their group
// up once per build row (memoGroup): those whose keys are all columns of
// the build row, and no others. The results themselves are checked against
// DuckDB by conformance's join_*then_agg views.
func TestMemoizedGroups(t *testing.T) {
	src := []byte(`pipeline p

source f from parquet "f/*.parquet" { k int64, s string, v int64 }
source d from parquet "d/*.parquet" { dk int64, ds string, name string }

materialized view by_dim = from f | join d on f.k = d.dk | group by d.ds, d.name aggregate count(*) as n
materialized view by_dim_left = from f | left join d on f.k = d.dk | group by d.name aggregate sum(v) as sv
materialized view by_dim_right = from f | right join d on f.k = d.dk | group by d.name aggregate count(*) as n
materialized view by_mixed = from f | join d on f.k = d.dk | group by f.s, d.name aggregate count(*) as n
materialized view by_expr = from f | join d on f.k = d.dk | group by upper(d.name) as u aggregate count(*) as n
materialized view by_fact = from f | join d on f.k = d.dk | group by f.s aggregate count(*) as n
`)
	files := generate(t, "p.thund", src)
	for view, want := range map[string]bool{
		"by_dim": true, "by_dim_left": true, "by_dim_right": true,
		"by_mixed": false, "by_expr": false, "by_fact": false,
	} {
		flow := string(files["flow_"+view+"/flow.go"])
		if flow == "" {
			t.Fatalf("no flow_%s/flow.go", view)
		}
		if got := strings.Contains(flow, "var memo"); got != want {
			t.Errorf("%s: memoized groups %v, want %v:\n%s", view, got, want, flow)
		}
	}
}

// TestDeferredAccumulators checks which hash aggregates update their
// groups in a second loop per batch (deferAccum): those over a scan's rows
// (through filters and projections) whose accumulators read the scan's
// columns, not those over a join's, nor those that would compute an
// argument again.
func TestDeferredAccumulators(t *testing.T) {
	src := []byte(`pipeline p

source f from parquet "f/*.parquet" { k int64, s string, v int64 }
source d from parquet "d/*.parquet" { dk int64, ds string }

materialized view by_k = from f | where v > 0 | select k, v, upper(s) as u | group by k aggregate sum(v) as sv, count(*) as n
materialized view computed = from f | select k, v * 2 as w | group by k aggregate sum(w) as sw
materialized view total = from f | aggregate sum(v) as sv
materialized view joined = from f | join d on f.k = d.dk | group by f.s aggregate sum(v) as sv
`)
	files := generate(t, "p.thund", src)
	for view, want := range map[string]bool{"by_k": true, "computed": false, "total": false, "joined": false} {
		flow := string(files["flow_"+view+"/flow.go"])
		if got := strings.Contains(flow, "rowsOf"); got != want {
			t.Errorf("%s: deferred accumulators %v, want %v:\n%s", view, got, want, flow)
		}
	}
}

// TestTopNFirstKeyBar checks which top-Ns drop a row on its first key
// alone (barComparable): an integer or string key never NULL, in either
// direction, not a float nor a nullable one. conformance's order by views
// check the results against DuckDB.
func TestTopNFirstKeyBar(t *testing.T) {
	src := []byte(`pipeline p

source f from parquet "f/*.parquet" { k int64 not null, s string not null, x float64 not null, n int64 }

materialized view desc_int = from f | order by k desc, s | limit 5
materialized view asc_str = from f | order by s, k | limit 5
materialized view by_float = from f | order by x desc | limit 5
materialized view by_nullable = from f | order by n | limit 5
materialized view no_limit = from f | order by k desc
`)
	files := generate(t, "p.thund", src)
	for view, want := range map[string]string{
		"desc_int": " < bar", "asc_str": " > bar", "by_float": "", "by_nullable": "", "no_limit": "",
	} {
		flow := string(files["flow_"+view+"/flow.go"])
		got := ""
		for _, op := range []string{" < bar", " > bar"} {
			if strings.Contains(flow, op) {
				got = op
			}
		}
		if got != want {
			t.Errorf("%s: first-key test %q, want %q:\n%s", view, got, want, flow)
		}
	}
}

// TestMemoryAccounted checks that every operator that keeps rows accounts
// them against --memory-limit (a memAccount: fc.Grow named after the
// operator and its position): distinct, union (its distinct), top-N
// (serial and on the workers), beside the join build and the group by; an
// order by and a window spill past it instead (fc.SpillFile, named the
// same way); and that a plain scan accounts nothing.
func TestMemoryAccounted(t *testing.T) {
	src := []byte(`pipeline p

source f from parquet "f/*.parquet" { k int64 not null, s string, v int64 }
source d from parquet "d/*.parquet" { dk int64, ds string }

materialized view dist = from f | select k, s | distinct
materialized view uni = from f | select k as dk | union (from d | select dk) as d2
materialized view sorted = from f | order by s, k
materialized view top = from f | order by k desc | limit 5
materialized view joined = from f | join d on f.k = d.dk | select k, ds
materialized view grouped = from f | group by s aggregate sum(v) as sv
materialized view plain = from f | where v > 0 | select k, v
materialized view windowed = from f | select k, row_number() over (partition by s order by k) as rn
`)
	files := generate(t, "p.thund", src)
	// the operators that spill ask fc.TryGrow, and name themselves in
	// their spill partitions
	for view, want := range map[string]string{
		"dist":     `fc.SpillPartitions("distinct at p.thund:6:`,
		"uni":      `fc.SpillPartitions("union at p.thund:7:`,
		"sorted":   `fc.SpillFile("order by at p.thund:8:`,
		"top":      `fc.Grow("order by at p.thund:9:`,
		"joined":   `fc.SpillPartitions("join at p.thund:10:`,
		"grouped":  `fc.SpillPartitions("group by at p.thund:11:`,
		"plain":    "",
		"windowed": `fc.SpillFile("window at p.thund:13:`,
	} {
		flow := string(files["flow_"+view+"/flow.go"])
		if flow == "" {
			t.Fatalf("no flow_%s/flow.go", view)
		}
		if want == "" {
			if strings.Contains(flow, "fc.Grow(") || strings.Contains(flow, "fc.TryGrow(") {
				t.Errorf("%s: accounts memory, want none:\n%s", view, flow)
			}
			continue
		}
		if !strings.Contains(flow, want) {
			t.Errorf("%s: no %s...:\n%s", view, want, flow)
		}
		if strings.Contains(want, "SpillPartitions") && !strings.Contains(flow, "fc.TryGrow(") {
			t.Errorf("%s: spills without fc.TryGrow:\n%s", view, flow)
		}
	}
	if top := string(files["flow_top/flow.go"]); !strings.Contains(top, "(its top 5 rows)") {
		t.Errorf("top: the account does not name its top 5 rows:\n%s", top)
	}
}

// TestStreamStateAccounted checks that a stream's windowed aggregate and a
// join of two streams account the state they hold (fc.Hold, which gives
// back what eviction frees).
func TestStreamStateAccounted(t *testing.T) {
	src := []byte(`pipeline p

source bids stream from parquet "bids/*.parquet" {
  auction int64, bidder int64, price int64, t timestamp(us, "UTC")
  watermark t delay 5s
}
source people stream from parquet "people/*.parquet" {
  id int64, name string, t timestamp(us, "UTC")
  watermark t delay 5s
}

streaming table per_window = from stream bids | window tumble(t, 10s) | group by auction, window_start aggregate count(*) as n
streaming table joined = from stream people as p | join stream bids as b on p.id = b.bidder and b.t between p.t and p.t + 10s | select p.id, b.price
`)
	files := generate(t, "p.thund", src)
	for view, want := range map[string]string{
		"per_window": `fc.Hold("group by at p.thund:12:`,
		"joined":     `fc.Hold("join at p.thund:13:`,
	} {
		if flow := string(files["flow_"+view+"/flow.go"]); !strings.Contains(flow, want) {
			t.Errorf("%s: no %s...:\n%s", view, want, flow)
		}
	}
}

// TestNativeCastsAgree holds the plan's table of native casts
// (passes.NativeCast) to codegen: every cast between the model's types that
// the table accepts generates (no internal error), and every one it does
// not is refused by the plan pass, with its position.
func TestNativeCastsAgree(t *testing.T) {
	types := []ir.Type{ir.Bool, ir.Int8, ir.Int16, ir.Int32, ir.Int64, ir.Uint8, ir.Uint16, ir.Uint32, ir.Uint64,
		ir.Float32, ir.Float64, ir.Decimal(10, 2), ir.Decimal(30, 0), ir.StringT, ir.Date32, ir.BinaryT,
		ir.Timestamp(ir.Milli, ""), ir.Timestamp(ir.Micro, "UTC"), ir.DurationType(ir.Milli)}
	var cols, views []string
	for i, from := range types {
		cols = append(cols, fmt.Sprintf("c%d %s", i, from))
	}
	accepted, refused := 0, 0
	for i, from := range types {
		for _, to := range types {
			p, _ := dsl.Parse("c.thund", []byte(fmt.Sprintf("source s from parquet \"s/*.parquet\" { c %s }\nmaterialized view v = from s | select cast(c as %s) as x\n", from, to)))
			if p == nil {
				t.Fatalf("cast(%s as %s) does not parse", from, to)
			}
			u, _ := passes.Run(p, passes.Options{StopAfter: "fuse"})
			if u.Diags.HasErrors() {
				continue // resolve refuses it (Spark's ANSI cast rules)
			}
			if passes.NativeCast(from, to) {
				accepted++
				views = append(views, fmt.Sprintf("materialized view v%d = from s | select cast(c%d as %s) as x", len(views), i, to))
			} else {
				refused++
				u, _ := passes.Run(p, passes.Options{})
				if want := fmt.Sprintf("native backend: cast from %s to %s is not supported yet", from, to); !strings.Contains(u.Diags.Error(), want) {
					t.Errorf("cast(%s as %s): the plan does not refuse it:\n%s", from, to, u.Diags.Error())
				}
			}
		}
	}
	if accepted == 0 || refused == 0 {
		t.Fatalf("%d casts accepted, %d refused: the table must do both", accepted, refused)
	}
	src := fmt.Sprintf("source s from parquet \"s/*.parquet\" { %s }\n%s\n", strings.Join(cols, ", "), strings.Join(views, "\n"))
	u := compile(t, "casts.thund", []byte(src))
	if _, err := Generate(u, Options{SourceFile: "casts.thund"}); err != nil {
		t.Fatalf("the %d casts the plan accepts do not all generate: %v", accepted, err)
	}
}
