package main

import (
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"kwire/internal/textesc"
	"kwire/schemas/sets"
)

// The seeds are the project's documents, read where they are.
const seeds = "../../../shared/seeds/"

var lintLine = regexp.MustCompile(`^[^:]+:\d+:\d+: (warning|error): .+$`)

func TestSchemaLint(t *testing.T) {
	file := seeds + "000_e08e1a12af25dfbb.txt"
	// Against the release 4.3, which does not change.
	out, errs, code := kwire(t, "", "schema", "lint", "--set", "4.3", file)
	if code != 1 {
		t.Errorf("exit %d, want 1 (the draft has errors)", code)
	}
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if len(lines) != 16 {
		t.Errorf("%d diagnostics, want 16:\n%s", len(lines), out)
	}
	for _, l := range lines {
		if !lintLine.MatchString(l) {
			t.Errorf("not FILE:LINE:COL: severity: message: %q", l)
		}
	}
	for _, want := range []string{
		file + `:4:13: warning: apiKey is TBD; using placeholder 93, unused in 4.3 (write the key once it is assigned; 4.3 has StreamsGroupHeartbeat as 88)`,
		file + `:49:48: error: field "SourceTopics": unknown type "[]int32int16"; the field is left out (use one type: []int16 or []int32)`,
		file + `:58:6: warning: missing "," between two fields (add "," at the end of line 58)`,
		file + `:163:107: warning: "default": null is not quoted; read as "null" (write "default": "null"; Kafka reads a bare null as no default)`,
	} {
		if !strings.Contains(out, want+"\n") {
			t.Errorf("lint lacks\n%s\nin\n%s", want, out)
		}
	}
	if !strings.Contains(errs, "2 schemas loaded (StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse); 14 warnings, 2 errors") {
		t.Errorf("summary: %q", errs)
	}

	// Warnings alone exit 0; a released schema has nothing to say.
	dir := t.TempDir()
	warn := filepath.Join(dir, "warn.json")
	os.WriteFile(warn, []byte(`{ "apiKey": TBD, "type": "request", "name": "FooRequest", "validVersions": "0", "fields": [ ] }`), 0o644)
	out, _, code = kwire(t, "", "schema", "lint", warn)
	if code != 0 || !strings.HasPrefix(out, warn+":1:13: warning: apiKey is TBD") {
		t.Errorf("warnings only: exit %d\n%s", code, out)
	}
	fsys, err := sets.FS("trunk")
	if err != nil {
		t.Fatal(err)
	}
	src, _ := fs.ReadFile(fsys, "message/JoinGroupRequest.json")
	released := filepath.Join(dir, "JoinGroupRequest.json")
	os.WriteFile(released, src, 0o644)
	if out, errs, code := kwire(t, "", "schema", "lint", released); code != 0 || out != "" || !strings.Contains(errs, "1 schema loaded (JoinGroupRequest); 0 warnings, 0 errors") {
		t.Errorf("released: exit %d %q %q", code, out, errs)
	}
	// From stdin.
	if out, _, code := kwire(t, `{"apiKey": 1000, "type": "request", "name": "FooRequest", "validVersions": "0", "fields": [],}`, "schema", "lint", "-"); code != 0 ||
		!strings.HasPrefix(out, "<stdin>:1:93: warning: trailing comma") {
		t.Errorf("stdin: exit %d %q", code, out)
	}
	for _, args := range [][]string{{"schema", "lint"}, {"schema", "lint", "a", "b"}, {"schema", "frob", "x"}, {"schema", "lint", "/no/such/file"}} {
		if _, errs, code := kwire(t, "", args...); code == 0 || errs == "" {
			t.Errorf("%v: exit %d %q", args, code, errs)
		}
	}
}

func TestSchemaDiff(t *testing.T) {
	out, errs, code := kwire(t, "", "schema", "diff", seeds+"000_e08e1a12af25dfbb.txt", "--set", "4.3")
	if code != 0 {
		t.Fatalf("exit %d: %s", code, errs)
	}
	for _, want := range []string{
		"StreamsGroupHeartbeatRequest: draft v0 (" + seeds + "000_e08e1a12af25dfbb.txt:3) against 4.3 v0",
		"RepartitionSourceTopics []int32 0+",
		"type []int32 → []int16",
		"1 added, 4 removed, 4 retyped, 2 with other versions, 0 with another default",
		"smallest frame: draft 136 bytes, 4.3 149 bytes (-13)",
		"smallest frame: draft 79 bytes, 4.3 88 bytes (-9)",
	} {
		if !strings.Contains(out, want) {
			t.Errorf("diff lacks %q:\n%s", want, out)
		}
	}
	// Side-by-side rows: the draft's field, the release's, the change.
	for _, row := range []string{
		`(?m)^! +Port int32 0\+ +Port uint16 0\+ +type int32 → uint16$`,
		`(?m)^\+ +TopologyId string 0\+ +added$`,
		`(?m)^- {40,}Epoch int32 0\+ +removed$`,
		`(?m)^  +GroupId string 0\+ +GroupId string 0\+ *$`,
	} {
		if !regexp.MustCompile(row).MatchString(out) {
			t.Errorf("no row %s:\n%s", row, out)
		}
	}
	// KIP-848's ConsumerGroupInstallAssignment is not in 3.9; its
	// ConsumerGroupDescribe is.
	out, _, code = kwire(t, "", "schema", "diff", seeds+"004_a31ea2133565d3fd.txt", "--set", "3.9")
	if code != 0 || !strings.Contains(out, "ConsumerGroupDescribe: draft v0") || strings.Contains(out, "ConsumerGroupInstallAssignment") {
		t.Errorf("3.9: exit %d\n%s", code, out)
	}
	dir := t.TempDir()
	lone := filepath.Join(dir, "lone.json")
	os.WriteFile(lone, []byte(`{ "apiKey": TBD, "type": "request", "name": "NoSuchThingRequest", "validVersions": "0", "fields": [] }`), 0o644)
	if _, errs, code := kwire(t, "", "schema", "diff", lone); code != 1 || !strings.Contains(errs, "no schema of "+lone+" has a released counterpart in set trunk") {
		t.Errorf("lone: exit %d %q", code, errs)
	}
}

// encode and decode --schema use a draft's APIs, found by name with or
// without their suffix, with the key the draft settled on.
func TestEncodeDecodeSchema(t *testing.T) {
	kip848 := seeds + "004_a31ea2133565d3fd.txt"
	out, errs, code := kwire(t, "", "encode", "--schema", kip848, "--api", "ConsumerGroupDescribe")
	req := strings.TrimSpace(out)
	if code != 0 || req != "0000000f004700000000000000000002010000" {
		t.Fatalf("encode: exit %d %q %q", code, out, errs)
	}
	if !strings.Contains(errs, "kwire: "+kip848+": 17 warnings, 0 errors (kwire schema lint "+kip848+")") {
		t.Errorf("stderr: %q", errs)
	}
	out, errs, code = kwire(t, req, "decode", "--schema", kip848)
	if code != 0 || !strings.Contains(out, "+-- request_api_key int16 = 71 (ConsumerGroupDescribe) [0x0004, 2B]") ||
		!strings.Contains(out, "ConsumerGroupDescribe message v0 [0x0000, 19B]") {
		t.Errorf("decode: exit %d %s\n%s", code, errs, out)
	}
	out, _, code = kwire(t, "", "encode", "--schema", kip848, "--api", "ConsumerGroupDescribeRequest", "--response")
	resp := strings.TrimSpace(out)
	if code != 0 || len(resp) != 2*129 {
		t.Fatalf("encode response: exit %d %q", code, out)
	}
	out, errs, code = kwire(t, resp, "decode", "--schema", kip848, "--response", "--api", "consumergroupdescriberesponse", "--format", "json")
	if code != 0 || !strings.Contains(out, `"api_key": 71`) || !strings.Contains(out, `"AssignmentMetadataBytes": ""`) {
		t.Errorf("decode response: exit %d %s\n%s", code, errs, out)
	}

	// One API in the draft: --api may be left out; the frame carries the
	// placeholder key.
	kip1071 := seeds + "000_e08e1a12af25dfbb.txt"
	out, _, code = kwire(t, "", "encode", "--schema", kip1071, "--set", "4.3")
	if code != 0 || !strings.HasPrefix(out, "00000084005d0000") {
		t.Errorf("encode KIP-1071: exit %d %q", code, out)
	}
	for _, args := range [][]string{
		{"encode", "--schema", kip848},                         // two APIs: which one?
		{"encode", "--schema", "/no/such/draft.json"},          // no file
		{"encode", "--schema", "-", "--api", "X"},              // stdin holds the message
		{"encode", "--schema", kip848, "--api", "NoSuch"},      // not in the draft
		{"encode", "--schema", kip848, "--version", "3"},       // no such version
		{"encode", "--schema", "schema_test.go", "--api", "X"}, // no schema in it
	} {
		if _, errs, code := kwire(t, "", args...); code == 0 || errs == "" {
			t.Errorf("%v: exit %d %q", args, code, errs)
		}
	}
}

// hostileText is what a draft can hold that must not reach a terminal
// raw: an OSC title sequence ended by BEL, a colour escape, NUL, a C1
// control, and the bidi overrides, isolates and marks.
const hostileText = "\x1b]0;pwned\x07\x1b[31m\x00\u0085\u009b\u202aa\u202bb\u202c\u202dc\u202e" +
	"evil\u2066\u2067\u2068\u2069\u200e\u200f\u061c"

// TestHostileDraftEscaped: the names, about texts and diagnostics of a
// hostile draft reach the terminal escaped, in every command that shows
// them.
func TestHostileDraftEscaped(t *testing.T) {
	field := func(name, typ, about string) string {
		return `{ "name": "` + name + `", "type": "` + typ + `", "versions": "0+", "about": "` + about + `" }`
	}
	draft := `{ "apiKey": 11, "type": "request", "name": "JoinGroupRequest", "validVersions": "0", "flexibleVersions": "none",
  "fields": [` + field("GroupId", "string", "The group "+hostileText) + `,
    ` + field("Evil"+hostileText, "int32", "About "+hostileText) + `,
    ` + field("Bad"+hostileText, "nosuchtype"+hostileText, "x") + `] }
{ "apiKey": 11, "type": "response", "name": "JoinGroupResponse", "validVersions": "0", "flexibleVersions": "none",
  "fields": [` + field("ErrorCode", "int16", hostileText) + `] }
`
	file := filepath.Join(t.TempDir(), "hostile"+hostileText[:4]+".txt")
	if err := os.WriteFile(file, []byte(draft), 0o644); err != nil {
		t.Fatal(err)
	}
	const frame = "00000010000b0000000000000000000000000000"
	for _, c := range []struct {
		stdin string
		args  []string
	}{
		{"", []string{"schema", "lint", file}},
		{"", []string{"schema", "diff", file}},
		{"", []string{"encode", "--schema", file, "--api", "11"}},
		{"", []string{"decode", "--schema", file, frame}},
		{"", []string{"decode", "--schema", file, frame[:len(frame)-2]}},
		{"", []string{"decode", "--schema", file, "--format", "json", frame}},
		{`{"Nope": 1}`, []string{"encode", "--schema", file, "--api", "11", "--json", "-"}},
	} {
		out, errs, code := kwire(t, c.stdin, c.args...)
		if out+errs == "" {
			t.Errorf("%q: no output (exit %d)", c.args[:2], code)
		}
		for _, r := range out + errs {
			if r != '\n' && textesc.Hidden(r) {
				t.Errorf("%q: raw %U in the output:\n%s\n%s", c.args[:2], r, out, errs)
				break
			}
		}
		if want := `\u202e`; c.args[0] == "encode" && c.stdin == "" {
			// Only the file name is shown.
			if !strings.Contains(errs, `hostile\x1b]0;.txt`) {
				t.Errorf("%q: the escaped file name is not shown: %s", c.args[:2], errs)
			}
		} else if !strings.Contains(out+errs, want) {
			t.Errorf("%q: the escaped draft text is not shown:\n%s\n%s", c.args[:2], out, errs)
		}
	}
}
