//go:build s3

package iceberg

import (
	"context"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/rt/store/s3store"
	"github.com/nordisk/thund/rt/warehouse"
)

// TestS3LaneIcebergPublish publishes, verifies and vacuums tables in a
// warehouse on the S3 lane's real server, and (with THUND_TEST_PYICEBERG)
// reads every snapshot with pyiceberg over S3.
func TestS3LaneIcebergPublish(t *testing.T) {
	lane := testenv.S3(t)
	prefix := fmt.Sprintf("iceberg-test/%d", time.Now().UnixNano())
	s, err := s3store.New(context.Background(), s3store.Config{Bucket: lane.Bucket, Endpoint: lane.Endpoint, PathStyle: true,
		Prefix: prefix, MaxAttempts: 3})
	if err != nil {
		t.Fatal(err)
	}
	f := newFixtureFS(t, s)
	history(f)
	if err := Verify(f.ctx, f.wh, f.head, true); err != nil {
		t.Fatal(err)
	}
	if loc := URI(s, "t"); loc != fmt.Sprintf("s3://%s/%s/t", lane.Bucket, prefix) {
		t.Errorf("table location %s", loc)
	}
	if py := os.Getenv("THUND_TEST_PYICEBERG"); py != "" {
		props := map[string]string{"s3.endpoint": lane.Endpoint, "s3.access-key-id": os.Getenv("AWS_ACCESS_KEY_ID"),
			"s3.secret-access-key": os.Getenv("AWS_SECRET_ACCESS_KEY"), "s3.region": "us-east-1", "s3.force-virtual-addressing": "false"}
		for _, c := range pyicebergCases {
			if got := pyicebergRead(t, py, URI(s, c.table), c.snap, props); got != c.want {
				t.Errorf("pyiceberg over S3 %s@%d:\n got %s\nwant %s", c.table, c.snap, got, c.want)
			}
		}
	} else {
		t.Log("THUND_TEST_PYICEBERG not set: pyiceberg does not read the S3 tables")
	}
	if _, err := f.wh.VacuumWith(f.ctx, 1, func(ctx context.Context, kept []*warehouse.Commit) error {
		_, err := Expire(ctx, f.wh, kept)
		return err
	}); err != nil {
		t.Fatal(err)
	}
	if err := Verify(f.ctx, f.wh, f.head, true); err != nil {
		t.Fatalf("after vacuum: %v", err)
	}
}
