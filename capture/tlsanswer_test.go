package capture_test

import (
	"os"
	"strings"
	"testing"
	"time"

	"kwire/capture"
	"kwire/codec"
)

// TestAnsweredInTLS reads Apache Kafka 4.4.0 recorded with tcpdump on
// loopback: an ApiVersions request in the clear to its PLAINTEXT listener,
// a TLS client at the same listener, and an ApiVersions request in the
// clear to its SSL listener, which answers with a TLS alert. The alert is
// said to be one, once, as bytes that are not frames, where a client in
// the clear reads a frame size of 352 million; that connection is not
// taken for a TLS one. The TLS client's connection, to an address other
// connections show is Kafka's, says the server sent nothing after the
// ClientHello, and is a failure.
func TestAnsweredInTLS(t *testing.T) {
	file, err := os.ReadFile("testdata/real-tls-mismatch.pcap")
	if err != nil {
		t.Fatal(err)
	}
	var said, tlsSaid []*capture.Event
	var req *capture.Event
	if _, err := capture.Read(strings.NewReader(string(file)), capture.Options{}, func(e *capture.Event) {
		switch {
		case e.Kind == capture.KindFrame && e.Dir == codec.Request && e.Key == 18 && e.Version == 3:
			c := *e
			req = &c // the last: the one to the SSL listener
		case e.Kind == capture.KindTLS:
			c := *e
			tlsSaid = append(tlsSaid, &c)
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
	if len(tlsSaid) != 1 || tlsSaid[0].Conn == req.Conn || tlsSaid[0].NotKafka || tlsSaid[0].TLS.Decrypted ||
		!strings.Contains(tlsSaid[0].Note, "the server sent nothing after the ClientHello: it may not speak TLS") ||
		!strings.Contains(tlsSaid[0].Note, "speaks Kafka in the clear on other connections") {
		for _, e := range tlsSaid {
			t.Logf("tls: %s not Kafka %v: %s", e.Conn, e.NotKafka, e.Note)
		}
		t.Fatalf("%d TLS statuses, want one of the TLS client at the listener in the clear", len(tlsSaid))
	}
}

// TestTLSClientFirst reads Apache Kafka 4.4.0 recorded with tcpdump on
// loopback: a TLS client at its PLAINTEXT listener, and two seconds after
// it closed an ApiVersions request in the clear to the same listener. The
// TLS connection is said to be to an address that speaks Kafka in the
// clear, a failure, not a port that is not Kafka's, though it ended
// before the connection that shows it; and it is said once.
func TestTLSClientFirst(t *testing.T) {
	file, err := os.ReadFile("testdata/real-tls-first.pcap")
	if err != nil {
		t.Fatal(err)
	}
	var tlsSaid, reqs []*capture.Event
	if _, err := capture.Read(strings.NewReader(string(file)), capture.Options{}, func(e *capture.Event) {
		c := *e
		switch {
		case e.Kind == capture.KindFrame && e.Dir == codec.Request && e.Key == 18 && e.Version == 3:
			reqs = append(reqs, &c)
		case e.Kind == capture.KindTLS:
			tlsSaid = append(tlsSaid, &c)
		}
	}); err != nil {
		t.Fatal(err)
	}
	if len(tlsSaid) != 1 || tlsSaid[0].NotKafka || tlsSaid[0].TLS.Decrypted ||
		!strings.Contains(tlsSaid[0].Note, "the server sent nothing after the ClientHello") ||
		!strings.Contains(tlsSaid[0].Note, "speaks Kafka in the clear on other connections") {
		for _, e := range tlsSaid {
			t.Logf("tls: %s at %v, not Kafka %v: %s", e.Conn, e.Time, e.NotKafka, e.Note)
		}
		t.Fatalf("%d TLS statuses, want one of the TLS client that came first", len(tlsSaid))
	}
	first := true // no request to that address came before the TLS client
	later := false
	for _, r := range reqs {
		if r.Conn.Broker == tlsSaid[0].Conn.Broker {
			first = first && !r.Time.Before(tlsSaid[0].Time)
			later = later || r.Time.After(tlsSaid[0].Time)
		}
	}
	if !first || !later {
		t.Fatalf("the capture does not hold a TLS client before the only requests in the clear to %s", tlsSaid[0].Conn.Broker)
	}
}

// TestEventStart: every event of a real capture comes at or after its
// Start, the capture's first packet, though a TLS connection's status is
// said after later events.
func TestEventStart(t *testing.T) {
	for _, name := range []string{"real-tls-mismatch.pcap", "real-midstream-controller.pcap", "real-tls-first.pcap"} {
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
