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

// testWrapFS, when set by a test, wraps the warehouse's store (to inject
// faults with store.Faulty).
var testWrapFS func(store.FS) store.FS

// finishFS adds the test hook and the advice for storage errors a user can
// fix (a full disk, a permission error).
func finishFS(fs store.FS) store.FS {
	if testWrapFS != nil {
		fs = testWrapFS(fs)
	}
	return store.WithHints(fs)
}

// readFS is the warehouse for commands that only read: a folder is not
// created when it does not exist.
func (pl place) readFS() store.FS {
	if pl.s3 != nil {
		return finishFS(pl.s3)
	}
	return finishFS(&store.Local{Root: pl.dir})
}

// writeFS is the warehouse for run: a folder is created if missing.
func (pl place) writeFS() (store.FS, error) {
	if pl.s3 != nil {
		return finishFS(pl.s3), nil
	}
	l, err := store.NewLocal(pl.dir)
	if err != nil {
		return nil, store.Hint(err)
	}
	return finishFS(l), nil
}
