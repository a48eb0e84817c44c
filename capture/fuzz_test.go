package capture_test

import (
	"bytes"
	"encoding/hex"
	"os"
	"testing"
	"time"

	"kwire/capture"
	"kwire/capture/capturetest"
)

// fuzzSeeds are small captures: an ApiVersions v0 request and response,
// and a Metadata v1 request, as pcap and pcapng in several link types.
func fuzzSeeds(t testing.TB) [][]byte {
	req, _ := hex.DecodeString("0000000a00120000000000010000")
	resp, _ := hex.DecodeString("0000000c0000000100000000000000")
	meta, _ := hex.DecodeString("0000000e000300010000000200000000ffff")
	at := time.Unix(1700000000, 0)
	chunks := []capturetest.Chunk{
		{Conn: 0, FromClient: true, Time: at, Data: req},
		{Conn: 0, FromClient: false, Time: at.Add(time.Millisecond), Data: resp[:len(resp)-3]},
		{Conn: 0, FromClient: true, Time: at.Add(2 * time.Millisecond), Data: meta},
		{Conn: 1, FromClient: true, Time: at.Add(3 * time.Millisecond), Data: append(append([]byte(nil), req...), meta...)},
	}
	var out [][]byte
	for _, o := range []capturetest.Options{{MSS: 6}, {IPv6: true, Links: []int{capturetest.LinkTypeSLL2}}, {VLAN: true}, {Links: []int{0}}, {Links: []int{1, 101}}} {
		pkts := capturetest.Packets(chunks, o)
		var b bytes.Buffer
		if len(o.Links) < 2 { // pcap has one link type
			if err := capturetest.WritePcap(&b, pkts, o.Links0(), false, len(out)%2 == 1, 65535); err != nil {
				t.Fatal(err)
			}
			out = append(out, b.Bytes())
			b = bytes.Buffer{}
		}
		if o.Links0() < 256 {
			if err := capturetest.WritePcapng(&b, pkts, o.Links); err != nil {
				t.Fatal(err)
			}
			out = append(out, b.Bytes())
		}
	}
	return out
}

// FuzzRead: any file reads without a panic, and no event holds more bytes
// than the file.
func FuzzRead(f *testing.F) {
	for _, s := range fuzzSeeds(f) {
		f.Add(s)
	}
	// Real captures: one that starts mid-connection
	// (TestRealMidStreamController), and a TLS listener's alert to a
	// client in the clear (TestAnsweredInTLS).
	for _, name := range []string{"real-midstream-controller.pcap", "real-tls-mismatch.pcap", "real-tls-first.pcap"} {
		b, err := os.ReadFile("testdata/" + name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		up, audit := capture.NewUpgrade(), capture.NewAudit([]string{"broker:9092"})
		capture.Read(bytes.NewReader(data), capture.Options{}, func(e *capture.Event) {
			if len(e.Data) > len(data) {
				t.Fatalf("event %d holds %d bytes, the file %d", e.N, len(e.Data), len(data))
			}
			if e.Kind == capture.KindFrame {
				e.Decode(capture.Options{}.Limits)
			}
			up.Add(e)
			for _, l := range audit.Add(e) {
				if l.N != e.N || l.Why == "" {
					t.Fatalf("finding %+v of event %d", l, e.N)
				}
			}
		})
		if _, err := up.Report("4.0"); err != nil {
			t.Fatal(err)
		}
	})
}

// TestFuzzSeeds: the seeds themselves read: frames paired.
func TestFuzzSeeds(t *testing.T) {
	for i, s := range fuzzSeeds(t) {
		var frames, paired int
		_, err := capture.Read(bytes.NewReader(s), capture.Options{}, func(e *capture.Event) {
			if e.Kind == capture.KindFrame {
				frames++
				if e.Request != nil {
					paired++
				}
			}
		})
		if err != nil || frames != 5 || paired != 1 {
			t.Errorf("seed %d: %d frames, %d paired, %v", i, frames, paired, err)
		}
	}
}
