package format

import (
	"io"

	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/snappy"
)

// fastSnappy is the Parquet writer's Snappy codec: s2's default Snappy
// mode, where arrow-go's own codec uses s2's "better" mode, which spends
// more time for a few percent of size. The output is standard Snappy that
// every reader decodes; decoding is unchanged.
type fastSnappy struct{}

func (fastSnappy) Encode(dst, src []byte) []byte { return s2.EncodeSnappy(dst, src) }

func (fastSnappy) EncodeLevel(dst, src []byte, _ int) []byte { return s2.EncodeSnappy(dst, src) }

func (fastSnappy) Decode(dst, src []byte) []byte {
	dst, err := snappy.Decode(dst, src)
	if err != nil {
		panic(err)
	}
	return dst
}

func (fastSnappy) DecodeWithError(dst, src []byte) ([]byte, error) { return snappy.Decode(dst, src) }

func (fastSnappy) CompressBound(n int64) int64 { return int64(snappy.MaxEncodedLen(int(n))) }

func (fastSnappy) NewReader(r io.Reader) io.ReadCloser { return io.NopCloser(snappy.NewReader(r)) }

func (fastSnappy) NewWriter(w io.Writer) io.WriteCloser { return snappy.NewBufferedWriter(w) }

func (s fastSnappy) NewWriterLevel(w io.Writer, _ int) (io.WriteCloser, error) {
	return s.NewWriter(w), nil
}

func init() { compress.RegisterCodec(compress.Codecs.Snappy, fastSnappy{}) }
