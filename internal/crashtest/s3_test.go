//go:build s3

package crashtest

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/nordisk/thund/internal/testenv"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/store/s3store"
)

// s3Target puts each warehouse of the suite under a fresh prefix of the S3
// lane's bucket.
func s3Target(t *testing.T) func(string) target {
	lane := testenv.S3(t)
	run := time.Now().UnixNano()
	return func(name string) target {
		prefix := fmt.Sprintf("crashtest/%d/%s", run, name)
		return target{
			arg: "s3://" + lane.Bucket + "/" + prefix,
			env: []string{s3store.EnvEndpoint + "=" + lane.Endpoint, s3store.EnvPathStyle + "=true"},
			fs: func() store.FS {
				fs, err := s3store.New(context.Background(), s3store.Config{Bucket: lane.Bucket, Prefix: prefix,
					Endpoint: lane.Endpoint, PathStyle: true, MaxAttempts: 3})
				if err != nil {
					t.Fatal(err)
				}
				return fs
			},
		}
	}
}

// TestS3Kill is the kill -9 suite with the warehouse on the S3 lane's real
// server.
func TestS3Kill(t *testing.T) {
	runSuite(t, s3Target(t))
}

// TestS3KillVacuum is the kill -9 suite for etl vacuum with the warehouse on
// the S3 lane's real server.
func TestS3KillVacuum(t *testing.T) {
	killVacuum(t, s3Target(t))
}

// TestS3TwoWriters: concurrent runs against one warehouse on S3.
func TestS3TwoWriters(t *testing.T) {
	twoWriters(t, s3Target(t))
}
