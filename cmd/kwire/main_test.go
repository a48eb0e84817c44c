package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// kwire runs the command line in-process.
func kwire(t *testing.T, stdin string, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errb bytes.Buffer
	code = run(args, strings.NewReader(stdin), &out, &errb)
	return out.String(), errb.String(), code
}

const joinGroupV9 = "0000001d000b000900000000000000010000000000000000010101020101000100"

func TestEncodeSmallest(t *testing.T) {
	out, errs, code := kwire(t, "", "encode", "--api", "JoinGroup", "--version", "9")
	if code != 0 || strings.TrimSpace(out) != joinGroupV9 {
		t.Fatalf("encode: %q %q %d", out, errs, code)
	}
	out, _, _ = kwire(t, "", "encode", "--api", "11", "--version", "9", "--body")
	if strings.TrimSpace(out) != joinGroupV9[30:] {
		t.Errorf("--body: %q", out)
	}
}

func TestDecodeRequestNeedsNoFlags(t *testing.T) {
	out, errs, code := kwire(t, joinGroupV9, "decode")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"JoinGroupRequest message v9 [0x0000, 33B]",
		"+-- request_api_key int16 = 11 (JoinGroup) [0x0004, 2B]",
		`+-- GroupId string = "" (compact, len+1=1) [0x000f, 1B] The group identifier.`,
	} {
		if !strings.Contains(out, want) {
			t.Errorf("tree lacks %q:\n%s", want, out)
		}
	}
}

func TestDecodeShapes(t *testing.T) {
	xxd := "00000000: 0000 001d 000b 0009 0000 0000 0000 0001  ................\n" +
		"00000010: 0000 0000 0000 0000 0101 0102 0101 0001  ................\n" +
		"00000020: 00                                       .\n"
	for name, in := range map[string][]string{
		"arg":    {joinGroupV9},
		"spaced": strings.Fields("00 00 00 1d 00 0b 00 09 00 00 00 00 00 00 00 01 00 00 00 00 00 00 00 00 01 01 01 02 01 01 00 01 00"),
	} {
		_, errs, code := kwire(t, "", append([]string{"decode", "--format", "json"}, in...)...)
		if code != 0 {
			t.Errorf("%s: exit %d: %s", name, code, errs)
		}
	}
	if _, errs, code := kwire(t, xxd, "decode", "-"); code != 0 {
		t.Errorf("xxd on stdin: exit %d: %s", code, errs)
	}
	bin := filepath.Join(t.TempDir(), "frame.bin")
	raw := make([]byte, len(joinGroupV9)/2)
	for i := range raw {
		var b byte
		for _, c := range joinGroupV9[2*i : 2*i+2] {
			b = b<<4 | byte(strings.IndexRune("0123456789abcdef", c))
		}
		raw[i] = b
	}
	os.WriteFile(bin, raw, 0o644)
	if _, errs, code := kwire(t, "", "decode", "--file", bin); code != 0 {
		t.Errorf("--file: exit %d: %s", code, errs)
	}
}

func TestDecodeJSON(t *testing.T) {
	out, errs, code := kwire(t, joinGroupV9, "decode", "--format", "json")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	var v struct {
		APIKey    int             `json:"api_key"`
		APIName   string          `json:"api_name"`
		Version   int             `json:"version"`
		Direction string          `json:"direction"`
		Header    map[string]any  `json:"header"`
		Body      json.RawMessage `json:"body"`
		Size      int             `json:"size"`
	}
	if err := json.Unmarshal([]byte(out), &v); err != nil {
		t.Fatalf("%v\n%s", err, out)
	}
	if v.APIKey != 11 || v.APIName != "JoinGroup" || v.Version != 9 || v.Direction != "request" || v.Size != 33 || v.Header["ClientId"] != "" {
		t.Errorf("json: %+v", v)
	}
	// The JSON goes back in and encodes the same bytes.
	file := filepath.Join(t.TempDir(), "v.json")
	os.WriteFile(file, []byte(out), 0o644)
	enc, errs, code := kwire(t, "", "encode", "--api", "JoinGroup", "--version", "9", "--json", file)
	if code != 0 || strings.TrimSpace(enc) != joinGroupV9 {
		t.Errorf("re-encode: %q %s", enc, errs)
	}
}

func TestEncodeJSONEdits(t *testing.T) {
	out, errs, code := kwire(t, `{"GroupId": "g", "SessionTimeoutMs": 30000, "Protocols": []}`, "encode", "--api", "JoinGroup", "--version", "9", "--json", "-", "--body")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	// GroupId "g" is 02 67; 30000 is 00007530; RebalanceTimeoutMs keeps
	// its schema default -1 since the JSON leaves it out.
	if !strings.HasPrefix(strings.TrimSpace(out), "02670000753"+"0ffffffff") {
		t.Errorf("body %s", out)
	}
	_, errs, code = kwire(t, `{"GroupId": 5}`, "encode", "--api", "JoinGroup", "--version", "9", "--json", "-")
	if code != 1 || !strings.Contains(errs, "kwire: <stdin>:1:13: GroupId: want a string, got a number") {
		t.Errorf("bad JSON: %d %q", code, errs)
	}
	file := filepath.Join(t.TempDir(), "bad.json")
	os.WriteFile(file, []byte("{\n  \"Protocols\": [{\"Name\": \"range\", \"Metadata\": \"\", \"Bogus\": 1}]\n}"), 0o644)
	_, errs, code = kwire(t, "", "encode", "--api", "JoinGroup", "--version", "9", "--json", file)
	if want := file + `:2:51: Protocols[0].Bogus: JoinGroupRequestProtocol has no field "Bogus" (fields: Name, Metadata)`; code != 1 || !strings.Contains(errs, want) {
		t.Errorf("unknown key: %d %q, want %q", code, errs, want)
	}
	_, errs, code = kwire(t, `{"SessionTimeoutMs": 1e99}`, "encode", "--api", "JoinGroup", "--json", "-")
	if code != 1 || !strings.Contains(errs, "SessionTimeoutMs") {
		t.Errorf("out of range: %d %q", code, errs)
	}
	// A non-default value in a field the version lacks, not ignorable,
	// is refused as Kafka refuses it; an ignorable one is dropped.
	if _, errs, code := kwire(t, `{"Reason": "why"}`, "encode", "--api", "JoinGroup", "--version", "7", "--json", "-"); code != 0 {
		t.Errorf("ignorable: %d %q", code, errs)
	}
	_, errs, code = kwire(t, `{"GroupInstanceId": "static-1"}`, "encode", "--api", "JoinGroup", "--version", "4", "--json", "-", "--set", "3.9")
	if code != 1 || !strings.Contains(errs, "encode GroupInstanceId: bad value: a non-default value cannot be written at this version") {
		t.Errorf("absent field: %d %q", code, errs)
	}
}

func TestDecodeErrors(t *testing.T) {
	// Truncated: the tree up to the failure, the offset, status 1.
	out, errs, code := kwire(t, joinGroupV9[:50], "decode")
	if code != 1 || !strings.Contains(out, "+-- GroupId string") || !strings.Contains(errs, "offset") {
		t.Errorf("truncated: %d\n%s\n%s", code, out, errs)
	}
	// Trailing bytes are reported, not ignored.
	_, errs, code = kwire(t, joinGroupV9+"ff", "decode")
	if code != 1 || !strings.Contains(errs, "offset 33 (0x0021)") || !strings.Contains(errs, "trailing") {
		t.Errorf("trailing: %d %q", code, errs)
	}
	// A response that no API decodes is read as the closest candidate.
	_, errs, code = kwire(t, "00000005ffffffff", "decode", "--response")
	if code != 1 || !strings.Contains(errs, "nothing decodes every byte") {
		t.Errorf("response: %d %q", code, errs)
	}
	// A string length past the end.
	bad := "00000011" + "000b0009000000000000" + "00" + "7f"
	out, errs, code = kwire(t, bad, "decode")
	if code != 1 || !strings.Contains(errs, "offset 15 (0x000f): GroupId") || !strings.Contains(out, "ERROR") {
		t.Errorf("bad length: %d\n%s\n%s", code, out, errs)
	}
	// Not hex.
	_, errs, code = kwire(t, "00 zz", "decode")
	if code != 1 || !strings.Contains(errs, "column 4") {
		t.Errorf("not hex: %d %q", code, errs)
	}
	// An unknown API key in a request header: not a request, so the
	// bytes are identified.
	_, errs, code = kwire(t, "0000000a7fff0000000000000000", "decode")
	if code != 0 || !strings.Contains(errs, "API with key 32767") || !strings.Contains(errs, "identified as") {
		t.Errorf("unknown key: %d %q", code, errs)
	}
}

func TestAPIs(t *testing.T) {
	out, _, code := kwire(t, "", "apis", "--set", "3.9")
	if code != 0 || !strings.Contains(out, "11   JoinGroup") || !strings.Contains(out, "0-9") {
		t.Errorf("apis:\n%s", out)
	}
	if _, errs, code := kwire(t, "", "apis", "--set", "nope"); code != 2 || !strings.Contains(errs, "no schema set") {
		t.Errorf("bad set: %q", errs)
	}
}

// TestCarelessCommandLines: each mistake gets one clear message and a
// non-zero status: 2 for a bad flag, 1 for bad input.
func TestCarelessCommandLines(t *testing.T) {
	long := "00" + strings.Repeat("q", 3<<20)
	cases := []struct {
		stdin string
		args  []string
		code  int
		want  string
	}{
		{"{\"GroupId\": \"a\xffb\"}", []string{"encode", "--api", "JoinGroup", "--version", "9", "--json", "-"}, 1, "<stdin>:1:15: byte 0xff is not UTF-8"},
		{`{"GroupId": "a", "GroupId": "b"}`, []string{"encode", "--api", "JoinGroup", "--version", "9", "--json", "-"}, 1, `<stdin>:1:18: key "GroupId" is given twice`},
		{"", []string{"encode", "--api", "JoinGroup", "--version", "-5"}, 2, `"-5" is not a version`},
		{"", []string{"encode", "--api", "JoinGroup", "--version", "70000"}, 2, `"70000" is not a version`},
		{"", []string{"encode", "--api", "JoinGroup", "--version", "99"}, 1, "JoinGroupRequest v99 is newer than every release kwire knows"},
		{"", []string{"encode", "--api", "JoinGroup", "--set", ""}, 2, `no schema set named "" (this build has `},
		{"", []string{"decode", "--set", "nope", joinGroupV9}, 2, `no schema set named "nope"`},
		{"", []string{"apis", "--set", "nope"}, 2, `no schema set named "nope"`},
		{"", []string{"schema", "lint", "--set", "", "-"}, 2, `no schema set named ""`},
		{"", []string{"decode", "zz"}, 1, `not hex: "zz" ("z" is not a hex digit) at character 1`},
		{"", []string{"decode", "0x0x"}, 1, "no bytes"},
		{long, []string{"decode"}, 1, `"00qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq..."`},
		{"", []string{"decode", "--bogus"}, 2, "flag provided but not defined: -bogus"},
	}
	for _, c := range cases {
		out, errs, code := kwire(t, c.stdin, c.args...)
		if code != c.code || !strings.Contains(errs, c.want) {
			t.Errorf("%q: exit %d, stderr %.300q; want %d and %q", c.args, code, errs, c.code, c.want)
		}
		if strings.Count(errs, "kwire:") != 1 || len(errs) > 400 || out != "" && c.args[0] == "encode" {
			t.Errorf("%q: stdout %.100q, stderr %.500q", c.args, out, errs)
		}
	}
	// Leaving --version out still means the latest.
	if _, errs, code := kwire(t, "", "encode", "--api", "JoinGroup"); code != 0 {
		t.Errorf("no --version: exit %d: %s", code, errs)
	}
}
