package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"

	"github.com/nordisk/thund/rt/iceberg"
	"github.com/nordisk/thund/rt/store"
	"github.com/nordisk/thund/rt/warehouse"
	"github.com/rogpeppe/go-internal/testscript"
)

// cmdIcePublish is the script command
//
//	icepublish WAREHOUSE [DATASET...]
//
// which publishes the datasets of a warehouse that a Thund pipeline built
// (every one, or those named) as Apache Iceberg tables, in each dataset's
// folder, with rt/iceberg.Publish, as the runtime does after a commit: the
// tables that Iceberg source scripts read are made by Thund itself. (The
// runtime's publication after each run is not wired on this branch; once
// it is, a second publication finds nothing to do.)
func cmdIcePublish(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 1 {
		ts.Fatalf("usage: icepublish WAREHOUSE [DATASET...]")
	}
	ctx := context.Background()
	dir := ts.MkAbs(args[0])
	if _, err := os.Stat(filepath.Join(dir, "_thund")); err != nil {
		ts.Fatalf("icepublish: %s is not a warehouse: %v", args[0], err)
	}
	l, err := store.NewLocal(dir)
	ts.Check(err)
	wh := warehouse.New(l)
	st, err := wh.Load(ctx)
	ts.Check(err)
	if st.Head == nil {
		ts.Fatalf("icepublish: warehouse %s has no commit", args[0])
	}
	tables := map[string]bool{}
	for name := range st.Head.Datasets {
		tables[name] = len(args) == 1
	}
	for _, name := range args[1:] {
		if _, ok := st.Head.Datasets[strings.ToLower(name)]; !ok {
			ts.Fatalf("icepublish: warehouse %s has no dataset %s", args[0], name)
		}
		tables[strings.ToLower(name)] = true
	}
	_, err = iceberg.Publish(ctx, wh, st.Head, tables)
	ts.Check(err)
}
