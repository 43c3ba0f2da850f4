package main

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nordisk/thund/internal/nexmark"
)

// nexmarkQuery is one query of examples/nexmark, with its batch equivalent
// in DuckDB and the published Flink 1.13 per-core throughput (0: none
// published for it).
type nexmarkQuery struct {
	name   string // the query's name in -w and the report
	about  string
	target string // the dataset the query ends in (--select +target)
	flink  float64
}

// The DuckDB side is nexmark.DuckDBQueries' query of each target, spelled
// independently of thund over the generated files (the conformance module
// checks the example against the same queries on every CI run). q5 is
// standard q5: the hot items of each window (q5_hot in the example); q7
// includes its windowed max (q7_max).
var nexmarkQueries = []nexmarkQuery{
	{name: "q0", about: "pass-through", target: "q0", flink: 155_000},
	{name: "q1", about: "currency conversion", target: "q1", flink: 158_000},
	{name: "q2", about: "selection", target: "q2", flink: 175_000},
	{name: "q3", about: "stream-table join (local item suggestion)", target: "q3"},
	{name: "q5", about: "hot items (hopping windows 10s/2s, then the top auctions per window)", target: "q5_hot", flink: 22_000},
	{name: "q7", about: "highest bid (tumbling max joined back to the bids)", target: "q7", flink: 12_000},
	{name: "q8", about: "new users (same-window join of persons and auctions)", target: "q8"},
}

// nexmarkViews are the generated files as DuckDB sees them.
var nexmarkViews = []string{
	`SET TimeZone = 'UTC'`,
	`CREATE VIEW person AS SELECT * FROM read_parquet('data/person/*.parquet')`,
	`CREATE VIEW auction AS SELECT * FROM read_parquet('data/auction/*.parquet')`,
	`CREATE VIEW bid AS SELECT * FROM read_parquet('data/bid/*.parquet')`,
}

// generateNexmark writes events Nexmark events under root/data once, with
// the repository's generator (go run ./internal/nexmark/cmd/nexmarkgen: the
// example's documented data step), at its default rate of 10,000 events
// per second of event time and 2s of disorder.
func generateNexmark(root string, events int64) error {
	done := filepath.Join(root, "data", ".complete")
	if _, err := os.Stat(done); err == nil {
		return nil
	}
	os.RemoveAll(filepath.Join(root, "data"))
	per := max(events/20, 10_000)
	cmd := exec.Command("go", "run", "./internal/nexmark/cmd/nexmarkgen", "-events", strconv.FormatInt(events, 10),
		"-events-per-file", strconv.FormatInt(per, 10), "-out", filepath.Join(root, "data"))
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("nexmarkgen: %v\n%s", err, out)
	}
	return os.WriteFile(done, nil, 0o644)
}

var (
	createdName = regexp.MustCompile(`(?im)^CREATE\s+(?:STREAMING\s+TABLE|MATERIALIZED\s+VIEW)\s+([a-z0-9_]+)`)
	sqlDiagPos  = regexp.MustCompile(`transformations/([0-9a-z_]+\.sql):\d+:\d+: .*`)
)

// buildNexmark copies examples/nexmark's SQL project into dir with its
// sources bounded (the flows still read them as streams: a bounded replay,
// whose end closes every window, so the result is the batch result) and
// builds it; a file the build refuses is left out, and the datasets it
// declares are returned with the reason.
func buildNexmark(dir, thundc string) (etl string, refused map[string]string, err error) {
	src := filepath.Join("..", "examples", "nexmark")
	proj := filepath.Join(dir, "nexmark")
	os.RemoveAll(proj)
	if err := os.MkdirAll(filepath.Join(proj, "transformations"), 0o755); err != nil {
		return "", nil, err
	}
	yml, err := os.ReadFile(filepath.Join(src, "spark-pipeline.yml"))
	if err != nil {
		return "", nil, err
	}
	if err := os.WriteFile(filepath.Join(proj, "spark-pipeline.yml"), yml, 0o644); err != nil {
		return "", nil, err
	}
	files, _ := filepath.Glob(filepath.Join(src, "transformations", "*.sql"))
	text := map[string]string{}
	for _, f := range files {
		b, err := os.ReadFile(f)
		if err != nil {
			return "", nil, err
		}
		s := strings.ReplaceAll(string(b), "STREAM read_files(", "read_files(")
		text[filepath.Base(f)] = s
		if err := os.WriteFile(filepath.Join(proj, "transformations", filepath.Base(f)), []byte(s), 0o644); err != nil {
			return "", nil, err
		}
	}
	etl = filepath.Join(dir, "etl-nexmark")
	refused = map[string]string{}
	for {
		cmd := exec.Command(thundc, "build", ".", "-o", etl)
		cmd.Dir = proj
		cmd.Env = append(os.Environ(), "THUND_CACHE="+filepath.Join(os.TempDir(), "thund-bench-cache"), "GOWORK=off")
		out, err := cmd.CombinedOutput()
		if err == nil {
			return etl, refused, nil
		}
		culprits := map[string][]string{}
		for _, m := range sqlDiagPos.FindAllStringSubmatch(string(out), -1) {
			culprits[m[1]] = append(culprits[m[1]], strings.TrimSpace(m[0]))
		}
		if len(culprits) == 0 || culprits["1_sources.sql"] != nil {
			return "", nil, fmt.Errorf("thundc build examples/nexmark: %v\n%s", err, out)
		}
		for f, why := range culprits {
			for _, m := range createdName.FindAllStringSubmatch(text[f], -1) {
				refused[m[1]] = "not built: " + why[0]
			}
			if err := os.Remove(filepath.Join(proj, "transformations", f)); err != nil {
				return "", nil, err
			}
		}
	}
}

// benchNexmark runs the Nexmark queries through the example's executable
// and through DuckDB and reports events/s per core beside Flink 1.13's
// published per-core figures and the ×10 target.
func benchNexmark(c config, dir string, rep *bytes.Buffer) (failed bool, err error) {
	root := filepath.Join(dir, "nexmark-"+strconv.FormatInt(c.nexmark, 10))
	start := time.Now()
	if err := generateNexmark(root, c.nexmark); err != nil {
		return false, err
	}
	genTime := time.Since(start)
	start = time.Now()
	etl, refused, err := buildNexmark(dir, filepath.Join(dir, "thundc"))
	if err != nil {
		return false, err
	}
	fmt.Fprintf(rep, "\nNexmark: %d events (persons:auctions:bids 1:3:46), examples/nexmark as a bounded replay; data generated in %v, built in %v\n",
		c.nexmark, genTime.Round(time.Millisecond), time.Since(start).Round(10*time.Millisecond))
	fmt.Fprintf(rep, "ev/s counts every event of the stream (as Nexmark does); per core = events / the child's CPU seconds (user + system)\n")
	fmt.Fprintf(rep, "%-4s %-6s %3s %9s %12s %12s %9s %10s %9s %9s  %s\n", "", "engine", "thr", "median s", "ev/s", "ev/s/core", "peak MiB", "thund/duck", "cpu s", "cpu t/d", "check")
	for _, q := range nexmarkQueries {
		if len(c.only) > 0 && !slices.Contains(c.only, q.name) {
			continue
		}
		fmt.Fprintf(rep, "%s: %s", q.name, q.about)
		if q.flink > 0 {
			fmt.Fprintf(rep, " (Flink 1.13 floor %s ev/s/core, target ×10: %s)", si(q.flink), si(10*q.flink))
		} else {
			fmt.Fprintf(rep, " (no published Flink 1.13 figure)")
		}
		fmt.Fprintln(rep)
		if why, ok := refused[q.target]; ok {
			// a gap of the native backend, reported (conformance lists it as
			// a known failure), not a wrong result
			fmt.Fprintf(rep, "     thund  %s\n", why)
			continue
		}
		w := workload{name: q.name, duck: nexmark.DuckDBQuery(q.target), views: nexmarkViews}
		for _, th := range c.threads {
			duck := cell{engine: "duckdb", threads: th}
			thund := cell{engine: "thund", threads: th}
			var duckOut, thundOut string
			for i := range c.runs {
				out := filepath.Join(dir, fmt.Sprintf("duck-%s-t%d-%d.parquet", q.name, th, i))
				duck.runs = append(duck.runs, runDuck(root, w, th, "", out))
				if i == 0 {
					duckOut = out
				} else {
					os.Remove(out)
				}
				wh := filepath.Join(dir, fmt.Sprintf("wh-%s-t%d-%d", q.name, th, i))
				args := []string{"run", "--once", "--warehouse", wh, "--root", root, "--threads", strconv.Itoa(th), "--select", "+" + q.target}
				thund.runs = append(thund.runs, child(exec.Command(etl, args...)))
				if i == 0 {
					thundOut = filepath.Join(wh, q.target, "*", "*.parquet")
				} else {
					os.RemoveAll(wh)
				}
			}
			check, differ := compareCells(duck, thund, duckOut, thundOut)
			failed = failed || differ
			eventRow(rep, c.nexmark, duck, nil, "", 0)
			eventRow(rep, c.nexmark, thund, &duck, check, q.flink)
			os.Remove(duckOut)
			os.RemoveAll(filepath.Dir(filepath.Dir(filepath.Dir(thundOut))))
		}
	}
	return failed, nil
}

// eventRow is row for an event stream: events/s and events per CPU second,
// and for thund the ratio to Flink's per-core floor.
func eventRow(w *bytes.Buffer, events int64, c cell, base *cell, check string, flink float64) {
	if !c.ok() {
		row(w, events, c, base, check)
		return
	}
	secs, cpu, rss := c.median()
	ratio, cpuRatio := "", ""
	if base != nil && base.ok() {
		bs, bc, _ := base.median()
		ratio = fmt.Sprintf("%.2fx", bs/secs)
		cpuRatio = fmt.Sprintf("%.2fx", bc/cpu)
	}
	perCore := float64(events) / cpu
	fmt.Fprintf(w, "     %-6s %3d %9.3f %12.0f %12.0f %9.1f %10s %9.3f %9s  %s", c.engine, c.threads, secs, float64(events)/secs,
		perCore, float64(rss)/(1<<20), ratio, cpu, cpuRatio, check)
	if flink > 0 && base != nil {
		verdict := "below the x10 target"
		if perCore >= 10*flink {
			verdict = "meets the x10 target"
		}
		fmt.Fprintf(w, "; %.1fx Flink's floor, %s", perCore/flink, verdict)
	}
	fmt.Fprintln(w)
}

// si prints n as 155K or 1.55M.
func si(n float64) string {
	switch {
	case n >= 1e6:
		return strconv.FormatFloat(n/1e6, 'f', -1, 64) + "M"
	case n >= 1e3:
		return strconv.FormatFloat(n/1e3, 'f', -1, 64) + "K"
	}
	return strconv.FormatFloat(n, 'f', -1, 64)
}

// stateMemory runs rt/stream's BenchmarkStateMemory (the heap held by
// window state per key as the key count grows) and returns its lines.
func stateMemory() (string, error) {
	cmd := exec.Command("go", "test", "-run", "^$", "-bench", "BenchmarkStateMemory", "-benchtime", "1x", "./rt/stream")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GOWORK=off")
	out, err := cmd.CombinedOutput()
	if err != nil {
		return "", fmt.Errorf("go test -bench BenchmarkStateMemory ./rt/stream: %v\n%s", err, out)
	}
	var lines []string
	for _, l := range strings.Split(string(out), "\n") {
		if strings.HasPrefix(l, "Benchmark") {
			lines = append(lines, "  "+strings.Join(strings.Fields(l), " "))
		}
	}
	return strings.Join(lines, "\n"), nil
}
