package tlscrypto

import (
	"errors"
	"sync"
)

// BlockSize is AES's block size in bytes.
const BlockSize = 16

// AES is an expanded AES key (FIPS 197): 128, 192 or 256 bits.
type AES struct {
	w  []uint32 // the key schedule, 4*(nr+1) words (section 5.2)
	nr int      // rounds: 10, 12 or 14
}

var (
	sbox, invSbox [256]byte
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
	return a, nil
}

func subWord(t uint32) uint32 {
	return uint32(sbox[t>>24])<<24 | uint32(sbox[t>>16&0xff])<<16 | uint32(sbox[t>>8&0xff])<<8 | uint32(sbox[t&0xff])
}

// addRoundKey XORs round r's four words into the state, column by
// column (section 5.1.4); the state is the block's bytes in order,
// s[row+4*column].
func (a *AES) addRoundKey(s *[16]byte, r int) {
	for c := range 4 {
		w := a.w[4*r+c]
		s[4*c] ^= byte(w >> 24)
		s[4*c+1] ^= byte(w >> 16)
		s[4*c+2] ^= byte(w >> 8)
		s[4*c+3] ^= byte(w)
	}
}

// Encrypt encrypts the block src into dst (the cipher, section 5.1);
// they may overlap entirely.
func (a *AES) Encrypt(dst, src []byte) {
	var s [16]byte
	copy(s[:], src[:BlockSize])
	a.addRoundKey(&s, 0)
	for r := 1; r <= a.nr; r++ {
		var t [16]byte
		// SubBytes and ShiftRows: row i moves left by i columns.
		for c := range 4 {
			for i := range 4 {
				t[i+4*c] = sbox[s[i+4*((c+i)%4)]]
			}
		}
		if r < a.nr {
			// MixColumns (section 5.1.3).
			for c := range 4 {
				a0, a1, a2, a3 := t[4*c], t[4*c+1], t[4*c+2], t[4*c+3]
				t[4*c] = xtime(a0) ^ xtime(a1) ^ a1 ^ a2 ^ a3
				t[4*c+1] = a0 ^ xtime(a1) ^ xtime(a2) ^ a2 ^ a3
				t[4*c+2] = a0 ^ a1 ^ xtime(a2) ^ xtime(a3) ^ a3
				t[4*c+3] = xtime(a0) ^ a0 ^ a1 ^ a2 ^ xtime(a3)
			}
		}
		s = t
		a.addRoundKey(&s, r)
	}
	copy(dst[:BlockSize], s[:])
}

// Decrypt decrypts the block src into dst (the inverse cipher, section
// 5.3); they may overlap entirely.
func (a *AES) Decrypt(dst, src []byte) {
	var s [16]byte
	copy(s[:], src[:BlockSize])
	a.addRoundKey(&s, a.nr)
	for r := a.nr - 1; r >= 0; r-- {
		var t [16]byte
		// InvShiftRows (row i moves right by i columns) and InvSubBytes.
		for c := range 4 {
			for i := range 4 {
				t[i+4*((c+i)%4)] = invSbox[s[i+4*c]]
			}
		}
		a.addRoundKey(&t, r)
		if r > 0 {
			// InvMixColumns (section 5.3.3).
			for c := range 4 {
				a0, a1, a2, a3 := t[4*c], t[4*c+1], t[4*c+2], t[4*c+3]
				t[4*c] = gmul(a0, 14) ^ gmul(a1, 11) ^ gmul(a2, 13) ^ gmul(a3, 9)
				t[4*c+1] = gmul(a0, 9) ^ gmul(a1, 14) ^ gmul(a2, 11) ^ gmul(a3, 13)
				t[4*c+2] = gmul(a0, 13) ^ gmul(a1, 9) ^ gmul(a2, 14) ^ gmul(a3, 11)
				t[4*c+3] = gmul(a0, 11) ^ gmul(a1, 13) ^ gmul(a2, 9) ^ gmul(a3, 14)
			}
		}
		s = t
	}
	copy(dst[:BlockSize], s[:])
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
