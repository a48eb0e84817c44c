package app

import (
	"bytes"
	"encoding/hex"
	"strings"
	"testing"
	"time"

	"kwire/capture/capturetest"
	"kwire/codec"
)

// A capture row of SaslAuthenticate opens with the mechanism its
// connection's SaslHandshake named; pasted bytes are read by the
// mechanism they show.
func TestCaptureSASLMechanism(t *testing.T) {
	at := time.Unix(1700000000, 0)
	first := hex.EncodeToString([]byte("n,,n=user,r=abc"))
	serverFirst := hex.EncodeToString([]byte("r=abcdef,s=QSXCR+Q6sek8bf92,i=4096"))
	frames := [][]byte{
		frameOf(t, "SaslHandshake", 1, codec.Request, map[string]string{"h:CorrelationId": "1", "b:Mechanism": "SCRAM-SHA-512"}),
		frameOf(t, "SaslHandshake", 1, codec.Response, map[string]string{"h:CorrelationId": "1"}),
		frameOf(t, "SaslAuthenticate", 2, codec.Request, map[string]string{"h:CorrelationId": "2", "b:AuthBytes": first}),
		frameOf(t, "SaslAuthenticate", 2, codec.Response, map[string]string{"h:CorrelationId": "2", "b:AuthBytes": serverFirst}),
	}
	var chunks []capturetest.Chunk
	for i, f := range frames {
		chunks = append(chunks, capturetest.Chunk{Conn: 0, FromClient: i%2 == 0, Time: at.Add(time.Duration(i) * time.Millisecond), Data: f})
	}
	var b bytes.Buffer
	if err := capturetest.WritePcap(&b, capturetest.Packets(chunks, capturetest.Options{}), 1, false, false, 65535); err != nil {
		t.Fatal(err)
	}
	c := readCapture(t, b.Bytes())
	s := newState(t)
	if err := s.OpenRow(c, 1, false); err != nil {
		t.Fatal(err)
	}
	if text := s.TreeText(); !strings.Contains(text, "SASL SCRAM-SHA-512 = client-first-message") {
		t.Errorf("request:\n%s", text)
	}
	if err := s.OpenRow(c, 1, true); err != nil {
		t.Fatal(err)
	}
	if text := s.TreeText(); !strings.Contains(text, "SASL SCRAM-SHA-512 = server-first-message") {
		t.Errorf("response:\n%s", text)
	}
	if err := s.Paste(hex.EncodeToString(frames[2])); err != nil {
		t.Fatal(err)
	}
	if text := s.TreeText(); !strings.Contains(text, "SASL SCRAM = client-first-message") {
		t.Errorf("pasted:\n%s", text)
	}
}

// A PLAIN password is masked in the tree and the byte view until the user
// reveals it, and masked again after; the JSON form keeps it throughout.
func TestRevealSecrets(t *testing.T) {
	const pw = "hunter2-hunter2"
	auth := hex.EncodeToString([]byte("\x00alice\x00" + pw))
	frame := frameOf(t, "SaslAuthenticate", 2, codec.Request, map[string]string{"h:CorrelationId": "3", "b:AuthBytes": auth})
	s := newState(t)
	if err := s.Paste(hex.EncodeToString(frame)); err != nil {
		t.Fatal(err)
	}
	shows := func() (inTree, inBytes bool) {
		return strings.Contains(s.TreeText(), pw), strings.Contains(s.HexRows(0, s.Rows()), ">h<")
	}
	json := s.JSON()
	if !s.Secrets() || s.Revealed() || !strings.Contains(json, auth) {
		t.Fatalf("secrets %v, revealed %v, JSON:\n%s", s.Secrets(), s.Revealed(), json)
	}
	if tr, by := shows(); tr || by {
		t.Fatalf("masked: the password shows in the tree (%v) or the bytes (%v)", tr, by)
	}
	s.Reveal(true)
	if tr, by := shows(); !tr || !by || !s.Secrets() {
		t.Fatalf("revealed: the password is missing from the tree (%v) or the bytes (%v)\n%s", !tr, !by, s.TreeText())
	}
	if s.JSON() != json || s.Err != nil {
		t.Errorf("revealing changed the JSON form or failed: %v", s.Err)
	}
	s.Reveal(false)
	if tr, by := shows(); tr || by {
		t.Errorf("masked again: the password shows in the tree (%v) or the bytes (%v)", tr, by)
	}
	// A message without secrets offers nothing to reveal.
	if err := s.Paste(hex.EncodeToString(frameOf(t, "SaslHandshake", 1, codec.Request, map[string]string{"h:CorrelationId": "1", "b:Mechanism": "PLAIN"}))); err != nil {
		t.Fatal(err)
	}
	if s.Secrets() {
		t.Errorf("SaslHandshake has secrets")
	}
}
