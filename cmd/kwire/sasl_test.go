package main

import (
	"encoding/hex"
	"fmt"
	"strings"
	"testing"
)

// A SASL PLAIN password is masked in kwire decode's tree, kept in its
// JSON form, and the JSON form encodes back to the same frame.
func TestDecodeSASLPlainMasked(t *testing.T) {
	const pw = "hunter2-Secret"
	auth := hex.EncodeToString([]byte("\x00alice\x00" + pw))
	frame, errs, code := kwire(t, fmt.Sprintf(`{"AuthBytes": "%s"}`, auth), "encode", "--api", "SaslAuthenticate", "--version", "2", "--json", "-")
	if code != 0 {
		t.Fatalf("encode: %d %s", code, errs)
	}
	frame = strings.TrimSpace(frame)
	out, errs, code := kwire(t, frame, "decode")
	if code != 0 {
		t.Fatalf("decode: %d %s", code, errs)
	}
	if !strings.Contains(out, `user string = "alice"`) || !strings.Contains(out, "•••••••• (14 bytes, masked)") {
		t.Errorf("tree:\n%s", out)
	}
	if strings.Contains(out, pw) || strings.Contains(out, hex.EncodeToString([]byte(pw))[:6]) || strings.Contains(errs, pw) {
		t.Errorf("the password shows:\n%s%s", out, errs)
	}
	out, _, code = kwire(t, frame, "decode", "--reveal-secrets")
	if code != 0 || !strings.Contains(out, `password secret, revealed = "`+pw+`"`) {
		t.Errorf("--reveal-secrets: %d\n%s", code, out)
	}
	j, errs, code := kwire(t, frame, "decode", "--format", "json")
	if code != 0 || !strings.Contains(j, auth) {
		t.Fatalf("JSON: %d %s\n%s", code, errs, j)
	}
	back, errs, code := kwire(t, j, "encode", "--api", "SaslAuthenticate", "--version", "2", "--json", "-")
	if code != 0 || strings.TrimSpace(back) != frame {
		t.Errorf("JSON round trip: %d %s\n got %s\nwant %s", code, errs, back, frame)
	}
}

// --sasl-mechanism reads the bytes as the mechanism given.
func TestDecodeSASLMechanismFlag(t *testing.T) {
	auth := hex.EncodeToString([]byte("n,,n=user,r=abc"))
	frame, _, _ := kwire(t, fmt.Sprintf(`{"AuthBytes": "%s"}`, auth), "encode", "--api", "SaslAuthenticate", "--version", "2", "--json", "-")
	frame = strings.TrimSpace(frame)
	out, errs, code := kwire(t, frame, "decode", "--sasl-mechanism", "SCRAM-SHA-512")
	if code != 0 || !strings.Contains(out, "SASL SCRAM-SHA-512 = client-first-message") {
		t.Errorf("%d %s\n%s", code, errs, out)
	}
	out, _, code = kwire(t, frame, "decode", "--sasl-mechanism", "PLAIN")
	if code != 0 || !strings.Contains(out, `not decoded: the bytes are no "PLAIN" message`) {
		t.Errorf("%d\n%s", code, out)
	}
}
