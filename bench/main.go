// Command bench runs Þund's batch workloads side by side with DuckDB.
//
// It generates Nexmark-like Parquet input once (bids, a 100K-row people
// dimension and an auctions table a quarter the size of bids), builds
// workloads/bench.thund and the SQL project workloads/sql (the same
// queries) with a thundc built from this checkout, then runs each workload
// through the thundc-built executables and through DuckDB
// (duckdb-go, in a child process: this binary re-executed in worker mode, so
// that both engines' peak RSS is the child's rusage), at each thread count,
// on the same files, both writing Parquet with Snappy. It checks that every
// run's result equals DuckDB's as a multiset and prints the median time,
// rows/s, the thund/DuckDB throughput ratio and peak RSS.
//
//	go -C bench run . -rows 10000000 -runs 3
//
// With -kafka BROKERS it measures ingestion instead (kafka.go): the same
// JSON events from a Kafka topic and from JSON-lines files into a streaming
// table, beside DuckDB's read_json of the files.
//
// See README.md beside this file for the workloads and the flags.
package main

import (
	"bytes"
	"context"
	"database/sql"
	"encoding/json"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"time"

	_ "github.com/duckdb/duckdb-go/v2"
)

// workload is one query, spelled for each engine: a materialized view of
// the same name in workloads/bench.thund and in the SQL project
// workloads/sql, and a DuckDB query.
type workload struct {
	name  string
	about string
	duck  string // the same query for DuckDB
	// memLimit: run both engines with the harness's --memory-limit;
	// winLimit: with its -window-memory-limit, when given
	memLimit, winLimit bool
	// views are the DuckDB views the query reads (default duckViews)
	views []string
	// gb: the group-by-keys workload, over its own input (-gb-keys rows,
	// generateKeys) under its own limit (-gb-memory-limit); it runs only
	// when -w names it
	gb bool
	// variant: run only when named in -w or with -variants
	variant bool
}

// w2Aggs and w4Aggs are the aggregates of the W2 and W4 shapes in DuckDB,
// of the price column they are given.
func w2Aggs(price string) string {
	return fmt.Sprintf("count(*) AS n, CAST(sum(%[1]s) AS BIGINT) AS total, min(%[1]s) AS lo, max(%[1]s) AS hi, avg(%[1]s) AS mean", price)
}

func w4Aggs(price string) string {
	return fmt.Sprintf("count(*) AS n, CAST(sum(%[1]s) AS BIGINT) AS total, max(%[1]s) AS hi", price)
}

var workloads = []workload{
	{name: "w1", about: "filter + project to Parquet",
		duck: `SELECT auction, bidder, price, date_time FROM bids WHERE price > 5000000 AND channel = 'apple'`},
	{name: "w2", about: "group by ~100K keys: count/sum/min/max/avg",
		duck: `SELECT auction, ` + w2Aggs("price") + ` FROM bids GROUP BY auction`},
	{name: "w3", about: "order by + limit 100",
		duck: `SELECT auction, bidder, price, date_time FROM bids ORDER BY price DESC, auction, bidder, date_time LIMIT 100`},
	{name: "w4", about: "hash join with the 100K people, then aggregate by a string column of the dimension",
		duck: `SELECT p.state, ` + w4Aggs("b.price") + ` FROM bids b JOIN people p ON b.bidder = p.id GROUP BY p.state`},
	{name: "w6", about: "join whose build side exceeds --memory-limit", memLimit: true,
		duck: `SELECT a.category, count(*) AS n, CAST(sum(b.price) AS BIGINT) AS total, max(a.item_name) AS top_item
			FROM bids b JOIN auctions a ON b.auction = a.id GROUP BY a.category`},
	{name: "gb50m", about: "group by 50M distinct int64 keys: count, sum (spills past --memory-limit)", gb: true,
		views: []string{`CREATE VIEW gb AS SELECT * FROM read_parquet('data/gb/*.parquet')`},
		duck:  `SELECT k, count(*) AS n, CAST(sum(v) AS BIGINT) AS total FROM gb GROUP BY k`},
	// window functions (wnative)
	{name: "w7", about: "dedup: row_number() per auction by date_time desc, rn = 1", winLimit: true,
		duck: `SELECT auction, bidder, price, date_time, CAST(rn AS INTEGER) AS rn FROM (
			SELECT auction, bidder, price, date_time, row_number() OVER (PARTITION BY auction ORDER BY date_time DESC) AS rn FROM bids)
			WHERE rn = 1`},
	{name: "w8", about: "running sum(price) per auction by date_time", winLimit: true,
		duck: `SELECT auction, date_time, price,
			CAST(sum(price) OVER (PARTITION BY auction ORDER BY date_time ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW) AS BIGINT) AS running
			FROM bids`},
	// the variants: W2 and W4 with keys of other types, nullable columns
	// with and without NULLs, dimensions of 2 and 20 columns
	{name: "w2s", variant: true, about: "W2 by a string key",
		duck: `SELECT auction_s, ` + w2Aggs("price") + ` FROM bids GROUP BY auction_s`},
	{name: "w2d", variant: true, about: "W2 by a date key",
		duck: `SELECT auction_d, ` + w2Aggs("price") + ` FROM bids GROUP BY auction_d`},
	{name: "w2n", variant: true, about: "W2 over nullable columns without NULLs",
		duck: `SELECT auction, ` + w2Aggs("price") + ` FROM bids GROUP BY auction`},
	{name: "w2nn", variant: true, about: "W2 over nullable columns with 2% NULLs (key and values)",
		duck: `SELECT auction_n, ` + w2Aggs("price_n") + ` FROM bids GROUP BY auction_n`},
	{name: "w4i", variant: true, about: "W4 grouped by an integer column of the dimension",
		duck: `SELECT p.state_id, ` + w4Aggs("b.price") + ` FROM bids b JOIN people p ON b.bidder = p.id GROUP BY p.state_id`},
	{name: "w4d", variant: true, about: "W4 grouped by a date column of the dimension",
		duck: `SELECT p.joined, ` + w4Aggs("b.price") + ` FROM bids b JOIN people p ON b.bidder = p.id GROUP BY p.joined`},
	{name: "w4n", variant: true, about: "W4i over nullable columns without NULLs",
		duck: `SELECT p.state_id, ` + w4Aggs("b.price") + ` FROM bids b JOIN people p ON b.bidder = p.id GROUP BY p.state_id`},
	{name: "w4nn", variant: true, about: "W4i over nullable columns with 2% NULLs (join key, group key, values)",
		duck: `SELECT p.state_id_n, ` + w4Aggs("b.price_n") + ` FROM bids b JOIN people p ON b.bidder_n = p.id GROUP BY p.state_id_n`},
	{name: "w4v", variant: true, about: "W4i with a projection between the join and the aggregate (a view of the join)",
		duck: `SELECT p.state_id AS sid, ` + w4Aggs("b.price") + ` FROM bids b JOIN people p ON b.bidder = p.id GROUP BY p.state_id`},
	{name: "w4f", variant: true, about: "W4i with a dimension of 2 columns",
		duck: `SELECT p.state_id, ` + w4Aggs("b.price") + ` FROM bids b JOIN people2 p ON b.bidder = p.id GROUP BY p.state_id`},
	{name: "w4w", variant: true, about: "W4i with a dimension of 20 columns",
		duck: `SELECT p.state_id, ` + w4Aggs("b.price") + ` FROM bids b JOIN people20 p ON b.bidder = p.id GROUP BY p.state_id`},
}

// duckViews are the sources as DuckDB sees them: the same files.
var duckViews = []string{
	`CREATE VIEW bids AS SELECT * FROM read_parquet('data/bids/*.parquet')`,
	`CREATE VIEW people AS SELECT * FROM read_parquet('data/people/*.parquet')`,
	`CREATE VIEW auctions AS SELECT * FROM read_parquet('data/auctions/*.parquet')`,
	`CREATE VIEW people2 AS SELECT * FROM read_parquet('data/people2/*.parquet')`,
	`CREATE VIEW people20 AS SELECT * FROM read_parquet('data/people20/*.parquet')`,
}

// forms are the thund forms of the workloads -form chooses from: the
// engine's name in the report, and how its executable is built.
var forms = []string{"thund", "sql"}

type config struct {
	rows       int64
	runs       int
	threads    []int
	only       []string
	variants   bool
	forms      []string
	dir        string
	memLimit   string
	winLimit   string // W7's and W8's memory limit; empty: none
	keep       bool
	buildTimes bool
	out        string
	nexmark    int64 // Nexmark events; 0: no Nexmark queries
	stateMem   bool
	kafka      string // brokers of the Kafka ingestion bench; empty: none
	events     int64  // the Kafka ingestion bench's events
	profile    string // the Kafka path's CPU profile, FILE-tN.pprof; empty: none
	gbKeys     int64  // gb50m's rows (each its own key)
	gbMemLimit string // gb50m's --memory-limit for both engines; "none": no limit
}

func main() {
	if len(os.Args) > 1 && os.Args[1] == workerMode {
		os.Exit(duckWorker(os.Args[2:]))
	}
	var c config
	var threads, only, form string
	flag.Int64Var(&c.rows, "rows", 200_000, "bids rows to generate")
	flag.IntVar(&c.runs, "runs", 1, "runs per engine, workload and thread count (the median is reported)")
	flag.StringVar(&threads, "threads", "1,2", "thread counts, comma-separated")
	flag.StringVar(&only, "w", "", "workloads to run, comma-separated (default all but the variants)")
	flag.BoolVar(&c.variants, "variants", false, "also run the variants (w2s, w2d, w2n, w2nn, w4i, w4d, w4n, w4nn, w4v, w4f, w4w)")
	flag.StringVar(&form, "form", "thund,sql", "the thund forms of each workload, comma-separated: thund (workloads/bench.thund), sql (the SQL project workloads/sql)")
	flag.StringVar(&c.dir, "dir", "", "work folder; the generated data is kept and reused there (default: a temporary folder)")
	flag.StringVar(&c.memLimit, "memory-limit", "", "the W6 memory limit for both engines (default: about a third of the auctions build side)")
	flag.StringVar(&c.winLimit, "window-memory-limit", "", "the W7 and W8 memory limit for both engines (default: none)")
	flag.StringVar(&c.out, "o", "", "also write the report to this file")
	flag.BoolVar(&c.keep, "keep", false, "keep the temporary work folder")
	flag.Int64Var(&c.nexmark, "nexmark", 0, "also run the Nexmark queries of examples/nexmark over this many generated events (0: none)")
	flag.BoolVar(&c.stateMem, "state-memory", false, "also report rt/stream's window-state memory per key (BenchmarkStateMemory)")
	flag.StringVar(&c.kafka, "kafka", "", "run only the Kafka ingestion bench against these brokers (host:port, comma-separated), unless -w or -nexmark names more")
	flag.Int64Var(&c.events, "events", 1_000_000, "the Kafka ingestion bench's events")
	flag.StringVar(&c.profile, "kafka-profile", "", "write a CPU profile of the Kafka path's first run per thread count to FILE-tN.pprof")
	flag.Int64Var(&c.gbKeys, "gb-keys", 50_000_000, "gb50m's rows, each with its own key")
	flag.StringVar(&c.gbMemLimit, "gb-memory-limit", "256MiB", `gb50m's --memory-limit for both engines ("none": no limit)`)
	flag.BoolVar(&c.buildTimes, "build-times", false, "also time a second thundc build with an empty executable cache (a warm go build cache)")
	flag.Parse()
	for _, s := range strings.Split(threads, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(s))
		if err != nil || n < 1 {
			fatalf("-threads %q: want positive numbers", threads)
		}
		c.threads = append(c.threads, n)
	}
	if only != "" {
		c.only = strings.Split(only, ",")
	}
	for _, f := range strings.Split(form, ",") {
		f = strings.TrimSpace(f)
		if !slices.Contains(forms, f) || slices.Contains(c.forms, f) {
			fatalf("-form %q: want some of %s, each once", form, strings.Join(forms, ","))
		}
		c.forms = append(c.forms, f)
	}
	if c.runs < 1 || c.rows < 1000 || c.events < 1000 {
		fatalf("-runs must be ≥ 1, -rows and -events ≥ 1000")
	}
	if c.profile != "" {
		p, err := filepath.Abs(c.profile)
		if err != nil {
			fatalf("%v", err)
		}
		c.profile = p
	}
	if err := benchmark(c); err != nil {
		fatalf("%v", err)
	}
}

func fatalf(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "bench: "+format+"\n", args...)
	os.Exit(1)
}

// result is one run of one workload by one engine.
type result struct {
	secs   float64 // wall time
	cpu    float64 // user + system time
	maxRSS int64   // bytes
	err    string
}

type cell struct {
	engine  string
	threads int
	runs    []result
}

// selected reports whether w runs: named in -w, or, with no -w, any
// workload but the variants unless -variants, and but gb50m.
func (c config) selected(w workload) bool {
	if len(c.only) > 0 {
		return slices.Contains(c.only, w.name)
	}
	return c.kafka == "" && (!w.variant || c.variants) && !w.gb // gb50m only when -w names it
}

func benchmark(c config) error {
	start := time.Now()
	dir := c.dir
	if dir == "" {
		d, err := os.MkdirTemp("", "thund-bench-")
		if err != nil {
			return err
		}
		dir = d
		if !c.keep {
			defer os.RemoveAll(dir)
		} else {
			defer fmt.Fprintf(os.Stderr, "bench: kept %s\n", dir)
		}
	}
	dir, _ = filepath.Abs(dir)
	root := filepath.Join(dir, "rows-"+strconv.FormatInt(c.rows, 10))
	batch := slices.ContainsFunc(workloads, c.selected)
	if batch {
		// every run checks the pipeline's sources: gb50m's too reads
		// where the bids are
		if err := generate(root, c.rows); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
	}
	if slices.ContainsFunc(workloads, func(w workload) bool { return c.selected(w) && w.gb }) {
		if err := generateKeys(root, c.gbKeys); err != nil {
			return fmt.Errorf("generate: %w", err)
		}
	}
	genTime := time.Since(start)
	etl, buildTimes, err := buildETL(dir, c.buildTimes)
	if err != nil {
		return err
	}
	// the executable of each form
	etls := map[string]string{"thund": etl}
	if batch && slices.Contains(c.forms, "sql") {
		start := time.Now()
		if etls["sql"], err = buildSQL(dir, root); err != nil {
			return err
		}
		buildTimes += fmt.Sprintf(", SQL project built in %v", time.Since(start).Round(10*time.Millisecond))
	}
	if c.memLimit == "" {
		c.memLimit = defaultMemLimit(c.rows)
	}

	var rep bytes.Buffer
	if batch {
		fmt.Fprintf(&rep, "thund bench: %d bids, %d people, %d auctions; ", c.rows, peopleRows, auctionRows(c.rows))
	} else {
		fmt.Fprintf(&rep, "thund bench: ")
	}
	fmt.Fprintf(&rep, "%d run(s) per cell, median; GOMAXPROCS %d, %d CPUs; %s\n",
		c.runs, runtime.GOMAXPROCS(0), runtime.NumCPU(), time.Now().UTC().Format(time.RFC3339))
	fmt.Fprintf(&rep, "data generated in %v; %s\n", genTime.Round(time.Millisecond), buildTimes)
	if batch {
		fmt.Fprintf(&rep, "%-4s %-6s %3s %9s %12s %9s %10s %9s %9s  %s\n", "", "engine", "thr", "median s", "rows/s", "peak MiB", "thund/duck", "cpu s", "cpu t/d", "check")
	}
	failed := false
	for _, w := range workloads {
		if !c.selected(w) {
			continue
		}
		fmt.Fprintf(&rep, "%s: %s", w.name, w.about)
		if l := c.limitOf(w); l != "" {
			fmt.Fprintf(&rep, " (--memory-limit %s)", l)
		}
		fmt.Fprintln(&rep)
		for _, th := range c.threads {
			failed = benchCell(&rep, c, dir, root, etls, w, th) || failed
		}
		os.Stdout.Write(rep.Bytes())
		if c.out != "" {
			appendFile(c.out, rep.Bytes())
		}
		rep.Reset()
	}
	if c.nexmark > 0 {
		nfailed, err := benchNexmark(c, dir, &rep)
		if err != nil {
			return err
		}
		failed = failed || nfailed
	}
	if c.kafka != "" {
		kfailed, err := benchKafka(c, dir, &rep)
		if err != nil {
			return err
		}
		failed = failed || kfailed
	}
	if c.stateMem {
		lines, err := stateMemory()
		if err != nil {
			return err
		}
		fmt.Fprintf(&rep, "\nwindow state held per key as the key count grows (rt/stream BenchmarkStateMemory: one tumbling window, a count accumulator):\n%s\n", lines)
	}
	fmt.Fprintf(&rep, "total %v\n", time.Since(start).Round(time.Second))
	os.Stdout.Write(rep.Bytes())
	if c.out != "" {
		appendFile(c.out, rep.Bytes())
	}
	if failed {
		return errors.New("some results differ from DuckDB's, or a Kafka ingestion run failed (see the report)")
	}
	return nil
}

// benchCell runs one workload at one thread count through DuckDB and each
// form of thund, alternating the engines run by run (so that noise from
// the machine's other users falls on all), writes their rows to rep, and
// reports whether a form's result differs from DuckDB's.
func benchCell(rep *bytes.Buffer, c config, dir, root string, etls map[string]string, w workload, th int) (differ bool) {
	duck := cell{engine: "duckdb", threads: th}
	var thund []cell
	for _, f := range c.forms {
		thund = append(thund, cell{engine: f, threads: th})
	}
	duckOut := filepath.Join(dir, fmt.Sprintf("duck-%s-t%d.parquet", w.name, th))
	whs := make([]string, len(thund)) // each form's first warehouse, kept for the check
	for i := range c.runs {
		out := duckOut
		if i > 0 {
			out = filepath.Join(dir, fmt.Sprintf("duck-%s-t%d-%d.parquet", w.name, th, i))
		}
		duck.runs = append(duck.runs, runDuck(root, w, th, c.limitOf(w), out))
		if i > 0 {
			os.Remove(out)
		}
		for k := range thund {
			wh := filepath.Join(dir, fmt.Sprintf("wh-%s-%s-t%d-%d", thund[k].engine, w.name, th, i))
			thund[k].runs = append(thund[k].runs, runThund(etls[thund[k].engine], root, wh, w, th, c.limitOf(w)))
			if i == 0 {
				whs[k] = wh
			} else {
				os.RemoveAll(wh)
			}
		}
	}
	rows := c.rows
	if w.gb {
		rows = c.gbKeys
	}
	row(rep, rows, duck, nil, "")
	for k, t := range thund {
		check, d := compareCells(duck, t, duckOut, filepath.Join(whs[k], w.name, "*", "*.parquet"))
		differ = differ || d
		row(rep, rows, t, &duck, check)
		os.RemoveAll(whs[k])
	}
	os.Remove(duckOut)
	return differ
}

func appendFile(name string, b []byte) {
	f, err := os.OpenFile(name, os.O_CREATE|os.O_APPEND|os.O_WRONLY, 0o644)
	if err != nil {
		fatalf("%v", err)
	}
	f.Write(b)
	f.Close()
}

// compareCells is a cell pair's check column: "equal", "DIFFERENT: why"
// (differ), or "-" when an engine failed and there is nothing to compare.
func compareCells(duck, thund cell, duckOut, thundOut string) (check string, differ bool) {
	if !duck.ok() || !thund.ok() {
		return "-", false
	}
	if err := sameMultiset(duckOut, thundOut); err != nil {
		return "DIFFERENT: " + err.Error(), true
	}
	return "equal", false
}

func (c cell) ok() bool {
	for _, r := range c.runs {
		if r.err != "" {
			return false
		}
	}
	return true
}

// median is the median run's wall and CPU time and the largest peak RSS.
func (c cell) median() (secs, cpu float64, rss int64) {
	var ts, cs []float64
	for _, r := range c.runs {
		ts = append(ts, r.secs)
		cs = append(cs, r.cpu)
		rss = max(rss, r.maxRSS)
	}
	slices.Sort(ts)
	slices.Sort(cs)
	return ts[len(ts)/2], cs[len(cs)/2], rss
}

func row(w io.Writer, rows int64, c cell, base *cell, check string) {
	if !c.ok() {
		msg := ""
		for _, r := range c.runs {
			if r.err != "" {
				msg = r.err
				break
			}
		}
		fmt.Fprintf(w, "     %-6s %3d  failed: %s\n", c.engine, c.threads, msg)
		return
	}
	secs, cpu, rss := c.median()
	ratio, cpuRatio := "", ""
	if base != nil && base.ok() {
		bs, bc, _ := base.median()
		ratio = fmt.Sprintf("%.2fx", bs/secs)
		cpuRatio = fmt.Sprintf("%.2fx", bc/cpu)
	}
	fmt.Fprintf(w, "     %-6s %3d %9.3f %12.0f %9.1f %10s %9.3f %9s  %s\n", c.engine, c.threads, secs, float64(rows)/secs,
		float64(rss)/(1<<20), ratio, cpu, cpuRatio, check)
}

// limitOf is the memory limit a workload runs under ("": none).
func (c config) limitOf(w workload) string {
	switch {
	case w.memLimit:
		return c.memLimit
	case w.winLimit:
		return c.winLimit
	case w.gb && c.gbMemLimit != "none":
		return c.gbMemLimit
	}
	return ""
}

// runThund runs one workload through the executable in a fresh warehouse,
// under memLimit unless it is empty.
func runThund(etl, root, wh string, w workload, threads int, memLimit string) result {
	args := []string{"run", "--warehouse", wh, "--root", root, "--threads", strconv.Itoa(threads), "--select", w.name}
	if memLimit != "" {
		args = append(args, "--memory-limit", memLimit)
	}
	return child(exec.Command(etl, args...))
}

// runDuck runs one workload through DuckDB in a worker child process.
func runDuck(root string, w workload, threads int, memLimit, out string) result {
	self, err := os.Executable()
	if err != nil {
		return result{err: err.Error()}
	}
	spec := workerSpec{Root: root, Threads: threads, Query: w.duck, Out: out, Views: w.views}
	if memLimit != "" {
		spec.MemoryLimit = memLimit
	}
	b, _ := json.Marshal(spec)
	return child(exec.Command(self, workerMode, string(b)))
}

// child runs cmd and measures its wall time and peak RSS.
func child(cmd *exec.Cmd) result {
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	secs := time.Since(start).Seconds()
	var rss int64
	var cpu float64
	if cmd.ProcessState != nil {
		if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
			rss = ru.Maxrss * 1024 // KiB on Linux
			cpu = time.Duration(syscall.TimevalToNsec(ru.Utime) + syscall.TimevalToNsec(ru.Stime)).Seconds()
		}
	}
	if err != nil {
		return result{secs: secs, cpu: cpu, maxRSS: rss, err: fmt.Sprintf("%v: %s", err, errorLine(stderr.String()))}
	}
	return result{secs: secs, cpu: cpu, maxRSS: rss}
}

// errorLine picks the line of a child's stderr that says what went wrong:
// the first that mentions an error, else the first.
func errorLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	for _, l := range lines {
		if strings.Contains(strings.ToLower(l), "error") {
			return strings.TrimSpace(l)
		}
	}
	return strings.TrimSpace(lines[0])
}

// sameMultiset compares two sets of Parquet files as multisets of rows
// (columns by position).
func sameMultiset(a, b string) error {
	return inWorker(workerSpec{Do: "compare", A: a, B: b})
}

// sameMultisetHere is sameMultiset, in a worker.
func sameMultisetHere(a, b string) error {
	db, err := sql.Open("duckdb", "")
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	// timestamps without a zone compare with thund's UTC ones in UTC
	if _, err := db.ExecContext(ctx, "SET TimeZone = 'UTC'"); err != nil {
		return err
	}
	q := fmt.Sprintf(`WITH a AS (SELECT * FROM read_parquet('%s')), b AS (SELECT * FROM read_parquet('%s'))
		SELECT (SELECT count(*) FROM a), (SELECT count(*) FROM b),
		       (SELECT count(*) FROM (SELECT * FROM a EXCEPT ALL SELECT * FROM b)),
		       (SELECT count(*) FROM (SELECT * FROM b EXCEPT ALL SELECT * FROM a))`, a, b)
	var na, nb, onlyA, onlyB int64
	if err := db.QueryRowContext(ctx, q).Scan(&na, &nb, &onlyA, &onlyB); err != nil {
		return err
	}
	if onlyA != 0 || onlyB != 0 {
		return fmt.Errorf("duckdb %d rows, thund %d; %d rows only in duckdb's, %d only in thund's", na, nb, onlyA, onlyB)
	}
	if na == 0 {
		return fmt.Errorf("both results are empty: the data tests nothing")
	}
	return nil
}

// buildSQL builds the SQL project workloads/sql with the thundc buildETL
// built, in root beside the data (its read_files infer their schemas from
// the files there, relative to the project's folder, as at run time).
func buildSQL(dir, root string) (string, error) {
	for _, f := range []string{"spark-pipeline.yml", "transformations"} {
		os.RemoveAll(filepath.Join(root, f))
	}
	if err := os.CopyFS(root, os.DirFS("workloads/sql")); err != nil {
		return "", err
	}
	etl := filepath.Join(dir, "etl-sql")
	cmd := exec.Command(filepath.Join(dir, "thundc"), "build", ".", "-o", etl)
	cmd.Dir = root
	cmd.Env = append(os.Environ(), "THUND_CACHE="+filepath.Join(os.TempDir(), "thund-bench-cache"), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("thundc build workloads/sql: %v\n%s", err, out)
	}
	return etl, nil
}

// buildETL builds thundc from this checkout, then the workloads with it; it
// reports how long the thundc build took (and, when twice, a second one
// with an empty executable cache: a warm go build cache).
func buildETL(dir string, twice bool) (string, string, error) {
	thundc := filepath.Join(dir, "thundc")
	cmd := exec.Command("go", "build", "-buildvcs=false", "-o", thundc, "./cmd/thundc")
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", "", fmt.Errorf("go build ./cmd/thundc: %v\n%s", err, out)
	}
	src, err := filepath.Abs("workloads/bench.thund")
	if err != nil {
		return "", "", err
	}
	etl := filepath.Join(dir, "etl")
	var times []string
	// the first build uses a cache that outlives the run (like the
	// conformance module's), so the runtime is compiled once per version
	caches := []string{filepath.Join(os.TempDir(), "thund-bench-cache")}
	if twice {
		caches = append(caches, filepath.Join(dir, "thund-cache-2"))
	}
	for i, cache := range caches {
		// the second build has an empty thundc cache: it measures a warm go
		// build cache, not the executable cache
		if i == 1 {
			os.RemoveAll(cache)
		}
		start := time.Now()
		cmd := exec.Command(thundc, "build", src, "-o", etl)
		cmd.Env = append(os.Environ(), "THUND_CACHE="+cache, "GOWORK=off")
		if out, err := cmd.CombinedOutput(); err != nil {
			return "", "", fmt.Errorf("thundc build: %v\n%s", err, out)
		}
		label := "thundc build"
		if i == 1 {
			label = "warm thundc build"
		}
		times = append(times, fmt.Sprintf("%s %v", label, time.Since(start).Round(10*time.Millisecond)))
		if i == 1 {
			os.RemoveAll(cache)
		}
	}
	return etl, strings.Join(times, ", "), nil
}
