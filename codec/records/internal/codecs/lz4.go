package codecs

import (
	"encoding/binary"
	"math/bits"
)

// The lz4 frame format written out (https://github.com/lz4/lz4/blob/dev/doc/lz4_Frame_format.md,
// blocks per lz4_Block_format.md), for the browser app: pierrec's reader
// and writer would take it over its size budget. The native programs use
// pierrec's (codecs_native.go); lz4_test.go checks that the two agree.

const lz4Magic = 0x184d2204

// LZ4DecodeFrames decodes one or more concatenated lz4 frames, appending
// to dst[:0], failing with ErrLimit past limit bytes: every length is
// checked against the bytes left and the limit before it is used. Block
// and content checksums are skipped, not verified. Written for size
// (bounded.go).
func LZ4DecodeFrames(src []byte, limit int, dst []byte) (out []byte, err error) {
	defer catchFail(&out, &err)
	fail(len(src) == 0, 0, "no frame")
	w := &boundedOut{dst[:0], limit}
	for pos := 0; pos < len(src); {
		pos = lz4DecodeFrame(w, src, pos)
	}
	return w.out, nil
}

// lz4DecodeFrame decodes the frame at src[pos:], returning the position
// after it.
func lz4DecodeFrame(w *boundedOut, src []byte, pos int) int {
	var h [16]byte // the longest header, zeros past the end
	copy(h[:], src[pos:])
	fail(len(src)-pos < 7, pos, "frame: %d bytes, too few for a frame header", len(src)-pos)
	m := binary.LittleEndian.Uint32(h[:])
	fail(m != lz4Magic, pos, "frame: magic %#08x, want %#08x", int(m), lz4Magic)
	// FLG: version, block independence, block checksum, content size,
	// content checksum, reserved, dictionary id; BD: the block maximum
	// size code (4-7).
	flg, code := h[4], int(h[5]>>4&7)
	fail(flg>>6 != 1 || flg&0x02 != 0 || h[5]&0x8f != 0 || code < 4 || flg&0x01 != 0, pos,
		"frame: version %d (want 1), reserved bits set, block maximum size code %d (4-7 allowed) or a dictionary (not supported)",
		int(flg>>6), code)
	blockMax := 1 << (16 + 2*(code-4)) // 64 KB, 256 KB, 1 MB, 4 MB
	descLen := 2 + 8*int(flg>>3&1)     // with the content size
	i := pos + 5 + descLen
	fail(i > len(src), pos, "frame: frame header cut short")
	if hc, want := h[4+descLen], byte(XXH32(h[4:4+descLen])>>8); hc != want {
		fail(true, pos, "frame: header checksum %#02x, want %#02x", int(hc), int(want))
	}
	blockSum := 4 * int(flg>>4&1)
	for {
		fail(len(src)-i < 4, i, "block: %d bytes left, too few for a block size", len(src)-i)
		size := binary.LittleEndian.Uint32(src[i:])
		if size == 0 { // end mark
			i += 4
			break
		}
		n := int(size &^ (1 << 31))
		fail(n > blockMax || n+blockSum > len(src)-i-4,
			i, "block: size %d (and checksum), but %d bytes are left and blocks are at most %d", n, len(src)-i-4, blockMax)
		block := src[i+4 : i+4+n]
		if size>>31 != 0 { // stored
			w.emit(block, 0, 0)
		} else {
			lz4DecodeBlock(w, block, i+4, blockMax)
		}
		i += 4 + n + blockSum
	}
	if flg&0x04 != 0 { // content checksum
		fail(len(src)-i < 4, pos, "frame: content checksum cut short")
		i += 4
	}
	return i
}

// lz4DecodeBlock appends the decoded lz4 block at byte at to w, which
// may hold at most blockMax bytes. A match may reach back into earlier
// blocks (blocks that are not independent).
func lz4DecodeBlock(w *boundedOut, src []byte, at, blockMax int) {
	start := len(w.out)
	for i := 0; i < len(src); {
		// A sequence: a token of two lengths, literals, then a match at a
		// 2-byte offset (none after the last literals); lengths of 15 go
		// on in bytes while they are 255.
		token := int(src[i])
		var lit int
		lit, i = lz4ReadLength(src, i+1, token>>4, at)
		if lit > len(src)-i {
			fail(true, at+i, "block: %d literals but %d bytes left", lit, len(src)-i)
		}
		lits := src[i : i+lit]
		i += lit
		off, ml := 0, 0
		if i < len(src) { // else the last sequence: literals only (or a block ending with a match: accepted)
			if len(src)-i < 2 {
				fail(true, at+i, "block: match offset cut short")
			}
			oi := i
			off = int(binary.LittleEndian.Uint16(src[i:]))
			ml, i = lz4ReadLength(src, i+2, token&15, at)
			ml += 4
			if off == 0 || off > len(w.out)+lit {
				fail(true, at+oi, "block: match offset %d, but %d bytes are decoded", off, len(w.out)+lit)
			}
		}
		if len(w.out)-start+lit+ml > blockMax && start+blockMax < w.limit {
			fail(true, at, "block decodes to more than the %d bytes a block may hold", blockMax)
		}
		w.emit(lits, off, ml)
	}
}

// lz4ReadLength returns a length whose token nibble is n, and the
// position after the bytes that follow a nibble of 15; src is a block at
// byte at of the frames.
func lz4ReadLength(src []byte, i, n, at int) (int, int) {
	for more := n == 15; more; i++ {
		if i >= len(src) {
			fail(true, at+i, "block: length cut short")
		}
		n += int(src[i])
		more = src[i] == 255
	}
	return n, i
}

// LZ4EncodeFrame writes src as an lz4 frame: independent blocks of at
// most 64 KB compressed greedily (lz4EncodeBlock), a block that does not
// shrink stored as it is, no checksums.
func LZ4EncodeFrame(src []byte) []byte {
	const blockMax = 64 << 10
	desc := []byte{0x60, 0x40} // version 1, independent blocks; blocks of at most 64 KB
	out := binary.LittleEndian.AppendUint32(make([]byte, 0, len(src)+len(src)/255+32), lz4Magic)
	out = append(out, desc...)
	out = append(out, byte(XXH32(desc)>>8))
	var table [1 << 12]int32
	for rest := src; len(rest) > 0; {
		chunk := rest[:min(len(rest), blockMax)]
		rest = rest[len(chunk):]
		sizeAt := len(out)
		out = append(out, 0, 0, 0, 0)
		var ok bool
		if out, ok = lz4EncodeBlock(out, chunk, &table); !ok {
			out = append(out[:sizeAt+4], chunk...)
			binary.LittleEndian.PutUint32(out[sizeAt:], uint32(len(chunk))|1<<31)
			continue
		}
		binary.LittleEndian.PutUint32(out[sizeAt:], uint32(len(out)-sizeAt-4))
	}
	return binary.LittleEndian.AppendUint32(out, 0) // end mark
}

// lz4EncodeBlock appends src as one lz4 block, finding matches of 4 bytes
// and more through a hash table of recent positions; ok is false when the
// block is not smaller than src.
func lz4EncodeBlock(out, src []byte, table *[1 << 12]int32) ([]byte, bool) {
	for i := range table {
		table[i] = -1
	}
	start := len(out)
	// The format's rules: the last 5 bytes are literals, and the last
	// match starts at least 12 bytes before the end.
	last := len(src) - 12
	anchor := 0
	for i := 0; i < last; {
		seq := binary.LittleEndian.Uint32(src[i:])
		h := (seq * 2654435761) >> 20
		ref := int(table[h])
		table[h] = int32(i)
		if ref < 0 || i-ref > 65535 || binary.LittleEndian.Uint32(src[ref:]) != seq {
			i++
			continue
		}
		m := 4
		for i+m < len(src)-5 && src[ref+m] == src[i+m] {
			m++
		}
		out = lz4Sequence(out, src[anchor:i], i-ref, m)
		i += m
		anchor = i
		if len(out)-start >= len(src) {
			return out, false
		}
	}
	out = lz4Sequence(out, src[anchor:], 0, 0)
	return out, len(out)-start < len(src)
}

// lz4Sequence appends one sequence: literals, then a match of length ml
// at offset off (none when ml is 0: the last sequence).
func lz4Sequence(out, lits []byte, off, ml int) []byte {
	token := byte(min(len(lits), 15)) << 4
	if ml > 0 {
		token |= byte(min(ml-4, 15))
	}
	out = append(out, token)
	out = lz4Length(out, len(lits))
	out = append(out, lits...)
	if ml == 0 {
		return out
	}
	out = binary.LittleEndian.AppendUint16(out, uint16(off))
	return lz4Length(out, ml-4)
}

// lz4Length appends the bytes that follow a token's nibble of 15.
func lz4Length(out []byte, n int) []byte {
	if n < 15 {
		return out
	}
	for n -= 15; n >= 255; n -= 255 {
		out = append(out, 255)
	}
	return append(out, byte(n))
}

// XXH32 is XXH32 with seed 0 of fewer than 16 bytes, which is all an lz4
// frame descriptor needs.
func XXH32(b []byte) uint32 {
	const (
		p1 = 2654435761
		p2 = 2246822519
		p3 = 3266489917
		p4 = 668265263
		p5 = 374761393
	)
	h := uint32(p5) + uint32(len(b))
	for ; len(b) >= 4; b = b[4:] {
		h += binary.LittleEndian.Uint32(b) * p3
		h = bits.RotateLeft32(h, 17) * p4
	}
	for _, c := range b {
		h += uint32(c) * p5
		h = bits.RotateLeft32(h, 11) * p1
	}
	h ^= h >> 15
	h *= p2
	h ^= h >> 13
	h *= p3
	h ^= h >> 16
	return h
}
