package tlsrec

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"math/big"
	"net"
	"strconv"
	"sync"
	"testing"
	"time"
)

func TestSniff(t *testing.T) {
	for _, c := range []struct {
		hex  string
		want string // "" for not a record
	}{
		{"15030300020228", "a TLS 1.2 alert record: fatal handshake_failure (40)"},
		{"1503010002010a", "a TLS 1.0 alert record: warning unexpected_message (10)"},
		{"150303001a00000000000000", "a TLS 1.2 alert record, encrypted"},
		{"16030100f4010000f003", "a TLS 1.0 handshake record: ClientHello"},
		{"1603030055020000", "a TLS 1.2 handshake record: ServerHello"},
		{"17030300", "a TLS 1.2 application_data record"},
		{"140303000101", "a TLS 1.2 change_cipher_spec record"},
		{"150300000202ff", "a SSL 3.0 alert record: fatal alert 255 (255)"},
		{"00000010", ""},       // a Kafka frame of 16 bytes
		{"150303", ""},         // too short to tell
		{"15030500020228", ""}, // no such version
		{"19030300020228", ""}, // no such content type
		{"1503034801", ""},     // longer than a record may be
		{"16034900", ""},       // the same, told by four bytes
		{"0303000202", ""},     // a size, not a record
	} {
		b := decodeHex(t, c.hex)
		r, ok := Sniff(b)
		got := ""
		if ok {
			got = r.String()
		}
		if got != c.want {
			t.Errorf("Sniff(%s) = %q, want %q", c.hex, got, c.want)
		}
	}
}

func decodeHex(t *testing.T, s string) []byte {
	t.Helper()
	if len(s)%2 == 1 {
		s = s[:len(s)-1]
	}
	b := make([]byte, len(s)/2)
	for i := range b {
		v, err := strconv.ParseUint(s[2*i:2*i+2], 16, 8)
		if err != nil {
			t.Fatal(err)
		}
		b[i] = byte(v)
	}
	return b
}

// TestAlertNames holds the names to the alerts crypto/tls knows, both ways:
// each it names has a name here, and each named here it names, but for
// SSL 3.0's no_certificate, which Go never sent.
func TestAlertNames(t *testing.T) {
	for d := 0; d < 256; d++ {
		goNames := tls.AlertError(d).Error() != "tls: alert("+strconv.Itoa(d)+")"
		_, named := alertNames[uint8(d)]
		if goNames != named && d != 41 {
			t.Errorf("alert %d: crypto/tls names it %v (%q), here %v", d, goNames, tls.AlertError(d).Error(), named)
		}
	}
}

// TestRealAlert reads what Go's TLS stack sends: a client that wants TLS
// 1.2 at most meets a server of TLS 1.3 only, which refuses it with an
// alert in the clear, and the client's first record is its ClientHello.
func TestRealAlert(t *testing.T) {
	cert := selfSigned(t)
	c, s := net.Pipe()
	var fromClient, fromServer bytes.Buffer
	cs := &tap{Conn: c, read: &fromServer}
	ss := &tap{Conn: s, read: &fromClient}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		srv := tls.Server(ss, &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS13})
		srv.SetDeadline(time.Now().Add(10 * time.Second))
		srv.Handshake() // fails: the client offers 1.2 at most
		s.Close()
	}()
	cl := tls.Client(cs, &tls.Config{InsecureSkipVerify: true, MaxVersion: tls.VersionTLS12})
	cl.SetDeadline(time.Now().Add(10 * time.Second))
	if err := cl.Handshake(); err == nil {
		t.Fatal("the handshake worked")
	}
	c.Close()
	wg.Wait()
	if r, ok := Sniff(fromServer.Bytes()); !ok || r.String() != "a TLS 1.0 alert record: fatal protocol_version (70)" && r.String() != "a TLS 1.2 alert record: fatal protocol_version (70)" {
		t.Errorf("the server's alert % x reads as %v, %v", fromServer.Bytes(), r, ok)
	}
	if r, ok := Sniff(fromClient.Bytes()); !ok || !r.HasHandshake || r.HandshakeType != 1 {
		t.Errorf("the client's first record % x reads as %v, %v", fromClient.Bytes()[:min(16, fromClient.Len())], r, ok)
	}
}

// selfSigned is a server's certificate, made for the test.
func selfSigned(t *testing.T) tls.Certificate {
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	tmpl := &x509.Certificate{SerialNumber: big.NewInt(1), DNSNames: []string{"kwire"}, NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour)}
	der, err := x509.CreateCertificate(rand.Reader, tmpl, tmpl, &key.PublicKey, key)
	if err != nil {
		t.Fatal(err)
	}
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}
}

// tap records what is read from a connection.
type tap struct {
	net.Conn
	read *bytes.Buffer
}

func (t *tap) Read(b []byte) (int, error) {
	n, err := t.Conn.Read(b)
	t.read.Write(b[:n])
	return n, err
}

func FuzzSniff(f *testing.F) {
	f.Add([]byte{0x15, 3, 3, 0, 2, 2, 40})
	f.Add([]byte{0x16, 3, 1, 0, 0xf4, 1})
	f.Add([]byte{0, 0, 0, 16})
	f.Fuzz(func(t *testing.T, b []byte) {
		r, ok := Sniff(b)
		if !ok {
			return
		}
		if len(b) < 4 || r.Type < ChangeCipherSpec || r.Type > Heartbeat || r.Length > MaxLength {
			t.Fatalf("Sniff(% x) = %+v", b, r)
		}
		if s := r.String(); s == "" {
			t.Fatal("no text")
		}
	})
}
