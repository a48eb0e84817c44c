package records

import (
	"encoding/binary"
	"fmt"
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
	src     []byte
	out     []byte
	limit   int
	lits    []byte // the current block's literals
	buf     []byte // room for decoded literals
	rep     [3]int // repeat offsets (§3.1.1.5)
	huffLog uint8  // 0 until the frame has a Huffman table
	logs    [3]uint8
	have    [3]bool // tabs[k] holds a table (literals length, offset, match length)
	huff    [1 << 11]uint16
	tabs    [3][512]zstdCell
}

// zstdDecodeFrames decodes every frame of src (zstd frames and skippable
// frames, §3.1), appending to dst[:0], failing with ErrLimit past limit
// bytes: every size is checked against the bytes left and the limit
// before it is used. Content checksums are verified.
func zstdDecodeFrames(src []byte, limit int, dst []byte) ([]byte, error) {
	d := &zstdDec{src: src, out: dst[:0], limit: limit}
	for i := 0; i < len(src); {
		if len(src)-i < 4 {
			return nil, zerr(i, "%d bytes after the last frame, too few for a frame", len(src)-i)
		}
		m := binary.LittleEndian.Uint32(src[i:])
		var err error
		switch {
		case m == zstdMagic:
			i, err = d.frame(i + 4)
		case m&^15 == 0x184d2a50: // skippable frame (§3.1.2)
			if len(src)-i < 8 || int64(binary.LittleEndian.Uint32(src[i+4:])) > int64(len(src)-i-8) {
				return nil, zerr(i, "skippable frame cut short")
			}
			i += 8 + int(binary.LittleEndian.Uint32(src[i+4:]))
		default:
			return nil, zerr(i, "magic %#08x, want %#08x", m, zstdMagic)
		}
		if err != nil {
			return nil, err
		}
	}
	return d.out, nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}

func zerr(at int, format string, args ...any) error {
	return fmt.Errorf("byte %d: "+format, append([]any{at}, args...)...)
}

const errZstdCut = "%s cut short"

// need makes room for n more bytes of output, within the limit.
func (d *zstdDec) need(n int) error {
	if n > d.limit-len(d.out) {
		return errTooBig
	}
	if n > cap(d.out)-len(d.out) {
		o := make([]byte, len(d.out), min(max(2*cap(d.out), len(d.out)+n, 4096), d.limit))
		copy(o, d.out)
		d.out = o
	}
	return nil
}

// copyMatch appends n bytes copied from off bytes back, which may
// overlap the bytes it writes (§3.1.1.4); need made room for them.
func (d *zstdDec) copyMatch(off, n int) {
	s := len(d.out) - off
	for n > 0 {
		k := min(n, len(d.out)-s)
		d.out = append(d.out, d.out[s:s+k]...)
		n -= k
	}
}

// frame decodes the frame whose header starts at src[i] (after the magic
// number, §3.1.1) and returns the position after it.
func (d *zstdDec) frame(i int) (int, error) {
	src, at := d.src, i-4
	if i >= len(src) {
		return 0, zerr(at, errZstdCut, "frame header")
	}
	fhd := src[i]
	single := fhd&0x20 != 0
	if fhd&0x08 != 0 {
		return 0, zerr(i, "reserved bit set in the frame header descriptor")
	}
	dictLen := int(fhd&3) + int(fhd&3)/3 // 0, 1, 2, 4 bytes
	fcsLen := 1 << (fhd >> 6)            // 1 (only when single), 2, 4, 8 bytes
	if fhd>>6 == 0 && !single {
		fcsLen = 0
	}
	i++
	if !single {
		i++ // Window_Descriptor
	}
	if len(src)-i < dictLen+fcsLen {
		return 0, zerr(at, errZstdCut, "frame header")
	}
	window := 0
	if !single { // §3.1.1.1.2
		wd := src[i-1]
		window = 1 << (10 + wd>>3)
		window += window >> 3 * int(wd&7)
	}
	if id := zstdLE(src[i:i+dictLen], 0); id != 0 {
		return 0, zerr(i, "the frame needs dictionary %d, and dictionaries are not supported", id)
	}
	i += dictLen
	fcs := -1
	if fcsLen > 0 {
		v := zstdLE(src[i:i+fcsLen], 0)
		if fcsLen == 2 {
			v += 256 // §3.1.1.1.4
		}
		if v > uint64(d.limit-len(d.out)) {
			return 0, errTooBig
		}
		fcs = int(v)
		// Room for the frame, but no more than its blocks can make.
		_ = d.need(min(fcs, (len(src)-i)<<15))
	}
	i += fcsLen
	if single {
		window = max(fcs, 1<<10)
	}
	bmax := min(window, zstdBlockMax) // Block_Maximum_Size (§3.1.1.2.3)
	start := len(d.out)
	d.huffLog, d.have, d.rep = 0, [3]bool{}, [3]int{1, 4, 8}
	for last := false; !last; {
		if len(src)-i < 3 {
			return 0, zerr(i, errZstdCut, "block header")
		}
		h := int(zstdLE(src[i:i+3], 0)) // §3.1.1.2
		at, size := i, h>>3
		last = h&1 != 0
		i += 3
		if size > bmax {
			return 0, zerr(at, "block of %d bytes, more than the %d a block may hold", size, bmax)
		}
		n := size
		if h>>1&3 == 1 {
			n = 1
		}
		if n > len(src)-i {
			return 0, zerr(at, errZstdCut, "block")
		}
		var err error
		switch h >> 1 & 3 {
		case 0: // raw
			if err = d.need(size); err == nil {
				d.out = append(d.out, src[i:i+size]...)
			}
		case 1: // RLE
			if err = d.need(size); err == nil && size > 0 {
				d.out = append(d.out, src[i])
				d.copyMatch(1, size-1)
			}
		case 2:
			err = d.block(i, i+size, bmax, window, start)
		default:
			err = zerr(at, "reserved block type")
		}
		if err != nil {
			return 0, err
		}
		i += n
	}
	if fcs >= 0 && len(d.out)-start != fcs {
		return 0, zerr(at, "frame decodes to %d bytes, its header says %d", len(d.out)-start, fcs)
	}
	if fhd&4 != 0 { // Content_Checksum (§3.1.1)
		if len(src)-i < 4 {
			return 0, zerr(i, errZstdCut, "content checksum")
		}
		if sum, want := uint32(zstdXXH64(d.out[start:])), binary.LittleEndian.Uint32(src[i:]); sum != want {
			return 0, zerr(i, "content checksum %#08x, want %#08x", want, sum)
		}
		i += 4
	}
	return i, nil
}

// block decodes the compressed block src[i:end] (§3.1.1.3). Matches reach
// back at most window bytes and not before the frame's start.
func (d *zstdDec) block(i, end, bmax, window, start int) error {
	src := d.src
	i, err := d.literals(i, end, bmax)
	if err != nil {
		return err
	}
	if i >= end {
		return zerr(i, errZstdCut, "sequences section")
	}
	nseq := int(src[i]) // §3.1.1.3.2.1
	switch {
	case nseq == 255:
		if end-i < 3 {
			return zerr(i, errZstdCut, "sequences section header")
		}
		nseq = int(src[i+1]) + int(src[i+2])<<8 + 0x7f00
		i += 3
	case nseq >= 128:
		if end-i < 2 {
			return zerr(i, errZstdCut, "sequences section header")
		}
		nseq = (nseq-128)<<8 + int(src[i+1])
		i += 2
	default:
		i++
	}
	if nseq == 0 {
		if i != end {
			return zerr(i, "%d bytes after a sequences section with no sequences", end-i)
		}
		if err := d.need(len(d.lits)); err != nil {
			return err
		}
		d.out = append(d.out, d.lits...)
		return nil
	}
	if i >= end {
		return zerr(i, errZstdCut, "sequences section header")
	}
	modes := src[i]
	if modes&3 != 0 {
		return zerr(i, "reserved bits set in the symbol compression modes")
	}
	i++
	// The tables, in the order literals length, offset, match length
	// (§3.1.1.3.2.1).
	for k := range 3 {
		t := d.tabs[k][:]
		maxSym := [3]int{35, 31, 52}[k]
		switch modes >> (6 - 2*k) & 3 {
		case 0: // predefined (§3.1.1.3.2.2)
			var norm [53]int16
			for s, c := range zstdPredef[k] {
				norm[s] = int16(c)
			}
			d.logs[k] = zstdPredefLog[k]
			zstdBuild(t, norm[:len(zstdPredef[k])], d.logs[k], k)
		case 1: // RLE
			if i >= end {
				return zerr(i, errZstdCut, "sequences section header")
			}
			if int(src[i]) > maxSym {
				return zerr(i, "RLE symbol %d, more than %d", src[i], maxSym)
			}
			t[0] = zstdCell{}
			t[0].base, t[0].extra = zstdSymbol(k, int(src[i]))
			d.logs[k] = 0
			i++
		case 2:
			var norm [256]int16
			var n int
			n, d.logs[k], i, err = zstdReadFSE(src, i, end, maxSym, 9, &norm)
			if err != nil {
				return err
			}
			zstdBuild(t, norm[:n], d.logs[k], k)
		case 3: // repeat: the previous block's table
			if !d.have[k] {
				return zerr(i, "a sequences table repeats the previous block's, and there is none")
			}
		}
		d.have[k] = true
	}
	// The bitstream (§3.1.1.3.2.2): the initial states of the literals
	// length, offset and match length tables, then per sequence the extra
	// bits of the offset, match length and literals length, then the
	// state updates of literals length, match length and offset.
	var r zstdBits
	if !r.init(src[i:end]) {
		return zerr(i, "sequences bitstream has no end mark")
	}
	var st [3]int
	for k := range st {
		st[k] = r.read(d.logs[k])
	}
	lits, bstart := d.lits, len(d.out)
	for s := range nseq {
		ll, of, ml := &d.tabs[0][st[0]], &d.tabs[1][st[1]], &d.tabs[2][st[2]]
		off := int(of.base) + r.read(of.extra)
		mlen := int(ml.base) + r.read(ml.extra)
		llen := int(ll.base) + r.read(ll.extra)
		if s < nseq-1 {
			st[0] = int(ll.next) + r.read(ll.nb)
			st[2] = int(ml.next) + r.read(ml.nb)
			st[1] = int(of.next) + r.read(of.nb)
		}
		if r.n < 0 {
			return zerr(i, "sequences bitstream ends within sequence %d of %d", s+1, nseq)
		}
		// Repeat offsets (§3.1.1.5): an Offset_Value of 1-3 names one of
		// the last three offsets, shifted by one when there are no
		// literals, where 3 means the last offset minus 1.
		if of.extra > 1 {
			off -= 3
			d.rep = [3]int{off, d.rep[0], d.rep[1]}
		} else if idx := off - 1 + b2i(llen == 0); idx == 0 {
			off = d.rep[0]
		} else {
			off = d.rep[0] - 1
			if idx < 3 {
				off = d.rep[idx]
			}
			off = max(off, 1) // 0 is invalid: taken as 1, as zstd and klauspost do
			if idx > 1 {
				d.rep[2] = d.rep[1]
			}
			d.rep[0], d.rep[1] = off, d.rep[0]
		}
		// Execution (§3.1.1.4): literals, then the match.
		if llen > len(lits) {
			return zerr(i, "sequence %d of %d takes %d literals, %d are left", s+1, nseq, llen, len(lits))
		}
		if len(d.out)-bstart+llen+mlen > bmax {
			return zerr(i, "block decodes to more than %d bytes", bmax)
		}
		if err := d.need(llen + mlen); err != nil {
			return err
		}
		d.out = append(d.out, lits[:llen]...)
		lits = lits[llen:]
		if off <= 0 || off > len(d.out)-start || off > window {
			return zerr(i, "sequence %d of %d: offset %d, but %d bytes are decoded", s+1, nseq, off, len(d.out)-start)
		}
		d.copyMatch(off, mlen)
	}
	if r.n != 0 {
		return zerr(i, "sequences bitstream: %d bits left after the last sequence", r.n)
	}
	if len(d.out)-bstart+len(lits) > bmax {
		return zerr(i, "block decodes to more than %d bytes", bmax)
	}
	if err := d.need(len(lits)); err != nil {
		return err
	}
	d.out = append(d.out, lits...)
	return nil
}

// literals reads the literals section at src[i:end] (§3.1.1.3.1) into
// d.lits and returns the position after it.
func (d *zstdDec) literals(i, end, bmax int) (int, error) {
	src, at := d.src, i
	if i >= end {
		return 0, zerr(i, errZstdCut, "literals section header")
	}
	typ, sf := src[i]&3, int(src[i]>>2&3)
	size, csize, hlen := int(src[i]>>3), 0, 1 // §3.1.1.3.1.1
	if typ < 2 && sf&1 != 0 {
		hlen = 2 + sf>>1
	} else if typ >= 2 {
		hlen = [4]int{3, 3, 4, 5}[sf]
	}
	if end-i < hlen {
		return 0, zerr(i, errZstdCut, "literals section header")
	}
	if hlen > 1 {
		v := int(zstdLE(src[i:i+hlen], 0) >> 4)
		size = v
		if typ >= 2 {
			n := [4]int{10, 10, 14, 18}[sf]
			size, csize = v&(1<<n-1), v>>n
		}
	}
	i += hlen
	if size > bmax {
		return 0, zerr(at, "%d literals, more than the %d a block may hold", size, bmax)
	}
	if typ == 0 { // raw
		if size > end-i {
			return 0, zerr(at, errZstdCut, "literals")
		}
		d.lits = src[i : i+size]
		return i + size, nil
	}
	// All the literals end in the output: check them against the limit
	// before making room for them.
	if size > d.limit-len(d.out) {
		return 0, errTooBig
	}
	if cap(d.buf) < size {
		d.buf = make([]byte, size)
	}
	out := d.buf[:size]
	d.lits = out
	if typ == 1 { // RLE
		if i >= end {
			return 0, zerr(at, errZstdCut, "literals")
		}
		for k := range out {
			out[k] = src[i]
		}
		return i + 1, nil
	}
	if csize > end-i {
		return 0, zerr(at, errZstdCut, "literals")
	}
	end = i + csize
	if typ == 2 {
		var err error
		if i, err = d.huffTable(i, end); err != nil {
			return 0, err
		}
	} else if d.huffLog == 0 { // treeless: the previous Huffman table
		return 0, zerr(at, "literals reuse the previous Huffman table, and there is none")
	}
	if sf == 0 {
		return end, d.huffStream(i, src[i:end], out)
	}
	// Four streams (§3.1.1.3.1.6): a jump table of the first three
	// streams' sizes; each decodes a quarter of the literals, rounded up,
	// the last what is left.
	seg := (size + 3) / 4
	if end-i < 6 || size < 3*seg {
		return 0, zerr(i, "literals: bad jump table")
	}
	p := i + 6
	for k := range 4 {
		n := end - p
		if k < 3 {
			n = int(binary.LittleEndian.Uint16(src[i+2*k:]))
		}
		if n > end-p {
			return 0, zerr(i, "literals: bad jump table")
		}
		if err := d.huffStream(p, src[p:p+n], out[k*seg:min(k*seg+seg, size)]); err != nil {
			return 0, err
		}
		p += n
	}
	return end, nil
}

// huffTable reads a Huffman tree description (§4.2.1) at src[i:end] into
// d.huff and returns the position after it.
func (d *zstdDec) huffTable(i, end int) (int, error) {
	src, at := d.src, i
	if i >= end {
		return 0, zerr(at, errZstdCut, "Huffman tree description")
	}
	hb := int(src[i])
	i++
	var w [260]byte
	n := 0
	if hb >= 128 { // weights in 4 bits each (§4.2.1.1)
		n = hb - 127
		if (n+1)/2 > end-i {
			return 0, zerr(at, errZstdCut, "Huffman tree description")
		}
		for k := range n {
			w[k] = src[i+k/2] >> (4 - 4*(k&1)) & 15
		}
		i += (n + 1) / 2
	} else { // weights FSE-compressed, two interleaved states (§4.2.1.2)
		if hb > end-i {
			return 0, zerr(at, errZstdCut, "Huffman tree description")
		}
		end = i + hb
		var norm [256]int16
		ns, al, j, err := zstdReadFSE(src, i, end, 255, 6, &norm)
		if err != nil {
			return 0, err
		}
		var t [64]zstdCell
		zstdBuild(t[:], norm[:ns], al, 3)
		var r zstdBits
		if !r.init(src[j:end]) {
			return 0, zerr(j, "Huffman weights bitstream has no end mark")
		}
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
		if r.n != 0 || n > 255 {
			return 0, zerr(j, "bad Huffman weights bitstream")
		}
		i = end
	}
	// The last symbol's weight is what makes the sum of 2^(weight-1) a
	// power of two (§4.2.1.3); a weight w takes log+1-w bits.
	sum := 0
	for _, x := range w[:n] {
		if x > 11 {
			return 0, zerr(at, "Huffman weight %d, more than 11", x)
		}
		if x > 0 {
			sum += 1 << (x - 1)
		}
	}
	log := bits.Len(uint(sum))
	rest := 1<<log - sum
	if sum == 0 || log > 11 || rest&(rest-1) != 0 {
		return 0, zerr(at, "bad Huffman weights")
	}
	w[n] = byte(bits.Len(uint(rest)))
	n++
	// Codes go by weight, lowest first, then by symbol (§4.2.2): a
	// symbol of weight w fills 2^(w-1) entries of the table read by the
	// next log bits.
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
		if wt == 1 && pos < 2 { // as zstd: at least two codes of the longest length
			return 0, zerr(at, "bad Huffman weights")
		}
	}
	d.huffLog = uint8(log)
	return i, nil
}

// huffStream decodes len(out) literals from one Huffman-coded stream
// (§4.2.2), which must end exactly there.
func (d *zstdDec) huffStream(at int, src, out []byte) error {
	var r zstdBits
	if !r.init(src) {
		return zerr(at, "Huffman stream has no end mark")
	}
	for k := range out {
		e := d.huff[r.peek(d.huffLog)]
		out[k] = byte(e >> 8)
		r.n -= int(e & 15)
	}
	if r.n != 0 {
		return zerr(at, "Huffman stream does not end with its %d literals", len(out))
	}
	return nil
}

// zstdReadFSE reads an FSE table description (§4.1.1) at src[i:end] into
// norm: the number of symbols, the accuracy log, the position after it.
// Its bits are read from the lowest; bits past end read as zeros, but the
// description must end before end.
func zstdReadFSE(src []byte, i, end, maxSym int, maxLog uint8, norm *[256]int16) (n int, al uint8, j int, err error) {
	b, p := src[i:end], 0
	peek := func(k int) int { return int(zstdLE(b, p>>3) >> (p & 7) & (1<<k - 1)) }
	al, p = uint8(peek(4))+5, 4
	if al > maxLog {
		return 0, 0, 0, zerr(i, "FSE accuracy log %d, more than %d", al, maxLog)
	}
	// remaining is what the counts still have to share (plus one); a
	// count is read in just enough bits to hold remaining+1 values, a
	// value below lim in one bit fewer.
	remaining, thr, nb := 1<<al+1, 1<<al, int(al)+1
	for remaining > 1 {
		if n > maxSym {
			return 0, 0, 0, zerr(i, "FSE table has more than %d symbols", maxSym+1)
		}
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
		if c == 0 { // 2-bit counts of more zeros follow, while they are 3
			for r := 3; r == 3; {
				r = peek(2)
				p += 2
				for range r {
					if n > maxSym {
						return 0, 0, 0, zerr(i, "FSE table has more than %d symbols", maxSym+1)
					}
					norm[n] = 0
					n++
				}
			}
		}
		for remaining < thr {
			nb--
			thr >>= 1
		}
	}
	if j = i + (p+7)/8; remaining != 1 || j > end {
		return 0, 0, 0, zerr(i, "bad FSE table description")
	}
	return n, al, j, nil
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
	zstdPredef = [3][]int8{
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

func (r *zstdBits) init(b []byte) bool {
	if len(b) == 0 || b[len(b)-1] == 0 {
		return false
	}
	r.b, r.n = b, 8*len(b)-9+bits.Len8(b[len(b)-1])
	return true
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
