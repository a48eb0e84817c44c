package tlscrypto

import (
	"encoding/binary"
	"errors"
)

// GCM is AES in Galois/Counter Mode (NIST SP 800-38D) with 12-byte
// nonces and 16-byte tags, as TLS uses it.
type GCM struct {
	b      *AES
	h0, h1 uint64 // the hash subkey H = E(K, 0^128), high half first
}

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
	return &GCM{b: b, h0: binary.BigEndian.Uint64(h[:8]), h1: binary.BigEndian.Uint64(h[8:])}, nil
}

// Overhead is the tag's size.
func (g *GCM) Overhead() int { return GCMTagSize }

// NonceSize is the nonce's size.
func (g *GCM) NonceSize() int { return 12 }

// mul sets (x0, x1) to its product with H in GF(2^128) (SP 800-38D
// section 6.3, algorithm 1: bits are numbered from the left, and the
// reduction is R = 11100001 || 0^120).
func (g *GCM) mul(x0, x1 uint64) (uint64, uint64) {
	var z0, z1 uint64
	v0, v1 := g.h0, g.h1
	for i := range 128 {
		var bit uint64
		if i < 64 {
			bit = x0 >> (63 - i) & 1
		} else {
			bit = x1 >> (127 - i) & 1
		}
		if bit != 0 {
			z0 ^= v0
			z1 ^= v1
		}
		lsb := v1 & 1
		v1 = v1>>1 | v0<<63
		v0 >>= 1
		if lsb != 0 {
			v0 ^= 0xe1 << 56
		}
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
