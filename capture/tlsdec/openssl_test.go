package tlsdec

import (
	"bufio"
	"bytes"
	"context"
	"crypto/x509"
	"encoding/pem"
	"io"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"kwire/capture/capturetest"
)

// opensslPeer runs OpenSSL's s_server (-rev: each line back reversed)
// and s_client through a relay that records the bytes, for the cases
// crypto/tls cannot make: a KeyUpdate ('K' on s_client's stdin: both
// sides update) and TLS 1.2 resumption by session id.
type opensslPeer struct {
	t      *testing.T
	dir    string
	port   string
	server *exec.Cmd
	relay  net.Listener
}

func startOpenSSL(t *testing.T, serverArgs ...string) *opensslPeer {
	t.Helper()
	if _, err := exec.LookPath("openssl"); err != nil {
		t.Fatal("these tests run OpenSSL's s_server and s_client: apt-get install -y openssl")
	}
	dir := t.TempDir()
	cert, err := capturetest.Cert()
	if err != nil {
		t.Fatal(err)
	}
	key, err := x509.MarshalPKCS8PrivateKey(cert.PrivateKey)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "cert.pem"), pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: cert.Certificate[0]}), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "key.pem"), pem.EncodeToMemory(&pem.Block{Type: "PRIVATE KEY", Bytes: key}), 0o600); err != nil {
		t.Fatal(err)
	}
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	port := l.Addr().(*net.TCPAddr).Port
	l.Close()
	p := &opensslPeer{t: t, dir: dir, port: itoa(port)}
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	t.Cleanup(cancel)
	args := append([]string{"s_server", "-accept", "127.0.0.1:" + p.port, "-cert", filepath.Join(dir, "cert.pem"), "-key", filepath.Join(dir, "key.pem"), "-rev"}, serverArgs...)
	p.server = exec.CommandContext(ctx, "openssl", args...)
	out, _ := p.server.StdoutPipe()
	if err := p.server.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = p.server.Process.Kill(); _ = p.server.Wait() })
	br := bufio.NewReader(out)
	for {
		line, err := br.ReadString('\n')
		if err != nil {
			t.Fatalf("s_server did not start: %v", err)
		}
		if strings.HasPrefix(line, "ACCEPT") {
			break
		}
	}
	go func() { _, _ = io.Copy(io.Discard, br) }()
	if p.relay, err = net.Listen("tcp", "127.0.0.1:0"); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.relay.Close() })
	return p
}

// client runs s_client once through the relay, writing lines to its
// stdin one by one, and returns what went over the wire.
func (p *opensslPeer) client(lines []string, args ...string) []chunk {
	p.t.Helper()
	rec := &recorder{}
	var wg sync.WaitGroup
	wg.Add(1)
	go func() {
		defer wg.Done()
		c, err := p.relay.Accept()
		if err != nil {
			return
		}
		s, err := net.Dial("tcp", "127.0.0.1:"+p.port)
		if err != nil {
			c.Close()
			return
		}
		var inner sync.WaitGroup
		pipe := func(dst, src net.Conn, dir int) {
			defer inner.Done()
			buf := make([]byte, 1<<16)
			for {
				n, err := src.Read(buf)
				if n > 0 {
					rec.mu.Lock()
					rec.chunks = append(rec.chunks, chunk{dir, bytes.Clone(buf[:n])})
					rec.mu.Unlock()
					if _, err := dst.Write(buf[:n]); err != nil {
						break
					}
				}
				if err != nil {
					break
				}
			}
			dst.(*net.TCPConn).CloseWrite()
		}
		inner.Add(2)
		go pipe(s, c, Client)
		go pipe(c, s, Server)
		inner.Wait()
		c.Close()
		s.Close()
	}()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	cmd := exec.CommandContext(ctx, "openssl", append([]string{"s_client", "-connect", p.relay.Addr().String(), "-servername", "kwire"}, args...)...)
	in, _ := cmd.StdinPipe()
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		p.t.Fatal(err)
	}
	time.Sleep(300 * time.Millisecond)
	for _, l := range lines {
		_, _ = io.WriteString(in, l+"\n")
		time.Sleep(200 * time.Millisecond)
	}
	in.Close()
	if err := cmd.Wait(); err != nil {
		p.t.Fatalf("s_client: %v\n%s", err, out.Bytes())
	}
	wg.Wait()
	rec.mu.Lock()
	defer rec.mu.Unlock()
	return rec.chunks
}

func readKeyLog(t *testing.T, path string) *KeyLog {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	keys, err := ParseKeyLog(b)
	if err != nil {
		t.Fatal(err)
	}
	return keys
}

// TestOpenSSLKeyUpdate: after 'K', both directions use their next
// traffic secrets (RFC 8446 7.2), which the key log does not hold.
func TestOpenSSLKeyUpdate(t *testing.T) {
	p := startOpenSSL(t, "-naccept", "1", "-tls1_3")
	kl := filepath.Join(p.dir, "keylog")
	chunks := p.client([]string{"before the update", "K", "after the update"}, "-tls1_3", "-keylogfile", kl)
	keys := readKeyLog(t, kl)
	c, got, sts := decrypt(session{chunks: chunks}, keys, nil)
	if len(sts) != 1 || !sts[0].Decrypted {
		t.Fatalf("statuses %+v", sts)
	}
	if string(got[Client]) != "before the update\nafter the update\n" || string(got[Server]) != "etadpu eht erofeb\netadpu eht retfa\n" {
		t.Errorf("client %q, server %q", got[Client], got[Server])
	}
	if bytes.Equal(c.d[Client].secret, keys.get(c.clientRandom)[labelClientApp]) || bytes.Equal(c.d[Server].secret, keys.get(c.clientRandom)[labelServerApp]) {
		t.Error("no key update read")
	}
}

// TestOpenSSLSessionID: TLS 1.2 sessions resumed by session id (no
// tickets), decrypted with the first session's master secret when the
// key log lacks the resumed ones' lines (as Go writes none).
func TestOpenSSLSessionID(t *testing.T) {
	p := startOpenSSL(t, "-naccept", "2", "-tls1_2", "-no_ticket")
	kl, sess := filepath.Join(p.dir, "keylog"), filepath.Join(p.dir, "session")
	first := p.client([]string{"first"}, "-tls1_2", "-keylogfile", kl, "-sess_out", sess)
	keys := readKeyLog(t, kl) // the first session's line alone
	second := p.client([]string{"second"}, "-tls1_2", "-sess_in", sess)
	ss := NewSessions()
	for i, chunks := range [][]chunk{first, second} {
		_, got, sts := decrypt(session{chunks: chunks}, keys, ss)
		want := map[int]string{0: "", 1: "session id"}[i]
		if len(sts) != 1 || !sts[0].Decrypted || sts[0].Resumed != want {
			t.Fatalf("session %d: statuses %+v, want resumed by %q", i, sts, want)
		}
		line := []string{"first", "second"}[i]
		if string(got[Client]) != line+"\n" || len(got[Server]) == 0 {
			t.Errorf("session %d: client %q, server %q", i, got[Client], got[Server])
		}
	}
}

// TestOpenSSLSuites: CBC suites with and without encrypt-then-MAC
// (OpenSSL asks for it by default), and a suite that is not decrypted.
func TestOpenSSLSuites(t *testing.T) {
	cases := []struct {
		name   string
		client []string
		suite  string
		why    string
	}{
		{"cbc etm", []string{"-tls1_2", "-cipher", "ECDHE-ECDSA-AES256-SHA384"}, "TLS_ECDHE_ECDSA_WITH_AES_256_CBC_SHA384", ""},
		{"cbc mte", []string{"-tls1_2", "-cipher", "ECDHE-ECDSA-AES128-SHA", "-no_etm"}, "TLS_ECDHE_ECDSA_WITH_AES_128_CBC_SHA", ""},
		{"ccm", []string{"-tls1_3", "-ciphersuites", "TLS_AES_128_CCM_SHA256"}, "TLS_AES_128_CCM_SHA256", "the cipher suite TLS_AES_128_CCM_SHA256 is not supported"},
	}
	p := startOpenSSL(t, "-naccept", itoa(len(cases)), "-cipher", "ALL", "-ciphersuites", "TLS_AES_128_GCM_SHA256:TLS_AES_128_CCM_SHA256")
	for _, tc := range cases {
		kl := filepath.Join(p.dir, tc.name)
		chunks := p.client([]string{"a line of " + tc.name}, append(tc.client, "-keylogfile", kl)...)
		keys := readKeyLog(t, kl)
		c, got, sts := decrypt(session{chunks: chunks}, keys, nil)
		if len(sts) != 1 || sts[0].Suite != tc.suite || sts[0].Why != tc.why || sts[0].Decrypted != (tc.why == "") {
			t.Fatalf("%s: statuses %+v, want %s, %q", tc.name, sts, tc.suite, tc.why)
		}
		if tc.why == "" && (string(got[Client]) != "a line of "+tc.name+"\n" || len(got[Server]) == 0 || c.etm != (tc.name == "cbc etm")) {
			t.Errorf("%s: client %q, server %q, encrypt-then-MAC %v", tc.name, got[Client], got[Server], c.etm)
		}
	}
}
