package crashtest

import (
	"bytes"
	"fmt"
	"io"
	"math/rand"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/nordisk/thund/rt/format"
)

func init() {
	scenarios = append(scenarios, windowsScenario)
}

// windowsScenario is examples/nexmark_windows: tumbling windows emitted on
// close with a late table, hopping windows in update mode, session windows,
// a stream–table join and an interval join of two streams. Bids arrive as
// Parquet, people as JSON lines, auctions are a bounded table. Event times
// are out of order by at most 1s, well within the watermark delay, so no
// row is late whatever the batches; bidders are the four newest people, so
// older bidders' sessions close; update mode's changelog depends on the
// micro-batches, so each step is one batch, as in the uninterrupted run.
var windowsScenario = &scenario{
	name: "windows", src: repoRoot + "/examples/nexmark_windows", source: "bids", sameBatches: true,
	inputs: func(t *testing.T, rng *rand.Rand) (fixed, feed []inputFile) {
		t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
		ts := func(d time.Duration) string { return t0.Add(d).Format("2006-01-02 15:04:05.000") }
		const auctions, people = 40, 12
		var rows []string
		for id := 1; id <= auctions; id++ {
			rows = append(rows, fmt.Sprintf("%d,%d,%d,%d,%s", id, 1+rng.Intn(people), rng.Intn(5), 100*rng.Intn(20), ts(time.Hour)))
		}
		fixed = []inputFile{{path: "data/auctions/auctions.parquet", rows: auctions, source: "auctions",
			data: parquetFromCSV(t, "id,seller,category,reserve,expires", rows,
				`id int64 not null, seller int64, category int64, reserve int64, expires ts`)}}
		clock := time.Duration(0)
		person := 0
		for i := range 14 {
			if i%3 == 0 && person < people {
				var lines []string
				for range 4 {
					person++
					lines = append(lines, fmt.Sprintf(`{"id": %d, "name": "p%d", "date_time": "%s"}`, person, person, ts(clock)))
				}
				feed = append(feed, inputFile{path: fmt.Sprintf("data/people/%04d.jsonl", i), rows: 4, source: "people",
					data: []byte(strings.Join(lines, "\n") + "\n")})
			}
			var bids []string
			for range 30 {
				clock += time.Duration(100+rng.Intn(400)) * time.Millisecond
				at := clock - time.Duration(rng.Intn(1000))*time.Millisecond
				bids = append(bids, fmt.Sprintf("%d,%d,%d,%s,%s", 1+rng.Intn(auctions), max(1, person-3+rng.Intn(4)), 1+rng.Intn(5000),
					[]string{"web", "app", "api"}[rng.Intn(3)], ts(at)))
			}
			feed = append(feed, inputFile{path: fmt.Sprintf("data/bids/%04d.parquet", i), rows: int64(len(bids)), source: "bids",
				data: parquetFromCSV(t, "auction,bidder,price,channel,date_time", bids,
					`auction int64, bidder int64, price int64, channel string, date_time ts`)})
		}
		return fixed, feed
	},
	read:    []string{"bids_eur", "bids_per_window", "hot_items", "bidder_sessions", "bids_by_category", "new_bidders"},
	streams: []string{"bids_eur/bids_eur"},
}

// parquetFromCSV converts CSV rows to a Parquet file of the declared
// columns ("name type, ...": int64, string, ts for timestamp(us, "UTC"), "not null").
func parquetFromCSV(t *testing.T, header string, rows []string, decl string) []byte {
	t.Helper()
	var fields []arrow.Field
	for _, col := range strings.Split(decl, ", ") {
		name, typ, _ := strings.Cut(col, " ")
		f := arrow.Field{Name: name, Nullable: !strings.HasSuffix(typ, " not null")}
		switch strings.TrimSuffix(typ, " not null") {
		case "int64":
			f.Type = arrow.PrimitiveTypes.Int64
		case "string":
			f.Type = arrow.BinaryTypes.String
		case "ts":
			f.Type = &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "UTC"}
		default:
			t.Fatalf("parquetFromCSV: type %q", typ)
		}
		fields = append(fields, f)
	}
	schema := arrow.NewSchema(fields, nil)
	text := header + "\n" + strings.Join(rows, "\n") + "\n"
	r, err := format.Open(bytesObject{bytes.NewReader([]byte(text))}, "generated.csv", format.CSV, schema, format.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	var buf bytes.Buffer
	w, err := format.NewWriter(&buf, format.Parquet, schema, format.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	for {
		rec, err := r.Next()
		if err == io.EOF {
			break
		}
		if err != nil {
			t.Fatal(err)
		}
		err = w.Write(rec)
		rec.Release()
		if err != nil {
			t.Fatal(err)
		}
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

type bytesObject struct{ *bytes.Reader }

func (bytesObject) Close() error { return nil }
