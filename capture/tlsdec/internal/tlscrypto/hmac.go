package tlscrypto

import (
	"errors"
	"hash"
)

// hmacState is HMAC (RFC 2104): H(K ^ opad, H(K ^ ipad, text)).
type hmacState struct {
	inner, outer hash.Hash
	ipad, opad   []byte
}

// NewHMAC returns HMAC with the hash h and key (a key longer than h's
// block is hashed first, RFC 2104 section 2).
func NewHMAC(h func() hash.Hash, key []byte) hash.Hash {
	m := &hmacState{inner: h(), outer: h()}
	bs := m.inner.BlockSize()
	if len(key) > bs {
		m.outer.Write(key)
		key = m.outer.Sum(nil)
		m.outer.Reset()
	}
	m.ipad = make([]byte, bs)
	m.opad = make([]byte, bs)
	copy(m.ipad, key)
	copy(m.opad, key)
	for i := range m.ipad {
		m.ipad[i] ^= 0x36
		m.opad[i] ^= 0x5c
	}
	m.inner.Write(m.ipad)
	return m
}

func (m *hmacState) Write(p []byte) (int, error) { return m.inner.Write(p) }
func (m *hmacState) Size() int                   { return m.inner.Size() }
func (m *hmacState) BlockSize() int              { return m.inner.BlockSize() }

func (m *hmacState) Reset() {
	m.inner.Reset()
	m.inner.Write(m.ipad)
}

// Sum appends the MAC of the text so far to b.
func (m *hmacState) Sum(b []byte) []byte {
	in := m.inner.Sum(nil)
	m.outer.Reset()
	m.outer.Write(m.opad)
	m.outer.Write(in)
	return m.outer.Sum(b)
}

// HKDFExtract is HKDF-Extract(salt, ikm) (RFC 5869 section 2.2): the
// HMAC of ikm keyed by salt, a block of zeros when salt is empty.
func HKDFExtract(h func() hash.Hash, ikm, salt []byte) []byte {
	if len(salt) == 0 {
		salt = make([]byte, h().Size())
	}
	m := NewHMAC(h, salt)
	m.Write(ikm)
	return m.Sum(nil)
}

// HKDFExpand is HKDF-Expand(prk, info, n) (RFC 5869 section 2.3): T(1)
// || T(2) || ... cut at n bytes, T(i) = HMAC(prk, T(i-1) || info || i);
// n is at most 255 times the hash's size.
func HKDFExpand(h func() hash.Hash, prk []byte, info string, n int) ([]byte, error) {
	m := NewHMAC(h, prk)
	if n < 0 || n > 255*m.Size() {
		return nil, errors.New("tlscrypto: HKDF-Expand of more than 255 times the hash's size")
	}
	out := make([]byte, 0, n+m.Size())
	var t []byte
	for i := byte(1); len(out) < n; i++ {
		m.Reset()
		m.Write(t)
		m.Write([]byte(info))
		m.Write([]byte{i})
		out = m.Sum(out)
		t = out[len(out)-m.Size():]
	}
	return out[:n], nil
}
