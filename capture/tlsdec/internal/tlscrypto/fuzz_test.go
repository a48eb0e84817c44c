package tlscrypto

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"hash"
	"testing"

	"golang.org/x/crypto/chacha20poly1305"
)

// Fuzz targets: ours against the standard library on any input. The key
// and nonce come from the input's first bytes, cycled when short.

func take(data []byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		if len(data) > 0 {
			b[i] = data[i%len(data)] + byte(i/len(data))
		}
	}
	return b
}

func FuzzAEAD(f *testing.F) {
	f.Add([]byte("key and nonce"), []byte("plaintext"), []byte("aad"), uint8(0), 3)
	f.Add([]byte{}, []byte{}, []byte{}, uint8(1), 0)
	f.Add(make([]byte, 44), make([]byte, 1000), make([]byte, 13), uint8(2), 999)
	f.Fuzz(func(t *testing.T, kn, pt, aad []byte, which uint8, flip int) {
		nonce := take(kn[len(kn)/2:], 12)
		switch which % 3 {
		case 0, 1:
			key := take(kn, []int{16, 32}[which%3])
			ours, _ := NewGCM(key)
			b, _ := aes.NewCipher(key)
			std, _ := cipher.NewGCM(b)
			checkAEAD(t, "AES-GCM", ours, std, nonce, pt, aad, flip&0xffffff)
		default:
			key := take(kn, 32)
			ours, _ := NewChaCha20Poly1305(key)
			std, _ := chacha20poly1305.New(key)
			checkAEAD(t, "ChaCha20-Poly1305", ours, std, nonce, pt, aad, flip&0xffffff)
		}
	})
}

// FuzzCBC: ours decrypts the standard library's CBC, the library ours.
func FuzzCBC(f *testing.F) {
	f.Add([]byte("key"), []byte("sixteen byte msgsixteen byte msg"), false)
	f.Fuzz(func(t *testing.T, key, msg []byte, long bool) {
		k := take(key, 16)
		if long {
			k = take(key, 32)
		}
		iv := take(key[len(key)/2:], 16)
		pt := msg[:len(msg)/16*16]
		std, _ := aes.NewCipher(k)
		ours, _ := NewAES(k)
		b := append([]byte(nil), pt...)
		cipher.NewCBCEncrypter(std, iv).CryptBlocks(b, b)
		CBCDecrypt(ours, iv, b)
		if string(b) != string(pt) {
			t.Fatal("crypto/cipher's CBC not decrypted")
		}
		cbcEncrypt(ours, iv, b)
		cipher.NewCBCDecrypter(std, iv).CryptBlocks(b, b)
		if string(b) != string(pt) {
			t.Fatal("ours not decrypted by crypto/cipher")
		}
	})
}

// FuzzHash: the hashes, HMAC and HKDF with ours and the library's.
func FuzzHash(f *testing.F) {
	f.Add([]byte("key"), []byte("message"), uint8(0), 5, uint16(42))
	f.Add([]byte{}, []byte{}, uint8(2), 0, uint16(0))
	f.Fuzz(func(t *testing.T, key, msg []byte, which uint8, cut int, n uint16) {
		pairs := []struct {
			name      string
			ours, std func() hash.Hash
		}{{"SHA-1", NewSHA1, sha1.New}, {"SHA-256", NewSHA256, sha256.New}, {"SHA-384", NewSHA384, sha512.New384}, {"SHA-512", NewSHA512, sha512.New}}
		p := pairs[which%4]
		cut = int(uint(cut) % uint(len(msg)+1))
		checkHash(t, p.name, p.ours, p.std, msg, cut)
		checkHash(t, "HMAC-"+p.name, func() hash.Hash { return NewHMAC(p.ours, key) }, func() hash.Hash { return hmac.New(p.std, key) }, msg, cut)
		if which%4 < 3 {
			checkHKDF(t, p.ours, p.std, msg, key, string(msg[:cut]), int(n)%(255*p.std().Size()+1))
		}
	})
}
