package codec

import (
	"bytes"
	"encoding/hex"
	"os"
	"strings"
	"testing"

	"kwire/tree/treetest"
)

// TestTrailingRealLibrdkafka: librdkafka's Metadata v13 request with three
// bytes after its body (recorded against Kafka 4.4.0, which answers it)
// decodes without an error, shows the bytes, and comes back from its JSON
// form byte for byte.
func TestTrailingRealLibrdkafka(t *testing.T) {
	h, err := os.ReadFile("testdata/real/librdkafka-metadata-v13-trailing.hex")
	if err != nil {
		t.Fatal(err)
	}
	b, err := hex.DecodeString(strings.TrimSpace(string(h)))
	if err != nil {
		t.Fatal(err)
	}
	set := loadSet(t, "trunk")
	// Where the direction is a guess, they are an error.
	if _, _, err := Decode(b, DecodeOptions{Set: set, Dir: Request}); err == nil || !strings.Contains(err.Error(), "3 bytes of the frame are left") {
		t.Errorf("decoded without Trailing: %v", err)
	}
	f, fl, err := Decode(b, DecodeOptions{Set: set, Dir: Request, Trailing: true})
	if err != nil {
		t.Fatal(err)
	}
	if j, _ := fl.FirstError(0); j >= 0 {
		t.Errorf("error node: %s", fl.Node(j, nil).Err)
	}
	if !bytes.Equal(f.Trailing, []byte{1, 0, 0}) {
		t.Errorf("Trailing = %x, want 010000", f.Trailing)
	}
	if _, n := treetest.Find(fl, "", "trailing"); n == nil || n.Offset != len(b)-3 || n.Size != 3 {
		t.Errorf("no trailing node over the last 3 bytes: %+v", n)
	}
	j, err := f.AppendJSON(nil, len(b))
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(j, []byte(`"trailing_hex":"010000"`)) {
		t.Errorf("JSON lacks trailing_hex: %s", j)
	}
	g, _, _ := Decode(b, DecodeOptions{Set: set, Dir: Request, Trailing: true})
	g.Trailing = nil
	if err := g.SetJSON(j); err != nil {
		t.Fatal(err)
	}
	back, err := g.Encode()
	if err != nil || !bytes.Equal(back, b) {
		t.Errorf("round trip: %x, %v; want %x", back, err, b)
	}
	// Without trailing_hex, the frame form has no bytes after the body.
	if err := g.SetJSON(bytes.Replace(j, []byte(`,"trailing_hex":"010000"`), nil, 1)); err != nil {
		t.Fatal(err)
	}
	if back, _ := g.Encode(); !bytes.Equal(back[4:], b[4:len(b)-3]) {
		t.Errorf("without trailing_hex: %x", back)
	}
	if err := g.SetJSON(bytes.Replace(j, []byte(`"010000"`), []byte(`"0x"`), 1)); err == nil {
		t.Error("a bad trailing_hex is accepted")
	}
}
