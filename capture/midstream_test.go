package capture_test

import (
	"bytes"
	"fmt"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/google/gopacket/layers"

	"kwire/capture"
	"kwire/capture/capturetest"
	"kwire/codec"
)

// TestRealMidStreamController reads a capture of Kafka 4.4.0's broker and
// controller (one node, ports chosen at random) that starts while their
// connections are open, with the controller's answer to a heartbeat: no
// port says they are Kafka, and each is found from its first segment that
// is one whole request; what comes before is not read.
func TestRealMidStreamController(t *testing.T) {
	f, err := os.Open("testdata/real-midstream-controller.pcap")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	apis := map[string]int{}
	conns := map[int]bool{}
	_, err = capture.Read(f, capture.Options{}, func(e *capture.Event) {
		if e.Kind != capture.KindFrame {
			t.Errorf("event %d: kind %d: %s", e.N, e.Kind, e.Note)
			return
		}
		conns[e.Conn.ID] = true
		if !e.Conn.MidStream || e.Conn.Broker.Port() != 42227 {
			t.Errorf("event %d: connection %v (mid-stream %v)", e.N, e.Conn, e.Conn.MidStream)
		}
		if e.Dir == codec.Response && e.Request == nil {
			t.Errorf("event %d: unpaired response", e.N)
		}
		_, fl, err := e.Decode(capture.Options{}.Limits)
		if err != nil {
			t.Errorf("event %d: %v", e.N, err)
		} else if j, _ := fl.FirstError(0); j >= 0 {
			t.Errorf("event %d: %s", e.N, fl.Node(j, nil).Err)
		}
		apis[capture.APIName(e.Key)]++
	})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]int{"Envelope": 2, "AllocateProducerIds": 2, "BrokerHeartbeat": 2}
	for a, n := range want {
		if apis[a] != n {
			t.Errorf("%s: %d frames, want %d (all: %v)", a, apis[a], n, apis)
		}
	}
	if len(conns) != 2 {
		t.Errorf("%d connections, want 2", len(conns))
	}
}

// TestMidStreamNotKafka: a connection met mid-stream on an unknown port
// whose segments are not whole requests (text, a size field that fits
// with an unknown API key, one with a known key but a body that does not
// decode) stays unread.
func TestMidStreamNotKafka(t *testing.T) {
	var chunks []capturetest.Chunk
	tm := time.Unix(1700000000, 0)
	bad := [][]byte{
		[]byte("GET / HTTP/1.1\r\nHost: example\r\n\r\n"),
		{0, 0, 0, 10, 0x7f, 0x00, 0, 0, 0, 0, 0, 1, 0, 0},        // key 32512
		{0, 0, 0, 12, 0, 18, 0, 3, 0, 0, 0, 1, 0, 0, 0xff, 0xff}, // ApiVersions v3: a body cut short
		{0, 0, 0, 12, 0, 3, 0, 0, 0, 0, 0, 1, 0, 0, 0x00, 0x00},  // Metadata v0: no topics array left
		append([]byte{0, 0, 0, 30}, make([]byte, 30)...),         // Produce v0, all zeros
		[]byte("\x00\x00\x00\x0aPRI * HTTP/2.0"),
	}
	for i := range 3 * maxProbesForTest {
		chunks = append(chunks, capturetest.Chunk{Conn: 0, FromClient: i%2 == 0, Time: tm.Add(time.Duration(i) * time.Millisecond), Data: bad[i%len(bad)]})
	}
	pkts := capturetest.Packets(chunks, capturetest.Options{BrokerPort: 7000})
	pkts = pkts[3:] // no handshake: mid-stream
	var b bytes.Buffer
	if err := capturetest.WritePcap(&b, pkts, int(layers.LinkTypeEthernet), false, false, 65535); err != nil {
		t.Fatal(err)
	}
	r, err := capture.Read(&b, capture.Options{}, func(e *capture.Event) {
		t.Errorf("event %d: kind %d %s key %d", e.N, e.Kind, e.Note, e.Key)
	})
	if err != nil {
		t.Fatal(err)
	}
	if r.Packets != len(pkts) {
		t.Errorf("%d packets read, want %d", r.Packets, len(pkts))
	}
}

// maxProbesForTest is more segments than capture looks at.
const maxProbesForTest = 20

// TestPortReused: Linux reuses a client port to the same broker once the
// old connection is gone, so one four-tuple carries two connections, each
// with its own SYN and sequence numbers (seen on a three-node KRaft
// cluster on loopback). Each connection's frames are read and paired on
// their own, also when the first one's end is not in the capture.
func TestPortReused(t *testing.T) {
	tm := time.Unix(1700000000, 0)
	req := []byte{0, 0, 0, 10, 0, 18, 0, 0, 0, 0, 0, 0, 0xff, 0xff} // ApiVersions v0, correlation 0, no client id
	resp := []byte{0, 0, 0, 10, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0}       // no error, no APIs
	conn := func(at time.Duration, cut bool) []capturetest.Packet {
		chunks := []capturetest.Chunk{
			{Conn: 0, FromClient: true, Time: tm.Add(at), Data: req},
			{Conn: 0, Time: tm.Add(at + time.Millisecond), Data: resp},
		}
		if cut { // the client died while sending a request
			chunks = append(chunks, capturetest.Chunk{Conn: 0, FromClient: true, Time: tm.Add(at + 2*time.Millisecond), Data: req[:9]})
		}
		return capturetest.Packets(chunks, capturetest.Options{})
	}
	first := conn(0, true)
	first = first[:len(first)-1] // the broker's FIN is not in the capture
	pkts := append(first, conn(time.Second, false)...)
	var b bytes.Buffer
	if err := capturetest.WritePcap(&b, pkts, int(layers.LinkTypeEthernet), false, false, 65535); err != nil {
		t.Fatal(err)
	}
	var got []string
	_, err := capture.Read(&b, capture.Options{}, func(e *capture.Event) {
		s := fmt.Sprintf("%d %v %d", e.Kind, e.Dir, e.Correlation)
		if e.Request != nil {
			s += fmt.Sprintf(" paired %d", e.Request.Correlation)
		}
		if e.Note != "" || e.Incomplete != "" {
			s += " " + e.Note + e.Incomplete
		}
		got = append(got, s)
	})
	if err != nil {
		t.Fatal(err)
	}
	want := []string{
		fmt.Sprintf("%d request 0", capture.KindFrame),
		fmt.Sprintf("%d response 0 paired 0", capture.KindFrame),
		fmt.Sprintf("%d request 0 the stream ends after 9 of its 14 bytes", capture.KindFrame),
		fmt.Sprintf("%d request 0", capture.KindFrame),
		fmt.Sprintf("%d response 0 paired 0", capture.KindFrame),
	}
	if !slices.Equal(got, want) {
		t.Errorf("events:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}
