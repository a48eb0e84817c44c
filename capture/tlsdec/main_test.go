package tlsdec

import (
	"flag"
	"os"
	"testing"
)

// TestMain runs every test of the package twice (but when fuzzing): with
// the build's cryptography, natively the standard library's, then with
// tlscrypto's, which the browser decrypts with, so that the whole
// decryption path is proven with both.
func TestMain(m *testing.M) {
	flag.Parse()
	code := m.Run()
	if _, hand := impl.(handCrypto); code == 0 && !hand && flag.Lookup("test.fuzz").Value.String() == "" {
		os.Stderr.WriteString("tlsdec: the tests again with tlscrypto's cryptography\n")
		impl = handCrypto{}
		code = m.Run()
	}
	os.Exit(code)
}
