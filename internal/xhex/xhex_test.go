package xhex

import (
	"bytes"
	"encoding/hex"
	"testing"
)

func TestDecodeStringIsEncodingHexs(t *testing.T) {
	in := []string{"", "0", "00", "0g", "g0", "abCD09", "abc", "ab c", "zz", "0x12", "ffF", "12\xff3"}
	for c := range 256 {
		in = append(in, string([]byte{'a', byte(c)}), string([]byte{byte(c), 'a', '1'}))
	}
	for _, s := range in {
		got, err := DecodeString(s)
		want, wantErr := hex.DecodeString(s)
		if !bytes.Equal(got, want) || (err == nil) != (wantErr == nil) || err != nil && err.Error() != wantErr.Error() {
			t.Errorf("DecodeString(%q) = % x, %v; encoding/hex % x, %v", s, got, err, want, wantErr)
		}
	}
}
