//go:build !js

package tlsdec

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"hash"

	"golang.org/x/crypto/chacha20poly1305"
)

// impl is natively the standard library's crypto.
var impl cryptoImpl = stdCrypto{}

// stdCrypto is crypto/* and golang.org/x/crypto's chacha20poly1305.
type stdCrypto struct{}

func (stdCrypto) hashFunc(h hashID) func() hash.Hash {
	switch h {
	case sha1Hash:
		return sha1.New
	case sha384Hash:
		return sha512.New384
	}
	return sha256.New
}

func (c stdCrypto) newHMAC(h hashID, key []byte) hash.Hash {
	return hmac.New(c.hashFunc(h), key)
}
func (c stdCrypto) hkdfExpand(h hashID, prk []byte, info string, n int) ([]byte, error) {
	return hkdf.Expand(c.hashFunc(h), prk, info, n)
}
func (stdCrypto) gcm(key []byte) (aead, error) {
	b, err := aes.NewCipher(key)
	if err != nil {
		return nil, err
	}
	return cipher.NewGCM(b)
}
func (stdCrypto) chacha20Poly1305(key []byte) (aead, error) { return chacha20poly1305.New(key) }
func (stdCrypto) cbc(key []byte) (cbcCipher, error) {
	b, err := aes.NewCipher(key)
	return stdCBC{b}, err
}
func (stdCrypto) macEqual(a, b []byte) bool { return hmac.Equal(a, b) }

type stdCBC struct{ b cipher.Block }

func (c stdCBC) decryptCBC(iv, b []byte) { cipher.NewCBCDecrypter(c.b, iv).CryptBlocks(b, b) }
