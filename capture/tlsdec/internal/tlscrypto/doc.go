// Package tlscrypto is the cryptography that capture/tlsdec decrypts
// recorded TLS with in the browser, written from the specifications:
// AES (FIPS 197), GCM (NIST SP 800-38D), ChaCha20-Poly1305 (RFC 8439),
// SHA-1, SHA-256 and SHA-384 (FIPS 180-4), HMAC (RFC 2104) and HKDF
// (RFC 5869). Go's crypto packages add 67 KB of gzip to the explorer's
// WebAssembly (crypto/internal/fips140's AES, GCM, SHA-2 and HMAC, and
// the SHA-3 and DRBG that its HMAC and GCM bring); natively tlsdec uses
// them and this package is tested against them.
//
// It decrypts traffic already recorded, with keys from a key log, so it
// is written to be small and plain, not fast and not constant-time: its
// table lookups and comparisons leak timing, which does not matter for
// secrets that are given to it, and it must not be used to protect
// anything.
package tlscrypto

import "errors"

// errOpen is the error of an Open whose tag does not match.
var errOpen = errors.New("tlscrypto: message authentication failed")

// Equal says whether a and b hold the same bytes (not in constant time).
func Equal(a, b []byte) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// sliceForAppend extends in by n bytes: head is the whole, tail the n
// new bytes (in place when in has room, as dst[:0] of an Open does).
func sliceForAppend(in []byte, n int) (head, tail []byte) {
	if total := len(in) + n; cap(in) >= total {
		head = in[:total]
	} else {
		head = make([]byte, total)
		copy(head, in)
	}
	return head, head[len(in):]
}
