package main

import (
	"bytes"
	"crypto/tls"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"kwire/capture/capturetest"
	"kwire/codec/wire/wiretest"
)

// TestCaptureKeyLog: kwire capture decrypts kgo's TLS connections to
// kfake with --keylog or $SSLKEYLOGFILE, says why not without the key,
// and takes a bad key log as a bad flag without printing its secrets.
func TestCaptureKeyLog(t *testing.T) {
	dir := t.TempDir()
	wire, plain, kl, err := capturetest.TLSTraffic(&tls.Config{MaxVersion: tls.VersionTLS12, ClientSessionCache: tls.NewLRUClientSessionCache(4)}, 2)
	if err != nil {
		t.Fatal(err)
	}
	path, keylog := filepath.Join(dir, "tls.pcap"), filepath.Join(dir, "keylog")
	writeCapture(t, path, capturetest.Packets(wire.Chunks, capturetest.Options{}))
	if err := os.WriteFile(keylog, kl, 0o600); err != nil {
		t.Fatal(err)
	}
	frames := 0
	client, broker := plain.Streams()
	for i := range client {
		frames += len(wiretest.Frames(client[i])) + len(wiretest.Frames(broker[i]))
	}

	out, errs, code := kwire(t, "", "capture", "--keylog", keylog, path)
	if code != 0 || strings.Count(out, " ok\n") != frames || strings.Count(out, ": decrypted\n") != wire.Conns() ||
		!strings.Contains(out, "(resumed by ticket): decrypted") {
		t.Fatalf("--keylog: exit %d, %d frames ok of %d, %d connections:\n%s\n%s", code, strings.Count(out, " ok\n"), frames, wire.Conns(), out, errs)
	}
	out, _, code = kwire(t, "", "capture", "--keylog", keylog, "--format", "json", path)
	if code != 0 || !strings.Contains(out, `"tls":{"version":"TLS 1.2","suite":"TLS_ECDHE_ECDSA_WITH_AES_128_GCM_SHA256","resumed":"ticket","decrypted":true}`) {
		t.Errorf("json: exit %d:\n%.2000s", code, out)
	}
	t.Setenv("SSLKEYLOGFILE", keylog)
	if out, errs, code := kwire(t, "", "capture", path); code != 0 || strings.Count(out, " ok\n") != frames {
		t.Errorf("SSLKEYLOGFILE: exit %d\n%s\n%s", code, out, errs)
	}
	t.Setenv("SSLKEYLOGFILE", filepath.Join(dir, "none"))
	out, errs, code = kwire(t, "", "capture", path)
	if code != 1 || !strings.Contains(errs, "SSLKEYLOGFILE: open ") || !strings.Contains(out, "not decrypted: no key log") {
		t.Errorf("SSLKEYLOGFILE missing: exit %d\n%s\n%s", code, out, errs)
	}
	other := filepath.Join(dir, "other")
	if err := os.WriteFile(other, []byte("CLIENT_RANDOM "+strings.Repeat("00", 32)+" "+strings.Repeat("11", 48)+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	out, _, code = kwire(t, "", "capture", "--keylog", other, path)
	if code != 1 || strings.Count(out, "not decrypted: no key for client random ") != wire.Conns() {
		t.Errorf("the wrong key log: exit %d\n%s", code, out)
	}
	// A damaged line: a usage error that says where, not what the secret is.
	bad := bytes.Replace(kl, []byte("\n"), []byte("zz\n"), 1)
	if err := os.WriteFile(other, bad, 0o600); err != nil {
		t.Fatal(err)
	}
	secret := string(bytes.Fields(kl)[2])
	_, errs, code = kwire(t, "", "capture", "--keylog", other, path)
	if code != 2 || !strings.Contains(errs, "key log line 1:80: the secret is 98 characters, want 48 bytes in hex") || strings.Contains(errs, secret[:16]) {
		t.Errorf("a damaged key log: exit %d: %s", code, errs)
	}
	if _, errs, code := kwire(t, "", "capture", "--keylog", filepath.Join(dir, "none"), path); code != 2 || !strings.Contains(errs, "--keylog: open ") {
		t.Errorf("no such key log: exit %d: %s", code, errs)
	}
}
