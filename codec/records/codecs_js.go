//go:build js

package records

import (
	"errors"

	"kwire/codec/records/internal/codecs"
	"kwire/internal/deflate"
)

// The browser app keeps its binary within budget: the standard library's
// gzip, snappy, lz4 and a zstd decoder written out in internal/codecs
// (snappy.go, lz4.go, zstd.go), no zstd encoder (left to the command line).
// Gzip is written by internal/deflate: compress/gzip's writer reaches
// fmt, and with it 60 KB of the app; read by codecs.GzipMembers,
// 2.3 KB of gzip less than compress/gzip's Reader.
func gzipCompress(src []byte) ([]byte, error) { return deflate.AppendGzip(nil, src), nil }

type gzipReader = codecs.GzipMembers

// zstd frames by internal/codecs' own decoder: klauspost's would take the
// browser app over its size budget.
var zstdDecode = codecs.ZstdDecodeFrames

// zstdEncodes is false: zstd batches stay hex in the JSON form
// (AppendJSON), so that it encodes back.
const zstdEncodes = false

// errNoZstdEncoder says where zstd batches can be encoded.
var errNoZstdEncoder = errors.New("compressing with zstd is not built into the browser app (it would not fit its size budget); `kwire encode` on the command line does it")

func zstdCompress([]byte) ([]byte, error) { return nil, errNoZstdEncoder }

// lz4 frames by internal/codecs' own code: pierrec's reader and writer are about
// 40 KB gzip of the browser app.
var lz4Decode = codecs.LZ4DecodeFrames

func lz4Compress(src []byte) ([]byte, error) { return codecs.LZ4EncodeFrame(src), nil }

// Snappy blocks by internal/codecs' own code: s2 would bring crypto/rand and
// math/big into the browser app.
var (
	snappyDecodedLen  = codecs.SnappyLen
	snappyDecodeBlock = codecs.DecodeSnappy
	snappyEncodeBlock = codecs.EncodeSnappyLiterals
)
