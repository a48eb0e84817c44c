package records

import (
	"encoding/binary"
	"fmt"
)

// The lz4 frame format written out (https://github.com/lz4/lz4/blob/dev/doc/lz4_Frame_format.md,
// blocks per lz4_Block_format.md), for the browser app: pierrec's reader
// and writer would take it over its size budget. The native programs use
// pierrec's (codecs_native.go); lz4_test.go checks that the two agree.

const lz4Magic = 0x184d2204

// lz4BlockSizes are the block maximum sizes of BD's bits 6-4 (4 to 7).
var lz4BlockSizes = [...]int{4: 64 << 10, 5: 256 << 10, 6: 1 << 20, 7: 4 << 20}

// lz4DecodeFrames decodes one or more concatenated lz4 frames, appending
// to dst[:0], failing with ErrLimit past limit bytes: every length is
// checked against the bytes left and the limit before it is used. Block
// and content checksums are skipped, not verified.
func lz4DecodeFrames(src []byte, limit int, dst []byte) ([]byte, error) {
	out := dst[:0]
	if len(src) == 0 {
		return nil, fmt.Errorf("lz4: no frame")
	}
	for pos := 0; pos < len(src); {
		var err error
		if out, pos, err = lz4DecodeFrame(src, pos, limit, out); err != nil {
			return nil, err
		}
	}
	return out, nil
}

// lz4DecodeFrame decodes the frame at src[pos:], returning the position
// after it.
func lz4DecodeFrame(src []byte, pos, limit int, out []byte) ([]byte, int, error) {
	if len(src)-pos < 7 {
		return nil, 0, fmt.Errorf("lz4: frame at byte %d: %d bytes, too few for a frame header", pos, len(src)-pos)
	}
	if m := binary.LittleEndian.Uint32(src[pos:]); m != lz4Magic {
		return nil, 0, fmt.Errorf("lz4: frame at byte %d: magic %#08x, want %#08x", pos, m, lz4Magic)
	}
	flg, bd := src[pos+4], src[pos+5]
	if flg>>6 != 1 {
		return nil, 0, fmt.Errorf("lz4: frame at byte %d: version %d, want 1", pos, flg>>6)
	}
	if flg&0x02 != 0 || bd&0x8f != 0 {
		return nil, 0, fmt.Errorf("lz4: frame at byte %d: reserved bits set in the frame descriptor", pos)
	}
	blockMax := lz4BlockSizes[min(int(bd>>4)&7, len(lz4BlockSizes)-1)]
	if blockMax == 0 {
		return nil, 0, fmt.Errorf("lz4: frame at byte %d: block maximum size code %d (4-7 allowed)", pos, bd>>4&7)
	}
	descLen := 2
	if flg&0x08 != 0 { // content size
		descLen += 8
	}
	if flg&0x01 != 0 { // dictionary id
		return nil, 0, fmt.Errorf("lz4: frame at byte %d: a frame with a dictionary cannot be decoded", pos)
	}
	if len(src)-pos < 4+descLen+1 {
		return nil, 0, fmt.Errorf("lz4: frame at byte %d: frame header cut short", pos)
	}
	desc := src[pos+4 : pos+4+descLen]
	if hc := src[pos+4+descLen]; byte(xxh32(desc)>>8) != hc {
		return nil, 0, fmt.Errorf("lz4: frame at byte %d: header checksum %#02x, want %#02x", pos, hc, byte(xxh32(desc)>>8))
	}
	i := pos + 4 + descLen + 1
	blockSum := flg&0x10 != 0
	for {
		if len(src)-i < 4 {
			return nil, 0, fmt.Errorf("lz4: block at byte %d: %d bytes left, too few for a block size", i, len(src)-i)
		}
		size := binary.LittleEndian.Uint32(src[i:])
		i += 4
		if size == 0 { // end mark
			break
		}
		stored := size&(1<<31) != 0
		n := int(size &^ (1 << 31))
		if n > blockMax || n > len(src)-i {
			return nil, 0, fmt.Errorf("lz4: block at byte %d: size %d, but %d bytes are left and blocks are at most %d", i-4, n, len(src)-i, blockMax)
		}
		block := src[i : i+n]
		i += n
		if blockSum {
			if len(src)-i < 4 {
				return nil, 0, fmt.Errorf("lz4: block at byte %d: its checksum is cut short", i)
			}
			i += 4
		}
		start := len(out)
		if stored {
			if len(out)+n > limit {
				return nil, 0, errTooBig
			}
			out = append(out, block...)
			continue
		}
		var err error
		if out, err = lz4DecodeBlock(block, out, min(limit, start+blockMax)); err != nil {
			if err == errTooBig && start+blockMax < limit {
				err = fmt.Errorf("lz4: block at byte %d decodes to more than the %d bytes a block may hold", i-n-4, blockMax)
			}
			return nil, 0, err
		}
	}
	if flg&0x04 != 0 { // content checksum
		if len(src)-i < 4 {
			return nil, 0, fmt.Errorf("lz4: frame at byte %d: content checksum cut short", pos)
		}
		i += 4
	}
	return out, i, nil
}

// lz4DecodeBlock appends the decoded lz4 block to out, never past limit
// bytes in all. A match may reach back into earlier blocks (blocks that
// are not independent).
func lz4DecodeBlock(src, out []byte, limit int) ([]byte, error) {
	bad := func(i int, what string) error { return fmt.Errorf("lz4: block byte %d: %s", i, what) }
	length := func(i *int, n int) (int, bool) {
		for {
			if *i >= len(src) {
				return 0, false
			}
			b := src[*i]
			*i++
			n += int(b)
			if n > limit {
				return n, true // over the limit: reported by the caller
			}
			if b != 255 {
				return n, true
			}
		}
	}
	for i := 0; ; {
		if i >= len(src) {
			return out, nil // the block ends with a match (the format wants literals last; accepted)
		}
		token := src[i]
		i++
		lit := int(token >> 4)
		if lit == 15 {
			var ok bool
			if lit, ok = length(&i, lit); !ok {
				return nil, bad(i, "literal length cut short")
			}
		}
		if lit > len(src)-i {
			return nil, bad(i, fmt.Sprintf("%d literals but %d bytes left", lit, len(src)-i))
		}
		if len(out)+lit > limit {
			return nil, errTooBig
		}
		out = append(out, src[i:i+lit]...)
		i += lit
		if i == len(src) {
			return out, nil // the last sequence: literals only
		}
		if len(src)-i < 2 {
			return nil, bad(i, "match offset cut short")
		}
		off := int(binary.LittleEndian.Uint16(src[i:]))
		i += 2
		if off == 0 || off > len(out) {
			return nil, bad(i-2, fmt.Sprintf("match offset %d, but %d bytes are decoded", off, len(out)))
		}
		ml := int(token&15) + 4
		if token&15 == 15 {
			var ok bool
			if ml, ok = length(&i, ml); !ok {
				return nil, bad(i, "match length cut short")
			}
		}
		if len(out)+ml > limit {
			return nil, errTooBig
		}
		from := len(out) - off
		for k := range ml { // byte by byte: a match may overlap its own output
			out = append(out, out[from+k])
		}
	}
}

// lz4EncodeFrame writes src as an lz4 frame: independent blocks of at
// most 64 KB compressed greedily (lz4EncodeBlock), a block that does not
// shrink stored as it is, no checksums.
func lz4EncodeFrame(src []byte) []byte {
	const blockMax = 64 << 10
	desc := []byte{0x60, 0x40} // version 1, independent blocks; blocks of at most 64 KB
	out := binary.LittleEndian.AppendUint32(make([]byte, 0, len(src)+len(src)/255+32), lz4Magic)
	out = append(out, desc...)
	out = append(out, byte(xxh32(desc)>>8))
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
