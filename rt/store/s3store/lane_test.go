//go:build s3

package s3store

import (
	"context"
	"errors"
	"fmt"
	"os"
	"testing"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/nordisk/thund/internal/storetest"
	"github.com/nordisk/thund/internal/testenv"
)

// newLaneS3 is an S3 store on the lane's real server (testenv.S3), under a
// fresh prefix, with the bucket created if missing.
func newLaneS3(t *testing.T) *Store {
	t.Helper()
	lane := testenv.S3(t)
	ctx := context.Background()
	s, err := New(ctx, Config{Bucket: lane.Bucket, Prefix: fmt.Sprintf("store-test/%s-%d", t.Name(), time.Now().UnixNano()),
		Endpoint: lane.Endpoint, PathStyle: true, MaxAttempts: 3, Timeout: 20 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	_, err = s.client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(lane.Bucket)})
	if err != nil && apiCode(err) != "BucketAlreadyOwnedByYou" && apiCode(err) != "BucketAlreadyExists" {
		t.Fatalf("creating the bucket %s on %s: %v", lane.Bucket, lane.Endpoint, err)
	}
	return s
}

func TestS3LaneContract(t *testing.T) {
	storetest.Contract(t, newLaneS3(t), 3*s3PartSize/2)
}

// TestS3LaneListPaging lists more than one page (S3 returns at most 1000
// keys a page).
func TestS3LaneListPaging(t *testing.T) {
	if os.Getenv("THUND_TEST_S3_SHORT") == "1" {
		t.Skip("THUND_TEST_S3_SHORT=1")
	}
	s := newLaneS3(t)
	ctx := context.Background()
	const n = 1105
	sem := make(chan struct{}, 16)
	errs := make(chan error, n)
	for i := range n {
		sem <- struct{}{}
		go func() {
			defer func() { <-sem }()
			errs <- s.WriteFile(ctx, fmt.Sprintf("many/k%05d", i), []byte{byte(i)})
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	got, err := s.List(ctx, "many/")
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != n {
		t.Fatalf("List returned %d keys, want %d", len(got), n)
	}
	for i, o := range got {
		if want := fmt.Sprintf("many/k%05d", i); o.Name != want {
			t.Fatalf("List[%d] = %s, want %s", i, o.Name, want)
		}
	}
}

// TestS3LaneMissingBucket: a clear error naming the bucket.
func TestS3LaneMissingBucket(t *testing.T) {
	lane := testenv.S3(t)
	s, err := New(context.Background(), Config{Bucket: "no-such-bucket-thund", Endpoint: lane.Endpoint, PathStyle: true, MaxAttempts: 2})
	if err != nil {
		t.Fatal(err)
	}
	err = s.WriteFile(context.Background(), "x", []byte("x"))
	var se *Error
	if !errors.As(err, &se) || se.Op != "PutObject" {
		t.Fatalf("err = %v, want an *Error of PutObject", err)
	}
	t.Logf("missing bucket: %v", err)
}
