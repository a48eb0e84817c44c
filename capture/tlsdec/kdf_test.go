package tlsdec

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"
)

func unspace(s string) []byte {
	b, err := hex.DecodeString(strings.Join(strings.Fields(s), ""))
	if err != nil {
		panic(err)
	}
	return b
}

// TestRFC8448 derives the key and iv of the server's handshake traffic
// secret of RFC 8448's simple 1-RTT handshake (section 3, "derive write
// traffic keys for handshake data").
func TestRFC8448(t *testing.T) {
	secret := unspace(`b6 7b 7d 69 0c c1 6c 4e 75 e5 42 13 cb 2d 37 b4 e9 c9 12 bc de d9 10 5d 42 be fd 59 d3 91 ad 38`)
	key, iv := trafficKeys(suiteByID(0x1301), secret)
	if want := unspace(`3f ce 51 60 09 c2 17 27 d0 f2 e4 e8 6e e4 03 bc`); !bytes.Equal(key, want) {
		t.Errorf("key %x, want %x", key, want)
	}
	if want := unspace(`5d 31 3e b2 67 12 76 ee 13 00 0b 30`); !bytes.Equal(iv, want) {
		t.Errorf("iv %x, want %x", iv, want)
	}
}
