package tlsdec

// expandLabel is TLS 1.3's HKDF-Expand-Label (RFC 8446 section 7.1):
// HKDF-Expand(secret, HkdfLabel, length) where HkdfLabel is the length
// (2 bytes), "tls13 " + label (1-byte length) and the context (1-byte
// length).
func expandLabel(h hashID, secret []byte, label string, context []byte, length int) []byte {
	info := make([]byte, 0, 4+6+len(label)+len(context))
	info = append(info, byte(length>>8), byte(length), byte(6+len(label)))
	info = append(info, "tls13 "...)
	info = append(info, label...)
	info = append(info, byte(len(context)))
	info = append(info, context...)
	out, err := impl.hkdfExpand(h, secret, string(info), length)
	if err != nil {
		panic("tlsdec: HKDF-Expand of a length the suite fixes: " + err.Error())
	}
	return out
}

// trafficKeys are the key and iv of a TLS 1.3 traffic secret (RFC 8446
// section 7.3).
func trafficKeys(s *suite, secret []byte) (key, iv []byte) {
	return expandLabel(s.hash, secret, "key", nil, s.keyLen), expandLabel(s.hash, secret, "iv", nil, 12)
}

// nextSecret is the traffic secret after a KeyUpdate (RFC 8446 section
// 7.2): HKDF-Expand-Label(secret, "traffic upd", "", Hash.length).
func nextSecret(s *suite, secret []byte) []byte {
	return expandLabel(s.hash, secret, "traffic upd", nil, len(secret))
}

// prf12 is TLS 1.2's PRF (RFC 5246 section 5): P_hash(secret, label +
// seed), the HMAC of the suite's hash iterated to n bytes.
func prf12(h hashID, secret []byte, label string, seed []byte, n int) []byte {
	ls := append([]byte(label), seed...)
	mac := impl.newHMAC(h, secret)
	mac.Write(ls)
	a := mac.Sum(nil) // A(1)
	out := make([]byte, 0, n+mac.Size())
	for len(out) < n {
		mac.Reset()
		mac.Write(a)
		mac.Write(ls)
		out = mac.Sum(out)
		mac.Reset()
		mac.Write(a)
		a = mac.Sum(a[:0])
	}
	return out[:n]
}
