// Package flate is the compressing half of Go 1.26's compress/flate
// (deflate.go, deflatefast.go, huffman_bit_writer.go, huffman_code.go and
// token.go copied as they are; LICENSE is Go's), for the browser app: the
// standard library's NewWriter reaches fmt.Errorf for a bad level, and
// with it all of fmt's printer and the parts of reflect it calls (about
// 60 KB of gzip). Here that error is written with strconv. Its output is
// compress/flate's byte for byte (flate_test.go). kwire's native code uses
// compress/flate.
//
// Gzip writes the gzip member compress/gzip.NewWriter writes at the default
// level, with no name, comment or time.
package flate

import (
	"encoding/binary"
	"hash/crc32"
	"io"
)

const maxNumLit = 286 // inflate.go's

// An InternalError reports an error in the flate code itself.
type InternalError string

func (e InternalError) Error() string { return "flate: internal error: " + string(e) }

// GzipWriter compresses into a gzip member, as compress/gzip.Writer does
// with its defaults: Write, then Close.
type GzipWriter struct {
	w    io.Writer
	fw   *Writer
	crc  uint32
	size uint32
	err  error
	done bool // closed
}

// NewGzipWriter returns a writer of a gzip member into w.
func NewGzipWriter(w io.Writer) *GzipWriter {
	return &GzipWriter{w: w}
}

func (z *GzipWriter) header() {
	// ID1 ID2 CM=deflate FLG=0 MTIME=0 XFL=0 OS=unknown, as gzip.Writer
	// writes them for a zero Header at DefaultCompression.
	_, z.err = z.w.Write([]byte{0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 255})
	if z.err == nil {
		z.fw, z.err = NewWriter(z.w, DefaultCompression)
	}
}

// Write compresses p.
func (z *GzipWriter) Write(p []byte) (int, error) {
	if z.err != nil {
		return 0, z.err
	}
	if z.fw == nil {
		if z.header(); z.err != nil {
			return 0, z.err
		}
	}
	z.size += uint32(len(p))
	z.crc = crc32.Update(z.crc, crc32.IEEETable, p)
	n, err := z.fw.Write(p)
	z.err = err
	return n, err
}

// Close ends the member: the rest of the deflate stream, then its CRC-32
// and size.
func (z *GzipWriter) Close() error {
	if z.err != nil || z.done {
		return z.err
	}
	z.done = true
	if z.fw == nil {
		if z.header(); z.err != nil {
			return z.err
		}
	}
	if z.err = z.fw.Close(); z.err != nil {
		return z.err
	}
	var t [8]byte
	binary.LittleEndian.PutUint32(t[:4], z.crc)
	binary.LittleEndian.PutUint32(t[4:], z.size)
	_, z.err = z.w.Write(t[:])
	return z.err
}
