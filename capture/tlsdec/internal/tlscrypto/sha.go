package tlscrypto

import (
	"encoding/binary"
	"hash"
	"math/bits"
)

// The hashes of FIPS 180-4 that TLS's suites use.
const (
	sha1Kind = iota
	sha256Kind
	sha384Kind
	sha512Kind
)

// digest is SHA-1, SHA-256, SHA-384 or SHA-512 (FIPS 180-4): a state, a
// block not yet whole and the length so far.
type digest struct {
	kind int
	h32  [8]uint32 // SHA-1 (5 words) and SHA-256
	h64  [8]uint64 // SHA-384 and SHA-512
	buf  [128]byte
	n    int    // bytes in buf
	len  uint64 // bytes written (messages under 2^61 bytes)
}

// NewSHA1 returns SHA-1 (FIPS 180-4 section 6.1).
func NewSHA1() hash.Hash { return newDigest(sha1Kind) }

// NewSHA256 returns SHA-256 (FIPS 180-4 section 6.2).
func NewSHA256() hash.Hash { return newDigest(sha256Kind) }

// NewSHA384 returns SHA-384 (FIPS 180-4 section 6.5).
func NewSHA384() hash.Hash { return newDigest(sha384Kind) }

// NewSHA512 returns SHA-512 (FIPS 180-4 section 6.4).
func NewSHA512() hash.Hash { return newDigest(sha512Kind) }

func newDigest(kind int) *digest {
	d := &digest{kind: kind}
	d.Reset()
	return d
}

// Reset sets the initial hash value (FIPS 180-4 section 5.3).
func (d *digest) Reset() {
	d.n, d.len = 0, 0
	switch d.kind {
	case sha1Kind:
		d.h32 = [8]uint32{0x67452301, 0xefcdab89, 0x98badcfe, 0x10325476, 0xc3d2e1f0}
	case sha256Kind:
		d.h32 = [8]uint32{0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a, 0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19}
	case sha384Kind:
		d.h64 = [8]uint64{0xcbbb9d5dc1059ed8, 0x629a292a367cd507, 0x9159015a3070dd17, 0x152fecd8f70e5939,
			0x67332667ffc00b31, 0x8eb44a8768581511, 0xdb0c2e0d64f98fa7, 0x47b5481dbefa4fa4}
	default:
		d.h64 = [8]uint64{0x6a09e667f3bcc908, 0xbb67ae8584caa73b, 0x3c6ef372fe94f82b, 0xa54ff53a5f1d36f1,
			0x510e527fade682d1, 0x9b05688c2b3e6c1f, 0x1f83d9abfb41bd6b, 0x5be0cd19137e2179}
	}
}

// Size is the digest's size in bytes.
func (d *digest) Size() int {
	return [...]int{20, 32, 48, 64}[d.kind]
}

// BlockSize is the size of a block in bytes.
func (d *digest) BlockSize() int {
	if d.kind >= sha384Kind {
		return 128
	}
	return 64
}

// Write adds p to the message; it never fails.
func (d *digest) Write(p []byte) (int, error) {
	n := len(p)
	d.len += uint64(n)
	bs := d.BlockSize()
	for len(p) > 0 {
		c := copy(d.buf[d.n:bs], p)
		d.n += c
		p = p[c:]
		if d.n == bs {
			d.block(d.buf[:bs])
			d.n = 0
		}
	}
	return n, nil
}

// Sum appends the digest of the message so far to b, leaving d as it
// was: the message padded with 1, zeros and its length in bits (FIPS
// 180-4 section 5.1), big-endian.
func (d *digest) Sum(b []byte) []byte {
	e := *d
	bs := e.BlockSize()
	lenBytes := bs / 8 // 8 or 16: SHA-384 and SHA-512 count in 128 bits
	nbits := e.len * 8
	var pad [256]byte
	pad[0] = 0x80
	n := bs - lenBytes - e.n - 1
	if n < 0 {
		n += bs
	}
	p := pad[:1+n+lenBytes]
	binary.BigEndian.PutUint64(p[len(p)-8:], nbits)
	e.Write(p)
	size := e.Size()
	var out [64]byte
	if e.kind >= sha384Kind {
		for i := range 8 {
			binary.BigEndian.PutUint64(out[8*i:], e.h64[i])
		}
	} else {
		for i := range 8 {
			binary.BigEndian.PutUint32(out[4*i:], e.h32[i])
		}
	}
	return append(b, out[:size]...)
}

func (d *digest) block(p []byte) {
	switch d.kind {
	case sha1Kind:
		d.block1(p)
	case sha256Kind:
		d.block256(p)
	default:
		d.block512(p)
	}
}

// block1 is SHA-1's computation of one block (FIPS 180-4 section 6.1.2).
func (d *digest) block1(p []byte) {
	var w [80]uint32
	for t := range 16 {
		w[t] = binary.BigEndian.Uint32(p[4*t:])
	}
	for t := 16; t < 80; t++ {
		w[t] = bits.RotateLeft32(w[t-3]^w[t-8]^w[t-14]^w[t-16], 1)
	}
	a, b, c, e, f := d.h32[0], d.h32[1], d.h32[2], d.h32[3], d.h32[4]
	for t := range 80 {
		var fn, k uint32
		switch {
		case t < 20:
			fn, k = b&c|^b&e, 0x5a827999
		case t < 40:
			fn, k = b^c^e, 0x6ed9eba1
		case t < 60:
			fn, k = b&c|b&e|c&e, 0x8f1bbcdc
		default:
			fn, k = b^c^e, 0xca62c1d6
		}
		tmp := bits.RotateLeft32(a, 5) + fn + f + k + w[t]
		f, e, c, b, a = e, c, bits.RotateLeft32(b, 30), a, tmp
	}
	d.h32[0] += a
	d.h32[1] += b
	d.h32[2] += c
	d.h32[3] += e
	d.h32[4] += f
}

// block256 is SHA-256's computation of one block (FIPS 180-4 section
// 6.2.2).
func (d *digest) block256(p []byte) {
	var w [64]uint32
	for t := range 16 {
		w[t] = binary.BigEndian.Uint32(p[4*t:])
	}
	for t := 16; t < 64; t++ {
		s0 := bits.RotateLeft32(w[t-15], -7) ^ bits.RotateLeft32(w[t-15], -18) ^ w[t-15]>>3
		s1 := bits.RotateLeft32(w[t-2], -17) ^ bits.RotateLeft32(w[t-2], -19) ^ w[t-2]>>10
		w[t] = s1 + w[t-7] + s0 + w[t-16]
	}
	v := d.h32
	for t := range 64 {
		a, b, c, e, f, g, h := v[0], v[1], v[2], v[4], v[5], v[6], v[7]
		t1 := h + (bits.RotateLeft32(e, -6) ^ bits.RotateLeft32(e, -11) ^ bits.RotateLeft32(e, -25)) + (e&f ^ ^e&g) + k256[t] + w[t]
		t2 := (bits.RotateLeft32(a, -2) ^ bits.RotateLeft32(a, -13) ^ bits.RotateLeft32(a, -22)) + (a&b ^ a&c ^ b&c)
		v = [8]uint32{t1 + t2, a, b, c, v[3] + t1, e, f, g}
	}
	for i := range v {
		d.h32[i] += v[i]
	}
}

// block512 is SHA-512's computation of one block (FIPS 180-4 section
// 6.4.2), SHA-384's too.
func (d *digest) block512(p []byte) {
	var w [80]uint64
	for t := range 16 {
		w[t] = binary.BigEndian.Uint64(p[8*t:])
	}
	for t := 16; t < 80; t++ {
		s0 := bits.RotateLeft64(w[t-15], -1) ^ bits.RotateLeft64(w[t-15], -8) ^ w[t-15]>>7
		s1 := bits.RotateLeft64(w[t-2], -19) ^ bits.RotateLeft64(w[t-2], -61) ^ w[t-2]>>6
		w[t] = s1 + w[t-7] + s0 + w[t-16]
	}
	v := d.h64
	for t := range 80 {
		a, b, c, e, f, g, h := v[0], v[1], v[2], v[4], v[5], v[6], v[7]
		t1 := h + (bits.RotateLeft64(e, -14) ^ bits.RotateLeft64(e, -18) ^ bits.RotateLeft64(e, -41)) + (e&f ^ ^e&g) + k512[t] + w[t]
		t2 := (bits.RotateLeft64(a, -28) ^ bits.RotateLeft64(a, -34) ^ bits.RotateLeft64(a, -39)) + (a&b ^ a&c ^ b&c)
		v = [8]uint64{t1 + t2, a, b, c, v[3] + t1, e, f, g}
	}
	for i := range v {
		d.h64[i] += v[i]
	}
}
