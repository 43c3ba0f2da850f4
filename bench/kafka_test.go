package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestKafkaPipelineChecks: the pipeline the Kafka ingestion bench builds
// passes thundc check (a check needs no broker), so a change to the DSL
// or to from_json breaks this test rather than a bench run against a
// broker.
func TestKafkaPipelineChecks(t *testing.T) {
	dir := t.TempDir()
	src := filepath.Join(dir, "kbench.thund")
	if err := os.WriteFile(src, []byte(kafkaPipeline("127.0.0.1:9", "bids")), 0o644); err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command("go", "run", "./cmd/thundc", "check", src)
	cmd.Dir = ".."
	cmd.Env = append(os.Environ(), "GOWORK=off")
	if out, err := cmd.CombinedOutput(); err != nil {
		t.Fatalf("thundc check: %v\n%s", err, out)
	}
}

// TestBidFiles: the JSON-lines files hold every event once, each a JSON
// object with the six fields, spread evenly over the files, about 150
// bytes each, with varied channels.
func TestBidFiles(t *testing.T) {
	dir := t.TempDir()
	const n = 10_000
	size, err := writeBidFiles(dir, n)
	if err != nil {
		t.Fatal(err)
	}
	if per := size / n; per < 130 || per > 190 {
		t.Errorf("%d bytes per event, want about 150", per)
	}
	channels := map[string]int{}
	seen := map[string]bool{}
	for p := range kafkaPartitions {
		f, err := os.Open(filepath.Join(dir, fmt.Sprintf("part-%d.jsonl", p)))
		if err != nil {
			t.Fatal(err)
		}
		lines := 0
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			lines++
			var m map[string]any
			if err := json.Unmarshal(sc.Bytes(), &m); err != nil {
				t.Fatalf("part %d line %d: %v", p, lines, err)
			}
			if len(m) != 6 {
				t.Fatalf("part %d line %d: %d fields, want 6: %s", p, lines, len(m), sc.Text())
			}
			channels[m["channel"].(string)]++
			if !strings.HasPrefix(m["date_time"].(string), "2026-12-01 ") {
				t.Fatalf("date_time %q", m["date_time"])
			}
			seen[sc.Text()] = true
		}
		f.Close()
		if lines != n/kafkaPartitions {
			t.Errorf("part %d: %d lines, want %d", p, lines, n/kafkaPartitions)
		}
	}
	if len(seen) != n {
		t.Errorf("%d distinct events, want %d", len(seen), n)
	}
	if len(channels) != len(bidChannels) {
		t.Errorf("channels %v, want all of %v", channels, bidChannels)
	}
}
