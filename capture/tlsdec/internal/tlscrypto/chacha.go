package tlscrypto

import (
	"encoding/binary"
	"errors"
	"math/bits"
)

// ChaCha20Poly1305 is the AEAD of RFC 8439 section 2.8 (12-byte nonce,
// 16-byte tag).
type ChaCha20Poly1305 struct {
	key [8]uint32
}

// NewChaCha20Poly1305 returns ChaCha20-Poly1305 with a 32-byte key.
func NewChaCha20Poly1305(key []byte) (*ChaCha20Poly1305, error) {
	if len(key) != 32 {
		return nil, errors.New("tlscrypto: a ChaCha20-Poly1305 key is of 32 bytes")
	}
	c := &ChaCha20Poly1305{}
	for i := range c.key {
		c.key[i] = binary.LittleEndian.Uint32(key[4*i:])
	}
	return c, nil
}

// Overhead is the tag's size.
func (c *ChaCha20Poly1305) Overhead() int { return 16 }

// NonceSize is the nonce's size.
func (c *ChaCha20Poly1305) NonceSize() int { return 12 }

// chachaBlock is the ChaCha20 block function (RFC 8439 section 2.3).
func chachaBlock(out *[64]byte, key *[8]uint32, counter uint32, nonce []byte) {
	var s, x [16]uint32
	s[0], s[1], s[2], s[3] = 0x61707865, 0x3320646e, 0x79622d32, 0x6b206574
	copy(s[4:12], key[:])
	s[12] = counter
	s[13] = binary.LittleEndian.Uint32(nonce[0:])
	s[14] = binary.LittleEndian.Uint32(nonce[4:])
	s[15] = binary.LittleEndian.Uint32(nonce[8:])
	x = s
	qr := func(a, b, c, d int) { // section 2.1
		x[a] += x[b]
		x[d] = bits.RotateLeft32(x[d]^x[a], 16)
		x[c] += x[d]
		x[b] = bits.RotateLeft32(x[b]^x[c], 12)
		x[a] += x[b]
		x[d] = bits.RotateLeft32(x[d]^x[a], 8)
		x[c] += x[d]
		x[b] = bits.RotateLeft32(x[b]^x[c], 7)
	}
	for range 10 {
		qr(0, 4, 8, 12)
		qr(1, 5, 9, 13)
		qr(2, 6, 10, 14)
		qr(3, 7, 11, 15)
		qr(0, 5, 10, 15)
		qr(1, 6, 11, 12)
		qr(2, 7, 8, 13)
		qr(3, 4, 9, 14)
	}
	for i := range x {
		binary.LittleEndian.PutUint32(out[4*i:], x[i]+s[i])
	}
}

// chachaXOR XORs src into dst with the key stream from counter (RFC 8439
// section 2.4).
func chachaXOR(dst, src []byte, key *[8]uint32, counter uint32, nonce []byte) {
	var ks [64]byte
	for len(src) > 0 {
		chachaBlock(&ks, key, counter, nonce)
		counter++
		n := min(len(src), 64)
		for i := range n {
			dst[i] = src[i] ^ ks[i]
		}
		dst, src = dst[n:], src[n:]
	}
}

// polyMAC is the MAC of RFC 8439 section 2.5 over the concatenation of
// parts, each padded with zeros to 16 bytes when pad is set (the AEAD's
// construction, section 2.8), in five 26-bit limbs.
type polyMAC struct {
	r, h [5]uint32
	s    [4]uint32
}

func newPoly1305(key *[32]byte) *polyMAC {
	p := &polyMAC{}
	// r clamped: r &= 0x0ffffffc0ffffffc0ffffffc0fffffff.
	p.r[0] = binary.LittleEndian.Uint32(key[0:]) & 0x3ffffff
	p.r[1] = binary.LittleEndian.Uint32(key[3:]) >> 2 & 0x3ffff03
	p.r[2] = binary.LittleEndian.Uint32(key[6:]) >> 4 & 0x3ffc0ff
	p.r[3] = binary.LittleEndian.Uint32(key[9:]) >> 6 & 0x3f03fff
	p.r[4] = binary.LittleEndian.Uint32(key[12:]) >> 8 & 0x00fffff
	for i := range p.s {
		p.s[i] = binary.LittleEndian.Uint32(key[16+4*i:])
	}
	return p
}

// block adds a 16-byte block (with its 2^128 bit when full, else the
// 0x01 byte after a short final block is already in m) and multiplies
// by r modulo 2^130-5.
func (p *polyMAC) block(m *[16]byte, full bool) {
	var hibit uint32
	if full {
		hibit = 1 << 24
	}
	h0 := p.h[0] + binary.LittleEndian.Uint32(m[0:])&0x3ffffff
	h1 := p.h[1] + binary.LittleEndian.Uint32(m[3:])>>2&0x3ffffff
	h2 := p.h[2] + binary.LittleEndian.Uint32(m[6:])>>4&0x3ffffff
	h3 := p.h[3] + binary.LittleEndian.Uint32(m[9:])>>6&0x3ffffff
	h4 := p.h[4] + (binary.LittleEndian.Uint32(m[12:])>>8 | hibit)
	r0, r1, r2, r3, r4 := uint64(p.r[0]), uint64(p.r[1]), uint64(p.r[2]), uint64(p.r[3]), uint64(p.r[4])
	s1, s2, s3, s4 := r1*5, r2*5, r3*5, r4*5
	d0 := uint64(h0)*r0 + uint64(h1)*s4 + uint64(h2)*s3 + uint64(h3)*s2 + uint64(h4)*s1
	d1 := uint64(h0)*r1 + uint64(h1)*r0 + uint64(h2)*s4 + uint64(h3)*s3 + uint64(h4)*s2
	d2 := uint64(h0)*r2 + uint64(h1)*r1 + uint64(h2)*r0 + uint64(h3)*s4 + uint64(h4)*s3
	d3 := uint64(h0)*r3 + uint64(h1)*r2 + uint64(h2)*r1 + uint64(h3)*r0 + uint64(h4)*s4
	d4 := uint64(h0)*r4 + uint64(h1)*r3 + uint64(h2)*r2 + uint64(h3)*r1 + uint64(h4)*r0
	const m26 = 0x3ffffff
	c := d0 >> 26
	h0 = uint32(d0) & m26
	d1 += c
	c = d1 >> 26
	h1 = uint32(d1) & m26
	d2 += c
	c = d2 >> 26
	h2 = uint32(d2) & m26
	d3 += c
	c = d3 >> 26
	h3 = uint32(d3) & m26
	d4 += c
	c = d4 >> 26
	h4 = uint32(d4) & m26
	h0 += uint32(c) * 5
	h1 += h0 >> 26
	h0 &= m26
	p.h = [5]uint32{h0, h1, h2, h3, h4}
}

// write MACs b, its last block padded with zeros to 16 bytes when pad
// is set, else (the final bytes of a plain Poly1305) ended by 0x01.
func (p *polyMAC) write(b []byte, pad bool) {
	for len(b) > 0 {
		var m [16]byte
		n := copy(m[:], b)
		b = b[n:]
		full := n == 16 || pad
		if !full {
			m[n] = 1
		}
		p.block(&m, full)
	}
}

// sum is the tag: h fully reduced modulo 2^130-5, plus s, modulo 2^128.
func (p *polyMAC) sum() [16]byte {
	const m26 = 0x3ffffff
	h0, h1, h2, h3, h4 := p.h[0], p.h[1], p.h[2], p.h[3], p.h[4]
	h2 += h1 >> 26
	h1 &= m26
	h3 += h2 >> 26
	h2 &= m26
	h4 += h3 >> 26
	h3 &= m26
	h0 += (h4 >> 26) * 5
	h4 &= m26
	h1 += h0 >> 26
	h0 &= m26
	// g = h + 5 - 2^130: h when it is negative, else g.
	g0 := h0 + 5
	g1 := h1 + g0>>26
	g0 &= m26
	g2 := h2 + g1>>26
	g1 &= m26
	g3 := h3 + g2>>26
	g2 &= m26
	g4 := h4 + g3>>26 - 1<<26
	g3 &= m26
	if g4>>31 == 0 {
		h0, h1, h2, h3, h4 = g0, g1, g2, g3, g4
	}
	w0 := uint64(h0 | h1<<26)
	w1 := uint64(h1>>6 | h2<<20)
	w2 := uint64(h2>>12 | h3<<14)
	w3 := uint64(h3>>18 | h4<<8)
	var t [16]byte
	f := w0 + uint64(p.s[0])
	binary.LittleEndian.PutUint32(t[0:], uint32(f))
	f = w1 + uint64(p.s[1]) + f>>32
	binary.LittleEndian.PutUint32(t[4:], uint32(f))
	f = w2 + uint64(p.s[2]) + f>>32
	binary.LittleEndian.PutUint32(t[8:], uint32(f))
	f = w3 + uint64(p.s[3]) + f>>32
	binary.LittleEndian.PutUint32(t[12:], uint32(f))
	return t
}

// tag is the AEAD's Poly1305 tag (section 2.8): the one-time key from
// block 0, then the padded additional data and ciphertext and their
// lengths.
func (c *ChaCha20Poly1305) tag(nonce, ct, aad []byte) [16]byte {
	var blk [64]byte
	chachaBlock(&blk, &c.key, 0, nonce)
	p := newPoly1305((*[32]byte)(blk[:32]))
	p.write(aad, true)
	p.write(ct, true)
	var l [16]byte
	binary.LittleEndian.PutUint64(l[:8], uint64(len(aad)))
	binary.LittleEndian.PutUint64(l[8:], uint64(len(ct)))
	p.write(l[:], true)
	return p.sum()
}

// Open authenticates ciphertext (with its tag at the end) and additional
// data and appends the plaintext to dst; dst may be ciphertext[:0].
// Nothing is written when the tag does not match.
func (c *ChaCha20Poly1305) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(nonce) != 12 {
		return nil, errors.New("tlscrypto: a ChaCha20-Poly1305 nonce is of 12 bytes")
	}
	if len(ciphertext) < 16 {
		return nil, errOpen
	}
	ct, tag := ciphertext[:len(ciphertext)-16], ciphertext[len(ciphertext)-16:]
	t := c.tag(nonce, ct, additionalData)
	if !Equal(t[:], tag) {
		return nil, errOpen
	}
	ret, out := sliceForAppend(dst, len(ct))
	chachaXOR(out, ct, &c.key, 1, nonce)
	return ret, nil
}
