package codecs

import (
	"encoding/binary"
	"math/bits"
)

// zstd frames (RFC 8878) decoded by this file's own code, for the browser
// app (codecs_js.go): klauspost's decoder would take it over its size
// budget. The native programs use klauspost's (codecs_native.go);
// zstd_test.go checks that the two agree. § numbers are RFC 8878's.
//
// Where the RFC leaves room, this decoder accepts what klauspost's does:
// no input at all is no frame and no output; a single-segment frame has a
// window of at least 1 KB; accuracy logs up to 9 for every sequence table;
// a repeat offset of 0 is taken as 1. It refuses frames that need a
// dictionary.
//
// Size matters more than speed here (bounded.go).

const (
	zstdMagic    = 0xfd2fb528
	zstdBlockMax = 128 << 10
)

// zstdCell is one state of an FSE decoding table (§4.1.1): its symbol's
// value (a length's baseline, 1<<code for an offset code, the weight
// itself for Huffman weights) and extra bits, and the next state's
// baseline and bits.
type zstdCell struct {
	base  uint32
	extra uint8
	nb    uint8
	next  uint16
}

// zstdDec holds one decompression: the input, the output so far and
// the state a frame carries from block to block.
type zstdDec struct {
	boundedOut
	src     []byte
	lits    []byte // the current block's literals
	buf     []byte // room for decoded literals
	rep     [3]int // repeat offsets (§3.1.1.5)
	huffLog uint8  // 0 until the frame has a Huffman table
	logs    [3]uint8
	have    [3]bool // tabs[k] holds a table (literals length, offset, match length)
	huff    [1 << 11]uint16
	tabs    [3][512]zstdCell
}

// ZstdDecodeFrames decodes every frame of src (zstd frames and skippable
// frames, §3.1), appending to dst[:0], failing with ErrLimit past limit
// bytes: every size is checked against the bytes left and the limit
// before it is used. Content checksums are verified.
func ZstdDecodeFrames(src []byte, limit int, dst []byte) (out []byte, err error) {
	defer catchFail(&out, &err)
	d := &zstdDec{src: src, boundedOut: boundedOut{dst[:0], limit}}
	for i := 0; i < len(src); {
		i = d.frame(i)
	}
	return d.out, nil
}

// frame decodes the frame at src[i:] (§3.1.1) or skips a skippable
// frame (§3.1.2), and returns the position after it.
func (d *zstdDec) frame(i int) int {
	src, at := d.src, i
	var h [18]byte // the longest header, zeros past the end
	copy(h[:], src[i:])
	m := binary.LittleEndian.Uint32(h[:])
	fail(len(src)-i < 5, i, "%d bytes left, too few for a frame", len(src)-i)
	if m&^15 == 0x184d2a50 {
		n := int64(binary.LittleEndian.Uint32(h[4:]))
		fail(len(src)-i < 8 || n > int64(len(src)-i-8), i, "skippable frame cut short")
		return i + 8 + int(n)
	}
	fail(m != zstdMagic, i, "magic %#08x, want %#08x", int(m), zstdMagic)
	// Frame_Header_Descriptor (§3.1.1.1.1): sizes of the content size
	// (1 only when single segment, 2, 4, 8), single segment (no window
	// descriptor), reserved, checksum, size of the dictionary id (0, 1,
	// 2, 4).
	fhd, wd := h[4], int(h[5])
	single := fhd&0x20 != 0
	dictLen := int(fhd&3) + int(fhd&3)/3
	fcsLen := 1 << (fhd >> 6)
	if fhd < 0x40 && !single {
		fcsLen = 0
	}
	p := 6 - b2i(single)
	id := binary.LittleEndian.Uint64(h[p:]) & (1<<(8*dictLen) - 1)
	fcs := binary.LittleEndian.Uint64(h[p+dictLen:]) & (1<<(8*fcsLen) - 1)
	i += p + dictLen + fcsLen
	fail(fhd&0x08 != 0 || i > len(src), at, "frame header cut short or reserved bit set")
	fail(id != 0, at, "the frame needs dictionary %d (not supported)", int(id))
	if fcsLen == 2 {
		fcs += 256 // §3.1.1.1.4
	}
	failTooBig(fcs > uint64(d.limit-len(d.out)))
	window := 1 << (10 + wd>>3) // §3.1.1.1.2
	window += window >> 3 * (wd & 7)
	if single {
		window = max(int(fcs), 1<<10)
	}
	bmax := min(window, zstdBlockMax) // Block_Maximum_Size (§3.1.1.2.4)
	start := len(d.out)
	d.huffLog, d.have, d.rep = 0, [3]bool{}, [3]int{1, 4, 8}
	for last := false; !last; {
		fail(len(src)-i < 3, i, "block header cut short")
		h := int(zstdLE(src[i:i+3], 0)) // §3.1.1.2
		at, size, typ := i, h>>3, h>>1&3
		last = h&1 != 0
		i += 3
		n := size
		if typ == 1 {
			n = 1
		}
		fail(size > bmax || n > len(src)-i || typ == 3, at, "block of %d bytes, type %d: over %d, cut short or reserved type", size, typ, bmax)
		switch typ {
		case 0: // raw
			d.emit(src[i:i+size], 0, 0)
		case 1: // RLE
			d.emit(src[i:i+min(size, 1)], 1, max(size-1, 0))
		case 2:
			d.block(i, i+size, bmax, window, start)
		}
		i += n
	}
	fail(fcsLen > 0 && uint64(len(d.out)-start) != fcs, at, "frame decodes to %d bytes, its header says %d", len(d.out)-start, int(fcs))
	if fhd&4 != 0 { // Content_Checksum (§3.1.1)
		fail(len(src)-i < 4 || uint32(zstdXXH64(d.out[start:])) != binary.LittleEndian.Uint32(src[i:]), i, "content checksum cut short or wrong")
		i += 4
	}
	return i
}

// block decodes the compressed block src[i:end] (§3.1.1.3). Matches reach
// back at most window bytes and not before the frame's start.
func (d *zstdDec) block(i, end, bmax, window, start int) {
	src := d.src
	i = d.literals(i, end, bmax)
	// Number_of_Sequences (§3.1.1.3.2.1), then the modes; h holds the
	// bytes they may take, zeros past the end.
	var h [4]byte
	copy(h[:], src[i:end])
	at, nseq, modes := i, int(h[0]), h[1]
	i += 2
	if nseq == 255 {
		nseq, modes = int(h[1])+int(h[2])<<8+0x7f00, h[3]
		i += 2
	} else if nseq >= 128 {
		nseq, modes = (nseq-128)<<8+int(h[1]), h[2]
		i++
	}
	if nseq == 0 {
		fail(i-1 != end, at, "sequences section of %d bytes, want %d", end-at, i-1-at)
		d.emit(d.lits, 0, 0)
		return
	}
	fail(modes&3 != 0 || i > end, at, "sequences header cut short or reserved bits set")
	// The tables, in the order literals length, offset, match length
	// (§3.1.1.3.2.1).
	for k := range 3 {
		var nbuf [256]int16
		maxSym, norm, log := [3]int{35, 31, 52}[k], zstdPredef[k], zstdPredefLog[k] // predefined (§3.1.1.3.2.2)
		switch modes >> (6 - 2*k) & 3 {
		case 1: // RLE: one symbol, as a table of accuracy log 0
			fail(i >= end || int(src[i]) > maxSym, i, "RLE table: symbol missing or over %d", maxSym)
			nbuf[src[i]] = 1
			norm, log = nbuf[:src[i]+1], 0
			i++
		case 2:
			var n int
			n, log, i = zstdReadFSE(src, i, end, maxSym, 9, &nbuf)
			norm = nbuf[:n]
		case 3: // repeat: the previous block's table
			fail(!d.have[k], i, "a table repeats the previous one, and there is none")
			continue
		}
		d.logs[k], d.have[k] = log, true
		zstdBuild(d.tabs[k][:], norm, log, k)
	}
	// The bitstream (§3.1.1.3.2.1.2): the initial states of the literals
	// length, offset and match length tables; then per sequence the extra
	// bits of the offset, match length and literals length, then the
	// state updates of literals length, match length and offset.
	var r zstdBits
	r.init(i, src[i:end])
	var st, v [3]int
	for k := range st {
		st[k] = r.read(d.logs[k])
	}
	lits, bstart := d.lits, len(d.out)
	for s := range nseq {
		ofCode := d.tabs[1][st[1]].extra
		for j := range 3 {
			k := (j + 1) % 3
			c := &d.tabs[k][st[k]]
			v[k] = int(c.base) + r.read(c.extra)
		}
		for j := 0; j < 3 && s < nseq-1; j++ {
			k := (3 - j) % 3
			c := &d.tabs[k][st[k]]
			st[k] = int(c.next) + r.read(c.nb)
		}
		llen, off, mlen := v[0], v[1], v[2]
		// Repeat offsets (§3.1.1.5): an Offset_Value of 1-3 names one of
		// the last three offsets, shifted by one when there are no
		// literals, where 3 means the last offset minus 1.
		if ofCode > 1 {
			off -= 3
			d.rep = [3]int{off, d.rep[0], d.rep[1]}
		} else {
			if llen == 0 {
				off++
			}
			if off > 1 {
				o := d.rep[0] - 1
				if off < 4 {
					o = d.rep[off-1]
				}
				if off > 2 {
					d.rep[2] = d.rep[1]
				}
				d.rep[0], d.rep[1] = max(o, 1), d.rep[0] // 0 is invalid: taken as 1, as zstd and klauspost do
			}
			off = d.rep[0]
		}
		// Execution (§3.1.1.4): literals, then the match.
		if r.n < 0 || llen > len(lits) || len(d.out)-bstart+llen+mlen > bmax || off > len(d.out)+llen-start || off > window {
			fail(true, i, "sequence %d of %d: bitstream cut short, or literals length %d, offset %d or match length %d out of bounds", s+1, nseq, llen, off, mlen)
		}
		d.emit(lits[:llen], off, mlen)
		lits = lits[llen:]
	}
	fail(r.n != 0 || len(d.out)-bstart+len(lits) > bmax, i, "%d bits left after the last sequence, or block over %d bytes", r.n, bmax)
	d.emit(lits, 0, 0)
}

// literals reads the literals section at src[i:end] (§3.1.1.3.1) into
// d.lits and returns the position after it.
func (d *zstdDec) literals(i, end, bmax int) int {
	src, at := d.src, i
	var h [5]byte // the header's bytes, zeros past the end
	copy(h[:], src[i:end])
	typ, sf := h[0]&3, int(h[0]>>2&3)
	size, csize, hlen := int(h[0]>>3), 0, 1 // §3.1.1.3.1.1
	if typ < 2 && sf&1 != 0 {
		hlen = 2 + sf>>1
	} else if typ >= 2 {
		hlen = [4]int{3, 3, 4, 5}[sf]
	}
	if hlen > 1 {
		v := int(zstdLE(h[:hlen], 0) >> 4)
		size = v
		if typ >= 2 {
			n := [4]int{10, 10, 14, 18}[sf]
			size, csize = v&(1<<n-1), v>>n
		}
	}
	i += hlen
	if typ == 1 {
		csize = 1
	} else if typ == 0 {
		csize = size
	}
	fail(i >= end || size > bmax || csize > end-i, at, "%d literals in %d bytes: over %d or cut short", size, csize, bmax)
	end = i + csize
	if typ == 0 { // raw
		d.lits = src[i:end]
		return end
	}
	// All the literals end in the output: check them against the limit
	// before making room for them.
	failTooBig(size > d.limit-len(d.out))
	if cap(d.buf) < size {
		d.buf = make([]byte, size)
	}
	out := d.buf[:size]
	d.lits = out
	if typ == 1 { // RLE
		for k := range out {
			out[k] = src[i]
		}
		return end
	}
	if typ == 2 {
		i = d.huffTable(i, end)
	}
	fail(d.huffLog == 0, at, "treeless literals and no previous Huffman table")
	// One stream, or four (§3.1.1.3.1.6) after a jump table of the first
	// three streams' sizes; each of four decodes a quarter of the
	// literals, rounded up, the last what is left.
	n, seg := 1, size
	if sf != 0 {
		n, seg = 4, (size+3)/4
		fail(end-i < 6 || size < 3*seg, i, "jump table cut short, or too few literals for 4 streams")
	}
	p := i + 6*(n/4)
	for k := range n {
		ln := end - p
		if k < n-1 {
			ln = int(binary.LittleEndian.Uint16(src[i+2*k:]))
		}
		fail(ln > end-p, i, "bad jump table")
		d.huffStream(p, src[p:p+ln], out[k*seg:min(k*seg+seg, size)])
		p += ln
	}
	return end
}

// huffTable reads a Huffman tree description (§4.2.1) at src[i:end] into
// d.huff and returns the position after it.
func (d *zstdDec) huffTable(i, end int) int {
	src, at := d.src, i
	fail(i >= end, at, "Huffman tree description cut short")
	hb := int(src[i])
	i++
	var w [260]byte
	n, ln := hb-127, hb
	if hb >= 128 {
		ln = (n + 1) / 2
	}
	fail(ln > end-i, at, "Huffman tree description cut short")
	if hb >= 128 { // weights in 4 bits each (§4.2.1.1)
		for k := range n {
			w[k] = src[i+k/2] >> (4 - 4*(k&1)) & 15
		}
		i += (n + 1) / 2
	} else { // weights FSE-compressed, two interleaved states (§4.2.1.2)
		n, end = 0, i+hb
		var norm [256]int16
		ns, al, j := zstdReadFSE(src, i, end, 255, 6, &norm)
		var t [64]zstdCell
		zstdBuild(t[:], norm[:ns], al, 3)
		var r zstdBits
		r.init(j, src[j:end])
		// The weights end where a state would read past the stream's end:
		// both states' symbols are then the last two.
		s := [2]int{r.read(al), r.read(al)}
		for k := 0; n <= 255; k ^= 1 {
			if r.n <= 0 && t[s[k]].nb > 0 {
				w[n], w[n+1] = byte(t[s[k]].base), byte(t[s[k^1]].base)
				n += 2
				break
			}
			c := t[s[k]]
			w[n] = byte(c.base)
			n++
			s[k] = int(c.next) + r.read(c.nb)
		}
		fail(r.n != 0 || n > 255, j, "bad Huffman weights bitstream")
		i = end
	}
	// The last symbol's weight is what makes the sum of 2^(weight-1) a
	// power of two (§4.2.1.3); a weight w takes log+1-w bits.
	sum := 0
	for _, x := range w[:n] {
		sum += 1 << min(x, 12) >> 1
	}
	log := bits.Len(uint(sum))
	rest := 1<<log - sum
	fail(sum == 0 || log > 11 || rest&(rest-1) != 0, at, "bad Huffman weights")
	w[n] = byte(bits.Len(uint(rest)))
	n++
	// Codes go by weight, lowest first, then by symbol (§4.2.2): a
	// symbol of weight w fills 2^(w-1) entries of the table read by the
	// next log bits. As zstd, at least two codes of the longest length.
	pos := 0
	for wt := 1; wt <= log; wt++ {
		for s, x := range w[:n] {
			if int(x) == wt {
				for range 1 << (wt - 1) {
					d.huff[pos] = uint16(s)<<8 | uint16(log+1-wt)
					pos++
				}
			}
		}
		fail(pos < 2, at, "bad Huffman weights")
	}
	d.huffLog = uint8(log)
	return i
}

// huffStream decodes len(out) literals from one Huffman-coded stream
// (§4.2.2), which must end exactly there.
func (d *zstdDec) huffStream(at int, src, out []byte) {
	var r zstdBits
	r.init(at, src)
	for k := range out {
		e := d.huff[r.peek(d.huffLog)]
		out[k] = byte(e >> 8)
		r.n -= int(e & 15)
	}
	fail(r.n != 0, at, "Huffman stream does not end at %d literals", len(out))
}

// zstdReadFSE reads an FSE table description (§4.1.1) at src[i:end] into
// norm: the number of symbols, the accuracy log, the position after it.
// Its bits are read from the lowest; bits past end read as zeros, but the
// description must end before end.
func zstdReadFSE(src []byte, i, end, maxSym int, maxLog uint8, norm *[256]int16) (n int, al uint8, j int) {
	b, p := src[i:end], 0
	peek := func(k int) int { return int(zstdLE(b, p>>3) >> (p & 7) & (1<<k - 1)) }
	al, p = uint8(peek(4))+5, 4
	// remaining is what the counts still have to share (plus one); a
	// count is read in just enough bits to hold remaining+1 values, a
	// value below lim in one bit fewer.
	remaining, thr, nb := 1<<al+1, 1<<al, int(al)+1
	for remaining > 1 && al <= maxLog {
		fail(n > maxSym, i, "FSE table has more than %d symbols", maxSym+1)
		v, lim := peek(nb), 2*thr-1-remaining
		c := v & (thr - 1)
		if c < lim {
			p += nb - 1
		} else {
			if c = v & (2*thr - 1); c >= thr {
				c -= lim
			}
			p += nb
		}
		c-- // -1: a probability below 1, which takes one state
		norm[n] = int16(c)
		n++
		remaining -= max(c, -c)
		// After a zero, 2-bit counts of more zeros, while they are 3.
		// Zeros past maxSym are not stored: the next count fails.
		for r := 3 * b2i(c == 0); r == 3; {
			r = peek(2)
			p += 2
			for range r {
				if n <= maxSym {
					norm[n] = 0
				}
				n++
			}
		}
		for remaining < thr {
			nb--
			thr >>= 1
		}
	}
	j = i + (p+7)/8
	fail(al > maxLog || remaining != 1 || j > end, i, "bad FSE table (accuracy log %d, at most %d)", int(al), int(maxLog))
	return n, al, j
}

// zstdBuild fills t with the decoding table of the counts norm (§4.1.1):
// symbols of probability -1 take one state each from the end, the others
// are spread over the rest; each state then reads the bits that lead to
// the next. Kind k (literals length, offset, match length, Huffman
// weight) says what the symbols mean.
func zstdBuild(t []zstdCell, norm []int16, al uint8, k int) {
	size := 1 << al
	var next [256]int
	high := size - 1
	for s, c := range norm {
		next[s] = int(c)
		if c == -1 {
			t[high].next = uint16(s)
			high--
			next[s] = 1
		}
	}
	step, pos := size>>1+size>>3+3, 0
	for s, c := range norm {
		for ; c > 0; c-- {
			t[pos].next = uint16(s)
			for pos = (pos + step) & (size - 1); pos > high; pos = (pos + step) & (size - 1) {
			}
		}
	}
	for u := range size {
		s := int(t[u].next)
		x := next[s]
		next[s]++
		nb := int(al) + 1 - bits.Len(uint(x))
		t[u].base, t[u].extra = zstdSymbol(k, s)
		t[u].nb, t[u].next = uint8(nb), uint16(x<<nb-size)
	}
}

// zstdSymbol is the value and extra bits of symbol s of kind k
// (§3.1.1.3.2.1.1): lengths from zstdLens, offset codes as 1<<code plus
// code bits, Huffman weights as themselves.
func zstdSymbol(k, s int) (uint32, uint8) {
	switch k {
	case 0:
		return zstdLens[s].base, zstdLens[s].extra
	case 1:
		return 1 << s, uint8(s)
	case 2:
		return zstdLens[36+s].base, zstdLens[36+s].extra
	}
	return uint32(s), 0
}

// zstdLens are the baselines and extra bits of the literals length codes
// 0-35, then of the match length codes 0-52 (§3.1.1.3.2.1.1).
var zstdLens = func() (t [36 + 53]struct {
	base  uint32
	extra uint8
}) {
	ll := "\x01\x01\x01\x01\x02\x02\x03\x03\x04\x06\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10"
	ml := "\x01\x01\x01\x01\x02\x02\x03\x03\x04\x04\x05\x07\x08\x09\x0a\x0b\x0c\x0d\x0e\x0f\x10"
	base := uint32(0)
	for i := range t {
		switch {
		case i == 36:
			base = 3
		case i >= 16 && i < 36:
			t[i].extra = ll[i-16]
		case i >= 36+32:
			t[i].extra = ml[i-36-32]
		}
		t[i].base = base
		base += 1 << t[i].extra
	}
	return t
}()

// The predefined distributions (§3.1.1.3.2.2) of literals lengths,
// offsets and match lengths, and their accuracy logs.
var (
	zstdPredef = [3][]int16{
		{4, 3, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 2, 1, 1, 1, 2, 2, 2, 2, 2, 2, 2, 2, 2, 3, 2, 1, 1, 1, 1, 1, -1, -1, -1, -1},
		{1, 1, 1, 1, 1, 1, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1},
		{1, 4, 3, 2, 2, 2, 2, 2, 2, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, -1, -1, -1, -1, -1, -1, -1},
	}
	zstdPredefLog = [3]uint8{6, 5, 6}
)

// zstdBits reads a bitstream backwards (§4.1, §4.2.2): from the highest
// bit below the end mark, the highest set bit of the last byte. n is the
// number of bits left, negative once more were read than the stream
// holds; bits before its start read as zeros.
type zstdBits struct {
	b []byte
	n int
}

func (r *zstdBits) init(at int, b []byte) {
	fail(len(b) == 0 || b[len(b)-1] == 0, at, "bitstream without its end mark")
	r.b, r.n = b, 8*len(b)-9+bits.Len8(b[len(b)-1])
}

// peek returns the next k bits (k <= 32) without reading them.
func (r *zstdBits) peek(k uint8) int {
	p := r.n - int(k)
	if p >= 0 {
		return int(zstdLE(r.b, p>>3) >> (p & 7) & (1<<k - 1))
	}
	if r.n <= 0 {
		return 0
	}
	return int(zstdLE(r.b, 0) & (1<<r.n - 1) << -p)
}

func (r *zstdBits) read(k uint8) int {
	v := r.peek(k)
	r.n -= int(k)
	return v
}

// zstdLE reads b[i:i+8] as a little-endian number, zeros past the end.
func zstdLE(b []byte, i int) uint64 {
	if i+8 <= len(b) {
		return binary.LittleEndian.Uint64(b[i:])
	}
	var v uint64
	for k := len(b) - 1; k >= i; k-- {
		v = v<<8 | uint64(b[k])
	}
	return v
}

// zstdXXH64 is XXH64 with seed 0, whose low 32 bits are a frame's
// content checksum (§3.1.1).
func zstdXXH64(b []byte) uint64 {
	const (
		p1 uint64 = 11400714785074694791
		p2 uint64 = 14029467366897019727
		p3 uint64 = 1609587929392839161
		p4 uint64 = 9650029242287828579
		p5 uint64 = 2870177450012600261
	)
	round := func(acc, in uint64) uint64 { return bits.RotateLeft64(acc+in*p2, 31) * p1 }
	n := uint64(len(b))
	h := p5
	if len(b) >= 32 {
		v := [4]uint64{p1, p2, 0, 0}
		v[0] += p2
		v[3] -= p1
		for ; len(b) >= 32; b = b[32:] {
			for k := range v {
				v[k] = round(v[k], binary.LittleEndian.Uint64(b[8*k:]))
			}
		}
		h = bits.RotateLeft64(v[0], 1) + bits.RotateLeft64(v[1], 7) + bits.RotateLeft64(v[2], 12) + bits.RotateLeft64(v[3], 18)
		for _, x := range v {
			h = (h^round(0, x))*p1 + p4
		}
	}
	h += n
	for ; len(b) >= 8; b = b[8:] {
		h = bits.RotateLeft64(h^round(0, binary.LittleEndian.Uint64(b)), 27)*p1 + p4
	}
	if len(b) >= 4 {
		h = bits.RotateLeft64(h^uint64(binary.LittleEndian.Uint32(b))*p1, 23)*p2 + p3
		b = b[4:]
	}
	for _, c := range b {
		h = bits.RotateLeft64(h^uint64(c)*p5, 11) * p1
	}
	h ^= h >> 33
	h *= p2
	h ^= h >> 29
	h *= p3
	return h ^ h>>32
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
