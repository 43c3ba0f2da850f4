package etl

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nordisk/thund/rt/run"
)

// TestFingerprintModes: a rewrite of an input that keeps its size and
// modification time. By size and time (--fingerprint stat) it goes unseen;
// by content it is seen, for a small file by default (auto) and for a large
// one with --fingerprint content; plan says which fingerprint it used. A
// file touched with the same content is fresh by content and stale by time.
// On main there was no --fingerprint, and such a rewrite was never seen.
func TestFingerprintModes(t *testing.T) {
	e := newEnv(t)
	p := testPipeline(pipeOpts{action: run.Drop})
	at := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	put := func(name, text string, mtime time.Time) {
		t.Helper()
		e.write(name, text)
		if err := os.Chtimes(filepath.Join(e.root, name), mtime, mtime); err != nil {
			t.Fatal(err)
		}
	}
	plan := func(args ...string) string {
		t.Helper()
		code, out, stderr := e.etl(p, append([]string{"plan"}, args...)...)
		if code != 0 {
			t.Fatalf("plan %v: exit %d\n%s", args, code, stderr)
		}
		return out
	}
	const seen = "bids       stale  files changed (data/bids/a.csv modified (same size and modification time, new content))\n" +
		"high_bids  stale  input bids changed (data/bids/a.csv modified (same size and modification time, new content))\n"

	// a small file: by content by default
	put("data/bids/a.csv", "auction,price\n1,500\n", at)
	e.mustRun(p)
	put("data/bids/a.csv", "auction,price\n1,900\n", at)
	if got := plan("--fingerprint", "stat"); !strings.Contains(got, "bids       fresh") || !strings.Contains(got, "high_bids  fresh") ||
		!strings.HasSuffix(got, "source files compared by size and modification time only (--fingerprint stat)\n") {
		t.Errorf("plan --fingerprint stat after a same-size, same-time rewrite:\n%s", got)
	}
	if got := plan(); !strings.Contains(got, seen) || !strings.HasSuffix(got, "(--fingerprint auto)\n") {
		t.Errorf("plan after a same-size, same-time rewrite:\n%s", got)
	}
	code, out, _ := e.etl(p, "plan", "--json", "--fingerprint", "content")
	var pj planJSON
	if code != 0 || json.Unmarshal([]byte(out), &pj) != nil || pj.Fingerprint != "content" {
		t.Errorf("plan --json --fingerprint content: exit %d %s", code, out)
	}
	e.mustRun(p)
	diffText(t, "high_bids after the rewrite", e.read(p, "high_bids"), "auction,price\n1,900\n")

	// touched, the same content: fresh by content, stale by time
	put("data/bids/a.csv", "auction,price\n1,900\n", at.Add(time.Hour))
	if got := plan(); !strings.Contains(got, "bids       fresh") {
		t.Errorf("plan after a touch, by content:\n%s", got)
	}
	if got := plan("--fingerprint", "stat"); !strings.Contains(got, "bids       stale  files changed (data/bids/a.csv modified)") {
		t.Errorf("plan --fingerprint stat after a touch:\n%s", got)
	}
	e.mustRun(p, "--fingerprint", "stat")

	// a large file: auto compares it by size and time, content by content
	var big strings.Builder
	big.WriteString("auction,price\n")
	for i := 0; big.Len() <= autoHashMax; i++ {
		fmt.Fprintf(&big, "%06d,%d\n", i, 500+i%2)
	}
	put("data/bids/a.csv", big.String(), at)
	e.mustRun(p, "--fingerprint", "content")
	put("data/bids/a.csv", strings.Replace(big.String(), "000000,500", "000000,600", 1), at)
	if got := plan(); !strings.Contains(got, "bids       fresh") {
		t.Errorf("plan (auto) after a same-size, same-time rewrite of a large file:\n%s", got)
	}
	if got := plan("--fingerprint", "content"); !strings.Contains(got, seen) {
		t.Errorf("plan --fingerprint content after a same-size, same-time rewrite of a large file:\n%s", got)
	}
	if code, _, stderr := e.etl(p, "plan", "--fingerprint", "mtime"); code != 2 || !strings.Contains(stderr, `bad --fingerprint "mtime": want auto, stat, content`) {
		t.Errorf("--fingerprint mtime: exit %d %s", code, stderr)
	}
}
