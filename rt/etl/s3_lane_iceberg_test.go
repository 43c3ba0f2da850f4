//go:build s3

package etl

import (
	"strings"
	"testing"

	"github.com/nordisk/thund/rt/store/s3store"
)

// TestS3LaneIcebergSource: an Iceberg table on S3 (a warehouse on the
// lane's server, its dataset published), read by a pipeline whose own
// warehouse is local: a stream read over two runs with an append in
// between, and a snapshot read, equal to the writer's dataset.
func TestS3LaneIcebergSource(t *testing.T) {
	w := newLaneEnv(t, "")
	r := newEnv(t)
	r.openS3 = s3store.Open
	wp := icebergWriter()
	rp := icebergReader(w.wh + "/events")
	for i, rows := range []string{"1,10\n2,20\n", "3,30\n"} {
		w.write("data/in/"+string(rune('a'+i))+".csv", "auction,price\n"+rows)
		w.mustRun(wp)
		w.publish("events")
		id := r.mustRun(rp)
		if in, _ := r.flowRows(id, "copy"); in != int64(strings.Count(rows, "\n")) {
			t.Errorf("run %d: copy read %d rows", i+1, in)
		}
		want := sortedRows(w.read(wp, "events"))
		for _, ds := range []string{"copy", "snap"} {
			if got := sortedRows(r.read(rp, ds)); got != want {
				t.Errorf("run %d: %s:\n%s\nwant\n%s", i+1, ds, got, want)
			}
		}
	}
	r.mustNoOp(rp)
}
