//go:build !js

package records

import (
	"bytes"
	"sync"

	"kwire/codec/records/internal/codecs"

	"github.com/klauspost/compress/gzip"
	"github.com/klauspost/compress/s2"
	"github.com/klauspost/compress/zstd"
	"github.com/pierrec/lz4/v4"
)

// lz4Decode decodes an lz4 frame with pierrec's reader.
func lz4Decode(src []byte, limit int, dst []byte) ([]byte, error) {
	r := lz4Pool.Get().(*lz4.Reader)
	r.Reset(bytes.NewReader(src))
	out, err := readLimited(r, limit, dst)
	r.Reset(nil)
	lz4Pool.Put(r)
	return out, err
}

var lz4Pool = sync.Pool{New: func() any { return lz4.NewReader(nil) }}

// lz4Compress writes an lz4 frame with pierrec's writer.
func lz4Compress(src []byte) ([]byte, error) {
	var buf bytes.Buffer
	w := lz4.NewWriter(&buf)
	if _, err := w.Write(src); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// The native programs compress with klauspost's gzip, faster than the
// standard library's; the browser app with internal/deflate
// (codecs_js.go), which is smaller.
func gzipCompress(src []byte) ([]byte, error) {
	var buf bytes.Buffer
	w := gzip.NewWriter(&buf)
	if _, err := w.Write(src); err != nil {
		return nil, err
	}
	if err := w.Close(); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

type gzipReader = gzip.Reader

// zstd frames by klauspost's decoder (codecs.ZstdLibrary).
var zstdDecode = codecs.ZstdLibrary

// zstdEncodes says that zstd batches are written again (AppendJSON).
const zstdEncodes = true

var (
	zstdEncOnce sync.Once
	zstdEnc     *zstd.Encoder
	zstdEncErr  error
)

func zstdCompress(src []byte) ([]byte, error) {
	zstdEncOnce.Do(func() {
		zstdEnc, zstdEncErr = zstd.NewWriter(nil, zstd.WithEncoderConcurrency(1))
	})
	if zstdEncErr != nil {
		return nil, zstdEncErr
	}
	return zstdEnc.EncodeAll(src, nil), nil
}

// Raw snappy blocks, by s2 (which reads and writes snappy's format).
var (
	snappyDecodedLen  = s2.DecodedLen
	snappyDecodeBlock = s2.Decode
)

func snappyEncodeBlock(src []byte) []byte { return s2.EncodeSnappy(nil, src) }
