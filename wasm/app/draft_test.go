package app

import (
	"bytes"
	"os"
	"strings"
	"testing"

	"kwire/schemas/sets"

	"kwire/codec"
	"kwire/schemas/draft"
)

// seed reads a seed document from ../shared/seeds beside the repository.
func seed(t *testing.T, name string) string {
	t.Helper()
	b, err := os.ReadFile("../../../shared/seeds/" + name)
	if err != nil {
		t.Fatalf("the seed: %v", err)
	}
	return string(b)
}

const (
	seedKIP1071 = "000_e08e1a12af25dfbb.txt" // StreamsGroupHeartbeat
	seedKIP848  = "004_a31ea2133565d3fd.txt" // ConsumerGroupInstallAssignment, ConsumerGroupDescribe
)

func TestDraftPanel(t *testing.T) {
	s := newState(t)
	if err := s.LoadDraft(seed(t, seedKIP1071)); err != nil {
		t.Fatal(err)
	}
	// Loading alone does not leave JoinGroup.
	if s.IsDraft() || s.API.Name != "JoinGroup" {
		t.Fatalf("loading switched to %s in %s", s.API.Name, s.Set.Name)
	}
	if got, want := s.DraftSummary(), "2 schemas loaded (StreamsGroupHeartbeatRequest, StreamsGroupHeartbeatResponse); 14 warnings, 2 errors"; got != want {
		t.Errorf("summary %q, want %q", got, want)
	}
	diags := s.DiagnosticsHTML()
	if !strings.Contains(diags, `<li class="dg error" data-line="49" data-col="48" tabindex="0"><span class="sev">error</span> <span class="lc">49:48</span> <span class="msg">field &#34;SourceTopics&#34;: unknown type &#34;[]int32int16&#34;`) {
		t.Errorf("the unknown type is not listed at 49:48:\n%s", diags)
	}
	src := s.SourceHTML()
	if n := strings.Count(src, `<div class="sl`); n != strings.Count(s.DraftText, "\n")+1 {
		t.Errorf("%d lines rendered", n)
	}
	if !strings.Contains(src, `<div class="sl lv-error" data-line="49" title="error: field &#34;SourceTopics&#34;`) {
		t.Errorf("line 49 is not marked as an error")
	}
	if strings.Contains(src, "<br") || strings.Count(src, "<span") != 2*strings.Count(src, `<div class="sl`) {
		t.Errorf("the rendering holds markup of its own")
	}
	lo, hi := s.LineSpan(49)
	if line := s.DraftText[lo:hi]; !strings.Contains(line, `"SourceTopics"`) || strings.Contains(line, "\n") {
		t.Errorf("line 49 is %q", line)
	}

	if err := s.SelectDraft("StreamsGroupHeartbeat", -1, codec.Request); err != nil {
		t.Fatal(err)
	}
	if !s.IsDraft() || s.Frame == nil || len(s.Bytes) == 0 || s.Err != nil {
		t.Fatalf("draft request: %v, %d bytes", s.Err, len(s.Bytes))
	}
	// The placeholder is one above the base release's highest key.
	base, _ := sets.Load(s.DraftBase)
	ph := base.APIs()[len(base.APIs())-1].Key + 1
	key, src0, ok := s.DraftKey()
	if key != ph || src0 != draft.KeyPlaceholder || !ok {
		t.Errorf("key %d from %s, changeable %v; want the placeholder %d", key, src0, ok, ph)
	}
	if k := int16(s.Bytes[4])<<8 | int16(s.Bytes[5]); k != ph {
		t.Errorf("the header's api_key is %d", k)
	}
	if err := s.SetField("b:GroupId", "streams-1"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetField("h:CorrelationId", "9"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDraftKey("200"); err != nil {
		t.Fatal(err)
	}
	if k := int16(s.Bytes[4])<<8 | int16(s.Bytes[5]); k != 200 || !s.IsDraft() || s.API.Name != "StreamsGroupHeartbeat" {
		t.Errorf("after choosing 200: api_key %d, %s", k, s.API.Name)
	}
	// The message keeps its values under the new key.
	if !bytes.Contains(s.Bytes, []byte("streams-1")) || s.Bytes[11] != 9 {
		t.Errorf("the values were lost with the new key: %x", s.Bytes)
	}
	if _, src1, _ := s.DraftKey(); src1 != draft.KeyChosen {
		t.Errorf("key source %s", src1)
	}
	for _, bad := range []string{"-1", "32768", "x"} {
		if err := s.SetDraftKey(bad); err == nil {
			t.Errorf("key %q accepted", bad)
		}
	}
	if !strings.Contains(s.Query(), "keys=StreamsGroupHeartbeat.200") {
		t.Errorf("the link does not carry the key: %s", s.Query())
	}
	// A released API takes no chosen key.
	if err := s.Select("trunk", "JoinGroup", -1, codec.Request); err != nil {
		t.Fatal(err)
	}
	if err := s.SetDraftKey("7"); err == nil {
		t.Errorf("a released API took a key")
	}
	// Text with no schema in it (mid-edit): the base set is shown, with
	// JoinGroup when it has no API of the draft's name.
	if err := s.LoadDraft(seed(t, seedKIP848)); err != nil {
		t.Fatal(err)
	}
	if err := s.SelectDraft("ConsumerGroupInstallAssignment", -1, codec.Request); err != nil {
		t.Fatal(err)
	}
	if err := s.LoadDraft("not a schema"); err != nil || s.IsDraft() || s.Set.Name != "trunk" || s.API.Name != "JoinGroup" {
		t.Errorf("a draft without schemas: %v, showing %s %s", err, s.Set.Name, s.API.Name)
	}
	if s.Draft.Errors() != 1 || !strings.Contains(s.DiagnosticsHTML(), "no schema found") {
		t.Errorf("diagnostics %s", s.DiagnosticsHTML())
	}
	if err := s.ClearDraft(); err != nil || s.Draft != nil || strings.Contains(s.Query(), "schema=") {
		t.Errorf("clear: %v, %s", err, s.Query())
	}
}

// A link carries the draft: the same text, base, keys, selection and bytes
// come back.
func TestDraftLinkRoundTrip(t *testing.T) {
	for _, tc := range []struct {
		seed, api string
		dir       codec.Direction
		key       string
	}{
		{seedKIP1071, "StreamsGroupHeartbeat", codec.Request, "91"},
		{seedKIP1071, "StreamsGroupHeartbeat", codec.Response, ""},
		{seedKIP848, "ConsumerGroupInstallAssignment", codec.Request, "1000"},
		{seedKIP848, "ConsumerGroupDescribe", codec.Response, ""},
	} {
		t.Run(tc.seed+"/"+tc.api+"/"+tc.dir.String(), func(t *testing.T) {
			s := newState(t)
			text := seed(t, tc.seed)
			if err := s.LoadDraft(text); err != nil {
				t.Fatal(err)
			}
			if err := s.SelectDraft(tc.api, -1, tc.dir); err != nil {
				t.Fatal(err)
			}
			if tc.key != "" {
				if err := s.SetDraftKey(tc.key); err != nil {
					t.Fatal(err)
				}
			}
			// An edit, so that the link carries bytes too.
			if tc.dir == codec.Request {
				if err := s.SetField("h:CorrelationId", "42"); err != nil {
					t.Fatal(err)
				}
			}
			q := s.Query()
			if !s.LinkComplete() || !strings.Contains(q, "set=draft&api="+tc.api) {
				t.Fatalf("link %s", q)
			}
			u, err := New("", "JoinGroup")
			if err != nil {
				t.Fatal(err)
			}
			if err := u.Apply(q); err != nil {
				t.Fatalf("apply %s: %v", q, err)
			}
			if u.DraftText != text || u.DraftBase != "trunk" || !u.IsDraft() || u.API.Name != tc.api || u.Dir != tc.dir || u.Version != s.Version {
				t.Fatalf("after the link: %s %s v%d %s (base %s, text same %v)", u.Set.Name, u.API.Name, u.Version, u.Dir, u.DraftBase, u.DraftText == text)
			}
			if !bytes.Equal(u.Bytes, s.Bytes) || len(u.Bytes) == 0 {
				t.Errorf("bytes\n got %x\nwant %x", u.Bytes, s.Bytes)
			}
			if u.Query() != q {
				t.Errorf("link again\n got %s\nwant %s", u.Query(), q)
			}
			if len(u.Draft.Diagnostics) != len(s.Draft.Diagnostics) {
				t.Errorf("%d diagnostics, were %d", len(u.Draft.Diagnostics), len(s.Draft.Diagnostics))
			}
		})
	}
}

func TestDraftLinkErrors(t *testing.T) {
	big := EncodeDraft(strings.Repeat(" ", MaxDraftBytes+1))
	for _, tc := range []struct{ query, want string }{
		{"set=draft&api=X&schema=" + EncodeDraft("{}"), "no draft schema loaded"},
		{"set=trunk&schema=!!", "not base64url"},
		{"set=trunk&schema=AAAA", "damaged"},
		{"set=trunk&schema=" + big, "over 1048576 bytes"},
		{"set=trunk&keys=X&schema=" + EncodeDraft("{}"), "bad link: keys"},
		{"set=draft&base=nope&schema=" + EncodeDraft("{}"), "nope"},
	} {
		s := newState(t)
		before := s.HexString()
		err := s.Apply(tc.query)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%.60s: error %v, want %q", tc.query, err, tc.want)
		}
		if s.HexString() != before || s.Set.Name != "trunk" {
			t.Errorf("%.60s: the state changed", tc.query)
		}
	}
	// Markup in the paste reaches the page as text.
	s := newState(t)
	if err := s.LoadDraft(`<script>alert(1)</script> {"name": "<b>", "type": "request", "apiKey": 500, "validVersions": "0", "fields": []}`); err != nil {
		t.Fatal(err)
	}
	for _, h := range []string{s.SourceHTML(), s.DiagnosticsHTML()} {
		if strings.Contains(h, "<script") || strings.Contains(h, "<b>") {
			t.Errorf("unescaped: %s", h)
		}
	}
}

func TestEncodeDraft(t *testing.T) {
	for _, text := range []string{"", "{}", seed(t, seedKIP1071), "ünïcode \x00 bytes"} {
		enc := EncodeDraft(text)
		if strings.ContainsAny(enc, "+/=%&") {
			t.Errorf("not URL-safe: %s", enc)
		}
		got, err := DecodeDraft(enc)
		if err != nil || got != text {
			t.Errorf("round trip of %.20q: %q, %v", text, got, err)
		}
	}
	if n, full := len(EncodeDraft(seed(t, seedKIP1071))), len(seed(t, seedKIP1071)); n*2 > full {
		t.Errorf("the seed encodes to %d characters of %d", n, full)
	}
}

// The draft against the released schema of the same name.
func TestDraftCompare(t *testing.T) {
	s := newState(t)
	if s.CompareHTML() != "" {
		t.Errorf("a comparison without a draft shown")
	}
	// Against the release 4.3, which does not change.
	if err := s.Select("4.3", "JoinGroup", -1, codec.Request); err != nil {
		t.Fatal(err)
	}
	if err := s.LoadDraft(seed(t, seedKIP1071)); err != nil {
		t.Fatal(err)
	}
	if err := s.SelectDraft("StreamsGroupHeartbeat", -1, codec.Request); err != nil {
		t.Fatal(err)
	}
	h := s.CompareHTML()
	for _, want := range []string{
		`<p class="cmpsum">StreamsGroupHeartbeatRequest: the draft&#x2019;s v0 against 4.3&#x2019;s v`,
		`; smallest frame 136 bytes, 4.3&#x2019;s 149 (-13); fields: 2 versions, 4 retyped, 1 added, 4 removed</p>`,
		`<tr class="ck-retyped"><td>retyped</td><td>Topology.Subtopologies.CopartitionGroups.SourceTopics</td><td>left out of the draft: unknown type &#34;[]int32int16&#34;; type []int32int16 → []int16</td></tr>`,
		`<tr class="ck-added"><td>added</td><td>Topology.TopologyId</td><td>added: string 0+</td></tr>`,
	} {
		if !strings.Contains(h, want) {
			t.Errorf("comparison lacks %q", want)
		}
	}
	if err := s.LoadDraft(seed(t, seedKIP848)); err != nil {
		t.Fatal(err)
	}
	if err := s.SelectDraft("ConsumerGroupInstallAssignment", -1, codec.Request); err != nil {
		t.Fatal(err)
	}
	if h := s.CompareHTML(); h != `<p class="note">`+s.DraftBase+` has no schema named ConsumerGroupInstallAssignmentRequest.</p>` {
		t.Errorf("a draft API the release lacks: %s", h)
	}
}
