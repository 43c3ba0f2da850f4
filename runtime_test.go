package thund

import (
	"io/fs"
	"os/exec"
	"strings"
	"testing"

	"github.com/nordisk/thund/internal/gobuild"
)

// TestRuntimeImports: every package of this module that a generated program
// links (rt/... and what it imports) lies in a folder that Runtime embeds
// and gobuild writes (gobuild.RuntimeDirs), and imports nothing of the
// compiler.
func TestRuntimeImports(t *testing.T) {
	for _, d := range gobuild.RuntimeDirs {
		if _, err := fs.Stat(Runtime, d); err != nil {
			t.Errorf("gobuild.RuntimeDirs lists %s, which Runtime does not embed (runtime.go): %v", d, err)
		}
	}
	out, err := exec.Command("go", "list", "-deps", "-f", "{{.ImportPath}}", "./rt/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps ./rt/...: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		rel, ok := strings.CutPrefix(p, gobuild.RuntimeModule+"/")
		if !ok {
			continue
		}
		in := false
		for _, d := range gobuild.RuntimeDirs {
			if rel == d || strings.HasPrefix(rel, d+"/") {
				in = true
			}
		}
		if !in {
			t.Errorf("the runtime imports %s, which is not in gobuild.RuntimeDirs: rt imports nothing of the compiler", p)
		}
	}
}

// TestRuntimeLinksNoFlight: no package a generated program can import
// (rt/... outside internal/ folders, which only tests import from outside
// their parent) links arrow-go's pqarrow, and with it Arrow Flight, gRPC and
// protobuf: about a hundred packages and 9 MB of executable that every warm
// build links for nothing (rt/format/pqread reads Parquet without them).
func TestRuntimeLinksNoFlight(t *testing.T) {
	out, err := exec.Command("go", "list", "./rt/...").CombinedOutput()
	if err != nil {
		t.Fatalf("go list ./rt/...: %v\n%s", err, out)
	}
	var pkgs []string
	for _, p := range strings.Fields(string(out)) {
		if !strings.Contains(p, "/internal/") {
			pkgs = append(pkgs, p)
		}
	}
	out, err = exec.Command("go", append([]string{"list", "-deps", "-f", "{{.ImportPath}}"}, pkgs...)...).CombinedOutput()
	if err != nil {
		t.Fatalf("go list -deps: %v\n%s", err, out)
	}
	for _, p := range strings.Fields(string(out)) {
		for _, banned := range []string{"github.com/apache/arrow-go/v18/parquet/pqarrow", "github.com/apache/arrow-go/v18/arrow/flight", "google.golang.org/grpc"} {
			if p == banned || strings.HasPrefix(p, banned+"/") {
				t.Errorf("the runtime links %s", p)
			}
		}
	}
}
