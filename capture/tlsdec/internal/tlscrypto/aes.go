package tlscrypto

import (
	"encoding/binary"
	"errors"
	"math/bits"
	"sync"
)

// BlockSize is AES's block size in bytes.
const BlockSize = 16

// AES is an expanded AES key (FIPS 197): 128, 192 or 256 bits.
type AES struct {
	w  []uint32 // the key schedule, 4*(nr+1) words (section 5.2)
	dw []uint32 // the equivalent inverse cipher's (section 5.3.5)
	nr int      // rounds: 10, 12 or 14
}

// The S-boxes and, for a round in four lookups a column, te[0][x] =
// MixColumns' column (2s, s, s, 3s) of s = sbox[x] and td[0][x] =
// InvMixColumns' (14i, 9i, 13i, 11i) of i = invSbox[x], te[k] and td[k]
// rotated right by 8k bits (the Rijndael proposal's section 5.2.1).
// Computed at the first key, 8 KB that the binary does not hold.
var (
	sbox, invSbox [256]byte
	te, td        [4][256]uint32
	sboxOnce      sync.Once
)

// makeSbox computes the S-box (FIPS 197 section 5.1.1): the inverse in
// GF(2^8) followed by the affine transform. p walks the field's nonzero
// elements by powers of 3 and q by powers of its inverse, so q = 1/p.
func makeSbox() {
	p, q := byte(1), byte(1)
	for {
		p = p ^ p<<1 ^ xtimeCarry(p)
		q ^= q << 1
		q ^= q << 2
		q ^= q << 4
		if q&0x80 != 0 {
			q ^= 0x09
		}
		s := q ^ rotl8(q, 1) ^ rotl8(q, 2) ^ rotl8(q, 3) ^ rotl8(q, 4) ^ 0x63
		sbox[p] = s
		if p == 1 {
			break
		}
	}
	sbox[0] = 0x63
	for i := range sbox {
		invSbox[sbox[i]] = byte(i)
	}
	for x := range 256 {
		s, i := sbox[x], invSbox[x]
		e := uint32(xtime(s))<<24 | uint32(s)<<16 | uint32(s)<<8 | uint32(xtime(s)^s)
		d := uint32(gmul(i, 14))<<24 | uint32(gmul(i, 9))<<16 | uint32(gmul(i, 13))<<8 | uint32(gmul(i, 11))
		for k := range 4 {
			te[k][x] = bits.RotateLeft32(e, -8*k)
			td[k][x] = bits.RotateLeft32(d, -8*k)
		}
	}
}

func rotl8(x byte, n uint) byte { return x<<n | x>>(8-n) }

// xtimeCarry is the reduction x^8 = x^4+x^3+x+1 (0x1b) when x's top bit
// is set.
func xtimeCarry(x byte) byte {
	if x&0x80 != 0 {
		return 0x1b
	}
	return 0
}

// xtime multiplies by x in GF(2^8) (section 4.2.1).
func xtime(x byte) byte { return x<<1 ^ xtimeCarry(x) }

// gmul multiplies in GF(2^8) (section 4.2).
func gmul(a, b byte) byte {
	var p byte
	for b != 0 {
		if b&1 != 0 {
			p ^= a
		}
		a = xtime(a)
		b >>= 1
	}
	return p
}

// NewAES expands a key of 16, 24 or 32 bytes (FIPS 197 section 5.2).
func NewAES(key []byte) (*AES, error) {
	nk := len(key) / 4
	if len(key) != 16 && len(key) != 24 && len(key) != 32 {
		return nil, errors.New("tlscrypto: an AES key is of 16, 24 or 32 bytes")
	}
	sboxOnce.Do(makeSbox)
	a := &AES{nr: nk + 6}
	a.w = make([]uint32, 4*(a.nr+1))
	for i := range nk {
		a.w[i] = uint32(key[4*i])<<24 | uint32(key[4*i+1])<<16 | uint32(key[4*i+2])<<8 | uint32(key[4*i+3])
	}
	rcon := byte(1)
	for i := nk; i < len(a.w); i++ {
		t := a.w[i-1]
		switch {
		case i%nk == 0:
			t = subWord(t<<8|t>>24) ^ uint32(rcon)<<24
			rcon = xtime(rcon)
		case nk > 6 && i%nk == 4:
			t = subWord(t)
		}
		a.w[i] = a.w[i-nk] ^ t
	}
	// The inverse cipher's round keys: in reverse order, InvMixColumns
	// applied to those of rounds 1 to nr-1 (section 5.3.5).
	a.dw = make([]uint32, len(a.w))
	for r := 0; r <= a.nr; r++ {
		for c := range 4 {
			w := a.w[4*(a.nr-r)+c]
			if r > 0 && r < a.nr {
				w = td[0][sbox[w>>24]] ^ td[1][sbox[w>>16&0xff]] ^ td[2][sbox[w>>8&0xff]] ^ td[3][sbox[w&0xff]]
			}
			a.dw[4*r+c] = w
		}
	}
	return a, nil
}

func subWord(t uint32) uint32 {
	return uint32(sbox[t>>24])<<24 | uint32(sbox[t>>16&0xff])<<16 | uint32(sbox[t>>8&0xff])<<8 | uint32(sbox[t&0xff])
}

// Encrypt encrypts the block src into dst (the cipher, section 5.1);
// they may overlap entirely. The state is four big-endian column words;
// a round is SubBytes, ShiftRows and MixColumns by te's lookups, then
// AddRoundKey; the last has no MixColumns.
func (a *AES) Encrypt(dst, src []byte) {
	w := a.w
	s0 := binary.BigEndian.Uint32(src[0:]) ^ w[0]
	s1 := binary.BigEndian.Uint32(src[4:]) ^ w[1]
	s2 := binary.BigEndian.Uint32(src[8:]) ^ w[2]
	s3 := binary.BigEndian.Uint32(src[12:]) ^ w[3]
	for r := 1; r < a.nr; r++ {
		k := w[4*r : 4*r+4]
		s0, s1, s2, s3 = te[0][s0>>24]^te[1][s1>>16&0xff]^te[2][s2>>8&0xff]^te[3][s3&0xff]^k[0],
			te[0][s1>>24]^te[1][s2>>16&0xff]^te[2][s3>>8&0xff]^te[3][s0&0xff]^k[1],
			te[0][s2>>24]^te[1][s3>>16&0xff]^te[2][s0>>8&0xff]^te[3][s1&0xff]^k[2],
			te[0][s3>>24]^te[1][s0>>16&0xff]^te[2][s1>>8&0xff]^te[3][s2&0xff]^k[3]
	}
	k := w[4*a.nr : 4*a.nr+4]
	binary.BigEndian.PutUint32(dst[0:], lastRound(&sbox, s0, s1, s2, s3)^k[0])
	binary.BigEndian.PutUint32(dst[4:], lastRound(&sbox, s1, s2, s3, s0)^k[1])
	binary.BigEndian.PutUint32(dst[8:], lastRound(&sbox, s2, s3, s0, s1)^k[2])
	binary.BigEndian.PutUint32(dst[12:], lastRound(&sbox, s3, s0, s1, s2)^k[3])
}

// lastRound is one column of a last round: a byte of each of the four
// columns given, through box.
func lastRound(box *[256]byte, a, b, c, d uint32) uint32 {
	return uint32(box[a>>24])<<24 | uint32(box[b>>16&0xff])<<16 | uint32(box[c>>8&0xff])<<8 | uint32(box[d&0xff])
}

// Decrypt decrypts the block src into dst (the equivalent inverse
// cipher, section 5.3.5); they may overlap entirely.
func (a *AES) Decrypt(dst, src []byte) {
	w := a.dw
	s0 := binary.BigEndian.Uint32(src[0:]) ^ w[0]
	s1 := binary.BigEndian.Uint32(src[4:]) ^ w[1]
	s2 := binary.BigEndian.Uint32(src[8:]) ^ w[2]
	s3 := binary.BigEndian.Uint32(src[12:]) ^ w[3]
	for r := 1; r < a.nr; r++ {
		k := w[4*r : 4*r+4]
		s0, s1, s2, s3 = td[0][s0>>24]^td[1][s3>>16&0xff]^td[2][s2>>8&0xff]^td[3][s1&0xff]^k[0],
			td[0][s1>>24]^td[1][s0>>16&0xff]^td[2][s3>>8&0xff]^td[3][s2&0xff]^k[1],
			td[0][s2>>24]^td[1][s1>>16&0xff]^td[2][s0>>8&0xff]^td[3][s3&0xff]^k[2],
			td[0][s3>>24]^td[1][s2>>16&0xff]^td[2][s1>>8&0xff]^td[3][s0&0xff]^k[3]
	}
	k := w[4*a.nr : 4*a.nr+4]
	binary.BigEndian.PutUint32(dst[0:], lastRound(&invSbox, s0, s3, s2, s1)^k[0])
	binary.BigEndian.PutUint32(dst[4:], lastRound(&invSbox, s1, s0, s3, s2)^k[1])
	binary.BigEndian.PutUint32(dst[8:], lastRound(&invSbox, s2, s1, s0, s3)^k[2])
	binary.BigEndian.PutUint32(dst[12:], lastRound(&invSbox, s3, s2, s1, s0)^k[3])
}

// CBCDecrypt decrypts b in place in CBC mode (NIST SP 800-38A section
// 6.2) with the initialization vector iv; len(b) is a multiple of
// BlockSize.
func CBCDecrypt(a *AES, iv, b []byte) {
	var prev, cur [BlockSize]byte
	copy(prev[:], iv)
	for i := 0; i+BlockSize <= len(b); i += BlockSize {
		blk := b[i : i+BlockSize]
		copy(cur[:], blk)
		a.Decrypt(blk, blk)
		for j := range blk {
			blk[j] ^= prev[j]
		}
		prev = cur
	}
}
