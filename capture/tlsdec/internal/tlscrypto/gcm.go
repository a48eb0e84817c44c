package tlscrypto

import (
	"encoding/binary"
	"errors"
)

// GCM is AES in Galois/Counter Mode (NIST SP 800-38D) with 12-byte
// nonces and 16-byte tags, as TLS uses it.
type GCM struct {
	b *AES
	// t[n] is H = E(K, 0^128) times the 4-bit polynomial n (its bit 8
	// the coefficient of x^0, bit 1 of x^3), as high and low halves:
	// bit 0 of a block (SP 800-38D section 6.3) is the high half's top
	// bit, and a product by x a shift right.
	t [16][2]uint64
}

// reduce4[r] reduces the four bits r that a shift right by 4 drops
// (x^128 = x^7 + x^2 + x + 1, R = 11100001 || 0^120): the low bit of r
// stood for x^127, now x^131 = R x^3.
var reduce4 = func() (t [16]uint64) {
	for r := range t {
		for p := range 4 {
			if r>>p&1 != 0 {
				t[r] ^= 0xe1 << 56 >> (3 - p)
			}
		}
	}
	return t
}()

// GCMTagSize is the size of a GCM tag.
const GCMTagSize = 16

// NewGCM returns AES-GCM with an AES key of 16, 24 or 32 bytes.
func NewGCM(key []byte) (*GCM, error) {
	b, err := NewAES(key)
	if err != nil {
		return nil, err
	}
	var h [16]byte
	b.Encrypt(h[:], h[:])
	g := &GCM{b: b}
	x := [2]uint64{binary.BigEndian.Uint64(h[:8]), binary.BigEndian.Uint64(h[8:])}
	for bit := 8; bit > 0; bit >>= 1 { // H, H x, H x^2, H x^3
		for n := range g.t {
			if n&bit != 0 {
				g.t[n][0] ^= x[0]
				g.t[n][1] ^= x[1]
			}
		}
		lsb := x[1] & 1
		x[1] = x[1]>>1 | x[0]<<63
		x[0] >>= 1
		if lsb != 0 {
			x[0] ^= 0xe1 << 56
		}
	}
	return g, nil
}

// Overhead is the tag's size.
func (g *GCM) Overhead() int { return GCMTagSize }

// NonceSize is the nonce's size.
func (g *GCM) NonceSize() int { return 12 }

// mul is (x0, x1) times H in GF(2^128) (SP 800-38D section 6.3), a
// nibble at a time by Horner's rule from the last (the highest powers):
// z = z x^4 + t[nibble].
func (g *GCM) mul(x0, x1 uint64) (uint64, uint64) {
	var z0, z1 uint64
	for i := 31; i >= 0; i-- {
		var n uint64
		if i < 16 {
			n = x0 >> (60 - 4*i) & 0xf
		} else {
			n = x1 >> (60 - 4*(i-16)) & 0xf
		}
		r := z1 & 0xf
		z1 = z1>>4 | z0<<60
		z0 = z0>>4 ^ reduce4[r]
		z0 ^= g.t[n][0]
		z1 ^= g.t[n][1]
	}
	return z0, z1
}

// ghash is GHASH_H(A || 0^v || C || 0^u || len(A) || len(C)) (section
// 7.1, steps 5 and 6; lengths in bits).
func (g *GCM) ghash(aad, ct []byte) [16]byte {
	var y0, y1 uint64
	for _, data := range [2][]byte{aad, ct} {
		for len(data) > 0 {
			var blk [16]byte
			n := copy(blk[:], data)
			data = data[n:]
			y0, y1 = g.mul(y0^binary.BigEndian.Uint64(blk[:8]), y1^binary.BigEndian.Uint64(blk[8:]))
		}
	}
	y0, y1 = g.mul(y0^uint64(len(aad))*8, y1^uint64(len(ct))*8)
	var s [16]byte
	binary.BigEndian.PutUint64(s[:8], y0)
	binary.BigEndian.PutUint64(s[8:], y1)
	return s
}

// ctr XORs src into dst with the key stream from counter block j
// (GCTR, section 6.5: inc32 increments its last four bytes).
func (g *GCM) ctr(dst, src []byte, j [16]byte) {
	var ks [16]byte
	for len(src) > 0 {
		g.b.Encrypt(ks[:], j[:])
		binary.BigEndian.PutUint32(j[12:], binary.BigEndian.Uint32(j[12:])+1)
		n := min(len(src), 16)
		for i := range n {
			dst[i] = src[i] ^ ks[i]
		}
		dst, src = dst[n:], src[n:]
	}
}

// j0 is the pre-counter block of a 12-byte nonce: nonce || 0^31 || 1.
func j0(nonce []byte) [16]byte {
	var j [16]byte
	copy(j[:], nonce)
	j[15] = 1
	return j
}

// Open authenticates ciphertext (with its tag at the end) and additional
// data and appends the plaintext to dst (section 7.2); dst may be
// ciphertext[:0]. Nothing is written when the tag does not match.
func (g *GCM) Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error) {
	if len(nonce) != 12 {
		return nil, errors.New("tlscrypto: a GCM nonce is of 12 bytes")
	}
	if len(ciphertext) < GCMTagSize {
		return nil, errOpen
	}
	ct, tag := ciphertext[:len(ciphertext)-GCMTagSize], ciphertext[len(ciphertext)-GCMTagSize:]
	j := j0(nonce)
	s := g.ghash(additionalData, ct)
	var t [16]byte
	g.b.Encrypt(t[:], j[:])
	for i := range t {
		t[i] ^= s[i]
	}
	if !Equal(t[:], tag) {
		return nil, errOpen
	}
	ret, out := sliceForAppend(dst, len(ct))
	binary.BigEndian.PutUint32(j[12:], 2)
	g.ctr(out, ct, j)
	return ret, nil
}
