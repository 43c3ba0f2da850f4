package format

import (
	"bytes"
	"encoding/binary"
	"strings"
	"testing"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/nordisk/thund/internal/fuzzbudget"
)

// Arrow IPC metadata is a flatbuffer that arrow-go decodes unchecked: a
// vector length it makes a slice of, a compressed buffer's length it
// allocates before decompressing. Before the reader checked them
// (ipcverify.go, ipcmessages.go), each corruption below took the process
// down with "fatal error: out of memory", which no recover catches.

// ipcMessageAt is one message of an IPC stream: where its metadata and
// its body start, and what the metadata says.
type ipcMessageAt struct {
	meta, body int
	info       ipcMeta
}

// ipcMessagesOf lists the messages of stream, an IPC stream (or the
// stream an IPC file holds after its 8 bytes of magic).
func ipcMessagesOf(t *testing.T, stream []byte, from int) []ipcMessageAt {
	var out []ipcMessageAt
	for off := from; off+8 <= len(stream); {
		size := int(binary.LittleEndian.Uint32(stream[off+4:]))
		if size == 0 {
			break
		}
		info, err := verifyIPCMessage(stream[off+8 : off+8+size])
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, ipcMessageAt{meta: off + 8, body: off + 8 + size, info: info})
		off += 8 + size + int(info.bodyLen)
	}
	return out
}

// ipcFile writes rec as an IPC file with opts.
func ipcFile(t testing.TB, rec arrow.RecordBatch, opts ...ipc.Option) []byte {
	var buf bytes.Buffer
	w, err := ipc.NewFileWriter(&buf, append(opts, ipc.WithSchema(rec.Schema()))...)
	if err != nil {
		t.Fatal(err)
	}
	if err := w.Write(rec); err != nil {
		t.Fatal(err)
	}
	if err := w.Close(); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

func TestIPCHostileMetadata(t *testing.T) {
	rec := sampleBatch(memory.DefaultAllocator)
	defer rec.Release()
	plain := ipcFile(t, rec)
	lz4 := ipcFile(t, rec, ipc.WithLZ4())
	for _, c := range []struct {
		about string
		file  []byte
		spoil func(t *testing.T, b []byte)
		want  string
	}{
		{"a field's children", plain, func(t *testing.T, b []byte) {
			// the first field's children vector claims 2^30 fields
			m := ipcMessagesOf(t, b, 8)[0]
			meta := b[m.meta:m.body]
			c := newFBCheck(meta)
			msg, _ := c.root("")
			hdr, _ := c.subtable(msg, 2, "")
			start, _ := c.vector(hdr, 1, 4, "")
			f, _ := c.table(c.follow(start, ""), "")
			v := c.ref(f, 5, "")
			binary.LittleEndian.PutUint32(meta[v:], 1<<30)
		}, "x.arrow: not a readable Arrow IPC file or stream: arrow/ipc: could not read message schema: " +
			"message 1: malformed metadata: a field's children of 1073741824 elements does not fit in the buffer"},
		{"a compressed buffer's length", lz4, func(t *testing.T, b []byte) {
			// the first compressed buffer of the batch claims 2^40 bytes
			for _, m := range ipcMessagesOf(t, b, 8) {
				if m.info.typ == ipcRecordBatch {
					for _, buf := range m.info.batch.buffers {
						if buf[1] > 0 {
							binary.LittleEndian.PutUint64(b[m.body+int(buf[0]):], 1<<40)
							return
						}
					}
				}
			}
			t.Fatal("no compressed buffer")
		}, "x.arrow: record batch 1: message 2: compressed buffer 0: decompresses to 4 bytes, not the 1099511627776 it claims"},
		{"a message's body length", plain, func(t *testing.T, b []byte) {
			m := ipcMessagesOf(t, b, 8)[1]
			c := newFBCheck(b[m.meta:m.body])
			msg, _ := c.root("")
			binary.LittleEndian.PutUint64(b[m.meta+c.slot(msg, 3, 8, ""):], 1<<40)
		}, "x.arrow: record batch 1: message 2: body of 1099511627776 bytes, but the file has "},
		{"a buffer's offset", plain, func(t *testing.T, b []byte) {
			m := ipcMessagesOf(t, b, 8)[1]
			c := newFBCheck(b[m.meta:m.body])
			msg, _ := c.root("")
			hdr, _ := c.subtable(msg, 2, "")
			start, _ := c.vector(hdr, 2, 16, "")
			binary.LittleEndian.PutUint64(b[m.meta+int(start)+16:], 1<<40)
		}, "x.arrow: record batch 1: message 2: buffer 1 of "},
	} {
		b := bytes.Clone(c.file)
		c.spoil(t, b)
		for pass := range 2 {
			var err error
			fuzzbudget.Check(t, 0, func() int64 {
				recs, e := readBytes(b, "x.arrow", Arrow, allTypes, Options{})
				release(recs)
				err = e
				return 0
			})
			if err == nil || !strings.HasPrefix(err.Error(), c.want) {
				t.Errorf("%s (pass %d):\n got %v\nwant %s...", c.about, pass, err, c.want)
			}
		}
	}
}

// The checks refuse nothing a writer writes: dictionaries (with a delta),
// nested and parametrized types, metadata, compressed bodies, through the
// stream and the file reader.
func TestIPCMessagesAcceptValid(t *testing.T) {
	mem := memory.DefaultAllocator
	dictType := &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int32, ValueType: arrow.BinaryTypes.String}
	schema := arrow.NewSchema([]arrow.Field{
		{Name: "d", Type: dictType, Nullable: true},
		{Name: "l", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true},
		{Name: "s", Type: arrow.StructOf(arrow.Field{Name: "a", Type: arrow.PrimitiveTypes.Int64}, arrow.Field{Name: "b", Type: arrow.BinaryTypes.String, Nullable: true})},
		{Name: "m", Type: arrow.MapOf(arrow.BinaryTypes.String, arrow.PrimitiveTypes.Float64), Nullable: true},
		{Name: "f", Type: &arrow.FixedSizeBinaryType{ByteWidth: 3}, Nullable: true},
		{Name: "u", Type: arrow.DenseUnionOf([]arrow.Field{{Name: "i", Type: arrow.PrimitiveTypes.Int32}, {Name: "t", Type: arrow.BinaryTypes.String}}, []arrow.UnionTypeCode{2, 5})},
		{Name: "ts", Type: &arrow.TimestampType{Unit: arrow.Microsecond, TimeZone: "Europe/Oslo"}, Nullable: true,
			Metadata: arrow.NewMetadata([]string{"k"}, []string{"v"})},
	}, ptrMeta(arrow.NewMetadata([]string{"schema"}, []string{"meta"})))
	batch := func(words ...string) arrow.RecordBatch {
		b := array.NewRecordBuilder(mem, schema)
		defer b.Release()
		for i, w := range words {
			b.Field(0).(*array.BinaryDictionaryBuilder).AppendString(w)
			lb := b.Field(1).(*array.ListBuilder)
			lb.Append(true)
			lb.ValueBuilder().(*array.Int64Builder).AppendValues([]int64{int64(i), 7}, nil)
			sb := b.Field(2).(*array.StructBuilder)
			sb.Append(true)
			sb.FieldBuilder(0).(*array.Int64Builder).Append(int64(i))
			sb.FieldBuilder(1).(*array.StringBuilder).Append(w)
			mb := b.Field(3).(*array.MapBuilder)
			mb.Append(true)
			mb.KeyBuilder().(*array.StringBuilder).Append(w)
			mb.ItemBuilder().(*array.Float64Builder).Append(0.5)
			b.Field(4).(*array.FixedSizeBinaryBuilder).Append([]byte("abc"))
			ub := b.Field(5).(*array.DenseUnionBuilder)
			ub.Append(2)
			ub.Child(0).(*array.Int32Builder).Append(int32(i))
			b.Field(6).(*array.TimestampBuilder).Append(arrow.Timestamp(i))
		}
		return b.NewRecordBatch()
	}
	recs := []arrow.RecordBatch{batch("a", "b", "a"), batch("c", "a")}
	defer release(recs)
	for _, opts := range [][]ipc.Option{nil, {ipc.WithLZ4()}, {ipc.WithZstd()}} {
		var stream bytes.Buffer
		w := ipc.NewWriter(&stream, append(opts, ipc.WithSchema(schema), ipc.WithDictionaryDeltas(true))...)
		for _, r := range recs {
			if err := w.Write(r); err != nil {
				t.Fatal(err)
			}
		}
		w.Close()
		var file bytes.Buffer
		fw, err := ipc.NewFileWriter(&file, append(opts, ipc.WithSchema(schema))...)
		if err != nil {
			t.Fatal(err)
		}
		if err := fw.Write(recs[0]); err != nil { // a file holds one dictionary per field
			t.Fatal(err)
		}
		fw.Close()
		fs, size, err := ipcFileStream(bytes.NewReader(file.Bytes()), int64(file.Len()))
		if err != nil {
			t.Fatal(err)
		}
		for k, src := range []*ipcMessages{
			newIPCMessages(bytes.NewReader(stream.Bytes()), int64(stream.Len()), mem),
			newIPCMessages(bytes.NewReader(stream.Bytes()), -1, mem),
			newIPCMessages(fs, size, mem),
		} {
			want := recs
			if k == 2 {
				want = recs[:1]
			}
			r, err := ipc.NewReaderFromMessageReader(src, ipc.WithAllocator(mem))
			if err != nil {
				t.Fatalf("%d options: %v", len(opts), err)
			}
			i := 0
			for r.Next() {
				if err := validateBatch(r.RecordBatch()); err != nil {
					t.Errorf("%d options: batch %d: %v", len(opts), i, err)
				}
				if i >= len(want) || !array.RecordEqual(r.RecordBatch(), want[i]) {
					t.Errorf("%d options: batch %d differs", len(opts), i)
				}
				i++
			}
			if r.Err() != nil || i != len(want) {
				t.Errorf("%d options: %d batches, error %v", len(opts), i, r.Err())
			}
			r.Release()
		}
	}
}

func ptrMeta(m arrow.Metadata) *arrow.Metadata { return &m }
