// Package deflate compresses with DEFLATE (RFC 1951) and writes gzip
// members (RFC 1952), for the browser app: the standard library's writer
// reaches fmt (for a bad level), and fmt with reflect is about 60 KB of
// the app's gzip. It is small rather than tight: LZ77 matches found on
// hash chains over a 32 KB window, written with the fixed Huffman codes
// (a block of stored bytes instead when that is shorter). Any inflater
// reads its output; tests read it back with compress/flate and
// compress/gzip. kwire's native code compresses with klauspost/compress.
package deflate

import (
	"encoding/binary"
	"hash/crc32"
)

const (
	windowSize = 1 << 15 // the farthest a match may reach (RFC 1951 3.2.5)
	minMatch   = 3
	maxMatch   = 258
	hashBits   = 15
	maxChain   = 128 // candidates tried at each position
	maxStored  = 65535
	endOfBlock = 256
)

// The lengths and distances of matches: base values and extra bits of
// length symbols 257-285 and distance symbols 0-29 (RFC 1951 3.2.5).
var (
	lengthBase  = [29]uint16{3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227, 258}
	lengthExtra = [29]uint8{0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0}
	distBase    = [30]uint16{1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097, 6145, 8193, 12289, 16385, 24577}
	distExtra   = [30]uint8{0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13}
)

// bitWriter packs bits from the least significant, as DEFLATE does.
type bitWriter struct {
	out  []byte
	bits uint64
	n    uint
}

func (w *bitWriter) write(v uint64, n uint) {
	w.bits |= v << w.n
	w.n += n
	for w.n >= 8 {
		w.out = append(w.out, byte(w.bits))
		w.bits >>= 8
		w.n -= 8
	}
}

// flush writes the bits left, padded with zeros to a byte.
func (w *bitWriter) flush() {
	if w.n > 0 {
		w.out = append(w.out, byte(w.bits))
	}
	w.bits, w.n = 0, 0
}

// code writes a Huffman code of n bits, which DEFLATE sends from its most
// significant bit.
func (w *bitWriter) code(c uint32, n uint) {
	r := uint32(0)
	for i := uint(0); i < n; i++ {
		r = r<<1 | c&1
		c >>= 1
	}
	w.write(uint64(r), n)
}

// symbol writes literal/length symbol s with the fixed code (RFC 1951
// 3.2.6).
func (w *bitWriter) symbol(s int) {
	switch {
	case s < 144:
		w.code(uint32(0x30+s), 8)
	case s < 256:
		w.code(uint32(0x190+s-144), 9)
	case s < 280:
		w.code(uint32(s-256), 7)
	default:
		w.code(uint32(0xc0+s-280), 8)
	}
}

// match writes a match of length l at distance d.
func (w *bitWriter) match(l, d int) {
	k := len(lengthBase) - 1
	for int(lengthBase[k]) > l {
		k--
	}
	w.symbol(257 + k)
	w.write(uint64(l-int(lengthBase[k])), uint(lengthExtra[k]))
	k = len(distBase) - 1
	for int(distBase[k]) > d {
		k--
	}
	w.code(uint32(k), 5)
	w.write(uint64(d-int(distBase[k])), uint(distExtra[k]))
}

func hash3(b []byte) uint32 {
	return (uint32(b[0])<<16 | uint32(b[1])<<8 | uint32(b[2])) * 2654435761 >> (32 - hashBits)
}

// Append appends src compressed as a DEFLATE stream (raw, as
// compress/flate reads it) to dst.
func Append(dst, src []byte) []byte {
	start := len(dst)
	w := bitWriter{out: dst}
	w.write(1, 1) // the last block
	w.write(1, 2) // fixed Huffman codes
	// head holds, for each hash, the latest position with it, plus one
	// (0: none); prev links a position to the one before it with the
	// same hash, in a ring as long as the window.
	var head []int32
	var prev []int32
	if len(src) >= minMatch {
		head = make([]int32, 1<<hashBits)
		prev = make([]int32, min(windowSize, len(src)))
	}
	insert := func(i int) {
		h := hash3(src[i:])
		prev[i%len(prev)] = head[h]
		head[h] = int32(i + 1)
	}
	for i := 0; i < len(src); {
		bestLen, bestDist := 0, 0
		if i+minMatch <= len(src) {
			limit := min(maxMatch, len(src)-i)
			cand := int(head[hash3(src[i:])]) - 1
			for chain := 0; cand >= 0 && i-cand <= windowSize && chain < maxChain; chain++ {
				if src[cand+bestLen] == src[i+bestLen] || bestLen == 0 {
					n := 0
					for n < limit && src[cand+n] == src[i+n] {
						n++
					}
					if n > bestLen {
						bestLen, bestDist = n, i-cand
						if n == limit {
							break
						}
					}
				}
				next := int(prev[cand%len(prev)]) - 1
				if next >= cand { // a link the ring overwrote
					break
				}
				cand = next
			}
			insert(i)
		}
		if bestLen < minMatch {
			w.symbol(int(src[i]))
			i++
			continue
		}
		w.match(bestLen, bestDist)
		for j := i + 1; j < i+bestLen && j+minMatch <= len(src); j++ {
			insert(j)
		}
		i += bestLen
	}
	w.symbol(endOfBlock)
	w.flush()
	if len(w.out)-start <= storedSize(len(src)) {
		return w.out
	}
	return appendStored(w.out[:start], src)
}

// storedSize is the size of src in stored blocks.
func storedSize(n int) int { return n + 5*max(1, (n+maxStored-1)/maxStored) }

// appendStored appends src as stored blocks (RFC 1951 3.2.4).
func appendStored(dst, src []byte) []byte {
	for {
		n := min(len(src), maxStored)
		final := byte(0)
		if n == len(src) {
			final = 1
		}
		dst = append(dst, final) // BFINAL, BTYPE 00, then padding to the byte
		dst = binary.LittleEndian.AppendUint16(dst, uint16(n))
		dst = binary.LittleEndian.AppendUint16(dst, ^uint16(n))
		dst = append(dst, src[:n]...)
		src = src[n:]
		if final == 1 {
			return dst
		}
	}
}

// AppendGzip appends src as one gzip member (RFC 1952: no name, comment
// or time; operating system unknown) to dst.
func AppendGzip(dst, src []byte) []byte {
	dst = append(dst, 0x1f, 0x8b, 8, 0, 0, 0, 0, 0, 0, 0xff)
	dst = Append(dst, src)
	dst = binary.LittleEndian.AppendUint32(dst, crc32.ChecksumIEEE(src))
	return binary.LittleEndian.AppendUint32(dst, uint32(len(src)))
}
