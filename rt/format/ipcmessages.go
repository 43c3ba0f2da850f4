package format

import (
	"bytes"
	"encoding/base64"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"sync/atomic"

	"github.com/apache/arrow-go/v18/arrow/ipc"
	"github.com/apache/arrow-go/v18/arrow/memory"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// ipcMessages reads the messages of an Arrow IPC stream (or of the stream
// an IPC file holds before its footer) for arrow-go's ipc.Reader, checking
// each before arrow-go decodes it: the metadata's length and the body's
// against the bytes left in the source, the metadata's flatbuffer
// (ipcverify.go), every buffer against the body, and the length a
// compressed buffer claims against its compressed frame. Allocation follows
// what the source holds: a stream of unknown size (stdin) is read a piece
// at a time, never at a length the stream claims.
type ipcMessages struct {
	r    io.Reader
	left int64 // bytes the source still holds; -1 when unknown
	mem  memory.Allocator
	n    int // messages read
	msg  *ipc.Message
	refs atomic.Int64
}

var _ ipc.MessageReader = (*ipcMessages)(nil)

func newIPCMessages(r io.Reader, size int64, mem memory.Allocator) *ipcMessages {
	m := &ipcMessages{r: r, left: size, mem: mem}
	m.refs.Add(1)
	return m
}

func (m *ipcMessages) Retain() { m.refs.Add(1) }

func (m *ipcMessages) Release() {
	if m.refs.Add(-1) == 0 && m.msg != nil {
		m.msg.Release()
		m.msg = nil
	}
}

// read fills b from the source; a source that ends first is
// io.ErrUnexpectedEOF, or io.EOF when nothing was read and eofOK.
func (m *ipcMessages) read(b []byte, what string, eofOK bool) error {
	if m.left >= 0 && int64(len(b)) > m.left {
		if m.left == 0 && eofOK {
			return io.EOF
		}
		return fmt.Errorf("message %d: %s of %d bytes, but the file has %d left", m.n+1, what, len(b), m.left)
	}
	k, err := io.ReadFull(m.r, b)
	if m.left >= 0 {
		m.left -= int64(k)
	}
	if err == io.EOF && eofOK {
		return io.EOF
	}
	if err == io.EOF || err == io.ErrUnexpectedEOF {
		return fmt.Errorf("message %d: the %s is cut short", m.n+1, what)
	}
	return err
}

// readBlock reads n bytes: at once from a source of known size (n is
// checked against it), else a piece at a time, so that a length the
// stream claims allocates only as much as the stream holds.
func (m *ipcMessages) readBlock(n int64, what string) (*memory.Buffer, error) {
	if m.left >= 0 {
		if n > m.left {
			return nil, fmt.Errorf("message %d: %s of %d bytes, but the file has %d left", m.n+1, what, n, m.left)
		}
		buf := memory.NewResizableBuffer(m.mem)
		buf.Resize(int(n))
		if err := m.read(buf.Bytes(), what, false); err != nil {
			buf.Release()
			return nil, err
		}
		return buf, nil
	}
	var b bytes.Buffer
	if k, err := io.CopyN(&b, m.r, n); k < n {
		if err == nil || err == io.EOF {
			return nil, fmt.Errorf("message %d: the %s is cut short", m.n+1, what)
		}
		return nil, err
	}
	return memory.NewBufferBytes(b.Bytes()), nil
}

// Message reads and checks the next message; io.EOF at the end of the
// stream.
func (m *ipcMessages) Message() (*ipc.Message, error) {
	if m.msg != nil {
		m.msg.Release()
		m.msg = nil
	}
	var word [4]byte
	if err := m.read(word[:], "message", true); err != nil {
		return nil, err
	}
	size := binary.LittleEndian.Uint32(word[:])
	if size == 0xFFFFFFFF { // the continuation marker, then the length
		if err := m.read(word[:], "message length", false); err != nil {
			return nil, err
		}
		size = binary.LittleEndian.Uint32(word[:])
	}
	if size == 0 { // end of stream
		return nil, io.EOF
	}
	if size > 1<<30 {
		return nil, fmt.Errorf("message %d: metadata of %d bytes", m.n+1, size)
	}
	meta, err := m.readBlock(int64(size), "metadata")
	if err != nil {
		return nil, err
	}
	defer meta.Release()
	info, err := verifyIPCMessage(meta.Bytes())
	if err != nil {
		return nil, fmt.Errorf("message %d: malformed metadata: %w", m.n+1, err)
	}
	body, err := m.readBlock(info.bodyLen, "body")
	if err != nil {
		return nil, err
	}
	defer body.Release()
	if info.typ != ipcSchema {
		if err := checkIPCBatch(&info.batch, body.Bytes()); err != nil {
			return nil, fmt.Errorf("message %d: %w", m.n+1, err)
		}
	}
	m.n++
	m.msg = ipc.NewMessage(meta, body)
	return m.msg, nil
}

// checkIPCBatch checks a record batch's layout against its body: the
// counts are not negative, every buffer lies in the body, and every
// compressed buffer decompresses to the length it claims (which arrow-go
// allocates before it decompresses).
func checkIPCBatch(bt *ipcBatch, body []byte) error {
	if bt.length < 0 {
		return fmt.Errorf("a record batch of %d rows", bt.length)
	}
	for i, n := range bt.nodes {
		if n[0] < 0 || n[1] < 0 || n[1] > n[0] {
			return fmt.Errorf("array %d of the batch has %d values, %d of them NULL", i, n[0], n[1])
		}
	}
	for i, b := range bt.buffers {
		if b[0] < 0 || b[1] < 0 || b[0] > int64(len(body)) || b[1] > int64(len(body))-b[0] {
			return fmt.Errorf("buffer %d of %d bytes at offset %d is outside the body (%d bytes)", i, b[1], b[0], len(body))
		}
		if bt.codec < 0 || b[1] == 0 {
			continue
		}
		if b[1] < 8 {
			return fmt.Errorf("compressed buffer %d has %d bytes, too few for its length", i, b[1])
		}
		src := body[b[0] : b[0]+b[1]]
		claim := int64(binary.LittleEndian.Uint64(src))
		if claim == -1 { // stored uncompressed
			continue
		}
		if err := checkDecompressed(bt.codec, src[8:], claim); err != nil {
			return fmt.Errorf("compressed buffer %d: %w", i, err)
		}
	}
	return nil
}

// checkDecompressed checks that src, a frame of codec (0 LZ4, 1 zstd),
// decompresses to exactly size bytes: from the content size in the frame's
// header when it has one, else by decompressing it (into nothing).
func checkDecompressed(codec int, src []byte, size int64) error {
	if size < 0 {
		return fmt.Errorf("claims %d bytes", size)
	}
	var r io.Reader
	switch codec {
	case 0:
		// frame: magic, FLG (bit 3: a content size follows), BD, size
		if len(src) >= 14 && binary.LittleEndian.Uint32(src) == 0x184D2204 && src[4]&8 != 0 &&
			int64(binary.LittleEndian.Uint64(src[6:])) == size {
			return nil
		}
		r = lz4.NewReader(bytes.NewReader(src))
	case 1:
		var h zstd.Header
		if h.Decode(src) == nil && h.HasFCS && h.FrameContentSize == uint64(size) {
			return nil
		}
		d, err := zstd.NewReader(bytes.NewReader(src), zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxWindow(64<<20))
		if err != nil {
			return err
		}
		defer d.Close()
		r = d
	default:
		return fmt.Errorf("unknown codec %d", codec)
	}
	n, err := io.CopyN(io.Discard, r, size+1)
	if err != nil && err != io.EOF {
		return fmt.Errorf("does not decompress: %v", err)
	}
	if n != size {
		if n > size {
			return fmt.Errorf("decompresses to more than the %d bytes it claims", size)
		}
		return fmt.Errorf("decompresses to %d bytes, not the %d it claims", n, size)
	}
	return nil
}

// ipcFileStream returns the reader of the stream an IPC file of size bytes
// holds between its magic and its footer, and the stream's size.
func ipcFileStream(r io.ReaderAt, size int64) (io.Reader, int64, error) {
	const magic = "ARROW1"
	var tail [10]byte
	if size < int64(8+len(tail)) {
		return nil, 0, fmt.Errorf("%d bytes are too few for an Arrow IPC file", size)
	}
	if _, err := r.ReadAt(tail[:], size-int64(len(tail))); err != nil {
		return nil, 0, err
	}
	footer := int64(binary.LittleEndian.Uint32(tail[:4]))
	if string(tail[4:]) != magic {
		return nil, 0, errors.New("the file does not end as an Arrow IPC file does (ARROW1)")
	}
	end := size - int64(len(tail)) - footer
	if footer < 0 || end < 8 {
		return nil, 0, fmt.Errorf("a footer of %d bytes in a file of %d", footer, size)
	}
	return io.NewSectionReader(r, 8, end-8), end - 8, nil
}

// checkArrowSchemaValue checks the Arrow schema a Parquet file's footer
// holds under ARROW:schema (base64 of an IPC schema message), which
// pqarrow decodes with arrow-go's ipc package.
func checkArrowSchemaValue(v string) error {
	// as pqarrow decodes it
	var b []byte
	var err error
	if len(v)%4 == 0 {
		b, err = base64.StdEncoding.DecodeString(v)
	}
	if len(b) == 0 || err != nil {
		if b, err = base64.RawStdEncoding.DecodeString(v); err != nil {
			return fmt.Errorf("not base64: %v", err)
		}
	}
	m := newIPCMessages(bytes.NewReader(b), int64(len(b)), memory.DefaultAllocator)
	defer m.Release()
	msg, err := m.Message()
	if err == io.EOF {
		return errors.New("no schema message")
	}
	if err != nil {
		return err
	}
	if msg.Type() != ipc.MessageSchema {
		return fmt.Errorf("a %s message, not a schema", msg.Type())
	}
	return nil
}
