// Command s3bucket waits until the S3 server at THUND_TEST_S3_ENDPOINT
// answers, then creates the bucket THUND_TEST_S3_BUCKET (an existing bucket
// of ours is fine). .ci/run uses it instead of curl, so that CI needs
// nothing the repository does not bring. Credentials and region come from
// the AWS SDK's standard environment variables.
package main

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"os"
	"time"

	"github.com/aws/aws-sdk-go-v2/aws"
	"github.com/aws/aws-sdk-go-v2/config"
	"github.com/aws/aws-sdk-go-v2/service/s3"
	"github.com/aws/aws-sdk-go-v2/service/s3/types"
)

func main() {
	endpoint, bucket := os.Getenv("THUND_TEST_S3_ENDPOINT"), os.Getenv("THUND_TEST_S3_BUCKET")
	if endpoint == "" || bucket == "" {
		fail(errors.New("set THUND_TEST_S3_ENDPOINT and THUND_TEST_S3_BUCKET"))
	}
	deadline := time.Now().Add(60 * time.Second)
	for {
		resp, err := http.Get(endpoint + "/")
		if err == nil {
			resp.Body.Close()
			break
		}
		if time.Now().After(deadline) {
			fail(fmt.Errorf("%s did not answer within 60s: %v", endpoint, err))
		}
		time.Sleep(200 * time.Millisecond)
	}
	ctx := context.Background()
	cfg, err := config.LoadDefaultConfig(ctx)
	if err != nil {
		fail(err)
	}
	client := s3.NewFromConfig(cfg, func(o *s3.Options) {
		o.BaseEndpoint = aws.String(endpoint)
		o.UsePathStyle = true
	})
	_, err = client.CreateBucket(ctx, &s3.CreateBucketInput{Bucket: aws.String(bucket)})
	var owned *types.BucketAlreadyOwnedByYou
	if err != nil && !errors.As(err, &owned) {
		fail(fmt.Errorf("creating bucket %s at %s: %w", bucket, endpoint, err))
	}
	fmt.Printf("bucket %s ready at %s\n", bucket, endpoint)
}

func fail(err error) {
	fmt.Fprintln(os.Stderr, "s3bucket:", err)
	os.Exit(1)
}
