package main

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"

	"github.com/nordisk/thund/sparkemit/sparktest"
)

const runPipeline = `pipeline quick

source sales from csv "data/sales.csv" { sale_id int64 not null, product string, quantity int32 }

materialized view clean_sales =
  from sales
  | where quantity > 0
  | select sale_id, product, quantity
`

func writePipeline(t *testing.T) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), "p.thund")
	if err := os.WriteFile(p, []byte(runPipeline), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

// TestSparkRun runs `thundc spark run` against the in-process Spark Connect
// server: a pipeline PATH, then a bundle emitted earlier, with the command
// result before and after the events.
func TestSparkRun(t *testing.T) {
	for _, first := range []bool{false, true} {
		s, err := sparktest.Start(&sparktest.Server{ResultFirst: first})
		if err != nil {
			t.Fatal(err)
		}
		defer s.Stop()
		path := writePipeline(t)
		var stdout, stderr bytes.Buffer
		st := run([]string{"spark", "run", path, "--remote", "sc://" + s.Addr + "/;user_id=ops", "--storage", "file:///ckpt"}, nil, &stdout, &stderr)
		if st != exitOK {
			t.Fatalf("exit %d\n%s", st, stderr.String())
		}
		lines := strings.Split(strings.TrimSpace(stdout.String()), "\n")
		if len(lines) != len(sparktest.DefaultEvents) {
			t.Fatalf("stdout:\n%s", stdout.String())
		}
		for i, l := range lines {
			if !strings.HasPrefix(l, "2026-12-02T18:00:0") || !strings.HasSuffix(l, " "+sparktest.DefaultEvents[i]) {
				t.Errorf("event line %d = %q", i, l)
			}
		}
		reqs := s.Requests()
		if len(reqs) != 6 || reqs[5].GetPlan().GetCommand().GetPipelineCommand().GetStartRun().GetDataflowGraphId() != sparktest.GraphID {
			t.Errorf("server saw %d requests; StartRun %v", len(reqs), reqs[len(reqs)-1])
		}

		// a bundle reviewed earlier replays the same requests
		bundle := filepath.Join(t.TempDir(), "p.bundle")
		if st := run([]string{"spark", "emit", path, "-o", bundle, "--storage", "file:///ckpt"}, nil, &stdout, &stderr); st != exitOK {
			t.Fatalf("emit: %s", stderr.String())
		}
		stdout.Reset()
		if st := run([]string{"spark", "run", bundle, "--remote", "sc://" + s.Addr, "--json"}, nil, &stdout, &stderr); st != exitOK {
			t.Fatalf("run bundle: exit %d\n%s", st, stderr.String())
		}
		if n := strings.Count(stdout.String(), `"message":`); n != len(sparktest.DefaultEvents) {
			t.Errorf("--json printed %d events:\n%s", n, stdout.String())
		}
		again := s.Requests()[6:]
		for i := range again {
			if again[i].GetSessionId() == reqs[i].GetSessionId() {
				t.Errorf("request %d reused the earlier session id", i+1)
			}
		}
		// flags that shape a lowering do not apply to a bundle
		if st := run([]string{"spark", "run", bundle, "--remote", "sc://" + s.Addr, "--dry-run"}, nil, &stdout, &stderr); st != exitUsage {
			t.Errorf("--dry-run with a bundle: exit %d", st)
		}
	}
}

// TestSparkRunFails exits 1 with the server's error.
func TestSparkRunFails(t *testing.T) {
	s, err := sparktest.Start(&sparktest.Server{FailRun: status.Error(codes.Internal, "[PIPELINE_FAILED] flow clean_sales failed: CAST_INVALID_INPUT")})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Stop()
	var stdout, stderr bytes.Buffer
	st := run([]string{"spark", "run", writePipeline(t), "--remote", "sc://" + s.Addr, "--storage", "file:///c"}, nil, &stdout, &stderr)
	if st != exitDiags || !strings.Contains(stderr.String(), "request 6 (start_run) failed on the server at "+s.Addr+": Internal: [PIPELINE_FAILED] flow clean_sales failed") {
		t.Errorf("exit %d\nstderr:\n%s", st, stderr.String())
	}
	// the storage default: a .thund pipeline has none, and the server refuses
	s2, _ := sparktest.Start(&sparktest.Server{})
	defer s2.Stop()
	stderr.Reset()
	st = run([]string{"spark", "run", writePipeline(t), "--remote", "sc://" + s2.Addr}, nil, &stdout, &stderr)
	if st != exitDiags || !strings.Contains(stderr.String(), "Storage must be specified") {
		t.Errorf("exit %d\nstderr:\n%s", st, stderr.String())
	}
}

// TestSparkExampleScriptsExist: each example has a spark_emit_<example>
// script that emits the real example (the script command "example
// <example>") in both its forms, with spark-4.1's goldens, and holds
// spark-4.2's output to them with targetdiff.
func TestSparkExampleScriptsExist(t *testing.T) {
	dirs, err := filepath.Glob("../../examples/*/pipeline.thund")
	if err != nil || len(dirs) == 0 {
		t.Fatal("no examples", err)
	}
	for _, ex := range dirs {
		name := filepath.Base(filepath.Dir(ex))
		script := "../../testdata/scripts/spark_emit_" + name + ".txtar"
		data, err := os.ReadFile(script)
		if err != nil {
			t.Errorf("example %s has no %s: %v", name, filepath.Base(script), err)
			continue
		}
		for _, line := range []string{
			"example " + name + "\n",
			"thundc spark emit " + name + "/pipeline.thund ", "thundc spark emit " + name + " ",
			"--target spark-4.1", "--target spark-4.2", "\ntargetdiff ",
		} {
			if !bytes.Contains(data, []byte(line)) {
				t.Errorf("%s does not emit examples/%s in both forms for both targets (no %q)", filepath.Base(script), name, strings.TrimSpace(line))
			}
		}
	}
}
