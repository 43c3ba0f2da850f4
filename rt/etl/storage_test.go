package etl

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nordisk/thund/rt/run"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/store/s3store"
)

// TestS3WarehouseHook: an s3:// warehouse is opened through Pipeline.OpenS3,
// and a program built without it (thundc build --s3=false) refuses one
// with a usage error that says how to build it with S3.
func TestS3WarehouseHook(t *testing.T) {
	e := newEnv(t)
	e.write("data/bids/a.csv", bidsA)
	p := testPipeline(pipeOpts{action: run.Drop})

	// without S3 support
	for _, cmd := range []string{"run", "plan", "history", "vacuum"} {
		code, _, stderr := e.exec(context.Background(), p, cmd, "--warehouse", "s3://bkt/wh", "--root", e.root)
		want := "--warehouse s3://bkt/wh: this executable was built without S3 support; rebuild it with S3: thundc build --s3 auctions.thund -o BIN (or thundc run --s3 auctions.thund)"
		if code != ExitUsage || !strings.Contains(stderr, want) {
			t.Errorf("%s without S3: exit %d, want %d with %q\n%s", cmd, code, ExitUsage, want, stderr)
		}
	}

	// with s3store.Open: its URL checks apply
	p.OpenS3 = s3store.Open
	if code, _, stderr := e.exec(context.Background(), p, "run", "--warehouse", "s3:///wh", "--root", e.root); code != ExitUsage ||
		!strings.Contains(stderr, "no bucket (want s3://BUCKET/PREFIX)") {
		t.Errorf("s3:///wh: exit %d\n%s", code, stderr)
	}

	// the hook is what opens the warehouse: here a folder stands in for the
	// bucket, and the run's data lands there
	dir := filepath.Join(e.root, "bucket")
	var opened []string
	p.OpenS3 = func(ctx context.Context, url string) (store.FS, error) {
		opened = append(opened, url)
		return store.NewLocal(dir)
	}
	e.wh = "s3://bkt/wh"
	e.mustRun(p)
	if got := e.read(p, "top"); got == "" {
		t.Error("read from the hook's store: no rows")
	}
	if len(opened) != 2 || opened[0] != "s3://bkt/wh" {
		t.Errorf("OpenS3 calls: %q", opened)
	}
	local := &env{t: t, mem: e.mem, root: e.root, wh: dir, now: e.now, seq: e.seq}
	if got, want := local.read(p, "top"), e.read(p, "top"); got != want {
		t.Errorf("the folder behind the hook holds %q, the s3:// warehouse %q", got, want)
	}
}
