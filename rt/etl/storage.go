package etl

import (
	"context"
	"fmt"
	"strings"

	"github.com/nordisk/thund/rt/store"
)

// openS3Warehouse opens the store of --warehouse s3://BUCKET/PREFIX through
// the pipeline's OpenS3 (s3store.Open: the THUND_S3_* settings and the AWS
// SDK's standard configuration). No request is made: the first one finds
// out whether the bucket and credentials work, and its error names the
// bucket and key.
func (c *cli) openS3Warehouse(url string) (store.FS, error) {
	if c.p.OpenS3 == nil {
		src := strings.ReplaceAll(c.p.File, ", ", " ") // a list of .sql files
		if src == "" {
			src = "PIPELINE"
		}
		return nil, fmt.Errorf("this executable was built without S3 support; rebuild it with S3: thundc build --s3 %s -o BIN (or thundc run --s3 %s)", src, src)
	}
	return c.p.OpenS3(context.Background(), url)
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
