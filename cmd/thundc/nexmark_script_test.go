package main

import (
	"context"
	"encoding/csv"
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/nordisk/thund/internal/nexmark"
	"github.com/nordisk/thund/rt/store"
	"github.com/rogpeppe/go-internal/testscript"
)

// The data set of the run_nexmark_* scripts: N events of seed 1 at 100
// events per second of event time (so 3000 events span 30s: several 10s
// windows), the generator's default 2s disorder, 500 events per part file.
const (
	nexmarkRate    = 100
	nexmarkPerFile = 500
	// nexmarkDelay is the watermark delay examples/nexmark declares on its
	// sources (ms).
	nexmarkDelay = 4000
)

func nexmarkConfig(events int64) nexmark.Config {
	return nexmark.Config{Seed: 1, Events: events, EventsPerSecond: nexmarkRate}
}

// cmdNexmark is the script command
//
//	nexmark gen DIR N [KIND...]
//	nexmark check N QUERY
//	nexmark await N QUERY PROGRAM [ARGS...]
//
// gen writes N generated Nexmark events under DIR (DIR/person, DIR/auction,
// DIR/bid, Parquet parts of nexmarkPerFile events, each published whole by a
// rename); with KINDs (person, auction, bid) only those tables' parts. check
// compares the last command's stdout (`etl read QUERY`, CSV) as a multiset
// of rows with the rows examples/nexmark's QUERY must hold once every file
// of those N events has been read, computed here from the generator's
// events in plain Go, not by thund: the standard query, restricted for
// windowed queries to the windows that the final watermark (the greatest
// event time minus the sources' delay) has closed. await runs PROGRAM (`etl
// read QUERY` beside an `etl run --follow`) like exec, again every 100ms,
// until its stdout passes check; it fails after a minute with the last
// difference.
func cmdNexmark(ts *testscript.TestScript, neg bool, args []string) {
	const usage = "usage: nexmark gen DIR N [KIND...] | nexmark check N QUERY | nexmark await N QUERY PROGRAM [ARGS...]"
	if neg || len(args) < 1 {
		ts.Fatalf(usage)
	}
	switch {
	case args[0] == "gen" && len(args) >= 3:
		n, err := strconv.ParseInt(args[2], 10, 64)
		ts.Check(err)
		opts := nexmark.WriteOptions{EventsPerFile: nexmarkPerFile}
		for _, k := range args[3:] {
			kind, ok := map[string]nexmark.Kind{"person": nexmark.PersonKind, "auction": nexmark.AuctionKind, "bid": nexmark.BidKind}[k]
			if !ok {
				ts.Fatalf("nexmark gen: unknown kind %q (want person, auction or bid)", k)
			}
			opts.Kinds = append(opts.Kinds, kind)
		}
		fsys, err := store.NewLocal(ts.MkAbs(args[1]))
		ts.Check(err)
		sum, err := nexmark.Write(context.Background(), fsys, nexmarkConfig(n), opts)
		ts.Check(err)
		ts.Logf("%d persons, %d auctions, %d bids", sum.Persons, sum.Auctions, sum.Bids)
	case args[0] == "check" && len(args) == 3:
		n, err := strconv.ParseInt(args[1], 10, 64)
		ts.Check(err)
		want, err := nexmarkExpected(n, args[2])
		ts.Check(err)
		if diff := nexmarkDiff(ts.ReadFile("stdout"), want); diff != "" {
			ts.Fatalf("nexmark check %s: %s", args[2], diff)
		}
		ts.Logf("%s: %d rows, as expected", args[2], len(want))
	case args[0] == "await" && len(args) >= 4:
		n, err := strconv.ParseInt(args[1], 10, 64)
		ts.Check(err)
		want, err := nexmarkExpected(n, args[2])
		ts.Check(err)
		retry(ts, args[3:], func(stdout string) string { return nexmarkDiff(stdout, want) })
		ts.Logf("%s: %d rows, as expected", args[2], len(want))
	default:
		ts.Fatalf(usage)
	}
}

// nexmarkDiff says how the CSV out (with a header) differs from want as a
// multiset of rows; "" when it does not.
func nexmarkDiff(out string, want [][]string) string {
	got, err := csv.NewReader(strings.NewReader(out)).ReadAll()
	if err != nil {
		return err.Error()
	}
	if len(got) == 0 {
		return "no CSV header in stdout"
	}
	if diff := multisetDiff(got[1:], want); diff != "" {
		return fmt.Sprintf("%d rows read, %d expected:\n%s", len(got)-1, len(want), diff)
	}
	return ""
}

// canon puts one CSV field in a form that compares by value: a timestamp as
// its Unix microseconds, a number as an exact rational, anything else as is.
func canon(s string) string {
	for _, layout := range []string{"2006-01-02 15:04:05.999999", "2006-01-02 15:04:05"} {
		if t, err := time.Parse(layout, s); err == nil {
			return "t" + strconv.FormatInt(t.UnixMicro(), 10)
		}
	}
	if r, ok := new(big.Rat).SetString(s); ok && s != "" {
		return "n" + r.RatString()
	}
	return "s" + s
}

func rowKey(r []string) string {
	c := make([]string, len(r))
	for i, f := range r {
		c[i] = canon(f)
	}
	return strings.Join(c, "\x00")
}

// multisetDiff describes how got and want differ as multisets (at most a
// few rows each way); "" when they are equal.
func multisetDiff(got, want [][]string) string {
	count := map[string]int{}
	show := map[string][]string{}
	for _, r := range want {
		k := rowKey(r)
		count[k]++
		show[k] = r
	}
	for _, r := range got {
		k := rowKey(r)
		count[k]--
		show[k] = r
	}
	var extra, missing []string
	for k, c := range count {
		line := strings.Join(show[k], ",")
		for ; c > 0; c-- {
			missing = append(missing, "missing: "+line)
		}
		for ; c < 0; c++ {
			extra = append(extra, "unexpected: "+line)
		}
	}
	slices.Sort(missing)
	slices.Sort(extra)
	lines := append(missing[:min(len(missing), 5)], extra[:min(len(extra), 5)]...)
	if len(lines) == 0 {
		return ""
	}
	return fmt.Sprintf("%d missing, %d unexpected\n%s", len(missing), len(extra), strings.Join(lines, "\n"))
}

func tsField(ms int64) string {
	return time.UnixMilli(ms).UTC().Format("2006-01-02 15:04:05.000")
}

func itoa(n int64) string { return strconv.FormatInt(n, 10) }

// nexmarkExpected is query q's result over the first n events, computed
// from the events.
func nexmarkExpected(n int64, q string) ([][]string, error) {
	g := nexmark.NewGenerator(nexmarkConfig(n))
	var persons []*nexmark.Person
	var auctions []*nexmark.Auction
	var bids []*nexmark.Bid
	maxBid := int64(-1 << 62)
	for {
		ev, ok := g.Next()
		if !ok {
			break
		}
		switch ev.Kind {
		case nexmark.PersonKind:
			persons = append(persons, ev.Person)
		case nexmark.AuctionKind:
			auctions = append(auctions, ev.Auction)
		default:
			bids = append(bids, ev.Bid)
			maxBid = max(maxBid, ev.Bid.DateTime)
		}
	}
	// one --once run is one micro-batch: nothing is late, and the windows
	// its final watermark closes are emitted (end + allowed lateness 0 <= WM)
	bidWM := maxBid - nexmarkDelay
	var out [][]string
	switch q {
	case "q0":
		for _, b := range bids {
			out = append(out, []string{itoa(b.Auction), itoa(b.Bidder), itoa(b.Price), tsField(b.DateTime), b.Extra})
		}
	case "q1":
		for _, b := range bids {
			eur := new(big.Rat).SetFrac64(b.Price*908, 1000)
			out = append(out, []string{itoa(b.Auction), itoa(b.Bidder), eur.FloatString(3), tsField(b.DateTime), b.Extra})
		}
	case "q2":
		for _, b := range bids {
			if b.Auction%123 == 0 {
				out = append(out, []string{itoa(b.Auction), itoa(b.Price)})
			}
		}
	case "q3":
		byID := map[int64]*nexmark.Person{}
		for _, p := range persons {
			byID[p.ID] = p
		}
		for _, a := range auctions {
			p := byID[a.Seller]
			if a.Category == 10 && p != nil && (p.State == "OR" || p.State == "ID" || p.State == "CA") {
				out = append(out, []string{p.Name, p.City, p.State, itoa(a.ID)})
			}
		}
	case "q5", "q5_hot":
		const size, slide = 10000, 2000
		type win struct{ auction, start int64 }
		counts := map[win]int64{}
		for _, b := range bids {
			for s := b.DateTime - b.DateTime%slide; s > b.DateTime-size; s -= slide {
				if s+size <= bidWM {
					counts[win{b.Auction, s}]++
				}
			}
		}
		top := map[int64]int64{}
		for w, c := range counts {
			top[w.start] = max(top[w.start], c)
		}
		for w, c := range counts {
			if q == "q5" {
				out = append(out, []string{itoa(w.auction), tsField(w.start), tsField(w.start + size), itoa(c)})
			} else if c >= top[w.start] {
				out = append(out, []string{itoa(w.auction), itoa(c), tsField(w.start), tsField(w.start + size)})
			}
		}
	case "q7_max", "q7":
		const size = 10000
		top := map[int64]int64{} // closed window start → max price
		for _, b := range bids {
			s := b.DateTime - b.DateTime%size
			if s+size > bidWM {
				continue
			}
			if p, ok := top[s]; !ok || b.Price > p {
				top[s] = b.Price
			}
		}
		if q == "q7_max" {
			for s, p := range top {
				out = append(out, []string{tsField(s), tsField(s + size), itoa(p)})
			}
			break
		}
		for _, b := range bids {
			for s, p := range top {
				if b.Price == p && s <= b.DateTime && b.DateTime <= s+size {
					out = append(out, []string{itoa(b.Auction), itoa(b.Price), itoa(b.Bidder), tsField(b.DateTime), b.Extra})
				}
			}
		}
	case "q8":
		bySeller := map[int64][]*nexmark.Auction{}
		for _, a := range auctions {
			bySeller[a.Seller] = append(bySeller[a.Seller], a)
		}
		window := func(ms int64) int64 { sec := ms / 1000; return sec - sec%10 }
		for _, p := range persons {
			for _, a := range bySeller[p.ID] {
				if d := a.DateTime - p.DateTime; d >= -10000 && d <= 10000 && window(p.DateTime) == window(a.DateTime) {
					out = append(out, []string{itoa(p.ID), p.Name, tsField(window(p.DateTime) * 1000), itoa(a.ID)})
				}
			}
		}
	default:
		return nil, fmt.Errorf("nexmark check: no expectation for query %q", q)
	}
	return out, nil
}
