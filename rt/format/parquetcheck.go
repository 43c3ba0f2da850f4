package format

import (
	"errors"
	"fmt"
	"runtime"
	"strings"

	"github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/metadata"
	"github.com/apache/arrow-go/v18/parquet/schema"
)

// A Parquet file is untrusted input: its footer, row groups and page
// headers hold lengths, offsets and counts that a malformed (or hostile)
// file sets to anything. The reader checks each against the bytes that
// hold it before it allocates anything of that size (parquetfooter.go for
// what arrow-go reads, rt/format/pqfast for the pages it decodes), and an
// error says which file, row group and column, and what was wrong.
//
// arrow-go's own reader (file, metadata, pqarrow) panics on some malformed
// input, and pqarrow turns the panics of its column readers into errors
// carrying the Go runtime's text. guardParquet catches the first and
// parquetErr rewrites the second: neither crashes the process nor reaches
// the user as a Go runtime message.

// guardParquet runs f, a call into arrow-go's Parquet reader about what
// ("the footer", "row group 3"), and turns a panic of it into an error.
func guardParquet(what string, f func() error) (err error) {
	defer func() {
		if p := recover(); p != nil {
			err = parquetPanic(what, p)
		}
	}()
	return f()
}

// parquetPanic is the error of a panic of arrow-go's reader on a malformed
// file: arrow-go's own message when it panicked with one, never a Go
// runtime error's.
func parquetPanic(what string, p any) error {
	var msg string
	switch v := p.(type) {
	case runtime.Error:
	case error:
		msg = v.Error()
	case string:
		msg = v
	}
	if msg == "" {
		return fmt.Errorf("%s is malformed (the Parquet reader could not decode it)", what)
	}
	return fmt.Errorf("%s is malformed: %s", what, msg)
}

// parquetErr is err, an error of arrow-go's reader about what, with a
// panic that pqarrow recovered from (its "panic while reading: ...", of a
// Go runtime error or of arrow-go's own message) replaced by
// parquetPanic's message.
func parquetErr(what string, err error) error {
	var pe *pageError
	if errors.As(err, &pe) {
		return pe // the guard's (parquetpages.go), wrapped by arrow-go
	}
	var re runtime.Error
	if err != nil && errors.As(err, &re) {
		return parquetPanic(what, re)
	}
	if err != nil {
		if msg := err.Error(); strings.Contains(msg, pqarrowPanic) {
			return parquetPanic(what, msg[strings.Index(msg, pqarrowPanic)+len(pqarrowPanic):])
		}
	}
	return err
}

// pqarrowPanic starts the error pqarrow makes of a panic it recovered.
const pqarrowPanic = "panic while reading: "

// checkParquetFooter checks what the footer of a Parquet file of size
// bytes says of the leaves the reader reads, before arrow-go or pqfast
// reads anything by it: each column chunk lies between the leading magic
// and the footer, sizes and counts are not negative, and a flat column's
// chunk holds exactly its row group's rows. It returns the largest page
// the chunks may hold, compressed and uncompressed: the limits of
// arrow-go's page reader, which allocates a page's stated sizes before it
// reads the page.
func checkParquetFooter(md *metadata.FileMetaData, size int64, leaves []int, guard *pageGuard) (maxCompressed, maxUncompressed int64, err error) {
	end := size - 8 - int64(md.Size()) // where the footer starts
	pad := int64(0)
	if md.WriterVersion().LessThan(metadata.Parquet816FixedVersion) {
		pad = 100 // as pqarrow: old parquet-mr left dictionary page headers out of the sizes
	}
	for g := range md.NumRowGroups() {
		rg := md.RowGroup(g)
		rows := rg.NumRows()
		if rows < 0 {
			return 0, 0, fmt.Errorf("row group %d has %d rows", g, rows)
		}
		for _, leaf := range leaves {
			col := md.Schema.Column(leaf)
			cc, err := rg.ColumnChunk(leaf)
			if err != nil {
				return 0, 0, fmt.Errorf("column %s, row group %d: %w", col.Path(), g, err)
			}
			at := func(format string, args ...any) error {
				return fmt.Errorf("column %s, row group %d: %s", col.Path(), g, fmt.Sprintf(format, args...))
			}
			start, length := cc.DataPageOffset(), cc.TotalCompressedSize()
			if d := cc.DictionaryPageOffset(); cc.HasDictionaryPage() && d > 0 && d < start {
				start = d
			}
			if start < 4 || length < 0 || start > end || length > end-start {
				return 0, 0, at("a column chunk of %d bytes at offset %d is outside the file's data (bytes 4 to %d)", length, start, end)
			}
			unc, values := cc.TotalUncompressedSize(), cc.NumValues()
			if unc < 0 {
				return 0, 0, at("a column chunk of %d bytes uncompressed", unc)
			}
			if flat := col.MaxRepetitionLevel() == 0; flat && values != rows || !flat && values < rows {
				return 0, 0, at("%d values in a row group of %d rows", values, rows)
			}
			maxCompressed = max(maxCompressed, length+pad)
			if r := maxExpansion(cc.Compression()); r > 0 {
				unc = min(unc, r*length)
			}
			maxUncompressed = max(maxUncompressed, unc+pad)
			if guard != nil {
				guard.add(col.Path(), g, start, start+length+min(pad, size-start-length), unc+pad, values, plainWidth(col))
			}
		}
	}
	return maxCompressed, maxUncompressed, nil
}

// maxExpansion is how many times its size a page compressed with c can
// decode to, at most (0: no useful bound): Snappy's copies reach 64 bytes
// for 3, LZ4's 255 for 1, deflate's 258 for 2 bits.
func maxExpansion(c compress.Compression) int64 {
	switch c {
	case compress.Codecs.Uncompressed:
		return 1
	case compress.Codecs.Snappy:
		return 32
	case compress.Codecs.Lz4, compress.Codecs.Lz4Raw:
		return 256
	case compress.Codecs.Gzip:
		return 1040
	}
	return 0
}

// plainWidth is the fewest bytes a PLAIN-encoded value of col takes.
func plainWidth(col *schema.Column) int64 {
	switch col.PhysicalType() {
	case parquet.Types.Int32, parquet.Types.Float, parquet.Types.ByteArray: // a byte array's length
		return 4
	case parquet.Types.Int64, parquet.Types.Double:
		return 8
	case parquet.Types.Int96:
		return 12
	case parquet.Types.FixedLenByteArray:
		return int64(max(col.TypeLength(), 1))
	}
	return 1
}
