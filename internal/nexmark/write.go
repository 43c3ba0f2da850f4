package nexmark

import (
	"context"
	"fmt"
	"path"
	"slices"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/rt/format"
	"github.com/nordisk/thund/rt/store"
)

var tsMS = &arrow.TimestampType{Unit: arrow.Millisecond}

// The tables' Arrow schemas.
var (
	PersonSchema = arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "name", Type: arrow.BinaryTypes.String},
		{Name: "email_address", Type: arrow.BinaryTypes.String},
		{Name: "credit_card", Type: arrow.BinaryTypes.String},
		{Name: "city", Type: arrow.BinaryTypes.String},
		{Name: "state", Type: arrow.BinaryTypes.String},
		{Name: "date_time", Type: tsMS},
		{Name: "extra", Type: arrow.BinaryTypes.String},
	}, nil)
	AuctionSchema = arrow.NewSchema([]arrow.Field{
		{Name: "id", Type: arrow.PrimitiveTypes.Int64},
		{Name: "item_name", Type: arrow.BinaryTypes.String},
		{Name: "description", Type: arrow.BinaryTypes.String},
		{Name: "initial_bid", Type: arrow.PrimitiveTypes.Int64},
		{Name: "reserve", Type: arrow.PrimitiveTypes.Int64},
		{Name: "date_time", Type: tsMS},
		{Name: "expires", Type: tsMS},
		{Name: "seller", Type: arrow.PrimitiveTypes.Int64},
		{Name: "category", Type: arrow.PrimitiveTypes.Int64},
		{Name: "extra", Type: arrow.BinaryTypes.String},
	}, nil)
	BidSchema = arrow.NewSchema([]arrow.Field{
		{Name: "auction", Type: arrow.PrimitiveTypes.Int64},
		{Name: "bidder", Type: arrow.PrimitiveTypes.Int64},
		{Name: "price", Type: arrow.PrimitiveTypes.Int64},
		{Name: "channel", Type: arrow.BinaryTypes.String},
		{Name: "url", Type: arrow.BinaryTypes.String},
		{Name: "date_time", Type: tsMS},
		{Name: "extra", Type: arrow.BinaryTypes.String},
	}, nil)
)

// Schema is the schema of a kind's table.
func Schema(k Kind) *arrow.Schema {
	switch k {
	case PersonKind:
		return PersonSchema
	case AuctionKind:
		return AuctionSchema
	}
	return BidSchema
}

// WriteOptions lay out generated files.
type WriteOptions struct {
	// Formats to write; default Parquet only. Each format gets its own
	// folders: <table> for Parquet, <table>_<format> for the others.
	Formats []format.Format
	// EventsPerFile: each part file holds the events of one run of this many
	// consecutive events (so a table's parts cut the stream in event order).
	// Default 10000.
	EventsPerFile int64
	// Kinds, when set, are the only tables written: the others' parts are
	// generated (the event stream is the same) but not written. A test lands
	// one table's files before another's this way.
	Kinds []Kind
}

// Summary says what Write wrote.
type Summary struct {
	Persons, Auctions, Bids int64
	Files                   []string // names in the store, in write order
}

// TableDir is the folder of kind k's files in format f.
func TableDir(k Kind, f format.Format) string {
	if f == format.Parquet {
		return k.String()
	}
	return k.String() + "_" + f.String()
}

// PartName is the name of part i of kind k's table in format f.
func PartName(k Kind, f format.Format, i int) string {
	return path.Join(TableDir(k, f), fmt.Sprintf("part-%05d%s", i, f.Ext()))
}

// Write generates cfg's events into fsys. Every file is published whole
// (store.Writer.Commit: a hidden temporary name, then a rename), so a watched
// folder never sees a part of one. A part with no event of a table is not
// written for that table.
func Write(ctx context.Context, fsys store.FS, cfg Config, opts WriteOptions) (Summary, error) {
	if len(opts.Formats) == 0 {
		opts.Formats = []format.Format{format.Parquet}
	}
	for _, f := range opts.Formats {
		if f != format.Parquet && f != format.CSV && f != format.JSONL {
			return Summary{}, fmt.Errorf("nexmark: format %v not supported (want parquet, csv or jsonl)", f)
		}
	}
	if opts.EventsPerFile <= 0 {
		opts.EventsPerFile = 10000
	}
	g := NewGenerator(cfg)
	var sum Summary
	mem := memory.NewGoAllocator()
	for part := 0; ; part++ {
		b := newBuilders(mem)
		n := int64(0)
		for ; n < opts.EventsPerFile; n++ {
			ev, ok := g.Next()
			if !ok {
				break
			}
			b.add(ev)
		}
		if n == 0 {
			b.release()
			break
		}
		recs := b.records()
		for k, rec := range recs {
			if rec.NumRows() == 0 || (len(opts.Kinds) > 0 && !slices.Contains(opts.Kinds, Kind(k+1))) {
				continue
			}
			switch Kind(k + 1) {
			case PersonKind:
				sum.Persons += rec.NumRows()
			case AuctionKind:
				sum.Auctions += rec.NumRows()
			default:
				sum.Bids += rec.NumRows()
			}
			for _, f := range opts.Formats {
				name := PartName(Kind(k+1), f, part)
				if err := writeFile(ctx, fsys, name, f, rec); err != nil {
					for _, r := range recs {
						r.Release()
					}
					return sum, err
				}
				sum.Files = append(sum.Files, name)
			}
		}
		for _, r := range recs {
			r.Release()
		}
		if n < opts.EventsPerFile {
			break
		}
	}
	return sum, nil
}

func writeFile(ctx context.Context, fsys store.FS, name string, f format.Format, rec arrow.RecordBatch) error {
	w, err := fsys.Create(ctx, name)
	if err != nil {
		return err
	}
	fw, err := format.NewWriter(w, f, rec.Schema(), format.WriteOptions{})
	if err != nil {
		w.Abort()
		return err
	}
	if err := fw.Write(rec); err != nil {
		w.Abort()
		return fmt.Errorf("%s: %w", fsys.Location(name), err)
	}
	if err := fw.Close(); err != nil {
		w.Abort()
		return fmt.Errorf("%s: %w", fsys.Location(name), err)
	}
	return w.Commit()
}

type builders struct {
	p, a, b *array.RecordBuilder
}

func newBuilders(mem memory.Allocator) *builders {
	return &builders{
		p: array.NewRecordBuilder(mem, PersonSchema),
		a: array.NewRecordBuilder(mem, AuctionSchema),
		b: array.NewRecordBuilder(mem, BidSchema),
	}
}

func (b *builders) add(ev Event) {
	switch ev.Kind {
	case PersonKind:
		p, f := ev.Person, b.p.Fields()
		f[0].(*array.Int64Builder).Append(p.ID)
		f[1].(*array.StringBuilder).Append(p.Name)
		f[2].(*array.StringBuilder).Append(p.EmailAddress)
		f[3].(*array.StringBuilder).Append(p.CreditCard)
		f[4].(*array.StringBuilder).Append(p.City)
		f[5].(*array.StringBuilder).Append(p.State)
		f[6].(*array.TimestampBuilder).Append(arrow.Timestamp(p.DateTime))
		f[7].(*array.StringBuilder).Append(p.Extra)
	case AuctionKind:
		a, f := ev.Auction, b.a.Fields()
		f[0].(*array.Int64Builder).Append(a.ID)
		f[1].(*array.StringBuilder).Append(a.ItemName)
		f[2].(*array.StringBuilder).Append(a.Description)
		f[3].(*array.Int64Builder).Append(a.InitialBid)
		f[4].(*array.Int64Builder).Append(a.Reserve)
		f[5].(*array.TimestampBuilder).Append(arrow.Timestamp(a.DateTime))
		f[6].(*array.TimestampBuilder).Append(arrow.Timestamp(a.Expires))
		f[7].(*array.Int64Builder).Append(a.Seller)
		f[8].(*array.Int64Builder).Append(a.Category)
		f[9].(*array.StringBuilder).Append(a.Extra)
	case BidKind:
		x, f := ev.Bid, b.b.Fields()
		f[0].(*array.Int64Builder).Append(x.Auction)
		f[1].(*array.Int64Builder).Append(x.Bidder)
		f[2].(*array.Int64Builder).Append(x.Price)
		f[3].(*array.StringBuilder).Append(x.Channel)
		f[4].(*array.StringBuilder).Append(x.URL)
		f[5].(*array.TimestampBuilder).Append(arrow.Timestamp(x.DateTime))
		f[6].(*array.StringBuilder).Append(x.Extra)
	}
}

// records returns the person, auction and bid batches and releases the
// builders.
func (b *builders) records() [3]arrow.RecordBatch {
	out := [3]arrow.RecordBatch{b.p.NewRecordBatch(), b.a.NewRecordBatch(), b.b.NewRecordBatch()}
	b.release()
	return out
}

func (b *builders) release() {
	b.p.Release()
	b.a.Release()
	b.b.Release()
}
