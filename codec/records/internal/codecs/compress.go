// Package codecs holds the compression codecs that records reads and
// writes by hand: gzip members (gunzip.go), lz4 frames (lz4.go), raw
// snappy blocks (snappy.go) and zstd frames (zstd.go). The browser app
// uses them in place of klauspost/compress and pierrec/lz4, which would
// take it over its size budget (records' codecs_js.go); the native
// programs use the libraries (codecs_native.go) and these in the tests,
// which compare the two. Decoders append to dst[:0] and stop at limit
// bytes of output with ErrTooBig; their other failures are a
// *wire.DecodeError at the byte of the input where they failed.
package codecs

import (
	"errors"

	"kwire/internal/xfmt"
)

// ErrLimit is wrapped by ErrTooBig: the output would pass the limit.
var ErrLimit = errors.New("not decompressed")

// ErrTooBig is the error of a decoder whose output would pass its limit.
var ErrTooBig = xfmt.Errorf("%w", ErrLimit)
