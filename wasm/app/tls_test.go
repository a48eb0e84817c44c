package app

import (
	"bytes"
	"crypto/tls"
	"strings"
	"testing"

	"kwire/capture/capturetest"
	"kwire/capture/tlsdec"
)

// TestTLSRows (not TestCapture..., which build.sh also runs in node, where no server listens): a capture of kgo's TLS connections lists each
// connection's TLS row, and with the key log its conversations.
func TestTLSRows(t *testing.T) {
	wire, _, kl, err := capturetest.TLSTraffic(&tls.Config{}, 1)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	if err := capturetest.WritePcap(&b, capturetest.Packets(wire.Chunks, capturetest.Options{}), 1, false, false, 262144); err != nil {
		t.Fatal(err)
	}
	if !IsKeyLog(kl) || IsKeyLog(b.Bytes()) || IsKeyLog([]byte("# comment\nnot a key log")) {
		t.Fatal("IsKeyLog")
	}
	keys, err := tlsdec.ParseKeyLog(kl)
	if err != nil {
		t.Fatal(err)
	}
	for _, k := range []*tlsdec.KeyLog{nil, keys} {
		c, err := OpenCapture("tls.pcap", b.Bytes(), k)
		if err != nil {
			t.Fatal(err)
		}
		for !c.Step(0) {
		}
		var tlsRows, produce, fetch int
		for _, r := range c.Rows {
			switch {
			case r.Kind == "tls":
				tlsRows++
				want := ": decrypted" // after the suite crypto/tls chose
				if k == nil {
					want = ": not decrypted: no key log"
				}
				text := r.Status // a failure
				if k != nil {
					text = r.Info // no failure
				}
				if !strings.HasPrefix(text, "TLS 1.3 TLS_") || !strings.HasSuffix(text, want) || r.Status+r.Info != text {
					t.Errorf("TLS row %q, %q, want %q", r.Status, r.Info, want)
				}
			case r.Status != "":
				t.Errorf("row %d %s: %s", r.N, r.API, r.Status)
			case r.API == "Produce" && r.RespSize > 0:
				produce++
			case r.API == "Fetch" && r.RespSize > 0:
				fetch++
			}
		}
		if tlsRows != wire.Conns() || (k != nil) != (produce > 0 && fetch > 0) {
			t.Errorf("key log %v: %d TLS rows for %d connections, %d Produce, %d Fetch", k != nil, tlsRows, wire.Conns(), produce, fetch)
		}
	}
}
