package app

import (
	"strings"
	"testing"

	"kwire/codec"
)

// A JoinGroup v9 response, and a Heartbeat v4 request and its response, as
// kgo and kfake wrote them (identify/testdata/corpus.txt).
const (
	joinGroupResp = "00000043000000010000000000004fffffffff000001002e6b776972652d636f727075732d61313236363136623034366266306538666365356335653431333135633166640100"
	heartbeatReq  = "00000058000c000400000004000c6b776972652d636f72707573000d636f727075732d67726f7570000000012e6b776972652d636f727075732d37346431336663346439366462663365326565343537366564613534333831370000"
	heartbeatResp = "0000000c000000040000000000000000"
)

// TestIdentifyPaste: a response pasted while a request is chosen is
// identified; the candidates are offered as chips, and one click reads
// the bytes as another.
func TestIdentifyPaste(t *testing.T) {
	s := newState(t)
	if err := s.Paste(joinGroupResp); err != nil {
		t.Fatalf("paste: %v", err)
	}
	if s.API.Name != "JoinGroup" || s.Version != 9 || s.Dir != codec.Response || s.Frame == nil {
		t.Fatalf("read as %s v%d %s", s.API.Name, s.Version, s.Dir)
	}
	if txt := s.CandidatesText(); !strings.HasPrefix(txt, "Identified as JoinGroupResponse v9") {
		t.Errorf("CandidatesText: %q", txt)
	}
	// Bytes that the current choice decodes are not identified.
	if err := s.Paste(joinGroupResp); err != nil || len(s.Candidates) != 0 {
		t.Errorf("pasted again as the current choice: %v, %d candidates", err, len(s.Candidates))
	}
	// Choosing an API forgets the candidates.
	if err := s.Select("", "Heartbeat", 4, codec.Request); err != nil || len(s.Candidates) != 0 {
		t.Errorf("after Select: %v, %d candidates", err, len(s.Candidates))
	}
}

// TestIdentifyChoose: a chip reads the same bytes as its candidate.
func TestIdentifyChoose(t *testing.T) {
	s := newState(t)
	if err := s.Paste(heartbeatResp); err != nil {
		t.Fatal(err)
	}
	if len(s.Candidates) < 2 {
		t.Fatalf("%d candidates for a Heartbeat response, want several (EndTxn, PushTelemetry read the same)", len(s.Candidates))
	}
	hex := s.HexString()
	if err := s.Choose(1); err != nil {
		t.Fatal(err)
	}
	c := s.Candidates[1]
	if s.API.Key != c.API.Key || s.Version != c.Version || s.Chosen != 1 || s.HexString() != hex {
		t.Errorf("after Choose(1): %s v%d, want %s v%d, same bytes", s.API.Name, s.Version, c.API.Name, c.Version)
	}
}

// TestIdentifyByCorrelation: a request pasted before names the response
// with its correlation id.
func TestIdentifyByCorrelation(t *testing.T) {
	s := newState(t)
	if err := s.Paste(heartbeatReq); err != nil {
		t.Fatal(err)
	}
	if err := s.Paste(heartbeatResp); err != nil {
		t.Fatal(err)
	}
	if s.API.Name != "Heartbeat" || s.Version != 4 || !s.Candidates[0].ByCorrelation {
		t.Errorf("response after its request: %s v%d", s.API.Name, s.Version)
	}
	if !strings.Contains(s.CandidatesText(), "correlation id") {
		t.Errorf("CandidatesText: %q", s.CandidatesText())
	}
}
