package tlscrypto

import (
	"crypto/aes"
	"crypto/cipher"
	"crypto/hmac"
	"crypto/sha256"
	"testing"

	"golang.org/x/crypto/chacha20poly1305"
)

// The speed of opening a full TLS record (16 KB), ours beside the
// standard library's: go test -bench . (under node too, with
// GOOS=js GOARCH=wasm and go_js_wasm_exec, where tlsdec uses ours).

type opener interface {
	Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error)
}

func benchOpen(b *testing.B, a opener, sealed []byte) {
	nonce, buf := make([]byte, 12), make([]byte, len(sealed))
	b.SetBytes(int64(len(sealed)))
	for b.Loop() {
		copy(buf, sealed)
		if _, err := a.Open(buf[:0], nonce, buf, nil); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkOpen(b *testing.B) {
	key, pt, nonce := make([]byte, 32), make([]byte, 1<<14), make([]byte, 12)
	blk, _ := aes.NewCipher(key[:16])
	stdGCM, _ := cipher.NewGCM(blk)
	ourGCM, _ := NewGCM(key[:16])
	stdChaCha, _ := chacha20poly1305.New(key)
	ourChaCha, _ := NewChaCha20Poly1305(key)
	b.Run("AES-128-GCM/ours", func(b *testing.B) { benchOpen(b, ourGCM, stdGCM.Seal(nil, nonce, pt, nil)) })
	b.Run("AES-128-GCM/std", func(b *testing.B) { benchOpen(b, stdGCM, stdGCM.Seal(nil, nonce, pt, nil)) })
	b.Run("ChaCha20-Poly1305/ours", func(b *testing.B) { benchOpen(b, ourChaCha, stdChaCha.Seal(nil, nonce, pt, nil)) })
	b.Run("ChaCha20-Poly1305/std", func(b *testing.B) { benchOpen(b, stdChaCha, stdChaCha.Seal(nil, nonce, pt, nil)) })
	b.Run("AES-128-CBC+HMAC-SHA256/ours", func(b *testing.B) {
		a, _ := NewAES(key[:16])
		m := NewHMAC(NewSHA256, key)
		b.SetBytes(int64(len(pt)))
		for b.Loop() {
			CBCDecrypt(a, key[:16], pt)
			m.Reset()
			m.Write(pt)
			m.Sum(nil)
		}
	})
	b.Run("AES-128-CBC+HMAC-SHA256/std", func(b *testing.B) {
		m := hmac.New(sha256.New, key)
		b.SetBytes(int64(len(pt)))
		for b.Loop() {
			cipher.NewCBCDecrypter(blk, key[:16]).CryptBlocks(pt, pt)
			m.Reset()
			m.Write(pt)
			m.Sum(nil)
		}
	})
}
