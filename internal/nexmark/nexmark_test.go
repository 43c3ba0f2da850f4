package nexmark

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/store"
)

func all(cfg Config) []Event {
	g := NewGenerator(cfg)
	var out []Event
	for {
		ev, ok := g.Next()
		if !ok {
			return out
		}
		out = append(out, ev)
	}
}

// show prints events with their payloads (not pointers).
func show(evs []Event) string {
	var b bytes.Buffer
	for _, ev := range evs {
		switch ev.Kind {
		case PersonKind:
			fmt.Fprintf(&b, "%d %+v\n", ev.N, *ev.Person)
		case AuctionKind:
			fmt.Fprintf(&b, "%d %+v\n", ev.N, *ev.Auction)
		default:
			fmt.Fprintf(&b, "%d %+v\n", ev.N, *ev.Bid)
		}
	}
	return b.String()
}

func TestCountAndKindOf(t *testing.T) {
	for _, n := range []int64{0, 1, 2, 4, 5, 49, 50, 51, 54, 100, 12345} {
		var p, a, b int64
		for i := int64(0); i < n; i++ {
			switch KindOf(i) {
			case PersonKind:
				p++
			case AuctionKind:
				a++
			default:
				b++
			}
		}
		gp, ga, gb := Count(n)
		if gp != p || ga != a || gb != b {
			t.Errorf("Count(%d) = %d,%d,%d; by KindOf %d,%d,%d", n, gp, ga, gb, p, a, b)
		}
	}
	if p, a, b := Count(50000); p != 1000 || a != 3000 || b != 46000 {
		t.Errorf("Count(50000) = %d:%d:%d, want 1000:3000:46000", p, a, b)
	}
}

// TestGeneratorProperties: for random seeds and configs, the stream is
// reproducible, in the 1:3:46 proportions, references only people and
// auctions already generated, and its disorder stays within the bound.
func TestGeneratorProperties(t *testing.T) {
	for c := 0; c < 20; c++ {
		seed := uint64(c)
		cfg := Config{Seed: seed, Events: int64(1 + c*997%5000), EventsPerSecond: int64(1 + c*37%20000), MaxDisorder: time.Duration(c%4) * 700 * time.Millisecond}
		evs := all(cfg)
		if int64(len(evs)) != cfg.Events {
			t.Fatalf("seed %d: %d events, want %d", seed, len(evs), cfg.Events)
		}
		again := all(cfg)
		if show(evs) != show(again) {
			t.Fatalf("seed %d: not deterministic", seed)
		}
		d := NewGenerator(cfg).Config().MaxDisorder.Milliseconds()
		if cfg.MaxDisorder == 0 {
			d = 2000
		}
		var persons, auctions int64
		var maxSeen int64
		for i, ev := range evs {
			if ev.N != int64(i) || ev.Kind != KindOf(int64(i)) {
				t.Fatalf("seed %d: event %d is %v #%d", seed, i, ev.Kind, ev.N)
			}
			switch ev.Kind {
			case PersonKind:
				if ev.Person.ID != FirstPersonID+persons {
					t.Fatalf("seed %d: person id %d", seed, ev.Person.ID)
				}
				persons++
			case AuctionKind:
				a := ev.Auction
				if a.ID != FirstAuctionID+auctions || a.Seller < FirstPersonID || a.Seller >= FirstPersonID+persons ||
					a.Expires <= a.DateTime || a.Reserve < a.InitialBid || a.Category < FirstCategoryID || a.Category >= FirstCategoryID+NumCategories {
					t.Fatalf("seed %d: bad auction %+v (persons so far %d)", seed, *a, persons)
				}
				auctions++
			case BidKind:
				b := ev.Bid
				if b.Auction < FirstAuctionID || b.Auction >= FirstAuctionID+auctions || b.Bidder < FirstPersonID || b.Bidder >= FirstPersonID+persons || b.Price <= 0 {
					t.Fatalf("seed %d: bad bid %+v", seed, *b)
				}
			}
			dt := ev.DateTime()
			if i > 0 && maxSeen-dt > d {
				t.Fatalf("seed %d: event %d at %d, %dms behind an earlier one (bound %d)", seed, i, dt, maxSeen-dt, d)
			}
			maxSeen = max(maxSeen, dt)
		}
		p, a, _ := Count(cfg.Events)
		if p != persons || a != auctions {
			t.Fatalf("seed %d: %d persons %d auctions, want %d %d", seed, persons, auctions, p, a)
		}
	}
	if show(all(Config{Seed: 1, Events: 60})) == show(all(Config{Seed: 2, Events: 60})) {
		t.Fatal("the seed changes nothing")
	}
}

// TestDisorderIsPresent: the default disorder actually reorders events.
func TestDisorderIsPresent(t *testing.T) {
	evs := all(Config{Seed: 3, Events: 5000})
	inversions := 0
	for i := 1; i < len(evs); i++ {
		if evs[i].DateTime() < evs[i-1].DateTime() {
			inversions++
		}
	}
	if inversions < len(evs)/10 {
		t.Fatalf("only %d of %d adjacent pairs out of order", inversions, len(evs))
	}
	for i, ev := range all(Config{Seed: 3, Events: 500, MaxDisorder: -1}) {
		if i > 0 && ev.DateTime() < NewGenerator(Config{}).NominalTime(int64(i-1)) {
			t.Fatal("MaxDisorder < 0 still disorders")
		}
	}
}

func readTable(t *testing.T, fsys store.FS, names []string, f format.Format, schema *arrow.Schema) []arrow.RecordBatch {
	t.Helper()
	var out []arrow.RecordBatch
	for _, n := range names {
		obj, err := fsys.Open(context.Background(), n)
		if err != nil {
			t.Fatal(err)
		}
		r, err := format.Open(obj, n, f, schema, format.Options{})
		if err != nil {
			t.Fatal(err)
		}
		for {
			rec, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, rec)
		}
		r.Close()
	}
	return out
}

// TestWriteReadsBack writes Parquet and CSV parts, reads every table back
// through rt/format with the declared schema, and compares with the
// generator's events, row for row.
func TestWriteReadsBack(t *testing.T) {
	dir := t.TempDir()
	fsys, _ := store.NewLocal(dir)
	cfg := Config{Seed: 9, Events: 2345}
	sum, err := Write(context.Background(), fsys, cfg, WriteOptions{Formats: []format.Format{format.Parquet, format.CSV}, EventsPerFile: 500})
	if err != nil {
		t.Fatal(err)
	}
	p, a, b := Count(cfg.Events)
	if sum.Persons != p || sum.Auctions != a || sum.Bids != b {
		t.Fatalf("summary %+v, want %d/%d/%d", sum, p, a, b)
	}
	evs := all(cfg)
	for _, f := range []format.Format{format.Parquet, format.CSV} {
		list, err := fsys.List(context.Background(), TableDir(BidKind, f)+"/")
		if err != nil {
			t.Fatal(err)
		}
		if len(list) != 5 { // 2345 events in parts of 500
			t.Fatalf("%v: %d bid parts, want 5", f, len(list))
		}
		var names []string
		for _, l := range list {
			names = append(names, l.Name)
		}
		var bids []*Bid
		for _, ev := range evs {
			if ev.Kind == BidKind {
				bids = append(bids, ev.Bid)
			}
		}
		i := 0
		for _, rec := range readTable(t, fsys, names, f, BidSchema) {
			auc := rec.Column(0).(*array.Int64)
			price := rec.Column(2).(*array.Int64)
			ch := rec.Column(3).(*array.String)
			dt := rec.Column(5).(*array.Timestamp)
			for r := 0; r < int(rec.NumRows()); r++ {
				w := bids[i]
				if auc.Value(r) != w.Auction || price.Value(r) != w.Price || ch.Value(r) != w.Channel || int64(dt.Value(r)) != w.DateTime {
					t.Fatalf("%v bid %d: read %d %d %q %d, generated %+v", f, i, auc.Value(r), price.Value(r), ch.Value(r), dt.Value(r), *w)
				}
				i++
			}
			rec.Release()
		}
		if i != len(bids) {
			t.Fatalf("%v: read %d bids, generated %d", f, i, len(bids))
		}
		pl, _ := fsys.List(context.Background(), TableDir(PersonKind, f)+"/")
		var pn []string
		for _, l := range pl {
			pn = append(pn, l.Name)
		}
		rows := int64(0)
		for _, rec := range readTable(t, fsys, pn, f, PersonSchema) {
			rows += rec.NumRows()
			rec.Release()
		}
		if rows != p {
			t.Fatalf("%v: %d persons read, %d written", f, rows, p)
		}
	}
	// No temporary file is left behind.
	filepath.WalkDir(dir, func(path string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() && filepath.Base(path)[0] == '.' {
			t.Errorf("temporary file left: %s", path)
		}
		return nil
	})
}

// TestWriteIsDeterministic: the same seed writes byte-identical files.
func TestWriteIsDeterministic(t *testing.T) {
	var data [2][]byte
	for i := range data {
		dir := t.TempDir()
		fsys, _ := store.NewLocal(dir)
		sum, err := Write(context.Background(), fsys, Config{Seed: 4, Events: 700}, WriteOptions{EventsPerFile: 300, Formats: []format.Format{format.Parquet, format.CSV}})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range sum.Files {
			b, _, err := fsys.ReadFile(context.Background(), n)
			if err != nil {
				t.Fatal(err)
			}
			data[i] = append(data[i], []byte(n)...)
			data[i] = append(data[i], b...)
		}
	}
	if !bytes.Equal(data[0], data[1]) {
		t.Fatal("two runs with one seed wrote different files")
	}
}

// TestWriteKinds: writing the tables one call per kind gives the files of
// one call writing them all, and a call writes only its kinds.
func TestWriteKinds(t *testing.T) {
	ctx := context.Background()
	cfg := Config{Seed: 4, Events: 700}
	read := func(fsys store.FS, names []string) map[string]string {
		out := map[string]string{}
		for _, n := range names {
			b, _, err := fsys.ReadFile(ctx, n)
			if err != nil {
				t.Fatal(err)
			}
			out[n] = string(b)
		}
		return out
	}
	whole, _ := store.NewLocal(t.TempDir())
	sum, err := Write(ctx, whole, cfg, WriteOptions{EventsPerFile: 300})
	if err != nil {
		t.Fatal(err)
	}
	want := read(whole, sum.Files)
	split, _ := store.NewLocal(t.TempDir())
	got := map[string]string{}
	for _, kinds := range [][]Kind{{PersonKind}, {AuctionKind, BidKind}} {
		sum, err := Write(ctx, split, cfg, WriteOptions{EventsPerFile: 300, Kinds: kinds})
		if err != nil {
			t.Fatal(err)
		}
		for n, b := range read(split, sum.Files) {
			if dir, _, _ := strings.Cut(n, "/"); !slices.ContainsFunc(kinds, func(k Kind) bool { return k.String() == dir }) {
				t.Errorf("Kinds %v wrote %s", kinds, n)
			}
			got[n] = b
		}
		if kinds[0] == PersonKind && (sum.Persons == 0 || sum.Auctions != 0 || sum.Bids != 0) {
			t.Errorf("Kinds %v: summary %+v", kinds, sum)
		}
	}
	if len(got) != len(want) {
		t.Fatalf("split writes wrote %d files, one write %d", len(got), len(want))
	}
	for n, b := range want {
		if got[n] != b {
			t.Errorf("%s differs between the split writes and one write", n)
		}
	}
}

func TestWriteRefusesFormat(t *testing.T) {
	fsys, _ := store.NewLocal(t.TempDir())
	if _, err := Write(context.Background(), fsys, Config{Events: 10}, WriteOptions{Formats: []format.Format{format.Arrow}}); err == nil {
		t.Fatal("arrow accepted")
	}
}
