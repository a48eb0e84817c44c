package tlsdec

import (
	"hash"

	"kwire/capture/tlsdec/internal/tlscrypto"
)

// The cryptography is behind cryptoImpl: natively the standard library's
// and golang.org/x/crypto's (crypto_std.go), in the browser (js) the
// hand-written tlscrypto's, which is 67 KB of gzip smaller there
// (crypto/internal/fips140's AES, GCM, SHA-2 and HMAC stay out, and the
// SHA-3 and DRBG that its HMAC and GCM bring). The tests run every test
// of this package through both (TestMain).

// hashID names a suite's hash (0: none, an AEAD suite's MAC).
type hashID uint8

const (
	noHash hashID = iota
	sha1Hash
	sha256Hash
	sha384Hash
)

// size is the hash's size in bytes.
func (h hashID) size() int { return [...]int{0, 20, 32, 48}[h] }

// aead opens a record: crypto/cipher.AEAD's Open and Overhead.
type aead interface {
	Overhead() int
	Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error)
}

// cbcCipher decrypts b in place with AES in CBC mode from iv.
type cbcCipher interface {
	decryptCBC(iv, b []byte)
}

// cryptoImpl is what decryption needs; keys are of the lengths the
// suites fix.
type cryptoImpl interface {
	newHMAC(h hashID, key []byte) hash.Hash
	// hkdfExpand is HKDF-Expand (RFC 5869 section 2.3).
	hkdfExpand(h hashID, prk []byte, info string, n int) ([]byte, error)
	gcm(key []byte) (aead, error)
	chacha20Poly1305(key []byte) (aead, error)
	cbc(key []byte) (cbcCipher, error)
	// macEqual compares MACs.
	macEqual(a, b []byte) bool
}

// handCrypto is tlscrypto's implementation.
type handCrypto struct{}

func (handCrypto) hashFunc(h hashID) func() hash.Hash {
	switch h {
	case sha1Hash:
		return tlscrypto.NewSHA1
	case sha384Hash:
		return tlscrypto.NewSHA384
	}
	return tlscrypto.NewSHA256
}

func (c handCrypto) newHMAC(h hashID, key []byte) hash.Hash {
	return tlscrypto.NewHMAC(c.hashFunc(h), key)
}
func (c handCrypto) hkdfExpand(h hashID, prk []byte, info string, n int) ([]byte, error) {
	return tlscrypto.HKDFExpand(c.hashFunc(h), prk, info, n)
}
func (handCrypto) gcm(key []byte) (aead, error) { return tlscrypto.NewGCM(key) }
func (handCrypto) chacha20Poly1305(key []byte) (aead, error) {
	return tlscrypto.NewChaCha20Poly1305(key)
}
func (handCrypto) cbc(key []byte) (cbcCipher, error) {
	a, err := tlscrypto.NewAES(key)
	return handCBC{a}, err
}
func (handCrypto) macEqual(a, b []byte) bool { return tlscrypto.Equal(a, b) }

type handCBC struct{ a *tlscrypto.AES }

func (c handCBC) decryptCBC(iv, b []byte) { tlscrypto.CBCDecrypt(c.a, iv, b) }
