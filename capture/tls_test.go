package capture_test

import (
	"bytes"
	"context"
	"crypto/tls"
	"encoding/binary"
	"fmt"
	"io"
	"strings"
	"testing"

	"kwire/capture"
	"kwire/capture/capturetest"
	"kwire/capture/tlsdec"
	"kwire/codec/records"
)

func tlsTraffic(t *testing.T, ccfg *tls.Config, clients int) (wire, plain *capturetest.Recorder, keylog []byte) {
	t.Helper()
	wire, plain, keylog, err := capturetest.TLSTraffic(ccfg, clients)
	if err != nil {
		t.Fatal(err)
	}
	return wire, plain, keylog
}

func tlsStatuses(events []seen) []*tlsdec.Status {
	var out []*tlsdec.Status
	for _, s := range events {
		if s.e.Kind == capture.KindTLS {
			out = append(out, s.e.TLS)
		}
	}
	return out
}

// TestTLS: kgo's TLS connections to kfake, captured, decrypt with kgo's
// key log, and every frame decodes and pairs as the plaintext recorded
// on the clients' side of TLS.
func TestTLS(t *testing.T) {
	cases := []struct {
		name    string
		cfg     *tls.Config
		resumed string
	}{
		{"1.3", &tls.Config{MinVersion: tls.VersionTLS13}, "psk"},
		{"1.2 aes128", &tls.Config{MaxVersion: tls.VersionTLS12, CipherSuites: []uint16{tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256}}, "ticket"},
		{"1.2 chacha", &tls.Config{MaxVersion: tls.VersionTLS12, CipherSuites: []uint16{tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256}}, "ticket"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			tc.cfg.ClientSessionCache = tls.NewLRUClientSessionCache(8)
			wire, plain, kl := tlsTraffic(t, tc.cfg, 2)
			keys, err := tlsdec.ParseKeyLog(kl)
			if err != nil {
				t.Fatal(err)
			}
			file := pcap(t, capturetest.Packets(wire.Chunks, capturetest.Options{MSS: 700}), ether, false, false)
			events := checkOpts(t, tc.name, file, plain, 0, 0, capture.Options{KeyLog: keys})
			sts := tlsStatuses(events)
			if len(sts) != wire.Conns() {
				t.Fatalf("%d TLS statuses for %d connections", len(sts), wire.Conns())
			}
			resumed := 0
			for _, s := range sts {
				if s.Resumed == tc.resumed {
					resumed++
				}
			}
			if resumed == 0 {
				t.Errorf("no connection resumed by %s: %+v", tc.resumed, sts)
			}
			if tc.resumed == "ticket" && keys.Len() != wire.Conns()-resumed {
				t.Errorf("%d key-log lines for %d connections, %d resumed", keys.Len(), wire.Conns(), resumed)
			}

			// The key log embedded in the pcapng file: no KeyLog needed.
			ng := withSecrets(t, pcapng(t, capturetest.Packets(wire.Chunks, capturetest.Options{}), []int{ether}), kl)
			checkOpts(t, tc.name+" embedded", ng, plain, 0, 0, capture.Options{})
		})
	}
}

// withSecrets puts a Decryption Secrets Block (pcapng, type 0x0A, secrets
// type "TLSK") with a key log before the file's first packet block.
func withSecrets(t *testing.T, ng, keylog []byte) []byte {
	t.Helper()
	at := 0
	for at+8 <= len(ng) && binary.LittleEndian.Uint32(ng[at:]) != 6 {
		at += int(binary.LittleEndian.Uint32(ng[at+4:]))
	}
	pad := (4 - len(keylog)%4) % 4
	total := 20 + len(keylog) + pad
	dsb := binary.LittleEndian.AppendUint32(nil, 0x0a)
	dsb = binary.LittleEndian.AppendUint32(dsb, uint32(total))
	dsb = binary.LittleEndian.AppendUint32(dsb, 0x544c534b)
	dsb = binary.LittleEndian.AppendUint32(dsb, uint32(len(keylog)))
	dsb = append(dsb, keylog...)
	dsb = append(dsb, make([]byte, pad)...)
	dsb = binary.LittleEndian.AppendUint32(dsb, uint32(total))
	return append(append(append([]byte(nil), ng[:at]...), dsb...), ng[at:]...)
}

// TestTLSFailures: without the key, a connection's status says which
// client random lacks one, and the capture's other connections decode.
func TestTLSFailures(t *testing.T) {
	wire, plain, kl := tlsTraffic(t, &tls.Config{MinVersion: tls.VersionTLS13}, 1)
	keys, _ := tlsdec.ParseKeyLog(kl)
	file := pcap(t, capturetest.Packets(wire.Chunks, capturetest.Options{}), ether, false, false)
	events, err := readOpts(t, file, capture.Options{KeyLog: tlsdec.NewKeyLog()})
	if err != nil {
		t.Fatal(err)
	}
	sts := tlsStatuses(events)
	if len(sts) != wire.Conns() {
		t.Fatalf("%d statuses, %d connections", len(sts), wire.Conns())
	}
	for _, s := range sts {
		if s.Decrypted || !strings.HasPrefix(s.Why, "no key for client random ") {
			t.Errorf("no key: %+v", s)
		}
	}
	// A damaged byte in the middle of the capture: one record fails, its
	// packet named; the connection's other direction and the other
	// connections decode.
	pkts := capturetest.Packets(wire.Chunks, capturetest.Options{})
	n := 0
	for i := len(pkts) - 1; i > 0; i-- { // the last answer's ciphertext
		if !pkts[i].FromClient && len(pkts[i].Payload) > 100 {
			pkts[i].Payload = bytes.Clone(pkts[i].Payload)
			pkts[i].Payload[50] ^= 0x40
			pkts[i].Rebuild()
			n = i + 1
			break
		}
	}
	events, err = readOpts(t, pcap(t, pkts, ether, false, false), capture.Options{KeyLog: keys})
	if err != nil {
		t.Fatal(err)
	}
	var failed, frames int
	for _, s := range events {

		if s.e.Kind == capture.KindTLS && !s.e.TLS.Decrypted {
			failed++
			if want := fmt.Sprintf("a record of the server fails its tag at packet %d", n); !strings.Contains(s.e.Note, want) {
				t.Errorf("%s, want %q", s.e.Note, want)
			}
		}
		if s.e.Kind == capture.KindFrame && s.err == nil {
			frames++
		}
	}
	if failed != 1 || frames < wanted(plain).n-2 {
		t.Errorf("%d failures (want 1), %d frames of %d decoded", failed, frames, wanted(plain).n)
	}
}

// BenchmarkTLS reads the same kgo traffic (two clients, each producing
// 3,000 records and reading them back) captured in the clear and over TLS
// 1.3 and 1.2 (decrypted with its key log), framing it (read) and
// decoding each frame as kwire capture does (decode); bytes are the
// plaintext's.
func BenchmarkTLS(b *testing.B) {
	for _, v := range []struct {
		name string
		cfg  *tls.Config
	}{{"1.3", &tls.Config{MinVersion: tls.VersionTLS13}}, {"1.2", &tls.Config{MaxVersion: tls.VersionTLS12}}} {
		wire, plain, kl, err := capturetest.TLSTrafficN(v.cfg, 2, 3000)
		if err != nil {
			b.Fatal(err)
		}
		keys, _ := tlsdec.ParseKeyLog(kl)
		files := map[string][]byte{}
		for name, rec := range map[string]*capturetest.Recorder{"plain" + v.name: plain, "tls" + v.name: wire} {
			var buf bytes.Buffer
			if err := capturetest.WritePcap(&buf, capturetest.Packets(rec.Chunks, capturetest.Options{}), ether, false, false, 262144); err != nil {
				b.Fatal(err)
			}
			files[name] = buf.Bytes()
		}
		size := 0
		for _, c := range plain.Chunks {
			size += len(c.Data)
		}
		for _, name := range []string{"plain" + v.name, "tls" + v.name} {
			for _, decode := range []bool{false, true} {
				b.Run(name+map[bool]string{false: "/read", true: "/decode"}[decode], func(b *testing.B) {
					b.SetBytes(int64(size))
					for b.Loop() {
						frames := 0
						_, err := capture.Read(bytes.NewReader(files[name]), capture.Options{KeyLog: keys}, func(e *capture.Event) {
							if e.Kind == capture.KindFrame {
								frames++
								if decode {
									_, _, _ = e.Decode(records.Limits{})
								}
							}
						})
						if err != nil || frames == 0 {
							b.Fatal(err, frames)
						}
					}
				})
			}
		}
	}
}

// TestTLSPorts: on a port that is not Kafka's, a TLS connection whose
// plaintext is Kafka is read as on Kafka's; one not decrypted says so,
// marked NotKafka; one whose plaintext is not Kafka has no events.
func TestTLSPorts(t *testing.T) {
	wire, plain, kl := tlsTraffic(t, &tls.Config{MinVersion: tls.VersionTLS13}, 1)
	keys, _ := tlsdec.ParseKeyLog(kl)
	file := pcap(t, capturetest.Packets(wire.Chunks, capturetest.Options{BrokerPort: 7777}), ether, false, false)
	events := checkOpts(t, "port 7777", file, plain, 0, 0, capture.Options{KeyLog: keys})
	if n := len(tlsStatuses(events)); n != wire.Conns() {
		t.Errorf("%d TLS statuses, %d connections", n, wire.Conns())
	}
	events, err := readOpts(t, file, capture.Options{})
	if err != nil {
		t.Fatal(err)
	}
	for _, s := range events {
		if s.e.Kind != capture.KindTLS || !s.e.NotKafka || !strings.HasSuffix(s.e.Note, "not decrypted: no key log (on a port that is not Kafka's: --port says it is)") {
			t.Errorf("without a key log: event %d: %v %v %s", s.e.N, s.e.Kind, s.e.NotKafka, s.e.Note)
		}
	}
	// Not Kafka: HTTP/1.1 in TLS, decrypted, has no events.
	cert, err := capturetest.Cert()
	if err != nil {
		t.Fatal(err)
	}
	ln, err := tls.Listen("tcp", "127.0.0.1:0", &tls.Config{Certificates: []tls.Certificate{cert}})
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		c, err := ln.Accept()
		if err != nil {
			return
		}
		defer c.Close()
		buf := make([]byte, 512)
		if _, err := c.Read(buf); err == nil {
			_, _ = c.Write([]byte("HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok"))
		}
	}()
	var kb bytes.Buffer
	d := &capturetest.TLSDialer{Config: &tls.Config{InsecureSkipVerify: true, KeyLogWriter: &kb}, Wire: &capturetest.Recorder{}, Plain: &capturetest.Recorder{}}
	c, err := d.Dial(context.Background(), "tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Write([]byte("GET / HTTP/1.1\r\nHost: kwire\r\n\r\n")); err != nil {
		t.Fatal(err)
	}
	if _, err := io.ReadAll(c); err != nil {
		t.Fatal(err)
	}
	c.Close()
	httpKeys, _ := tlsdec.ParseKeyLog(kb.Bytes())
	events, err = readOpts(t, pcap(t, capturetest.Packets(d.Wire.Chunks, capturetest.Options{BrokerPort: 7777}), ether, false, false), capture.Options{KeyLog: httpKeys})
	if err != nil || len(events) != 0 {
		t.Errorf("HTTP over TLS: %v, %d events", err, len(events))
	}
}

// TestTLSMidRecord: a capture that starts inside a TLS record finds the
// next record, and says the handshake was not captured; the connections
// it holds whole are decrypted.
func TestTLSMidRecord(t *testing.T) {
	wire, _, kl := tlsTraffic(t, &tls.Config{MinVersion: tls.VersionTLS13}, 1)
	keys, _ := tlsdec.ParseKeyLog(kl)
	pkts := capturetest.Packets(wire.Chunks, capturetest.Options{MSS: 500})
	// From the middle of the first connection's largest record on.
	cut := 0
	for i, p := range pkts {
		q := pkts[max(i-1, 0)]
		if i > 10 && p.Conn == q.Conn && p.FromClient == q.FromClient && len(p.Payload) == 500 && len(q.Payload) == 500 {
			cut = i // inside a chunk, a record
			break
		}
	}
	if b := pkts[cut].Payload; b[0] >= 20 && b[0] <= 23 && b[1] == 3 {
		t.Fatalf("packet %d starts with a record header", cut+1)
	}
	events, err := readOpts(t, pcap(t, pkts[cut:], ether, false, false), capture.Options{KeyLog: keys})
	if err != nil {
		t.Fatal(err)
	}
	// The connections that started before the cut and go on after it,
	// and those that start after it.
	var mid, whole int
	started := map[int]bool{}
	seen := map[int]bool{}
	for i, p := range pkts {
		switch {
		case i < cut:
			started[p.Conn] = true
		case !started[p.Conn] && p.Flags == 0x02:
			whole++
		case started[p.Conn] && len(p.Payload) > 0 && !seen[p.Conn]:
			seen[p.Conn] = true
			mid++
		}
	}
	var notCaptured, decrypted, skipped int
	for _, s := range events {
		switch {
		case s.e.Kind == capture.KindTLS && strings.HasPrefix(s.e.TLS.Why, "the handshake was not captured"):
			notCaptured++
		case s.e.Kind == capture.KindTLS && s.e.TLS.Decrypted:
			decrypted++
		case s.e.Kind == capture.KindSkipped:
			skipped++
		case s.e.Kind == capture.KindTLS:
			t.Errorf("event %d: %s", s.e.N, s.e.Note)
		}
	}
	if mid == 0 || notCaptured != mid || decrypted != whole || skipped != 0 {
		t.Errorf("from packet %d: %d connections not captured whole (want %d), %d decrypted (want %d), %d skipped", cut+1, notCaptured, mid, decrypted, whole, skipped)
	}
}
