package spill

import (
	"bufio"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
)

// Writer appends values to a spill file. It is not safe for concurrent
// use; give each goroutine its own.
type Writer struct {
	a   *Area
	f   *os.File
	w   *bufio.Writer
	n   int64 // bytes written
	err error
	buf [binary.MaxVarintLen64]byte

	count func(int64) // Area.Create's
}

func newWriter(a *Area, f *os.File) *Writer {
	return &Writer{a: a, f: f, w: bufio.NewWriterSize(f, 256<<10)}
}

func (w *Writer) write(p []byte) {
	if w.err != nil {
		return
	}
	_, w.err = w.w.Write(p)
	w.n += int64(len(p))
}

// PutUvarint appends an unsigned varint.
func (w *Writer) PutUvarint(v uint64) {
	if w.err == nil && w.w.Available() >= binary.MaxVarintLen64 {
		// encoded straight into the buffer's free space (Write's copy is onto itself)
		b := binary.AppendUvarint(w.w.AvailableBuffer(), v)
		w.w.Write(b)
		w.n += int64(len(b))
		return
	}
	w.write(w.buf[:binary.PutUvarint(w.buf[:], v)])
}

// PutVarint appends a signed (zigzag) varint.
func (w *Writer) PutVarint(v int64) {
	u := uint64(v) << 1
	if v < 0 {
		u = ^u
	}
	w.PutUvarint(u)
}

// PutUint64 appends 8 bytes.
func (w *Writer) PutUint64(v uint64) {
	binary.LittleEndian.PutUint64(w.buf[:8], v)
	w.write(w.buf[:8])
}

// PutInt64 appends v as a varint (small keys take a byte or two).
func (w *Writer) PutInt64(v int64) { w.PutVarint(v) }

// PutFloat64 appends v's bits.
func (w *Writer) PutFloat64(v float64) { w.PutUint64(math.Float64bits(v)) }

// PutBool appends a byte, 0 or 1.
func (w *Writer) PutBool(v bool) {
	w.buf[0] = 0
	if v {
		w.buf[0] = 1
	}
	w.write(w.buf[:1])
}

// PutString appends s, length first.
func (w *Writer) PutString(s string) {
	w.PutUvarint(uint64(len(s)))
	if w.err == nil {
		var n int
		n, w.err = w.w.WriteString(s)
		w.n += int64(n)
	}
}

// PutBytes appends b, length first.
func (w *Writer) PutBytes(b []byte) {
	w.PutUvarint(uint64(len(b)))
	w.write(b)
}

// Len is how many bytes were written so far.
func (w *Writer) Len() int64 { return w.n }

// Finish flushes the file and returns it for reading; the Writer is done.
func (w *Writer) Finish() (*File, error) {
	if w.err == nil {
		w.err = w.w.Flush()
	}
	w.counted()
	if w.err != nil {
		name := w.f.Name()
		w.f.Close()
		os.Remove(name)
		return nil, fmt.Errorf("spill: writing %s: %w", name, w.err)
	}
	return &File{f: w.f, n: w.n}, nil
}

// Abandon closes and removes the file unread.
func (w *Writer) Abandon() {
	w.counted()
	name := w.f.Name()
	w.f.Close()
	os.Remove(name)
}

func (w *Writer) counted() {
	w.a.bytes.Add(w.n)
	if w.count != nil {
		w.count(w.n)
	}
}

// Discard closes and removes the file, finished or not, read or not; it
// may be called more than once.
func (w *Writer) Discard() {
	if w.f == nil {
		return
	}
	name := w.f.Name()
	w.f.Close()
	os.Remove(name)
}

// File is a finished spill file.
type File struct {
	f *os.File
	n int64
}

// Len is the file's size in bytes.
func (f *File) Len() int64 { return f.n }

// Reader reads the file from its start. Only one Reader at a time.
func (f *File) Reader() (*Reader, error) {
	if _, err := f.f.Seek(0, io.SeekStart); err != nil {
		return nil, fmt.Errorf("spill: %w", err)
	}
	return &Reader{r: bufio.NewReaderSize(io.LimitReader(f.f, f.n), 256<<10), left: f.n}, nil
}

// Remove closes and deletes the file.
func (f *File) Remove() error {
	name := f.f.Name()
	f.f.Close()
	if err := os.Remove(name); err != nil && !errors.Is(err, os.ErrNotExist) {
		return fmt.Errorf("spill: %w", err)
	}
	return nil
}

// Reader reads back what a Writer wrote, with the Get method matching each
// Put. A read past the end or of a damaged file sets Err; the Gets then
// return zero values.
type Reader struct {
	r    *bufio.Reader
	left int64
	err  error
	buf  [8]byte
	str  []byte
}

// More reports whether values remain to be read (and no error occurred).
func (r *Reader) More() bool { return r.err == nil && r.left > 0 }

// Err is the first read error.
func (r *Reader) Err() error { return r.err }

func (r *Reader) fail(err error) {
	if r.err == nil {
		if err == io.EOF {
			err = io.ErrUnexpectedEOF
		}
		r.err = fmt.Errorf("spill: reading: %w", err)
	}
}

// GetUvarint reads a PutUvarint.
func (r *Reader) GetUvarint() uint64 {
	if r.err != nil {
		return 0
	}
	// the fast path decodes from the buffered bytes; a varint the buffer
	// splits (or a damaged one) goes byte by byte
	if p, _ := r.r.Peek(binary.MaxVarintLen64); len(p) > 0 {
		if v, n := binary.Uvarint(p); n > 0 {
			r.r.Discard(n)
			r.left -= int64(n)
			return v
		}
	}
	v, err := binary.ReadUvarint(r)
	if err != nil {
		r.fail(err)
	}
	return v
}

// GetVarint reads a PutVarint.
func (r *Reader) GetVarint() int64 {
	u := r.GetUvarint() // zigzag, as binary.PutVarint writes it
	v := int64(u >> 1)
	if u&1 != 0 {
		v = ^v
	}
	return v
}

// ReadByte reads one byte (io.ByteReader, for the varints).
func (r *Reader) ReadByte() (byte, error) {
	b, err := r.r.ReadByte()
	if err == nil {
		r.left--
	}
	return b, err
}

func (r *Reader) full(n int) []byte {
	if r.err != nil {
		return nil
	}
	if cap(r.str) < n {
		r.str = make([]byte, n)
	}
	p := r.str[:n]
	if _, err := io.ReadFull(r.r, p); err != nil {
		r.fail(err)
		return nil
	}
	r.left -= int64(n)
	return p
}

// GetUint64 reads a PutUint64.
func (r *Reader) GetUint64() uint64 {
	p := r.full(8)
	if p == nil {
		return 0
	}
	return binary.LittleEndian.Uint64(p)
}

// GetInt64 reads a PutInt64.
func (r *Reader) GetInt64() int64 { return r.GetVarint() }

// GetFloat64 reads a PutFloat64.
func (r *Reader) GetFloat64() float64 { return math.Float64frombits(r.GetUint64()) }

// GetBool reads a PutBool.
func (r *Reader) GetBool() bool {
	p := r.full(1)
	return p != nil && p[0] != 0
}

// GetString reads a PutString (a new string).
func (r *Reader) GetString() string {
	n := r.GetUvarint()
	if r.err != nil {
		return ""
	}
	if int64(n) > r.left {
		r.fail(fmt.Errorf("a string of %d bytes with %d left", n, r.left))
		return ""
	}
	return string(r.full(int(n)))
}

// GetBytes reads a PutBytes (a new slice).
func (r *Reader) GetBytes() []byte {
	n := r.GetUvarint()
	if r.err != nil {
		return nil
	}
	if int64(n) > r.left {
		r.fail(fmt.Errorf("%d bytes with %d left", n, r.left))
		return nil
	}
	p := r.full(int(n))
	if p == nil {
		return nil
	}
	return append(make([]byte, 0, n), p...) // not nil when empty
}
