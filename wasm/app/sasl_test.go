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
	if text := s.Root.Text(); !strings.Contains(text, "SASL SCRAM-SHA-512 = client-first-message") {
		t.Errorf("request:\n%s", text)
	}
	if err := s.OpenRow(c, 1, true); err != nil {
		t.Fatal(err)
	}
	if text := s.Root.Text(); !strings.Contains(text, "SASL SCRAM-SHA-512 = server-first-message") {
		t.Errorf("response:\n%s", text)
	}
	if err := s.Paste(hex.EncodeToString(frames[2])); err != nil {
		t.Fatal(err)
	}
	if text := s.Root.Text(); !strings.Contains(text, "SASL SCRAM = client-first-message") {
		t.Errorf("pasted:\n%s", text)
	}
}
