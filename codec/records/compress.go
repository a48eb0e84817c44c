package records

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"slices"
	"sync"

	"kwire/codec/records/internal/codecs"
	"kwire/codec/wire"
	"kwire/internal/xfmt"
)

// Codec is a compression codec: bits 0-2 of a batch's or message's
// attributes. gzip and snappy date from Kafka 0.8, lz4 from 0.8.2
// (KAFKA-1493), zstd from 2.1 and magic 2 only (KIP-110).
type Codec int8

// The codecs Kafka defines.
const (
	None Codec = iota
	Gzip
	Snappy
	LZ4
	Zstd
)

var codecNames = [...]string{"none", "gzip", "snappy", "lz4", "zstd"}

// String is the codec's name as Kafka's compression.type spells it, or
// "codec N" for values Kafka does not define.
func (c Codec) String() string {
	if c >= 0 && int(c) < len(codecNames) {
		return codecNames[c]
	}
	return xfmt.Sprintf("codec %d", c)
}

// ParseCodec reads a codec name (as String writes it).
func ParseCodec(s string) (Codec, bool) {
	for i, n := range codecNames {
		if n == s {
			return Codec(i), true
		}
	}
	return 0, false
}

// ErrLimit is wrapped by decompression errors when the output would take
// the message past its decompression budget (Limits.MaxDecompressed).
// Those errors are wire.ErrBudget too (errors.Is), and the other failures
// to decompress wire.ErrDecompress.
var ErrLimit = codecs.ErrLimit

// xerialMagic starts a snappy stream framed the way Java's
// snappy-java SnappyOutputStream writes it: the magic, a version and a
// compatible version (both int32 1), then blocks of int32 length and raw
// snappy data.
var xerialMagic = []byte{0x82, 'S', 'N', 'A', 'P', 'P', 'Y', 0}

const xerialHeaderSize = 16

// xerialBlock is the block size snappy-java writes.
const xerialBlock = 32 << 10

// decompress returns the decompressed payload, counting it against the
// message's budget; magic says which message format holds it (magic 0 lz4
// frames carry Kafka 0.8's header checksum, KAFKA-3160). note describes the
// framing when there is something to say ("xerial framing").
//
// The output is appended to dst[:0] when it has room, so that a caller
// done with the bytes can hand them back (see getStream).
func (d *decoder) decompress(c Codec, src []byte, magic int8, dst []byte) (out []byte, note string, err error) {
	limit := d.bg.bytesLeft()
	dst = dst[:0]
	switch c {
	case Gzip:
		out, err = gunzip(src, limit, dst)
	case Snappy:
		if bytes.HasPrefix(src, xerialMagic) {
			note = "xerial framing"
			out, err = xerialDecode(src, limit, dst)
		} else {
			note = "raw snappy"
			out, err = snappyDecode(src, limit, dst)
		}
	case LZ4:
		if magic == 0 {
			var fixed bool
			if src, fixed = fixKafka08LZ4(src); fixed {
				note = "Kafka 0.8 header checksum (KAFKA-3160)"
			}
		}
		out, err = lz4Decode(src, limit, dst)
	case Zstd:
		out, err = zstdDecode(src, limit, dst)
	default:
		return nil, "", wire.Mark(wire.ErrDecompress, xfmt.Errorf("unknown compression codec %d (Kafka defines 0-4)", c))
	}
	if errors.Is(err, ErrLimit) {
		err = d.bg.decompressError(c)
		d.bg.hit(err.Error())
		return nil, note, err
	}
	if de, ok := err.(*wire.DecodeError); ok { // placed in src
		de.Err = wire.Mark(wire.ErrDecompress, xfmt.Errorf("%s: %w", c, de.Err))
		return nil, note, de
	}
	if err != nil {
		return nil, note, wire.Mark(wire.ErrDecompress, xfmt.Errorf("%s: %w", c, err))
	}
	d.bg.decompressed += len(out)
	return out, note, nil
}

var errTooBig = codecs.ErrTooBig

// streams holds buffers for decompressed records that the tree is done
// with (AppendJSON, once it has written an entry), so that the bytes
// can be reused.
var streams sync.Pool

// maxPooledStream is the largest buffer kept for reuse.
const maxPooledStream = 4 << 20

func getStream() []byte {
	if p, ok := streams.Get().(*[]byte); ok {
		return *p
	}
	return nil
}

func putStream(b []byte) {
	if cap(b) > 0 && cap(b) <= maxPooledStream {
		b = b[:0]
		streams.Put(&b)
	}
}

// readLimited reads r to the end, appending to dst, failing with
// ErrLimit past limit bytes. It reads into dst's spare capacity, and
// doubles it only when full (never past limit+1 bytes): a dst as large as
// the output plus one byte is never grown.
func readLimited(r io.Reader, limit int, dst []byte) ([]byte, error) {
	for {
		if len(dst) == cap(dst) {
			dst = slices.Grow(dst, min(max(len(dst), 4096), limit+1-len(dst)))
		}
		n, err := r.Read(dst[len(dst):min(cap(dst), limit+1)])
		dst = dst[:len(dst)+n]
		if len(dst) > limit {
			return nil, errTooBig
		}
		if err == io.EOF {
			return dst, nil
		}
		if err != nil {
			return nil, err
		}
	}
}

var gzipPool = sync.Pool{New: func() any { return new(gzipReader) }}

// gunzip decodes every gzip member of src. dst is made room for the
// size the last member's trailer gives (the whole output when it is the
// only one, as producers write it), as far as the budget and sixteen
// times the compressed size allow: a trailer is not trusted further.
func gunzip(src []byte, limit int, dst []byte) ([]byte, error) {
	r := gzipPool.Get().(*gzipReader)
	defer gzipPool.Put(r)
	if err := r.Reset(bytes.NewReader(src)); err != nil {
		return nil, err
	}
	if len(src) >= 18 { // a gzip member's header and trailer
		size := int(binary.LittleEndian.Uint32(src[len(src)-4:]))
		if want := min(size, limit, 16*len(src)) + 1; cap(dst) < want {
			dst = make([]byte, 0, want)
		}
	}
	return readLimited(r, limit, dst)
}

// snappyDecode decodes one raw snappy block, checking its declared size
// before allocating.
func snappyDecode(src []byte, limit int, dst []byte) ([]byte, error) {
	n, err := snappyDecodedLen(src)
	if err != nil {
		return nil, err
	}
	if n > limit {
		return nil, errTooBig
	}
	return snappyDecodeBlock(dst[:cap(dst)], src)
}

// xerialDecode decodes snappy-java's framing: the 16-byte header, then
// blocks of a big-endian int32 length and a raw snappy block. The declared
// sizes are summed and checked before anything is allocated.
func xerialDecode(src []byte, limit int, dst []byte) ([]byte, error) {
	if len(src) < xerialHeaderSize {
		return nil, xfmt.Errorf("xerial header is %d bytes, want 16", len(src))
	}
	total := 0
	for rest := src[xerialHeaderSize:]; len(rest) > 0; {
		at := len(src) - len(rest)
		if len(rest) < 4 {
			return nil, &wire.DecodeError{Offset: at, Err: xfmt.Errorf("xerial framing: %d bytes left, too few for a block length", len(rest))}
		}
		size := wire.Uint32At(rest, 0)
		rest = rest[4:]
		if int64(size) > int64(len(rest)) {
			return nil, &wire.DecodeError{Offset: at, Err: xfmt.Errorf("xerial block of %d bytes but only %d are left", size, len(rest))}
		}
		n, err := snappyDecodedLen(rest[:size])
		if err != nil {
			return nil, &wire.DecodeError{Offset: at + 4, Err: err}
		}
		if total += n; total > limit {
			return nil, errTooBig
		}
		rest = rest[size:]
	}
	out := dst[:0]
	if cap(out) < total {
		out = make([]byte, 0, total)
	}
	for rest := src[xerialHeaderSize:]; len(rest) > 0; {
		size := wire.Uint32At(rest, 0)
		block := rest[4 : 4+size]
		n, _ := snappyDecodedLen(block)
		dec, err := snappyDecodeBlock(out[len(out):len(out)+n], block)
		if err != nil {
			return nil, &wire.DecodeError{Offset: len(src) - len(rest) + 4, Err: err}
		}
		out = out[:len(out)+len(dec)]
		rest = rest[4+size:]
	}
	return out, nil
}

// fixKafka08LZ4 returns an lz4 frame whose header checksum is the one the
// frame format defines, when src carries the checksum Kafka 0.8 computed
// over the magic number as well (KAFKA-3160; magic 0 messages only).
func fixKafka08LZ4(src []byte) ([]byte, bool) {
	if len(src) < 7 || binary.LittleEndian.Uint32(src) != 0x184d2204 {
		return src, false
	}
	descLen := 2
	if src[4]&0x08 != 0 { // content size
		descLen += 8
	}
	if src[4]&0x01 != 0 { // dictionary id
		descLen += 4
	}
	if len(src) < 4+descLen+1 {
		return src, false
	}
	hc := src[4+descLen]
	if byte(codecs.XXH32(src[4:4+descLen])>>8) == hc || byte(codecs.XXH32(src[:4+descLen])>>8) != hc {
		return src, false
	}
	fixed := bytes.Clone(src)
	fixed[4+descLen] = byte(codecs.XXH32(src[4:4+descLen]) >> 8)
	return fixed, true
}

// Compression, for encoding.

// compressedPayload returns plain compressed with c: the producer's bytes kept, when
// they decompress to plain (see Batch.Compressed), else compressed anew.
func compressedPayload(c Codec, kept []byte, magic int8, plain []byte) ([]byte, error) {
	if c == None {
		return plain, nil
	}
	if kept != nil {
		// Bounded by the bytes they must give.
		d := newDecoder(Options{Budget: NewBudget(Limits{MaxDecompressed: max(len(plain), 1)})})
		if out, _, err := d.decompress(c, kept, magic, nil); err == nil && bytes.Equal(out, plain) {
			return kept, nil
		}
	}
	return compress(c, plain)
}

// compress returns src compressed with c: gzip at the default level,
// snappy in snappy-java's xerial framing (which Java consumers of every
// version read), an lz4 frame, a zstd frame.
func compress(c Codec, src []byte) ([]byte, error) {
	switch c {
	case None:
		return src, nil
	case Gzip:
		return gzipCompress(src)
	case Snappy:
		out := append([]byte(nil), xerialMagic...)
		out = wire.AppendInt32(out, int32(1))
		out = wire.AppendInt32(out, int32(1))
		for rest := src; len(rest) > 0; {
			n := min(len(rest), xerialBlock)
			block := snappyEncodeBlock(rest[:n])
			out = wire.AppendInt32(out, int32(len(block)))
			out = append(out, block...)
			rest = rest[n:]
		}
		return out, nil
	case LZ4:
		return lz4Compress(src)
	case Zstd:
		return zstdCompress(src)
	}
	return nil, xfmt.Errorf("cannot compress with %s", c)
}

// Decompress returns src decompressed with codec c (a PushTelemetry
// request's CompressionType, say), counting the output against bg (nil:
// a fresh default budget). note describes the framing when there is
// something to say.
func Decompress(c Codec, src []byte, bg *Budget) (out []byte, note string, err error) {
	if c == None {
		return src, "", nil
	}
	d := &decoder{bg: bg.orNew()}
	return d.decompress(c, src, 2, nil)
}
