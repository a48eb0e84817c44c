package tlsdec

import (
	"kwire/internal/xfmt"
)

// suite is a cipher suite this package decrypts: an AEAD and a hash.
type suite struct {
	id     uint16
	name   string
	tls13  bool
	keyLen int
	chacha bool // ChaCha20-Poly1305; else AES-GCM
	hash   hashID
	// mac is the HMAC's hash of a CBC suite (RFC 5246 6.2.3.2, with
	// AES-CBC), noHash for an AEAD suite.
	mac hashID
}

// suites are the AEAD suites of TLS 1.3 (RFC 8446 B.4) and TLS 1.2
// (RFC 5288, RFC 5289, RFC 7905) and TLS 1.2's AES-CBC suites with HMAC
// (RFC 5246, RFC 5289; RFC 7366's encrypt-then-MAC when both hellos ask
// for it): the key exchange does not matter with the key log's master
// secret.
var suites = []suite{
	{0x1301, "TLS_AES_128_GCM_SHA256", true, 16, false, sha256Hash, noHash},
	{0x1302, "TLS_AES_256_GCM_SHA384", true, 32, false, sha384Hash, noHash},
	{0x1303, "TLS_CHACHA20_POLY1305_SHA256", true, 32, true, sha256Hash, noHash},
	{0xc02b, "TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256", false, 16, false, sha256Hash, noHash},
	{0xc02c, "TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384", false, 32, false, sha384Hash, noHash},
	{0xc02f, "TLS_ECDHE_RSA_WITH_AES_128_GCM_SHA256", false, 16, false, sha256Hash, noHash},
	{0xc030, "TLS_ECDHE_RSA_WITH_AES_256_GCM_SHA384", false, 32, false, sha384Hash, noHash},
	{0xcca8, "TLS_ECDHE_RSA_WITH_CHACHA20_POLY1305_SHA256", false, 32, true, sha256Hash, noHash},
	{0xcca9, "TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256", false, 32, true, sha256Hash, noHash},
	{0xccaa, "TLS_DHE_RSA_WITH_CHACHA20_POLY1305_SHA256", false, 32, true, sha256Hash, noHash},
	{0x009c, "TLS_RSA_WITH_AES_128_GCM_SHA256", false, 16, false, sha256Hash, noHash},
	{0x009d, "TLS_RSA_WITH_AES_256_GCM_SHA384", false, 32, false, sha384Hash, noHash},
	{0x009e, "TLS_DHE_RSA_WITH_AES_128_GCM_SHA256", false, 16, false, sha256Hash, noHash},
	{0x009f, "TLS_DHE_RSA_WITH_AES_256_GCM_SHA384", false, 32, false, sha384Hash, noHash},
	{0xc009, "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", false, 16, false, sha256Hash, sha1Hash},
	{0xc00a, "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA", false, 32, false, sha256Hash, sha1Hash},
	{0xc013, "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA", false, 16, false, sha256Hash, sha1Hash},
	{0xc014, "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA", false, 32, false, sha256Hash, sha1Hash},
	{0xc023, "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256", false, 16, false, sha256Hash, sha256Hash},
	{0xc024, "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384", false, 32, false, sha384Hash, sha384Hash},
	{0xc027, "TLS_ECDHE_RSA_WITH_AES_128_CBC_SHA256", false, 16, false, sha256Hash, sha256Hash},
	{0xc028, "TLS_ECDHE_RSA_WITH_AES_256_CBC_SHA384", false, 32, false, sha384Hash, sha384Hash},
	{0x002f, "TLS_RSA_WITH_AES_128_CBC_SHA", false, 16, false, sha256Hash, sha1Hash},
	{0x0035, "TLS_RSA_WITH_AES_256_CBC_SHA", false, 32, false, sha256Hash, sha1Hash},
	{0x003c, "TLS_RSA_WITH_AES_128_CBC_SHA256", false, 16, false, sha256Hash, sha256Hash},
	{0x003d, "TLS_RSA_WITH_AES_256_CBC_SHA256", false, 32, false, sha256Hash, sha256Hash},
	{0x0033, "TLS_DHE_RSA_WITH_AES_128_CBC_SHA", false, 16, false, sha256Hash, sha1Hash},
	{0x0039, "TLS_DHE_RSA_WITH_AES_256_CBC_SHA", false, 32, false, sha256Hash, sha1Hash},
	{0x0067, "TLS_DHE_RSA_WITH_AES_128_CBC_SHA256", false, 16, false, sha256Hash, sha256Hash},
	{0x006b, "TLS_DHE_RSA_WITH_AES_256_CBC_SHA256", false, 32, false, sha256Hash, sha256Hash},
}

// otherSuites name suites this package does not decrypt, for the status.
var otherSuites = map[uint16]string{
	0x1304: "TLS_AES_128_CCM_SHA256",
	0x1305: "TLS_AES_128_CCM_8_SHA256",
	0x000a: "TLS_RSA_WITH_3DES_EDE_CBC_SHA",
	0xc012: "TLS_ECDHE_RSA_WITH_3DES_EDE_CBC_SHA",
	0x0005: "TLS_RSA_WITH_RC4_128_SHA",
	0xc011: "TLS_ECDHE_RSA_WITH_RC4_128_SHA",
	0xc0ac: "TLS_ECDHE_ECDSA_WITH_AES_128_CCM",
}

func suiteByID(id uint16) *suite {
	for i := range suites {
		if suites[i].id == id {
			return &suites[i]
		}
	}
	return nil
}

// SuiteName is the IANA name of a cipher suite, or its number in hex.
func SuiteName(id uint16) string {
	if s := suiteByID(id); s != nil {
		return s.name
	}
	if n, ok := otherSuites[id]; ok {
		return n
	}
	return xfmt.Sprintf("0x%04x", id)
}

// block is a CBC suite's AES cipher.
func (s *suite) block(key []byte) cbcCipher {
	b, err := impl.cbc(key)
	if err != nil {
		panic("tlsdec: an AES key of the suite's length: " + err.Error())
	}
	return b
}

func (s *suite) aead(key []byte) aead {
	newAEAD, what := impl.gcm, "AES-GCM"
	if s.chacha {
		newAEAD, what = impl.chacha20Poly1305, "ChaCha20-Poly1305"
	}
	a, err := newAEAD(key)
	if err != nil {
		panic("tlsdec: a " + what + " key of the suite's length: " + err.Error())
	}
	return a
}
