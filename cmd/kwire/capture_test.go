package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"kwire/capture/capturetest"
	"kwire/codec"
	"kwire/jsonv"
	"kwire/schemas/sets"
)

// encodeFrame encodes a frame of the newest release from JSON ("" for
// the smallest), with a correlation id.
func encodeFrame(t *testing.T, api string, version int16, dir codec.Direction, corr int32, body string) []byte {
	t.Helper()
	set, a := sets.FindAPI(api)
	if set == nil {
		t.Fatalf("no API %s", api)
	}
	f, err := codec.NewFrame(set, a, version, dir)
	if err != nil {
		t.Fatal(err)
	}
	if body != "" {
		if err := f.SetJSON([]byte(body)); err != nil {
			t.Fatal(err)
		}
	}
	b, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	off := 8 // the correlation id: after size, key and version
	if dir == codec.Response {
		off = 4
	}
	binary.BigEndian.PutUint32(b[off:], uint32(corr))
	return b
}

// chunk is one recorded write, at a fixed time.
func chunk(conn int, fromClient bool, ms int, data ...[]byte) capturetest.Chunk {
	return capturetest.Chunk{Conn: conn, FromClient: fromClient, Time: time.Date(2026, 5, 4, 12, 0, 0, ms*1000_000, time.UTC), Data: bytes.Join(data, nil)}
}

// sampleChunks is a small conversation: ApiVersions, and a CreateTopics
// whose response has an error code.
func sampleChunks(t *testing.T) []capturetest.Chunk {
	return []capturetest.Chunk{
		chunk(0, true, 0, encodeFrame(t, "ApiVersions", 3, codec.Request, 1, "")),
		chunk(0, false, 1, encodeFrame(t, "ApiVersions", 3, codec.Response, 1, "")),
		chunk(0, true, 5, encodeFrame(t, "CreateTopics", 7, codec.Request, 2, `{"Topics":[{"Name":"orders","NumPartitions":3,"ReplicationFactor":1}]}`)),
		chunk(0, false, 17, encodeFrame(t, "CreateTopics", 7, codec.Response, 2, `{"Topics":[{"Name":"orders","ErrorCode":36}]}`)),
	}
}

func writeCapture(t *testing.T, path string, pkts []capturetest.Packet) {
	t.Helper()
	var b bytes.Buffer
	if err := capturetest.WritePcap(&b, pkts, 1, false, false, 262144); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, b.Bytes(), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeSample writes sampleChunks as kafka.pcap in dir (for TestREADME too).
func writeSample(t *testing.T, dir string) string {
	path := filepath.Join(dir, "kafka.pcap")
	writeCapture(t, path, capturetest.Packets(sampleChunks(t), capturetest.Options{}))
	return path
}

func TestCaptureTable(t *testing.T) {
	path := writeSample(t, t.TempDir())
	out, errs, code := kwire(t, "", "capture", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 5 {
		t.Fatalf("want a header and 4 lines:\n%s", out)
	}
	for i, want := range []string{"request  ApiVersions", "response ApiVersions", "request  CreateTopics", "response CreateTopics"} {
		if !strings.Contains(lines[i+1], want) || !strings.HasSuffix(lines[i+1], " ok") {
			t.Errorf("line %d: want %q and ok: %s", i+1, want, lines[i+1])
		}
	}
	if !strings.Contains(lines[4], "12.000ms") || !strings.Contains(lines[4], "TOPIC_ALREADY_EXISTS") {
		t.Errorf("want the latency and the error code: %s", lines[4])
	}
	if !strings.Contains(errs, "4 frames, 0 problems") {
		t.Errorf("stderr: %s", errs)
	}
}

// TestCaptureJSON: a JSON object per line, whose body is the JSON of kwire
// decode --format json for the same bytes.
func TestCaptureJSON(t *testing.T) {
	path := writeSample(t, t.TempDir())
	out, errs, code := kwire(t, "", "capture", "--format", "json", "--body", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 4 {
		t.Fatalf("want 4 lines:\n%s", out)
	}
	chunks := sampleChunks(t)
	for i, l := range lines {
		v, err := jsonv.Parse([]byte(l))
		if err != nil {
			t.Fatalf("line %d: %v", i, err)
		}
		m := v.(map[string]any)
		for _, k := range []string{"conn", "dir", "api_key", "api_version", "correlation_id", "time", "size", "status", "body"} {
			if _, ok := m[k]; !ok {
				t.Errorf("line %d has no %s: %s", i, k, l)
			}
		}
		if m["status"] != "ok" {
			t.Errorf("line %d: status %v", i, m["status"])
		}
		args := []string{"decode", "--format", "json", hex.EncodeToString(chunks[i].Data)}
		if m["dir"] == "response" {
			args = append(args, "--response", "--api", m["api_name"].(string), "--version", fmt.Sprint(m["api_version"]))
		}
		want, _, code := kwire(t, "", args...)
		if code != 0 {
			t.Fatalf("kwire %v: exit %d", args, code)
		}
		gb, wb := jsonv.Indent(nil, mustJSON(t, l, "body"), ""), jsonv.Indent(nil, mustJSON(t, want, ""), "")
		if !bytes.Equal(gb, wb) {
			t.Errorf("line %d: body\n%s\nkwire decode --format json:\n%s", i, gb, wb)
		}
	}
}

// mustJSON returns the JSON text of a key of an object (the whole text
// for "").
func mustJSON(t *testing.T, text, key string) []byte {
	t.Helper()
	if key == "" {
		return []byte(strings.TrimSpace(text))
	}
	i := strings.Index(text, `"`+key+`":`)
	if i < 0 {
		t.Fatalf("no %s in %s", key, text)
	}
	return []byte(strings.TrimSuffix(strings.TrimSpace(text[i+len(key)+3:]), "}"))
}

// TestCaptureFrame: --frame N prints what kwire decode prints for the
// frame's bytes.
func TestCaptureFrame(t *testing.T) {
	path := writeSample(t, t.TempDir())
	chunks := sampleChunks(t)
	got, errs, code := kwire(t, "", "capture", "--frame", "3", path)
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	want, _, _ := kwire(t, "", "decode", hex.EncodeToString(chunks[2].Data))
	if got != want {
		t.Errorf("--frame 3:\n%s\nkwire decode:\n%s", got, want)
	}
	got, _, code = kwire(t, "", "capture", "--frame", "4", path)
	want, _, _ = kwire(t, "", "decode", "--response", "--api", "CreateTopics", "--version", "7", hex.EncodeToString(chunks[3].Data))
	if code != 0 || got != want {
		t.Errorf("--frame 4 (exit %d):\n%s\nkwire decode:\n%s", code, got, want)
	}
	if _, errs, code := kwire(t, "", "capture", "--frame", "9", path); code != 1 || !strings.Contains(errs, "no frame 9") {
		t.Errorf("--frame 9: exit %d: %s", code, errs)
	}
}

func TestCaptureUsage(t *testing.T) {
	path := writeSample(t, t.TempDir())
	for _, args := range [][]string{
		{"capture"},
		{"capture", path, path},
		{"capture", "--format", "xml", path},
		{"capture", "--body", path},
		{"capture", "--port", "70000", path},
		{"capture", "--frame", "-1", path},
	} {
		if _, errs, code := kwire(t, "", args...); code != 2 {
			t.Errorf("%v: exit %d, want 2: %s", args, code, errs)
		}
	}
}

// TestCaptureBadInput: damaged files and streams give a clear message,
// exit 1, and the rest is still decoded.
func TestCaptureBadInput(t *testing.T) {
	dir := t.TempDir()
	chunks := sampleChunks(t)
	good := writeSample(t, dir)
	file, _ := os.ReadFile(good)
	write := func(name string, b []byte) string {
		p := filepath.Join(dir, name)
		os.WriteFile(p, b, 0o644)
		return p
	}
	garbage := append([]capturetest.Chunk{chunk(1, true, 0, []byte("GET / HTTP/1.1\r\nHost: x\r\n\r\n"))}, chunks...)
	cut := capturetest.Packets(chunks, capturetest.Options{MSS: 20})
	for i, n := 0, 0; i < len(cut); i++ {
		if len(cut[i].Payload) > 0 && cut[i].FromClient {
			if n++; n == 3 { // the second segment of CreateTopics: 6 bytes of its 18 captured
				cut[i].Data = cut[i].Data[:60]
				break
			}
		}
	}
	cutPath := filepath.Join(dir, "cut.pcap")
	writeCapture(t, cutPath, cut)
	garbagePath := filepath.Join(dir, "garbage.pcap")
	writeCapture(t, garbagePath, capturetest.Packets(garbage, capturetest.Options{}))
	for _, c := range []struct {
		path   string
		errs   string
		frames int // lines that say ok
	}{
		{write("magic.pcap", []byte("not a capture at all")), "not a pcap or pcapng file: magic number", 0},
		{write("empty.pcap", nil), "not a capture file", 0},
		{write("truncated.pcap", file[:len(file)-160]), "the file ends inside this packet (truncated capture)", 3},
		{cutPath, "", 3},
		{garbagePath, "", 4},
		{filepath.Join(dir, "missing.pcap"), "no such file", 0},
	} {
		out, errs, code := kwire(t, "", "capture", c.path)
		if code != 1 || !strings.Contains(errs, c.errs) || strings.Count(out, " ok\n") != c.frames {
			t.Errorf("%s: exit %d, %d frames ok, want 1 and %d; stderr:\n%s\nstdout:\n%s", c.path, code, strings.Count(out, " ok\n"), c.frames, errs, out)
		}
	}
	out, _, _ := kwire(t, "", "capture", cutPath)
	if !strings.Contains(out, "incomplete: packet") || !strings.Contains(out, "captured 60 of") {
		t.Errorf("snaplen cut:\n%s", out)
	}
	out, _, _ = kwire(t, "", "capture", garbagePath)
	if !strings.Contains(out, "skipped 27 bytes") {
		t.Errorf("garbage:\n%s", out)
	}
}

// TestCaptureTLSAndSASL: a TLS connection whose handshake is not one is
// reported as not decrypted (exit 1), and says why; the
// unframed SASL tokens after SaslHandshake v0 are tokens, and the frames
// after them decode.
func TestCaptureTLSAndSASL(t *testing.T) {
	dir := t.TempDir()
	hello := append([]byte{0x16, 0x03, 0x01, 0x00, 0x40}, make([]byte, 0x40)...)
	token := func(s string) []byte { return binary.BigEndian.AppendUint32(nil, uint32(len(s))) }
	chunks := []capturetest.Chunk{
		chunk(0, true, 0, hello),
		chunk(0, false, 1, []byte{0x16, 0x03, 0x03, 0x00, 0x02, 1, 2}),
		chunk(1, true, 2, encodeFrame(t, "SaslHandshake", 0, codec.Request, 1, `{"Mechanism":"PLAIN"}`)),
		chunk(1, false, 3, encodeFrame(t, "SaslHandshake", 0, codec.Response, 1, `{"Mechanisms":["PLAIN"]}`)),
		chunk(1, true, 4, token("\x00alice\x00secret"), []byte("\x00alice\x00secret")),
		chunk(1, false, 5, token("")),
		chunk(1, true, 6, encodeFrame(t, "Metadata", 12, codec.Request, 2, "")),
		chunk(1, false, 7, encodeFrame(t, "Metadata", 12, codec.Response, 2, "")),
	}
	path := filepath.Join(dir, "tls.pcap")
	writeCapture(t, path, capturetest.Packets(chunks, capturetest.Options{}))
	out, errs, code := kwire(t, "", "capture", path)
	if code != 1 {
		t.Fatalf("exit %d: %s\n%s", code, errs, out)
	}
	for _, want := range []string{"(TLS)", "TLS: not decrypted: the handshake was not captured (no ClientHello)", "SaslHandshake", "(SASL token)", "SASL token after SaslHandshake v0 (13 bytes", "response Metadata"} {
		if !strings.Contains(out, want) {
			t.Errorf("no %q in\n%s", want, out)
		}
	}
	if n := strings.Count(out, "(SASL token)"); n != 2 {
		t.Errorf("%d SASL tokens, want 2:\n%s", n, out)
	}
}

// TestCapturePorts: Kafka on a port kwire does not know is detected when
// the capture has the connection's start, and mid-connection from a
// segment that is one whole request (or by --port).
func TestCapturePorts(t *testing.T) {
	dir := t.TempDir()
	chunks := sampleChunks(t)
	path := filepath.Join(dir, "port.pcap")
	writeCapture(t, path, capturetest.Packets(chunks, capturetest.Options{BrokerPort: 7777}))
	if out, errs, code := kwire(t, "", "capture", path); code != 0 || strings.Count(out, " ok\n") != 4 {
		t.Errorf("detection: exit %d:\n%s%s", code, out, errs)
	}
	pkts := capturetest.Packets(chunks, capturetest.Options{BrokerPort: 7777})
	writeCapture(t, path, pkts[3:]) // no handshake
	if out, errs, code := kwire(t, "", "capture", path); code != 0 || strings.Count(out, " ok\n") != 4 {
		t.Errorf("mid-connection on an unknown port: exit %d:\n%s%s", code, out, errs)
	}
	if out, errs, code := kwire(t, "", "capture", "--port", "7777", path); code != 0 || strings.Count(out, " ok\n") != 4 {
		t.Errorf("--port 7777: exit %d:\n%s%s", code, out, errs)
	}
}

// TestCaptureJSONStatus: --format json, with and without --body, says what
// the table says of each frame: a records batch whose CRC does not match
// is an error either way, and error codes are found either way.
func TestCaptureJSONStatus(t *testing.T) {
	dir := t.TempDir()
	produce := encodeFrame(t, "Produce", 9, codec.Request, 3, `{"Acks":-1,"TimeoutMs":1000,"TopicData":[{"Name":"t","PartitionData":[{"Index":0,"Records":[{"records":[{"key":"k","value":"v"}]}]}]}]}`)
	bad := append([]byte(nil), produce...)
	bad[len(bad)-5] ^= 1 // the record's value, v to w: its batch's CRC no longer matches
	chunks := append(sampleChunks(t), chunk(0, true, 20, produce), chunk(0, true, 21, bad))
	path := filepath.Join(dir, "crc.pcap")
	writeCapture(t, path, capturetest.Packets(chunks, capturetest.Options{}))
	table, _, code := kwire(t, "", "capture", path)
	if code != 1 {
		t.Errorf("table: exit %d, want 1", code)
	}
	rows := strings.Split(strings.TrimSpace(table), "\n")[1:]
	for _, args := range [][]string{{"--format", "json"}, {"--format", "json", "--body"}} {
		out, _, code := kwire(t, "", append(append([]string{"capture"}, args...), path)...)
		if code != 1 {
			t.Errorf("%v: exit %d, want 1", args, code)
		}
		lines := strings.Split(strings.TrimSpace(out), "\n")
		if len(lines) != len(rows) {
			t.Fatalf("%v: %d lines, the table %d", args, len(lines), len(rows))
		}
		for i, l := range lines {
			v, err := jsonv.Parse([]byte(l))
			if err != nil {
				t.Fatal(err)
			}
			m := v.(map[string]any)
			status := m["status"].(string)
			if !strings.HasSuffix(rows[i], " "+status) {
				t.Errorf("%v line %d: status %q, the table: %s", args, i, status, rows[i])
			}
			codes, _ := m["error_codes"].([]any)
			if (len(codes) == 1 && codes[0] == "TOPIC_ALREADY_EXISTS") != strings.Contains(rows[i], "TOPIC_ALREADY_EXISTS") {
				t.Errorf("%v line %d: error codes %v, the table: %s", args, i, codes, rows[i])
			}
		}
	}
	if !strings.Contains(rows[len(rows)-1], "CRC") {
		t.Errorf("the last frame's status: %s", rows[len(rows)-1])
	}
}

// TestCaptureProgress: on a terminal, how much of the file is read, then
// the line cleared.
func TestCaptureProgress(t *testing.T) {
	var w bytes.Buffer
	p := &progress{r: strings.NewReader(strings.Repeat("x", 3<<20)), size: 3 << 20, w: &w}
	if _, err := io.Copy(io.Discard, p); err != nil {
		t.Fatal(err)
	}
	p.clear()
	if got := w.String(); !strings.HasPrefix(got, "\rkwire: read 0 of 3 MB (") || !strings.HasSuffix(got, "\r\x1b[K") {
		t.Errorf("progress: %q", got)
	}
	if isTerminal(&w) {
		t.Error("a buffer is no terminal")
	}
}

// TestCaptureRevealSecrets: --frame N masks a SASL PLAIN password as
// kwire decode does, and shows it with --reveal-secrets.
func TestCaptureRevealSecrets(t *testing.T) {
	const pw = "pa55-w0rd-x"
	auth := hex.EncodeToString([]byte("\x00alice\x00" + pw))
	chunks := []capturetest.Chunk{
		chunk(0, true, 0, encodeFrame(t, "SaslHandshake", 1, codec.Request, 1, `{"Mechanism":"PLAIN"}`)),
		chunk(0, false, 1, encodeFrame(t, "SaslHandshake", 1, codec.Response, 1, `{"Mechanisms":["PLAIN"]}`)),
		chunk(0, true, 2, encodeFrame(t, "SaslAuthenticate", 2, codec.Request, 2, `{"AuthBytes":"`+auth+`"}`)),
	}
	path := filepath.Join(t.TempDir(), "sasl.pcap")
	writeCapture(t, path, capturetest.Packets(chunks, capturetest.Options{}))
	out, errs, code := kwire(t, "", "capture", "--frame", "3", path)
	if code != 0 || !strings.Contains(out, "SASL PLAIN") || strings.Contains(out, pw) {
		t.Errorf("masked: exit %d %s\n%s", code, errs, out)
	}
	out, errs, code = kwire(t, "", "capture", "--frame", "3", "--reveal-secrets", path)
	if code != 0 || !strings.Contains(out, `password secret, revealed = "`+pw+`"`) {
		t.Errorf("revealed: exit %d %s\n%s", code, errs, out)
	}
}

// TestCaptureUnpaired: a response whose request the capture lacks is
// identified by the ranking, and marked as such: "?" after its API and
// version in the table, "ranked" in the JSON form.
func TestCaptureUnpaired(t *testing.T) {
	path := filepath.Join(t.TempDir(), "unpaired.pcap")
	chunks := append(sampleChunks(t), chunk(0, false, 30, encodeFrame(t, "JoinGroup", 9, codec.Response, 9,
		`{"ErrorCode":79,"GenerationId":-1,"ProtocolName":null,"MemberId":"kwire-corpus-a126616b046bf0e8fce5c5e41315c1fd"}`)))
	writeCapture(t, path, capturetest.Packets(chunks, capturetest.Options{}))
	out, _, _ := kwire(t, "", "capture", path)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if last := lines[len(lines)-1]; !strings.Contains(last, " JoinGroup? ") || !strings.Contains(last, " 9? ") || !strings.Contains(last, "no request with correlation id 9") ||
		!strings.Contains(last, "ranked as JoinGroup v9") {
		t.Errorf("unpaired response: %s", last)
	}
	out, _, _ = kwire(t, "", "capture", "--format", "json", path)
	lines = strings.Split(strings.TrimSpace(out), "\n")
	var l struct {
		APIName string `json:"api_name"`
		Ranked  bool   `json:"ranked"`
	}
	if err := json.Unmarshal([]byte(lines[len(lines)-1]), &l); err != nil || l.APIName != "JoinGroup" || !l.Ranked {
		t.Errorf("unpaired response as JSON (%v): %s", err, lines[len(lines)-1])
	}
}
