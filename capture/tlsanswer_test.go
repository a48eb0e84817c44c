package capture_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"kwire/capture"
	"kwire/codec"
)

// TestAnsweredInTLS: Apache Kafka 4.4.0's SSL listener answers an
// ApiVersions request sent in the clear with a TLS alert (recorded with
// tcpdump on loopback). The alert is said to be one, once, as bytes that
// are not frames, where a client in the clear reads a frame size of 352
// million; the connection is not taken for a TLS one.
func TestAnsweredInTLS(t *testing.T) {
	file, err := os.ReadFile("testdata/real-ssl-listener-plaintext-client.pcap")
	if err != nil {
		t.Fatal(err)
	}
	var said []*capture.Event
	var req *capture.Event
	if _, err := capture.Read(strings.NewReader(string(file)), capture.Options{}, func(e *capture.Event) {
		switch {
		case e.Kind == capture.KindFrame && e.Dir == codec.Request && e.Key == 18 && e.Version == 3:
			c := *e
			req = &c
		case e.Kind == capture.KindTLS && req != nil && e.Conn == req.Conn:
			t.Errorf("the connection is taken for TLS: %s", e.Note)
		case e.Kind == capture.KindSkipped:
			c := *e
			said = append(said, &c)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if req == nil {
		t.Fatal("no ApiVersions v3 request in the clear")
	}
	if len(said) != 1 || said[0].Conn != req.Conn || said[0].Dir != codec.Response || said[0].Size != 7 ||
		!strings.Contains(said[0].Note, "a TLS 1.2 alert record: fatal internal_error (80); this listener speaks TLS") {
		for _, e := range said {
			t.Logf("skipped: %s %v %d %s", e.Conn, e.Dir, e.Size, e.Note)
		}
		t.Fatalf("%d events said bytes were skipped, want the alert once", len(said))
	}
}

// TestEventStart: every event of a real capture comes at or after its
// Start, the capture's first packet, though a TLS connection's status is
// said after later events.
func TestEventStart(t *testing.T) {
	for _, name := range []string{"real-ssl-listener-plaintext-client.pcap", "real-midstream-controller.pcap"} {
		file, err := os.ReadFile("testdata/" + name)
		if err != nil {
			t.Fatal(err)
		}
		var start time.Time
		n := 0
		if _, err := capture.Read(strings.NewReader(string(file)), capture.Options{}, func(e *capture.Event) {
			n++
			if start.IsZero() {
				start = e.Start
			}
			if e.Start != start || e.Time.Before(e.Start) || e.Start.IsZero() {
				t.Errorf("%s: event %d at %v, start %v (first %v)", name, e.N, e.Time, e.Start, start)
			}
		}); err != nil || n == 0 {
			t.Fatalf("%s: %d events, %v", name, n, err)
		}
	}
}
