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

// TestIdentifyBody: a bare body pasted from a log is identified as one;
// it is edited as a body, and a link reproduces it.
func TestIdentifyBody(t *testing.T) {
	s := newState(t)
	body := joinGroupResp[18:] // after size, correlation id and tag count
	if err := s.Paste(body); err != nil {
		t.Fatal(err)
	}
	if !s.Body || s.API.Name != "JoinGroup" || s.Dir != codec.Response || s.ChipLabel(s.Chosen) != "JoinGroupResponse v9 (body)" {
		t.Fatalf("read as %s v%d %s (body %v)", s.API.Name, s.Version, s.Dir, s.Body)
	}
	if strings.Contains(s.Form(nil), "ResponseHeader") {
		t.Error("the form of a body shows a header")
	}
	if err := s.SetField("b:GenerationId", "7"); err != nil {
		t.Fatal(err)
	}
	if len(s.Bytes) != len(body)/2 || !s.Body {
		t.Errorf("after an edit: %d bytes, body %v", len(s.Bytes), s.Body)
	}
	q := s.Query()
	if !strings.Contains(q, "&body=1&hex=") {
		t.Errorf("query %q", q)
	}
	again := newState(t)
	if err := again.Apply(q); err != nil || !again.Body || again.HexString() != s.HexString() || again.API.Name != "JoinGroup" {
		t.Errorf("the link: %v, body %v, %s", err, again.Body, again.HexString())
	}
	// Choosing an API reads frames again.
	if err := s.Select("", "JoinGroup", 9, codec.Request); err != nil || s.Body {
		t.Errorf("after Select: %v, body %v", err, s.Body)
	}
}

// TestIdentifyTie: readings of other APIs with the same values are one
// answer with alternatives: the text above the chips names them, their
// chips follow the answer's and read the bytes as their API.
func TestIdentifyTie(t *testing.T) {
	s := newState(t)
	if err := s.Paste(heartbeatResp); err != nil {
		t.Fatal(err)
	}
	txt := s.CandidatesText()
	if !strings.HasPrefix(txt, "Identified as HeartbeatResponse v4; the same bytes read as ") || !strings.Contains(txt, "EndTxn v") ||
		!strings.Contains(txt, ": only the request can tell") {
		t.Errorf("CandidatesText: %q", txt)
	}
	if s.SameAs(0) != -1 || s.SameAs(1) != 0 || s.Candidates[1].API.Name == "Heartbeat" {
		t.Fatalf("the second chip is not an alternative of the first: %s, SameAs %d", s.ChipLabel(1), s.SameAs(1))
	}
	for i := range s.Candidates {
		if s.SameAs(i) == 0 && !strings.Contains(txt, s.Candidates[i].API.Name+" "+s.Candidates[i].Versions()) {
			t.Errorf("%s is not named in %q", s.ChipLabel(i), txt)
		}
	}
	if err := s.Choose(1); err != nil || s.API.Key != s.Candidates[1].API.Key {
		t.Errorf("Choose(1): %v, %s", err, s.API.Name)
	}
	// After its request, the correlation id decides: no alternatives.
	s = newState(t)
	if err := s.Paste(heartbeatReq); err != nil {
		t.Fatal(err)
	}
	if err := s.Paste(heartbeatResp); err != nil {
		t.Fatal(err)
	}
	if !s.Candidates[0].ByCorrelation || len(s.Candidates[0].Same) != 0 || strings.Contains(s.CandidatesText(), "the same bytes") {
		t.Errorf("after its request: %q", s.CandidatesText())
	}
}
