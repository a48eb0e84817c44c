package tlsdec

import (
	"bytes"
	"crypto/tls"
	"io"
	"math/big"
	"net"
	"strings"
	"sync"
	"testing"
	"time"
	_ "unsafe" // go:linkname, to choose the TLS 1.3 suite of crypto/tls

	"kwire/capture/capturetest"
)

// crypto/tls has no setting for the TLS 1.3 suite: its preference lists
// (with AES hardware, and without, as in js/wasm) are linknamed for such
// uses (defaults.go), and the tests set them to one.
//
//go:linkname defaultCipherSuitesTLS13 crypto/tls.defaultCipherSuitesTLS13
var defaultCipherSuitesTLS13 []uint16

//go:linkname defaultCipherSuitesTLS13NoAES crypto/tls.defaultCipherSuitesTLS13NoAES
var defaultCipherSuitesTLS13NoAES []uint16

var tls13Mu sync.Mutex

// with13 runs f with suite as crypto/tls's only TLS 1.3 suite.
func with13(suite uint16, f func()) {
	tls13Mu.Lock()
	defer tls13Mu.Unlock()
	old, oldNoAES := defaultCipherSuitesTLS13, defaultCipherSuitesTLS13NoAES
	defer func() { defaultCipherSuitesTLS13, defaultCipherSuitesTLS13NoAES = old, oldNoAES }()
	defaultCipherSuitesTLS13, defaultCipherSuitesTLS13NoAES = []uint16{suite}, []uint16{suite}
	f()
}

// chunk is one write of one side, in the order they happened.
type chunk struct {
	dir  int
	data []byte
}

type recorder struct {
	mu     sync.Mutex
	chunks []chunk
}

type recConn struct {
	net.Conn
	r *recorder
}

func (c *recConn) Write(p []byte) (int, error) {
	c.r.mu.Lock()
	c.r.chunks = append(c.r.chunks, chunk{Client, bytes.Clone(p)})
	c.r.mu.Unlock()
	return c.Conn.Write(p)
}

func (c *recConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	if n > 0 {
		c.r.mu.Lock()
		c.r.chunks = append(c.r.chunks, chunk{Server, bytes.Clone(p[:n])})
		c.r.mu.Unlock()
	}
	return n, err
}

func testCert(t *testing.T) tls.Certificate {
	t.Helper()
	c, err := capturetest.Cert()
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// session runs one TLS connection between crypto/tls's client and
// server over a pipe: the client sends each message, the server answers
// with it in upper case. It returns the recorded bytes and what the
// client's tls.Conn says.
type session struct {
	chunks []chunk
	state  tls.ConnectionState
	sent   [2][]byte
}

func run(t *testing.T, ccfg, scfg *tls.Config, msgs []string) session {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	rec := &recorder{}
	done := make(chan error, 1)
	go func() {
		b, err := ln.Accept()
		if err != nil {
			done <- err
			return
		}
		s := tls.Server(b, scfg)
		defer s.Close()
		_ = s.SetDeadline(time.Now().Add(10 * time.Second))
		buf := make([]byte, 1<<16)
		for {
			n, err := s.Read(buf)
			if err == io.EOF {
				done <- nil
				return
			}
			if err != nil {
				done <- err
				return
			}
			if _, err := s.Write(bytes.ToUpper(buf[:n])); err != nil {
				done <- err
				return
			}
		}
	}()
	a, err := net.Dial("tcp", ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	c := tls.Client(&recConn{a, rec}, ccfg)
	_ = c.SetDeadline(time.Now().Add(10 * time.Second))
	var out session
	buf := make([]byte, 1<<16)
	for _, m := range msgs {
		if _, err := c.Write([]byte(m)); err != nil {
			t.Fatal(err)
		}
		if _, err := io.ReadFull(c, buf[:len(m)]); err != nil {
			t.Fatal(err)
		}
		out.sent[Client] = append(out.sent[Client], m...)
		out.sent[Server] = append(out.sent[Server], strings.ToUpper(m)...)
	}
	out.state = c.ConnectionState()
	c.Close()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	a.Close()
	rec.mu.Lock()
	out.chunks = rec.chunks
	rec.mu.Unlock()
	return out
}

// decrypt feeds a session's bytes to a Conn: the plaintext of each
// direction and the statuses said.
func decrypt(s session, keys *KeyLog, sess *Sessions) (*Conn, [2][]byte, []Status) {
	c := NewConn(keys, sess)
	var got [2][]byte
	var sts []Status
	c.Out = func(dir int, b []byte) { got[dir] = append(got[dir], b...) }
	c.OnStatus = func(s Status) { sts = append(sts, s) }
	for i, ch := range s.chunks {
		c.Data(ch.dir, ch.data, i+1)
	}
	c.Close()
	return c, got, sts
}

func msgs() []string {
	return []string{"hello", strings.Repeat("a larger message across records ", 2000), "bye"}
}

func configs(t *testing.T, kl io.Writer) (*tls.Config, *tls.Config) {
	ccfg := &tls.Config{ServerName: "kwire", InsecureSkipVerify: true, KeyLogWriter: kl}
	scfg := &tls.Config{Certificates: []tls.Certificate{testCert(t)}}
	return ccfg, scfg
}

func TestDecryptGo(t *testing.T) {
	cases := []struct {
		name    string
		version uint16
		suite   uint16
	}{
		{"1.2 aes128", tls.VersionTLS12, tls.TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256},
		{"1.2 aes256", tls.VersionTLS12, tls.TLS_ECDHE_ECDSA_WITH_AES_256_GCM_SHA384},
		{"1.2 chacha", tls.VersionTLS12, tls.TLS_ECDHE_ECDSA_WITH_CHACHA20_POLY1305_SHA256},
		{"1.2 aes128 cbc sha", tls.VersionTLS12, tls.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA},
		{"1.2 aes256 cbc sha", tls.VersionTLS12, tls.TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA},
		{"1.2 aes128 cbc sha256", tls.VersionTLS12, tls.TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA256},
		{"1.3 aes128", tls.VersionTLS13, tls.TLS_AES_128_GCM_SHA256},
		{"1.3 aes256", tls.VersionTLS13, tls.TLS_AES_256_GCM_SHA384},
		{"1.3 chacha", tls.VersionTLS13, tls.TLS_CHACHA20_POLY1305_SHA256},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			var kl bytes.Buffer
			ccfg, scfg := configs(t, &kl)
			ccfg.MinVersion, ccfg.MaxVersion = tc.version, tc.version
			var s session
			if tc.version == tls.VersionTLS13 {
				with13(tc.suite, func() { s = run(t, ccfg, scfg, msgs()) })
			} else {
				ccfg.CipherSuites, scfg.CipherSuites = []uint16{tc.suite}, []uint16{tc.suite}
				s = run(t, ccfg, scfg, msgs())
			}
			if s.state.CipherSuite != tc.suite {
				t.Fatalf("the session's suite is %s, want %s", tls.CipherSuiteName(s.state.CipherSuite), tls.CipherSuiteName(tc.suite))
			}
			keys, err := ParseKeyLog(kl.Bytes())
			if err != nil {
				t.Fatal(err)
			}
			c, got, sts := decrypt(s, keys, nil)
			checkDecrypted(t, s, got, sts, tls.CipherSuiteName(tc.suite))
			if tc.version == tls.VersionTLS12 {
				// The PRF against crypto/tls's exporter (RFC 5705: the PRF
				// of the master secret over both randoms).
				want, err := s.state.ExportKeyingMaterial("EXPERIMENTAL kwire", nil, 32)
				if err != nil {
					t.Fatal(err)
				}
				got := prf12(c.s.hash, c.master, "EXPERIMENTAL kwire", append(c.clientRandom[:], c.serverRandom[:]...), 32)
				if !bytes.Equal(got, want) {
					t.Errorf("PRF: %x, crypto/tls's exporter %x", got, want)
				}
			}
		})
	}
}

func checkDecrypted(t *testing.T, s session, got [2][]byte, sts []Status, suite string) {
	t.Helper()
	if len(sts) != 1 || !sts[0].Decrypted || sts[0].Suite != suite {
		t.Fatalf("statuses %+v, want one, decrypted with %s", sts, suite)
	}
	for d := range got {
		if !bytes.Equal(got[d], s.sent[d]) {
			t.Errorf("%s: decrypted %d bytes, sent %d", dirName[d], len(got[d]), len(s.sent[d]))
		}
	}
}

// TestHelloRetry: the server wants a key share the client did not send.
func TestHelloRetry(t *testing.T) {
	var kl bytes.Buffer
	ccfg, scfg := configs(t, &kl)
	ccfg.CurvePreferences = []tls.CurveID{tls.X25519, tls.CurveP256}
	scfg.CurvePreferences = []tls.CurveID{tls.CurveP256}
	var s session
	with13(tls.TLS_AES_128_GCM_SHA256, func() { s = run(t, ccfg, scfg, msgs()) })
	keys, _ := ParseKeyLog(kl.Bytes())
	c, got, sts := decrypt(s, keys, nil)
	if !c.hrr {
		t.Fatal("no HelloRetryRequest read")
	}
	checkDecrypted(t, s, got, sts, "TLS_AES_128_GCM_SHA256")
}

// TestResumeTicket: TLS 1.2 sessions resumed by ticket, with no key-log
// line for them (crypto/tls writes none), and the server's new tickets.
func TestResumeTicket(t *testing.T) {
	for _, v := range []uint16{tls.VersionTLS12, tls.VersionTLS13} {
		var kl bytes.Buffer
		ccfg, scfg := configs(t, &kl)
		ccfg.MaxVersion = v
		ccfg.ClientSessionCache = tls.NewLRUClientSessionCache(4)
		sess := NewSessions()
		var all []session
		for range 3 {
			all = append(all, run(t, ccfg, scfg, []string{"resume me", "again"}))
		}
		keys, _ := ParseKeyLog(kl.Bytes())
		if v == tls.VersionTLS12 && keys.Len() != 1 {
			t.Fatalf("TLS 1.2: %d key-log lines, want the first session's alone", keys.Len())
		}
		for i, s := range all {
			if !s.state.DidResume != (i == 0) {
				t.Fatalf("session %d: resumed %v", i, s.state.DidResume)
			}
			_, got, sts := decrypt(s, keys, sess)
			checkDecrypted(t, s, got, sts, tls.CipherSuiteName(s.state.CipherSuite))
			want := map[bool]string{true: "ticket", false: "psk"}[v == tls.VersionTLS12]
			if i > 0 && sts[0].Resumed != want {
				t.Errorf("%x session %d: resumed %q, want %q", v, i, sts[0].Resumed, want)
			}
		}
	}
}

// The failures: each says what and where, and the rest goes on.
func TestFailures(t *testing.T) {
	var kl, other bytes.Buffer
	ccfg, scfg := configs(t, &kl)
	s := run(t, ccfg, scfg, msgs())
	keys, _ := ParseKeyLog(kl.Bytes())
	ccfg.KeyLogWriter = &other
	_ = run(t, ccfg, scfg, msgs())
	otherKeys, _ := ParseKeyLog(other.Bytes())

	_, got, sts := decrypt(s, otherKeys, nil)
	if len(sts) != 1 || !strings.HasPrefix(sts[0].Why, "no key for client random ") || got[0] != nil || got[1] != nil {
		t.Errorf("wrong key log: %+v", sts)
	}
	_, _, sts = decrypt(s, nil, nil)
	if len(sts) != 1 || sts[0].Why != "no key log" {
		t.Errorf("no key log: %+v", sts)
	}

	// Mid-connection: the chunks after the handshake.
	mid := s
	mid.chunks = nil
	for _, ch := range s.chunks[len(s.chunks)-6:] {
		if ch.dir == Client {
			mid.chunks = append(mid.chunks, ch)
		}
	}
	_, _, sts = decrypt(mid, keys, nil)
	if len(sts) != 1 || !strings.HasPrefix(sts[0].Why, "the handshake was not captured") {
		t.Errorf("mid-connection: %+v", sts)
	}

	// A server that never answers the ClientHello, as a Kafka listener in
	// the clear does not; and one whose answer the capture lost part of.
	hello := s
	hello.chunks = s.chunks[:1]
	_, _, sts = decrypt(hello, keys, nil)
	if len(sts) != 1 || !strings.HasPrefix(sts[0].Why, "the server sent nothing after the ClientHello: it may not speak TLS") {
		t.Errorf("unanswered ClientHello: %+v", sts)
	}
	cut := s
	cut.chunks = []chunk{s.chunks[0], {dir: Server, data: s.chunks[1].data[:3]}}
	if s.chunks[0].dir != Client || s.chunks[1].dir != Server {
		t.Fatalf("the session starts with chunks of %d and %d", s.chunks[0].dir, s.chunks[1].dir)
	}
	_, _, sts = decrypt(cut, keys, nil)
	if len(sts) != 1 || sts[0].Why != "the handshake was not captured whole (no ServerHello)" {
		t.Errorf("ServerHello cut: %+v", sts)
	}

	// A damaged record: the last chunk of the server (its answer "BYE").
	bad := s
	bad.chunks = append([]chunk(nil), s.chunks...)
	last := len(bad.chunks) - 1
	for bad.chunks[last].dir != Server {
		last--
	}
	bad.chunks[last].data = bytes.Clone(bad.chunks[last].data)
	bad.chunks[last].data[len(bad.chunks[last].data)-1] ^= 1
	_, got, sts = decrypt(bad, keys, nil)
	want := "a record of the server fails its tag at packet " + itoa(last+1)
	if len(sts) != 2 || !sts[0].Decrypted || !strings.HasPrefix(sts[1].Why, want) {
		t.Errorf("damaged: %+v, want %q", sts, want)
	}
	if !bytes.Equal(got[Client], s.sent[Client]) || !bytes.HasPrefix(s.sent[Server], got[Server]) || len(got[Server]) != len(s.sent[Server])-3 {
		t.Errorf("damaged: the client's %d bytes of %d, the server's %d of %d", len(got[Client]), len(s.sent[Client]), len(got[Server]), len(s.sent[Server]))
	}
}

func itoa(i int) string { return big.NewInt(int64(i)).String() }
