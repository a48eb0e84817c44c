// Package tlsdec decrypts the TLS connections of a capture with the
// secrets of an NSS key log (the SSLKEYLOGFILE format: Go's
// tls.Config.KeyLogWriter, OpenSSL's keylog callback, NSS, Node's
// --tls-keylog): TLS 1.3 (RFC 8446) with AES-GCM and ChaCha20-Poly1305,
// KeyUpdate and HelloRetryRequest; TLS 1.2 (RFC 5246) with AES-GCM
// (RFC 5288) and ChaCha20-Poly1305 (RFC 7905), resumption by session id
// and by ticket (RFC 5077) with the master secret of the session resumed.
// A Conn reads the records of both directions of one TCP connection, as
// reassembled, and hands on the application data; its Status says what
// could not be decrypted and why. Secrets are never written anywhere: no
// error or status holds one.
//
// TLS decryption with an NSS key log (KeyLog, by client random; a bad line
// says line:col and never the secret): a Conn takes both directions of one
// connection as TCP reassembles them, reads records across segments and
// handshake messages across records (ClientHello, ServerHello,
// HelloRetryRequest, TLS 1.2 NewSessionTicket, Finished, KeyUpdate), derives
// keys (TLS 1.3: HKDF-Expand-Label from the key log's traffic secrets, RFC
// 8446, checked against RFC 8448; TLS 1.2: the PRF of RFC 5246 from the
// master secret, checked against crypto/tls's exporter), opens AES-GCM and
// ChaCha20-Poly1305 records and TLS 1.2's AES-CBC with HMAC
// (MAC-then-encrypt, or encrypt-then-MAC, RFC 7366), hands on the
// application data and says its Status (version, suite, resumed, decrypted
// or why not) when the handshake is read and at each failure, which stops
// only that direction. Sessions keeps a capture's TLS 1.2 master secrets by
// session id and ticket for the sessions that resume them. Tested with
// crypto/tls on both ends (every suite: TLS 1.3's chosen through
// crypto/tls's linknamed preference list) and with OpenSSL's s_server and
// s_client through a recording relay (KeyUpdate, resumption by session id,
// CBC with and without encrypt-then-MAC, CCM as a suite not supported),
// fuzzed (key log, records). The cryptography is behind one small interface
// (crypto.go): natively the standard library's and x/crypto's
// chacha20poly1305 (crypto_std.go, !js), in the browser internal/tlscrypto
// (crypto_js.go): AES (T-tables computed at the first key), GCM (GHASH by a
// 4-bit table), ChaCha20-Poly1305, SHA-1, SHA-256, SHA-384, HMAC, HKDF,
// written from FIPS 197, SP 800-38D, RFC 8439, FIPS 180-4, RFC 2104 and RFC
// 5869, not constant-time (it decrypts recordings), tested against the
// standard library both ways (random keys, nonces, lengths; seal with one,
// open with the other; damaged tags) and the specs' vectors, fuzzed, and as
// fast under node as the standard library's (AES-GCM about 20 MB/s,
// BenchmarkOpen); TestMain runs all of tlsdec's tests with each, and
// build.sh runs them under node. Go's crypto cost the explorer 67 KB gzip
// more (fips140's AES, GCM, SHA-2, HMAC, and the SHA-3 and DRBG that its
// HMAC and GCM bring): 1,619,788 → 1,552,814 bytes; tlsdec is 16.5 KB of
// code, tlscrypto 12.3 KB.
package tlsdec

import (
	"bytes"

	"kwire/internal/xfmt"
)

// MaxKeyLog is the largest key log read (a line is about 200 bytes: some
// 300,000 connections).
const MaxKeyLog = 64 << 20

// maxLine is the longest line of a key log read as one (a label, a
// 64-digit client random and a 96-digit secret take 190 bytes).
const maxLine = 1024

// A secret's kind: the key log's labels.
type label uint8

const (
	labelMaster    label = iota // CLIENT_RANDOM: the TLS 1.2 master secret
	labelClientHS               // CLIENT_HANDSHAKE_TRAFFIC_SECRET
	labelServerHS               // SERVER_HANDSHAKE_TRAFFIC_SECRET
	labelClientApp              // CLIENT_TRAFFIC_SECRET_0
	labelServerApp              // SERVER_TRAFFIC_SECRET_0
	labelExporter               // EXPORTER_SECRET
	labelEarly                  // CLIENT_EARLY_TRAFFIC_SECRET
	nLabels
)

var labels = map[string]label{
	"CLIENT_RANDOM":                   labelMaster,
	"CLIENT_HANDSHAKE_TRAFFIC_SECRET": labelClientHS,
	"SERVER_HANDSHAKE_TRAFFIC_SECRET": labelServerHS,
	"CLIENT_TRAFFIC_SECRET_0":         labelClientApp,
	"SERVER_TRAFFIC_SECRET_0":         labelServerApp,
	"EXPORTER_SECRET":                 labelExporter,
	"CLIENT_EARLY_TRAFFIC_SECRET":     labelEarly,
}

// secrets are one connection's, by label.
type secrets [nLabels][]byte

// KeyLog holds the secrets of a key log by client random. The zero value
// is not usable: use ParseKeyLog or NewKeyLog.
type KeyLog struct {
	m map[[32]byte]*secrets
}

// NewKeyLog returns an empty key log.
func NewKeyLog() *KeyLog { return &KeyLog{m: map[[32]byte]*secrets{}} }

// Len is the number of client randoms with a secret.
func (k *KeyLog) Len() int {
	if k == nil {
		return 0
	}
	return len(k.m)
}

// LineError is a line of a key log that cannot be read: where (line and
// column, 1-based) and what. It never holds a secret.
type LineError struct {
	Line, Col int
	What      string
}

func (e *LineError) Error() string {
	return xfmt.Sprintf("key log line %d:%d: %s", e.Line, e.Col, e.What)
}

// ParseKeyLog reads an NSS key log: lines of a label, a client random
// and a secret, in hex, separated by a space; '#' starts a comment. Lines
// of labels it does not use (and of the TLS 1.3 secrets after a key
// update, which it derives) are skipped; a line of a label it uses that
// is not well formed is an error.
func ParseKeyLog(b []byte) (*KeyLog, error) {
	k := NewKeyLog()
	return k, k.Add(b)
}

// Add reads the lines of a key log into k (as ParseKeyLog), keeping those
// read before an error.
func (k *KeyLog) Add(b []byte) error {
	if len(b) > MaxKeyLog {
		return &LineError{Line: 1, Col: 1, What: xfmt.Sprintf("%d bytes: a key log is read up to %d", len(b), MaxKeyLog)}
	}
	for n := 1; len(b) > 0; n++ {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		line = bytes.TrimSuffix(line, []byte{'\r'})
		if err := k.line(n, line); err != nil {
			return err
		}
	}
	return nil
}

func (k *KeyLog) line(n int, line []byte) error {
	t := bytes.TrimLeft(line, " \t")
	if len(t) == 0 || t[0] == '#' {
		return nil
	}
	if len(line) > maxLine {
		return &LineError{Line: n, Col: 1, What: xfmt.Sprintf("a line of %d bytes (at most %d)", len(line), maxLine)}
	}
	f := bytes.Fields(line)
	if len(f) == 0 {
		return nil // other white space
	}
	l, ok := labels[string(f[0])]
	if !ok {
		return nil // a label of another use (or CLIENT_TRAFFIC_SECRET_1 ...)
	}
	col := func(i int) int { return bytes.Index(line, f[i]) + 1 }
	if len(f) != 3 {
		return &LineError{Line: n, Col: 1, What: xfmt.Sprintf("%s with %d fields, want 3: label, client random, secret", f[0], len(f))}
	}
	random, ok := unhex(f[1])
	if !ok || len(random) != 32 {
		return &LineError{Line: n, Col: col(1), What: xfmt.Sprintf("the client random is %d characters, want 64 hex digits", len(f[1]))}
	}
	secret, ok := unhex(f[2])
	want := "32 or 48 bytes"
	if l == labelMaster {
		ok, want = ok && len(secret) == 48, "48 bytes"
	} else {
		ok = ok && (len(secret) == 32 || len(secret) == 48)
	}
	if !ok {
		// The secret's length, never its digits.
		return &LineError{Line: n, Col: col(2), What: xfmt.Sprintf("the secret is %d characters, want %s in hex", len(f[2]), want)}
	}
	s := k.m[[32]byte(random)]
	if s == nil {
		s = &secrets{}
		k.m[[32]byte(random)] = s
	}
	s[l] = secret
	return nil
}

// unhex reads hex digits (either case).
func unhex(s []byte) ([]byte, bool) {
	if len(s)%2 != 0 {
		return nil, false
	}
	out := make([]byte, len(s)/2)
	for i := range out {
		hi, ok1 := nibble(s[2*i])
		lo, ok2 := nibble(s[2*i+1])
		if !ok1 || !ok2 {
			return nil, false
		}
		out[i] = hi<<4 | lo
	}
	return out, true
}

func nibble(c byte) (byte, bool) {
	switch {
	case c >= '0' && c <= '9':
		return c - '0', true
	case c >= 'a' && c <= 'f':
		return c - 'a' + 10, true
	case c >= 'A' && c <= 'F':
		return c - 'A' + 10, true
	}
	return 0, false
}

func (k *KeyLog) get(random [32]byte) *secrets {
	if k == nil {
		return nil
	}
	return k.m[random]
}
