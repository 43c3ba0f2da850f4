// Command nexmarkgen writes a deterministic Nexmark event stream as files:
//
//	go run ./internal/nexmark/cmd/nexmarkgen -events 100000 -out DIR
//
// writes DIR/person, DIR/auction and DIR/bid (Parquet), and with
// -formats parquet,csv also DIR/person_csv, ... Each part file is published
// whole, so DIR can be watched while it is written.
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/nordisk/thund/internal/nexmark"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/store"
)

func main() {
	events := flag.Int64("events", 100000, "number of events")
	out := flag.String("out", "", "output folder (created)")
	seed := flag.Uint64("seed", 1, "random seed")
	perFile := flag.Int64("events-per-file", 10000, "events per part file")
	formats := flag.String("formats", "parquet", "comma-separated: parquet, csv, jsonl")
	rate := flag.Int64("rate", 10000, "events per second of event time")
	disorder := flag.Duration("disorder", 2*time.Second, "maximum event-time disorder")
	flag.Parse()
	if *out == "" || flag.NArg() > 0 {
		fmt.Fprintln(os.Stderr, "usage: nexmarkgen -out DIR [-events N] [-seed S] [-events-per-file N] [-formats parquet,csv] [-rate N] [-disorder D]")
		os.Exit(2)
	}
	var fs []format.Format
	for _, s := range strings.Split(*formats, ",") {
		f, err := format.ParseFormat(strings.TrimSpace(s))
		if err != nil {
			fmt.Fprintln(os.Stderr, "nexmarkgen:", err)
			os.Exit(2)
		}
		fs = append(fs, f)
	}
	if err := os.MkdirAll(*out, 0o755); err != nil {
		fmt.Fprintln(os.Stderr, "nexmarkgen:", err)
		os.Exit(1)
	}
	fsys, err := store.NewLocal(*out)
	if err != nil {
		fmt.Fprintln(os.Stderr, "nexmarkgen:", err)
		os.Exit(1)
	}
	d := *disorder
	if d == 0 {
		d = -1 // Config's zero means the default
	}
	cfg := nexmark.Config{Seed: *seed, Events: *events, EventsPerSecond: *rate, MaxDisorder: d}
	sum, err := nexmark.Write(context.Background(), fsys, cfg, nexmark.WriteOptions{Formats: fs, EventsPerFile: *perFile})
	if err != nil {
		fmt.Fprintln(os.Stderr, "nexmarkgen:", err)
		os.Exit(1)
	}
	fmt.Printf("%d persons, %d auctions, %d bids in %d files under %s\n", sum.Persons, sum.Auctions, sum.Bids, len(sum.Files), *out)
}
