package capture_test

import (
	"bytes"
	"strings"
	"testing"

	"kwire/capture"
	"kwire/capture/capturetest"
	"kwire/tree/treetest"
)

// TestSASLMechanismFollowed: a SaslAuthenticate frame in a capture is read
// with the mechanism its connection's SaslHandshake named (kgo with PLAIN
// against kfake: the recorded clients all authenticate with it), and the
// password never shows.
func TestSASLMechanismFollowed(t *testing.T) {
	rec := recorded(t)
	file := pcap(t, capturetest.Packets(rec.Chunks, capturetest.Options{}), ether, false, false)
	seen := map[string]int{}
	_, err := capture.Read(bytes.NewReader(file), capture.Options{}, func(e *capture.Event) {
		if e.Kind != capture.KindFrame || e.Key != 36 {
			return
		}
		_, fl, err := e.Decode(capture.Options{}.Limits)
		if err != nil {
			t.Fatalf("event %d: %v", e.N, err)
		}
		if text := treetest.Text(fl); strings.Contains(text, `"secret"`) || strings.Contains(text, "736563726574") {
			t.Errorf("event %d: the password shows:\n%s", e.N, text)
		}
		for _, n := range treetest.All(fl) {
			if n.Name == "SASL" {
				if n.Type != e.SASLMechanism {
					t.Errorf("event %d: read as %s, the handshake named %q", e.N, n.Type, e.SASLMechanism)
				}
				seen[n.Type+" "+n.Value]++
			}
		}
	})
	if err != nil {
		t.Fatal(err)
	}
	if seen["PLAIN authzid NUL user NUL password"] == 0 || len(seen) != 1 {
		t.Errorf("SASL messages read: %v", seen)
	}
}
