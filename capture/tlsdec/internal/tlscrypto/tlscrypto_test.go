package tlscrypto

import (
	"bytes"
	"crypto/aes"
	"crypto/cipher"
	"crypto/hkdf"
	"crypto/hmac"
	"crypto/sha1"
	"crypto/sha256"
	"crypto/sha512"
	"encoding/binary"
	"encoding/hex"
	"hash"
	"math/rand/v2"
	"testing"

	"golang.org/x/crypto/chacha20"
	"golang.org/x/crypto/chacha20poly1305"
	"golang.org/x/crypto/poly1305" //lint:ignore SA1019 the reference Poly1305 to compare with
)

func unhex(t testing.TB, s string) []byte {
	t.Helper()
	b, err := hex.DecodeString(s)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// seq is 0, 1, 2, ... n-1 as bytes, from start.
func seq(start byte, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = start + byte(i)
	}
	return b
}

// Seal is GCM's authenticated encryption (SP 800-38D section 7.1), only
// for the tests: ours' output opened by the standard library.
func (g *GCM) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	ret, out := sliceForAppend(dst, len(plaintext)+GCMTagSize)
	j := j0(nonce)
	ctr := j
	binary.BigEndian.PutUint32(ctr[12:], 2)
	g.ctr(out, plaintext, ctr)
	s := g.ghash(additionalData, out[:len(plaintext)])
	g.b.Encrypt(out[len(plaintext):], j[:])
	for i := range s {
		out[len(plaintext)+i] ^= s[i]
	}
	return ret
}

// Seal is ChaCha20-Poly1305's encryption (RFC 8439 section 2.8), only
// for the tests.
func (c *ChaCha20Poly1305) Seal(dst, nonce, plaintext, additionalData []byte) []byte {
	ret, out := sliceForAppend(dst, len(plaintext)+16)
	chachaXOR(out, plaintext, &c.key, 1, nonce)
	t := c.tag(nonce, out[:len(plaintext)], additionalData)
	copy(out[len(plaintext):], t[:])
	return ret
}

// FIPS 197 appendix C: the example vectors of AES-128, -192 and -256.
func TestAESFIPS197(t *testing.T) {
	pt := unhex(t, "00112233445566778899aabbccddeeff")
	for _, c := range []struct {
		keyLen int
		ct     string
	}{
		{16, "69c4e0d86a7b0430d8cdb78070b4c55a"},
		{24, "dda97ca4864cdfe06eaf70a0ec0d7191"},
		{32, "8ea2b7ca516745bfeafc49904b496089"},
	} {
		a, err := NewAES(seq(0, c.keyLen))
		if err != nil {
			t.Fatal(err)
		}
		got := make([]byte, 16)
		a.Encrypt(got, pt)
		if hex.EncodeToString(got) != c.ct {
			t.Errorf("AES-%d: %x, want %s", 8*c.keyLen, got, c.ct)
		}
		a.Decrypt(got, got)
		if !bytes.Equal(got, pt) {
			t.Errorf("AES-%d decrypts %x, want %x", 8*c.keyLen, got, pt)
		}
	}
	if _, err := NewAES(make([]byte, 15)); err == nil {
		t.Error("a 15-byte AES key is taken")
	}
}

// Random keys and blocks both ways with crypto/aes.
func TestAESStd(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for i := range 3000 {
		key := randBytes(r, []int{16, 24, 32}[i%3])
		ours, _ := NewAES(key)
		std, _ := aes.NewCipher(key)
		pt := randBytes(r, 16)
		a, b := make([]byte, 16), make([]byte, 16)
		ours.Encrypt(a, pt)
		std.Encrypt(b, pt)
		if !bytes.Equal(a, b) {
			t.Fatalf("key %x block %x: ours %x, crypto/aes %x", key, pt, a, b)
		}
		std.Decrypt(b, a)
		ours.Decrypt(a, a)
		if !bytes.Equal(a, pt) || !bytes.Equal(b, pt) {
			t.Fatalf("key %x block %x: decrypted %x (ours), %x (crypto/aes)", key, pt, a, b)
		}
	}
}

func randBytes(r *rand.Rand, n int) []byte {
	b := make([]byte, n)
	for i := range b {
		b[i] = byte(r.Uint32())
	}
	return b
}

// cbcEncrypt is CBC encryption with our block cipher (SP 800-38A 6.2).
func cbcEncrypt(a *AES, iv, b []byte) {
	prev := iv
	for i := 0; i < len(b); i += 16 {
		for j := range 16 {
			b[i+j] ^= prev[j]
		}
		a.Encrypt(b[i:i+16], b[i:i+16])
		prev = b[i : i+16]
	}
}

func TestCBCStd(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for i := range 400 {
		key, iv := randBytes(r, []int{16, 32}[i%2]), randBytes(r, 16)
		pt := randBytes(r, 16*r.IntN(300))
		std, _ := aes.NewCipher(key)
		ours, _ := NewAES(key)
		b := bytes.Clone(pt)
		cipher.NewCBCEncrypter(std, iv).CryptBlocks(b, b)
		CBCDecrypt(ours, iv, b)
		if !bytes.Equal(b, pt) {
			t.Fatalf("%d bytes: crypto/cipher's CBC not decrypted", len(pt))
		}
		cbcEncrypt(ours, iv, b)
		cipher.NewCBCDecrypter(std, iv).CryptBlocks(b, b)
		if !bytes.Equal(b, pt) {
			t.Fatalf("%d bytes: ours not decrypted by crypto/cipher", len(pt))
		}
	}
}

// The GCM specification's test cases (McGrew and Viega, "The Galois/
// Counter Mode of Operation", appendix B) 1-4 and 13-16, those with
// 96-bit IVs.
func TestGCMVectors(t *testing.T) {
	const p = "d9313225f88406e5a55909c5aff5269a86a7a9531534f7da2e4c303d8a318a721c3c0c95956809532fcf0e2449a6b525b16aedf5aa0de657ba637b39"
	const k128 = "feffe9928665731c6d6a8f9467308308"
	for _, c := range []struct{ key, pt, aad, iv, ct, tag string }{
		{"00000000000000000000000000000000", "", "", "000000000000000000000000", "", "58e2fccefa7e3061367f1d57a4e7455a"},
		{"00000000000000000000000000000000", "00000000000000000000000000000000", "", "000000000000000000000000", "0388dace60b6a392f328c2b971b2fe78", "ab6e47d42cec13bdf53a67b21257bddf"},
		{k128, p, "feedfacedeadbeeffeedfacedeadbeefabaddad2", "cafebabefacedbaddecaf888",
			"42831ec2217774244b7221b784d0d49ce3aa212f2c02a4e035c17e2329aca12e21d514b25466931c7d8f6a5aac84aa051ba30b396a0aac973d58e091", "5bc94fbc3221a5db94fae95ae7121a47"},
		{"0000000000000000000000000000000000000000000000000000000000000000", "", "", "000000000000000000000000", "", "530f8afbc74536b9a963b4f1c4cb738b"},
		{"0000000000000000000000000000000000000000000000000000000000000000", "00000000000000000000000000000000", "", "000000000000000000000000", "cea7403d4d606b6e074ec5d3baf39d18", "d0d1c8a799996bf0265b98b5d48ab919"},
		{k128 + k128, p, "feedfacedeadbeeffeedfacedeadbeefabaddad2", "cafebabefacedbaddecaf888",
			"522dc1f099567d07f47f37a32a84427d643a8cdcbfe5c0c97598a2bd2555d1aa8cb08e48590dbb3da7b08b1056828838c5f61e6393ba7a0abcc9f662", "76fc6ece0f4e1768cddf8853bb2d551b"},
	} {
		g, err := NewGCM(unhex(t, c.key))
		if err != nil {
			t.Fatal(err)
		}
		sealed := unhex(t, c.ct+c.tag)
		got, err := g.Open(nil, unhex(t, c.iv), sealed, unhex(t, c.aad))
		if err != nil || hex.EncodeToString(got) != c.pt {
			t.Errorf("key %s: opened %x (%v), want %s", c.key, got, err, c.pt)
		}
		if s := g.Seal(nil, unhex(t, c.iv), unhex(t, c.pt), unhex(t, c.aad)); !bytes.Equal(s, sealed) {
			t.Errorf("key %s: sealed %x, want %x", c.key, s, sealed)
		}
		sealed[len(sealed)-1] ^= 1
		if _, err := g.Open(nil, unhex(t, c.iv), sealed, unhex(t, c.aad)); err == nil {
			t.Errorf("key %s: a wrong tag opens", c.key)
		}
	}
}

// aead is what tlsdec opens records with.
type aead interface {
	Open(dst, nonce, ciphertext, additionalData []byte) ([]byte, error)
	Seal(dst, nonce, plaintext, additionalData []byte) []byte
}

// checkAEAD compares ours with std on one message, both ways, in place
// as tlsdec opens, and with each kind of damage.
func checkAEAD(t testing.TB, name string, ours, std aead, nonce, pt, aad []byte, flip int) {
	t.Helper()
	sealed := std.Seal(nil, nonce, pt, aad)
	if s := ours.Seal(nil, nonce, pt, aad); !bytes.Equal(s, sealed) {
		t.Fatalf("%s, %d bytes, %d of additional data: ours sealed %x, std %x", name, len(pt), len(aad), s, sealed)
	}
	buf := bytes.Clone(sealed)
	got, err := ours.Open(buf[:0], nonce, buf, aad)
	if err != nil || !bytes.Equal(got, pt) {
		t.Fatalf("%s, %d bytes: std's sealed not opened by ours (%v)", name, len(pt), err)
	}
	if got, err := std.Open(nil, nonce, ours.Seal(nil, nonce, pt, aad), aad); err != nil || !bytes.Equal(got, pt) {
		t.Fatalf("%s, %d bytes: ours' sealed not opened by std (%v)", name, len(pt), err)
	}
	// A flipped bit anywhere (ciphertext, tag, additional data, nonce)
	// fails in both, and ours leaves the ciphertext as it was.
	bad := bytes.Clone(sealed)
	badAAD, badNonce := bytes.Clone(aad), bytes.Clone(nonce)
	switch n := len(sealed) + len(aad) + len(nonce); {
	case flip%n < len(sealed):
		bad[flip%n] ^= 1 << (flip % 8)
	case flip%n < len(sealed)+len(aad):
		badAAD[flip%n-len(sealed)] ^= 1 << (flip % 8)
	default:
		badNonce[flip%n-len(sealed)-len(aad)] ^= 1 << (flip % 8)
	}
	kept := bytes.Clone(bad)
	_, errOurs := ours.Open(bad[:0], badNonce, bad, badAAD)
	_, errStd := std.Open(nil, badNonce, kept, badAAD)
	if errOurs == nil || errStd == nil {
		t.Fatalf("%s, %d bytes: a flipped bit opens (ours %v, std %v)", name, len(pt), errOurs, errStd)
	}
	if !bytes.Equal(bad, kept) {
		t.Fatalf("%s: a failed Open wrote into the ciphertext", name)
	}
	if _, err := ours.Open(nil, nonce, sealed[:15], aad); err == nil {
		t.Fatalf("%s: 15 bytes open", name)
	}
}

func TestGCMStd(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for i := range 300 {
		key := randBytes(r, []int{16, 32}[i%2])
		ours, _ := NewGCM(key)
		b, _ := aes.NewCipher(key)
		std, _ := cipher.NewGCM(b)
		n := r.IntN(5000)
		if i < 40 {
			n = i // every short length, partial blocks
		}
		checkAEAD(t, "AES-GCM", ours, std, randBytes(r, 12), randBytes(r, n), randBytes(r, r.IntN(40)), r.IntN(1<<20))
	}
}

// RFC 8439 section 2.8.2's example, section 2.5.2's Poly1305 and section
// 2.3.2's block.
func TestChaCha20Poly1305RFC8439(t *testing.T) {
	pt := []byte("Ladies and Gentlemen of the class of '99: If I could offer you only one tip for the future, sunscreen would be it.")
	c, err := NewChaCha20Poly1305(seq(0x80, 32))
	if err != nil {
		t.Fatal(err)
	}
	nonce, aad := unhex(t, "070000004041424344454647"), unhex(t, "50515253c0c1c2c3c4c5c6c7")
	sealed := c.Seal(nil, nonce, pt, aad)
	const ct0 = "d31a8d34648e60db7b86afbc53ef7ec2a4aded51296e08fea9e2b5a736ee62d63dbea45e8ca9671282fafb69da92728b1a71de0a9e060b2905d6a5b67ecd3b3692ddbd7f2d778b8c9803aee328091b58fab324e4fad675945585808b4831d7bc3ff4def08e4b7a9de576d26586cec64b6116"
	const tag = "1ae10b594f09e26a7e902ecbd0600691"
	if got := hex.EncodeToString(sealed); got != ct0+tag {
		t.Errorf("sealed %s,\nwant %s", got, ct0+tag)
	}
	if got, err := c.Open(nil, nonce, unhex(t, ct0+tag), aad); err != nil || !bytes.Equal(got, pt) {
		t.Errorf("opened %q (%v)", got, err)
	}
	p := newPoly1305((*[32]byte)(unhex(t, "85d6be7857556d337f4452fe42d506a80103808afb0db2fd4abff6af4149f51b")))
	p.write([]byte("Cryptographic Forum Research Group"), false)
	if got := p.sum(); hex.EncodeToString(got[:]) != "a8061dc1305136c6c22b8baf0c0127a9" {
		t.Errorf("Poly1305: %x", got)
	}
	var blk [64]byte
	var key [8]uint32
	for i := range key {
		key[i] = binary.LittleEndian.Uint32(seq(byte(4*i), 4))
	}
	chachaBlock(&blk, &key, 1, unhex(t, "000000090000004a00000000"))
	const want = "10f1e7e4d13b5915500fdd1fa32071c4c7d1f4c733c068030422aa9ac3d46c4ed2826446079faa0914c2d705d98b02a2b5129cd1de164eb9cbd083e8a2503c4e"
	if hex.EncodeToString(blk[:]) != want {
		t.Errorf("ChaCha20 block: %x", blk)
	}
	if _, err := NewChaCha20Poly1305(make([]byte, 16)); err == nil {
		t.Error("a 16-byte ChaCha20 key is taken")
	}
}

func TestChaCha20Poly1305Std(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 300 {
		key := randBytes(r, 32)
		ours, _ := NewChaCha20Poly1305(key)
		std, _ := chacha20poly1305.New(key)
		n := r.IntN(5000)
		if i < 70 {
			n = i
		}
		checkAEAD(t, "ChaCha20-Poly1305", ours, std, randBytes(r, 12), randBytes(r, n), randBytes(r, r.IntN(40)), r.IntN(1<<20))
		// The stream and the MAC alone, with x/crypto's.
		nonce, msg := randBytes(r, 12), randBytes(r, n)
		a, b := make([]byte, n), make([]byte, n)
		chachaXOR(a, msg, &ours.key, uint32(i), nonce)
		s, _ := chacha20.NewUnauthenticatedCipher(key, nonce)
		s.SetCounter(uint32(i))
		s.XORKeyStream(b, msg)
		if !bytes.Equal(a, b) {
			t.Fatalf("ChaCha20 of %d bytes from counter %d differs from x/crypto's", n, i)
		}
		var pk [32]byte
		copy(pk[:], randBytes(r, 32))
		var want [16]byte
		poly1305.Sum(&want, msg, &pk)
		p := newPoly1305(&pk)
		p.write(msg, false)
		if got := p.sum(); got != want {
			t.Fatalf("Poly1305 of %d bytes: %x, x/crypto %x", n, got, want)
		}
	}
}

// The hashes: FIPS 180-4's examples (NIST's "abc" and 448-bit message)
// and random messages against crypto/sha*.
func TestSHA(t *testing.T) {
	const m448 = "abcdbcdecdefdefgefghfghighijhijkijkljklmklmnlmnomnopnopq"
	for _, c := range []struct {
		name string
		h    func() hash.Hash
		msg  string
		want string
	}{
		{"SHA-1", NewSHA1, "abc", "a9993e364706816aba3e25717850c26c9cd0d89d"},
		{"SHA-1", NewSHA1, "", "da39a3ee5e6b4b0d3255bfef95601890afd80709"},
		{"SHA-1", NewSHA1, m448, "84983e441c3bd26ebaae4aa1f95129e5e54670f1"},
		{"SHA-256", NewSHA256, "abc", "ba7816bf8f01cfea414140de5dae2223b00361a396177a9cb410ff61f20015ad"},
		{"SHA-256", NewSHA256, "", "e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855"},
		{"SHA-256", NewSHA256, m448, "248d6a61d20638b8e5c026930c3e6039a33ce45964ff2167f6ecedd419db06c1"},
		{"SHA-384", NewSHA384, "abc", "cb00753f45a35e8bb5a03d699ac65007272c32ab0eded1631a8b605a43ff5bed8086072ba1e7cc2358baeca134c825a7"},
		{"SHA-512", NewSHA512, "abc", "ddaf35a193617abacc417349ae20413112e6fa4e89a97ea20a9eeee64b55d39a2192992a274fc1a836ba3c23a3feebbd454d4423643ce80e2a9ac94fa54ca49f"},
	} {
		h := c.h()
		h.Write([]byte(c.msg))
		if got := hex.EncodeToString(h.Sum(nil)); got != c.want {
			t.Errorf("%s(%q) = %s, want %s", c.name, c.msg, got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(9, 10))
	pairs := []struct {
		name      string
		ours, std func() hash.Hash
	}{{"SHA-1", NewSHA1, sha1.New}, {"SHA-256", NewSHA256, sha256.New}, {"SHA-384", NewSHA384, sha512.New384}, {"SHA-512", NewSHA512, sha512.New}}
	for i := range 600 {
		p := pairs[i%4]
		msg := randBytes(r, r.IntN(3000))
		if i < 4*260 {
			msg = msg[:min(len(msg), i/4)] // every length around the blocks
		}
		checkHash(t, p.name, p.ours, p.std, msg, r.IntN(len(msg)+1))
	}
}

// checkHash compares two hashes of msg written in two pieces, summed
// midway and after a Reset.
func checkHash(t testing.TB, name string, ours, std func() hash.Hash, msg []byte, cut int) {
	t.Helper()
	a, b := ours(), std()
	if a.Size() != b.Size() || a.BlockSize() != b.BlockSize() {
		t.Fatalf("%s: size %d block %d, std %d %d", name, a.Size(), a.BlockSize(), b.Size(), b.BlockSize())
	}
	a.Write(msg[:cut])
	b.Write(msg[:cut])
	if x, y := a.Sum([]byte{1}), b.Sum([]byte{1}); !bytes.Equal(x, y) {
		t.Fatalf("%s of %d bytes: %x, std %x", name, cut, x, y)
	}
	a.Write(msg[cut:])
	b.Write(msg[cut:])
	if x, y := a.Sum(nil), b.Sum(nil); !bytes.Equal(x, y) {
		t.Fatalf("%s of %d bytes: %x, std %x", name, len(msg), x, y)
	}
	a.Reset()
	a.Write(msg)
	if x, y := a.Sum(nil), b.Sum(nil); !bytes.Equal(x, y) {
		t.Fatalf("%s of %d bytes after Reset: %x, std %x", name, len(msg), x, y)
	}
}

// RFC 4231's HMAC-SHA-256 and -384 test cases 1, 2 and 6, RFC 2202's
// HMAC-SHA-1 case 1, and random keys and messages against crypto/hmac.
func TestHMAC(t *testing.T) {
	big := bytes.Repeat([]byte{0xaa}, 131)
	for _, c := range []struct {
		h         func() hash.Hash
		key, data []byte
		want      string
	}{
		{NewSHA1, bytes.Repeat([]byte{0x0b}, 20), []byte("Hi There"), "b617318655057264e28bc0b6fb378c8ef146be00"},
		{NewSHA256, bytes.Repeat([]byte{0x0b}, 20), []byte("Hi There"), "b0344c61d8db38535ca8afceaf0bf12b881dc200c9833da726e9376c2e32cff7"},
		{NewSHA384, bytes.Repeat([]byte{0x0b}, 20), []byte("Hi There"), "afd03944d84895626b0825f4ab46907f15f9dadbe4101ec682aa034c7cebc59cfaea9ea9076ede7f4af152e8b2fa9cb6"},
		{NewSHA256, []byte("Jefe"), []byte("what do ya want for nothing?"), "5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"},
		{NewSHA384, []byte("Jefe"), []byte("what do ya want for nothing?"), "af45d2e376484031617f78d2b58a6b1b9c7ef464f5a01b47e42ec3736322445e8e2240ca5e69e2c78b3239ecfab21649"},
		{NewSHA256, big, []byte("Test Using Larger Than Block-Size Key - Hash Key First"), "60e431591ee0b67f0d8a26aacbf5b77f8e0bc6213728c5140546040f0ee37f54"},
	} {
		m := NewHMAC(c.h, c.key)
		m.Write(c.data)
		if got := hex.EncodeToString(m.Sum(nil)); got != c.want {
			t.Errorf("HMAC key %x: %s, want %s", c.key, got, c.want)
		}
	}
	r := rand.New(rand.NewPCG(11, 12))
	pairs := []struct{ ours, std func() hash.Hash }{{NewSHA1, sha1.New}, {NewSHA256, sha256.New}, {NewSHA384, sha512.New384}}
	for i := range 300 {
		p := pairs[i%3]
		key := randBytes(r, r.IntN(300))
		msg := randBytes(r, r.IntN(3000))
		checkHash(t, "HMAC", func() hash.Hash { return NewHMAC(p.ours, key) }, func() hash.Hash { return hmac.New(p.std, key) }, msg, r.IntN(len(msg)+1))
	}
}

// RFC 5869's test cases 1 and 3 (SHA-256) and random ones against
// crypto/hkdf.
func TestHKDF(t *testing.T) {
	for _, c := range []struct {
		ikm, salt, info []byte
		n               int
		prk, okm        string
	}{
		{bytes.Repeat([]byte{0x0b}, 22), seq(0, 13), seq(0xf0, 10), 42,
			"077709362c2e32df0ddc3f0dc47bba6390b6c73bb50f9c3122ec844ad7c2b3e5",
			"3cb25f25faacd57a90434f64d0362f2a2d2d0a90cf1a5a4c5db02d56ecc4c5bf34007208d5b887185865"},
		{bytes.Repeat([]byte{0x0b}, 22), nil, nil, 42,
			"19ef24a32c717b167f33a91d6f648bdf96596776afdb6377ac434c1c293ccb04",
			"8da4e775a563c18f715f802a063c5a31b8a11f5c5ee1879ec3454e5f3c738d2d9d201395faa4b61a96c8"},
	} {
		prk := HKDFExtract(NewSHA256, c.ikm, c.salt)
		okm, err := HKDFExpand(NewSHA256, prk, string(c.info), c.n)
		if hex.EncodeToString(prk) != c.prk || hex.EncodeToString(okm) != c.okm || err != nil {
			t.Errorf("HKDF: PRK %x OKM %x (%v)", prk, okm, err)
		}
	}
	if _, err := HKDFExpand(NewSHA256, make([]byte, 32), "", 255*32+1); err == nil {
		t.Error("HKDF-Expand of 255*32+1 bytes")
	}
	r := rand.New(rand.NewPCG(13, 14))
	pairs := []struct{ ours, std func() hash.Hash }{{NewSHA1, sha1.New}, {NewSHA256, sha256.New}, {NewSHA384, sha512.New384}}
	for i := range 300 {
		p := pairs[i%3]
		checkHKDF(t, p.ours, p.std, randBytes(r, r.IntN(100)), randBytes(r, r.IntN(100)), string(randBytes(r, r.IntN(100))), r.IntN(255*p.std().Size()+1))
	}
}

func checkHKDF(t testing.TB, ours, std func() hash.Hash, ikm, salt []byte, info string, n int) {
	t.Helper()
	prk := HKDFExtract(ours, ikm, salt)
	want, err := hkdf.Extract(std, ikm, salt)
	if err != nil || !bytes.Equal(prk, want) {
		t.Fatalf("HKDF-Extract: %x, std %x (%v)", prk, want, err)
	}
	okm, err1 := HKDFExpand(ours, prk, info, n)
	want, err2 := hkdf.Expand(std, prk, info, n)
	if err1 != nil || err2 != nil || !bytes.Equal(okm, want) {
		t.Fatalf("HKDF-Expand of %d bytes: %x, std %x (%v, %v)", n, okm, want, err1, err2)
	}
}

func TestEqual(t *testing.T) {
	for _, c := range []struct {
		a, b string
		eq   bool
	}{{"", "", true}, {"a", "a", true}, {"a", "b", false}, {"ab", "a", false}, {"", "a", false}} {
		if Equal([]byte(c.a), []byte(c.b)) != c.eq || hmac.Equal([]byte(c.a), []byte(c.b)) != c.eq {
			t.Errorf("Equal(%q, %q) != %v", c.a, c.b, c.eq)
		}
	}
}
