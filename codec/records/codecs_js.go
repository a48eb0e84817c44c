//go:build js

package records

import (
	"compress/gzip"
	"errors"
)

// The browser app keeps its binary within budget: the standard library's
// gzip, snappy and lz4 written out here (snappy.go, lz4.go), no zstd (left
// to the command line).
var newGzipWriter = gzip.NewWriter

type gzipReader = gzip.Reader

// zstdDecode is not in the browser app: klauspost's decoder alone would
// take it over its size budget. The tree shows the compressed bytes and
// says where to decode them.
func zstdDecode([]byte, int, []byte) ([]byte, error) { return nil, errNoZstd }

var errNoZstd = errors.New("zstd decompression is not built into the browser app (it would not fit its size budget); `kwire decode` on the command line shows these records")

// errNoZstdEncoder says where zstd batches can be encoded.
var errNoZstdEncoder = errors.New("compressing with zstd is not built into the browser app (it would not fit its size budget); `kwire encode` on the command line does it")

func zstdCompress([]byte) ([]byte, error) { return nil, errNoZstdEncoder }

// lz4 frames by lz4.go's own code: pierrec's reader and writer are about
// 40 KB gzip of the browser app.
var lz4Decode = lz4DecodeFrames

func lz4Compress(src []byte) ([]byte, error) { return lz4EncodeFrame(src), nil }

// Snappy blocks by snappy.go's own code: s2 would bring crypto/rand and
// math/big into the browser app.
var (
	snappyDecodedLen  = snappyLen
	snappyDecodeBlock = decodeSnappy
	snappyEncodeBlock = encodeSnappyLiterals
)
