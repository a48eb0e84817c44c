//go:build !js

package codecs

import (
	"errors"
	"math/bits"
	"sync"

	"github.com/klauspost/compress/zstd"
)

// zstdDecoders are pooled by the power of two that bounds their output:
// WithDecoderMaxMemory makes a decoder refuse frames that declare or
// decode to more, before allocating that much (KIP-110).
var zstdDecoders [40]sync.Pool

// ZstdLibrary decodes zstd frames with klauspost's decoder, as the
// native programs do (ZstdDecodeFrames is the browser's), appending to
// dst, failing with ErrTooBig past limit bytes.
func ZstdLibrary(src []byte, limit int, dst []byte) ([]byte, error) {
	// 1<<class >= limit, and at least 8 MiB: the decoder also refuses
	// windows larger than its bound, and Java's zstd streams declare
	// windows of 2 MiB and more (level 3 and up).
	class := max(bits.Len(uint(max(limit, 1)-1)), 23)
	if class >= len(zstdDecoders) {
		class = len(zstdDecoders) - 1
	}
	pool := &zstdDecoders[class]
	dec, _ := pool.Get().(*zstd.Decoder)
	if dec == nil {
		var err error
		dec, err = zstd.NewReader(nil, zstd.WithDecoderConcurrency(1), zstd.WithDecoderLowmem(true),
			zstd.WithDecoderMaxMemory(uint64(1)<<class))
		if err != nil {
			return nil, err
		}
	}
	out, err := dec.DecodeAll(src, dst)
	pool.Put(dec)
	if errors.Is(err, zstd.ErrDecoderSizeExceeded) || errors.Is(err, zstd.ErrWindowSizeExceeded) || len(out) > limit {
		return nil, ErrTooBig
	}
	return out, err
}
