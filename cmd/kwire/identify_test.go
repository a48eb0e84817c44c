package main

import (
	"strings"
	"testing"

	"kwire/jsonv"
)

// A JoinGroup v9 request and its response (MEMBER_ID_REQUIRED), as kgo and
// kfake wrote them (identify/testdata/corpus.txt).
const (
	joinGroupReq  = "00000094000b000900000001000c6b776972652d636f72707573000d636f727075732d67726f75700000afc80000ea60010009636f6e73756d65720213636f6f70657261746976652d737469636b791f000300000002000161000162000000040000000000000000ffffffffffff0028626567696e6e696e6720746f206d616e616765207468652067726f7570206c6966656379636c6500"
	joinGroupResp = "00000043000000010000000000004fffffffff000001002e6b776972652d636f727075732d61313236363136623034366266306538666365356335653431333135633166640100"
)

func TestIdentify(t *testing.T) {
	out, errs, code := kwire(t, "", "identify", joinGroupResp)
	lines := strings.Split(strings.TrimSpace(out), "\n")
	if code != 0 || len(lines) < 2 || len(lines) > 6 || !strings.HasSuffix(lines[1], " 11 JoinGroup v9 response trunk frame") {
		t.Fatalf("identify (exit %d, %s):\n%s", code, errs, out)
	}
	// A stream: the request names its response.
	out, _, code = kwire(t, "", "identify", joinGroupReq+joinGroupResp)
	if code != 0 || !strings.Contains(out, "# frame 2 at 0x0098") || !strings.Contains(out, "11 JoinGroup v9 response trunk frame (by correlation id)") {
		t.Errorf("identify a stream (exit %d):\n%s", code, out)
	}
	// Nothing decodes: the closest, each with where it stops; exit 1.
	out, _, code = kwire(t, "", "identify", "00000010ffffffffffffffffffffffffffff")
	if code != 1 || !strings.Contains(out, "nothing decodes every byte") || !strings.Contains(out, "stops at 0x") {
		t.Errorf("identify bytes nothing decodes (exit %d):\n%s", code, out)
	}
}

// TestDecodeIdentified: decode without --api reads a response as the best
// candidate, says so on stderr, and adds the candidates to the JSON form.
func TestDecodeIdentified(t *testing.T) {
	for _, args := range [][]string{{"decode", joinGroupResp}, {"decode", "--response", joinGroupResp}} {
		out, errs, code := kwire(t, "", args...)
		if code != 0 || !strings.HasPrefix(out, "JoinGroupResponse message v9") || !strings.Contains(errs, "11 JoinGroup v9 response trunk frame") {
			t.Errorf("%v (exit %d):\n%s\n%s", args, code, out, errs)
		}
	}
	out, errs, code := kwire(t, "", "decode", "--body", joinGroupResp[18:])
	if code != 0 || !strings.HasPrefix(out, "JoinGroupResponse body v9") {
		t.Errorf("decode --body (exit %d):\n%s\n%s", code, out, errs)
	}
	out, _, code = kwire(t, "", "decode", "--format", "json", joinGroupResp)
	v, err := jsonv.Parse([]byte(out))
	if code != 0 || err != nil {
		t.Fatalf("decode --format json (exit %d, %v):\n%s", code, err, out)
	}
	id, _ := v.(map[string]any)["identified"].(map[string]any)
	cands, _ := id["candidates"].([]any)
	if len(cands) == 0 || id["chosen"] != jsonv.Number("0") {
		t.Fatalf("identified: %v", id)
	}
	first := cands[0].(map[string]any)
	if first["api_name"] != "JoinGroup" || first["direction"] != "response" {
		t.Errorf("first candidate: %v", first)
	}
	// A request frame decodes as before, without a word about candidates.
	_, errs, code = kwire(t, "", "decode", joinGroupReq)
	if code != 0 || errs != "" {
		t.Errorf("decode a request (exit %d): %s", code, errs)
	}
}

// TestDecodeNotRequest: decode without flags reads a response whose
// correlation id reads as a request header (Produce v300, v14, v7, v1) as
// the response, and exits 0, while a request frame stays a request.
func TestDecodeNotRequest(t *testing.T) {
	heartbeat := func(corr string) string { return "0000000c" + corr + "0000000000000000" } // v4: throttle, error, tags
	for _, c := range []struct {
		name, hex, first, stderr string
	}{
		{"Heartbeat v4, correlation id 300", heartbeat("0000012c"), "HeartbeatResponse message v4", "not a request"},
		{"Heartbeat v4, correlation id 14", heartbeat("0000000e"), "HeartbeatResponse message v4", "not a request"},
		{"Heartbeat v4, correlation id 7", heartbeat("00000007"), "HeartbeatResponse message v4", "not a request"},
		{"Heartbeat v4, correlation id 65535", heartbeat("0000ffff"), "HeartbeatResponse message v4", "not a request"},
		// Read whole as a Produce v1 request of no topics too, scored lower.
		{"SaslAuthenticate v1 to PLAIN, correlation id 1", "00000014000000010000ffff000000000000000000000000", "SaslAuthenticateResponse message v1", "read as a request too"},
		{"ListGroups v0, one group, correlation id 0", "0000001d00000000000000000001000762696c6c696e670008636f6e73756d6572", "ListGroupsResponse message v0", "not a request"},
		{"ListGroups v1, one group, correlation id 5", "000000210000000500000000000000000001000762696c6c696e670008636f6e73756d6572", "ListGroupsResponse message v", "not a request"},
		{"a JoinGroup v9 request", joinGroupReq, "JoinGroupRequest message v9", ""},
	} {
		out, errs, code := kwire(t, "", "decode", c.hex)
		if code != 0 || !strings.HasPrefix(out, c.first) || c.stderr == "" && errs != "" || !strings.Contains(errs, c.stderr) {
			t.Errorf("%s (exit %d):\n%s\n%s", c.name, code, out, errs)
		}
	}
	// ListGroups v0 and v1 responses are listed by identify.
	for _, c := range []struct{ hex, want string }{
		{"0000001d00000000000000000001000762696c6c696e670008636f6e73756d6572", " 16 ListGroups v0 response "},
		{"000000210000000500000000000000000001000762696c6c696e670008636f6e73756d6572", " v1"},
	} {
		out, _, code := kwire(t, "", "identify", c.hex)
		lines := strings.Split(out, "\n")
		if code != 0 || len(lines) < 2 || !strings.Contains(lines[1], "ListGroups") || !strings.Contains(lines[1], c.want) {
			t.Errorf("identify %s (exit %d):\n%s", c.hex, code, out)
		}
	}
	// Empty ones (no groups) read as others first, but are listed.
	for _, c := range []struct{ hex, want string }{
		{"0000000a00000005000000000000", " 16 ListGroups v0 response "},
		{"0000000e0000000500000000000000000000", "ListGroups v1-v2"},
	} {
		if out, _, code := kwire(t, "", "identify", c.hex); code != 0 || !strings.Contains(out, c.want) {
			t.Errorf("identify %s (exit %d):\n%s", c.hex, code, out)
		}
	}
}

// TestDecodeTie: a response that other APIs read as the same values is
// one answer with alternatives: the tree's root, identify's line and the
// JSON form's identified.same_values say so, versions as ranges.
func TestDecodeTie(t *testing.T) {
	hb := "0000000c0000012c0000000000000000" // Heartbeat v4, EndTxn v3-v4, AddOffsetsToTxn v3-v4 ...
	out, _, code := kwire(t, "", "decode", hb)
	root := strings.SplitN(out, "\n", 2)[0]
	if code != 0 || !strings.HasPrefix(root, "HeartbeatResponse message v4 (the same bytes read as EndTxn v3-v4, AddOffsetsToTxn v3-v4") ||
		!strings.Contains(root, ": only the request can tell)") {
		t.Errorf("root line (exit %d): %s", code, root)
	}
	out, _, _ = kwire(t, "", "identify", hb)
	if lines := strings.Split(out, "\n"); len(lines) < 2 || !strings.Contains(lines[1], "12 Heartbeat v4 response trunk frame (the same bytes read as EndTxn v3-v4") {
		t.Errorf("identify:\n%s", out)
	}
	out, _, code = kwire(t, "", "decode", "--format", "json", hb)
	v, err := jsonv.Parse([]byte(out))
	if code != 0 || err != nil {
		t.Fatalf("json (exit %d, %v):\n%s", code, err, out)
	}
	id, _ := v.(map[string]any)["identified"].(map[string]any)
	same, _ := id["same_values"].([]any)
	names := map[string]string{}
	for _, s := range same {
		m := s.(map[string]any)
		names[m["api_name"].(string)] = m["text"].(string)
	}
	if len(same) < 3 || names["Heartbeat"] != "HeartbeatResponse v4" || names["EndTxn"] != "EndTxnResponse v3-v4" || !strings.Contains(id["note"].(string), "only the request can tell") {
		t.Errorf("same_values: %v", id)
	}
	// After its request, the correlation id decides: no alternatives.
	// kgo's Heartbeat v4 request, correlation id 4 (identify/testdata/corpus.txt).
	req := "00000058000c000400000004000c6b776972652d636f72707573000d636f727075732d67726f7570000000012e6b776972652d636f727075732d37346431336663346439366462663365326565343537366564613534333831370000"
	out, errs, code := kwire(t, "", "identify", req+"0000000c000000040000000000000000")
	if parts := strings.Split(out, "# frame 2"); code != 0 || len(parts) != 2 || !strings.Contains(parts[1], " 12 Heartbeat v4 response trunk frame (by correlation id)\n") {
		t.Errorf("stream (exit %d): %s\n%s", code, errs, out)
	}
}
