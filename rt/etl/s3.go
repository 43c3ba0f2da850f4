package etl

import (
	"context"

	"github.com/nordisk/thund/rt/store"
)

// openS3Warehouse opens the store of --warehouse s3://BUCKET/PREFIX, with
// the THUND_S3_* settings and the AWS SDK's standard configuration
// (credential chain, region, AWS_ENDPOINT_URL_S3, ...). No request is made:
// the first one finds out whether the bucket and credentials work, and its
// error names the bucket and key.
func openS3Warehouse(url string) (store.FS, error) {
	cfg, err := store.S3ConfigFromEnv(url)
	if err != nil {
		return nil, err
	}
	return store.NewS3(context.Background(), cfg)
}

// readFS is the warehouse for commands that only read: a folder is not
// created when it does not exist.
func (pl place) readFS() store.FS {
	if pl.s3 != nil {
		return pl.s3
	}
	return &store.Local{Root: pl.dir}
}

// writeFS is the warehouse for run: a folder is created if missing.
func (pl place) writeFS() (store.FS, error) {
	if pl.s3 != nil {
		return pl.s3, nil
	}
	return store.NewLocal(pl.dir)
}
