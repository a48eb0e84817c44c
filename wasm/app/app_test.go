package app

import (
	"errors"
	"strings"
	"testing"

	"kwire/codec"
)

// The smallest JoinGroup v9 request of the seed page
// (../shared/seeds/001_0440a39f43fe127e.txt): 33 bytes.
const joinGroup9 = "0000001d000b000900000000000000010000000000000000010101020101000100"

func newState(t *testing.T) *State {
	t.Helper()
	s, err := New("trunk", "JoinGroup")
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Select("trunk", "11", 9, codec.Request); err != nil {
		t.Fatal(err)
	}
	return s
}

func TestSmallestAndEdit(t *testing.T) {
	s := newState(t)
	if got := s.HexString(); got != joinGroup9 {
		t.Fatalf("smallest JoinGroup v9:\n got %s\nwant %s", got, joinGroup9)
	}
	if err := s.SetField("b:GroupId", "g1"); err != nil {
		t.Fatal(err)
	}
	// GroupId at 0x0f: compact length 3, then "g1"; the size grows by 2.
	if got := s.HexString(); got[:8] != "0000001f" || got[30:36] != "036731" || len(s.Bytes) != 35 {
		t.Errorf("after GroupId=g1: %s", got)
	}
	id := s.Owner(0x10)
	if n := s.Layout.Node(id); n.Name != "GroupId" || n.Value != `"g1"` || s.FieldKey(id) != "b:GroupId" {
		t.Errorf("byte 0x10 belongs to %s = %s (%q)", n.Name, n.Value, s.FieldKey(id))
	}
	if id := s.Owner(0x12); s.Layout.Node(id).Name != "SessionTimeoutMs" {
		t.Errorf("SessionTimeoutMs did not move to 0x12")
	}
	if err := s.SetField("h:CorrelationId", "7"); err != nil {
		t.Fatal(err)
	}
	if s.Bytes[11] != 7 {
		t.Errorf("correlation id not at bytes 8-11: %x", s.Bytes[:12])
	}
}

func TestEditErrors(t *testing.T) {
	s := newState(t)
	before := s.HexString()
	for _, tc := range []struct{ key, text, want string }{
		{"b:SessionTimeoutMs", "2147483648", "int32 takes a whole number from -2147483648 to 2147483647"},
		{"b:SessionTimeoutMs", "x", "int32 takes"},
		{"b:Protocols[0].Metadata", "zz", "not hex"},
		{"b:Protocols[3].Name", "a", "no element 3"},
		{"b:Nope", "a", "no field Nope"},
		{"x:GroupId", "a", "bad field key"},
	} {
		err := s.SetField(tc.key, tc.text)
		if err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("SetField(%s, %q) = %v, want %q", tc.key, tc.text, err, tc.want)
		}
	}
	if s.HexString() != before {
		t.Errorf("failed edits changed the bytes")
	}
}

func TestArraysAndNull(t *testing.T) {
	s := newState(t)
	if err := s.AddElem("b:Protocols"); err != nil {
		t.Fatal(err)
	}
	if err := s.SetField("b:Protocols[1].Name", "range"); err != nil {
		t.Fatal(err)
	}
	if len(s.Bytes) != 33+3+5 {
		t.Errorf("two protocols: %d bytes", len(s.Bytes))
	}
	if err := s.RemoveElem("b:Protocols[0]"); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.JSON(), `"Name": "range"`) || len(s.Bytes) != 38 {
		t.Errorf("after remove: %d bytes, %s", len(s.Bytes), s.JSON())
	}
	if err := s.SetNull("b:GroupInstanceId", true); err != nil {
		t.Fatal(err)
	}
	if s.Bytes[0x19] != 0 {
		t.Errorf("null compact string is 00, got %02x", s.Bytes[0x19])
	}
	if err := s.SetNull("b:GroupId", true); err == nil {
		t.Errorf("GroupId is not nullable")
	}
}

func TestSwitchVersion(t *testing.T) {
	s := newState(t)
	s.SetField("b:GroupId", "g1")
	s.SetField("b:Reason", "why")
	if err := s.SetVersion(5); err != nil {
		t.Fatal(err)
	}
	if strings.Join(s.Dropped, ",") != "Reason" {
		t.Errorf("dropped %v, want [Reason]", s.Dropped)
	}
	if !strings.Contains(s.JSON(), `"GroupId": "g1"`) || strings.Contains(s.JSON(), "Reason") {
		t.Errorf("v5 JSON: %s", s.JSON())
	}
	// Non-flexible v5: int16 string lengths, header v1.
	if got := s.HexString()[28:36]; got != "00026731" {
		t.Errorf("v5 GroupId bytes %s", got)
	}
	if err := s.SetVersion(9); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(s.JSON(), `"Reason": "why"`) {
		t.Errorf("switching back lost Reason: %s", s.JSON())
	}
}

func TestPaste(t *testing.T) {
	s := newState(t)
	if err := s.Select("trunk", "JoinGroup", 9, codec.Response); err != nil {
		t.Fatal(err)
	}
	resp := "0000001a 00000007 00 00000000 0000 00000000 01 01 01 00 01 02 01 01 01 00 00"
	if err := s.Paste(resp); err != nil {
		t.Fatal(err)
	}
	if s.Root().Name != "JoinGroupResponse" || s.Frame == nil || !s.Pasted {
		t.Fatalf("pasted response: %s", s.TreeText())
	}
	// A request names itself.
	if err := s.Paste(joinGroup9); err != nil || s.API.Name != "JoinGroup" || s.Version != 9 {
		t.Fatalf("pasted request: %v %s v%d", err, s.API.Name, s.Version)
	}
	if s.ErrorNode() != -1 || s.Node(0).Name != "JoinGroupRequest" {
		t.Errorf("a request without errors: error node %d, root %s", s.ErrorNode(), s.Node(0).Name)
	}
	// Cut short: the error has an offset and the tree keeps what was read.
	err := s.Paste(joinGroup9[:40])
	if err == nil || s.ErrOffset != 20 || s.Frame != nil {
		t.Fatalf("short paste: %v at %d", err, s.ErrOffset)
	}
	if !strings.Contains(s.TreeText(), "GroupId") || !strings.Contains(s.ErrorText(), "decode error at offset 20 (0x0014)") {
		t.Errorf("partial tree or error text wrong: %s\n%s", s.ErrorText(), s.TreeText())
	}
	// The error's node is the last that holds one; the node it is in
	// lies where the error is.
	if e := s.ErrorNode(); e < 0 || s.Node(e).Err == nil || s.Node(s.Len()) != nil {
		t.Errorf("error node %d", e)
	} else if lo, hi := s.Span(e); lo > 20 || hi < 20 {
		t.Errorf("error node %s at [%d, %d), the error at 20", s.Node(e).Name, lo, hi)
	}
	if !strings.Contains(s.Form(nil), "did not decode") {
		t.Errorf("form of undecodable bytes")
	}
	if err := s.Paste("00 0g"); err == nil {
		t.Errorf("bad hex accepted")
	}
}

func TestURL(t *testing.T) {
	s := newState(t)
	if q := s.Query(); q != "set=trunk&api=JoinGroup&v=9&dir=request" {
		t.Errorf("query %s", q)
	}
	s.SetField("b:GroupId", "g1")
	q := s.Query()
	t2, _ := New("", "Produce")
	if err := t2.Apply("?" + q); err != nil {
		t.Fatal(err)
	}
	if t2.HexString() != s.HexString() || t2.Query() != q {
		t.Errorf("link did not reproduce: %s vs %s", t2.Query(), q)
	}
	if err := t2.Apply("set=3.9&api=12&v=4&dir=response"); err != nil || t2.API.Name != "Heartbeat" || t2.Set.Name != "3.9" || t2.Dir != codec.Response {
		t.Errorf("apply by key: %v", err)
	}
	if err := t2.Apply("api=JoinGroup&v=99"); err == nil {
		t.Errorf("bad version accepted")
	}
	if err := t2.Apply(`api=JoinGroup&v=9&json={"GroupId":"j"}`); err != nil || !strings.Contains(t2.JSON(), `"GroupId": "j"`) {
		t.Errorf("json link: %v", err)
	}
}

func TestJSONError(t *testing.T) {
	s := newState(t)
	err := s.SetJSON("{\n  \"GroupId\": \"a\",\n  oops\n}")
	var je *codec.JSONError
	if !errors.As(err, &je) || je.Line != 3 {
		t.Fatalf("want a JSON error at line 3, got %v", err)
	}
	if s.HexString() != joinGroup9 {
		t.Errorf("a bad JSON changed the bytes")
	}
}

// TestJSONErrorSpan: the JSON panel selects the value at fault for every
// error of the JSON, the line for a syntax error.
func TestJSONErrorSpan(t *testing.T) {
	s := newState(t)
	for _, c := range []struct{ text, span string }{
		{"{\n  \"GroupId\": \"a\",\n  oops\n}", "  oops"},
		{"{\"GroupId\": \"a\"", `{"GroupId": "a"`},
		{"{\"GroupId\": \"é\",\n  \"SessionTimeoutMs\": 99999999999}", "99999999999"},
		{`{"GroupId": "g", "Protocols": [{"Name": "range", "Metadata": "zz"}]}`, `"zz"`},
		{`{"GroupId": "g", "Nope": {"a": 1}}`, `"Nope"`},
		{`{"api_key": 11, "version": 9, "header": {"ClientId": 5}, "body": {}}`, "5"},
		{`{"api_key": 11, "version": 9, "body": {"GroupId": [1, 2]}}`, "[1, 2]"},
	} {
		err := s.SetJSON(c.text)
		start, end, ok := JSONErrorSpan(c.text, err)
		if !ok || c.text[start:end] != c.span {
			t.Errorf("%s: %v: selects %q (%v), want %q", c.text, err, c.text[start:end], ok, c.span)
		}
	}
	if s.HexString() != joinGroup9 {
		t.Errorf("a bad JSON changed the bytes")
	}
	if _, _, ok := JSONErrorSpan("{}", errors.New("not JSON's")); ok {
		t.Errorf("an error that is not the JSON's has a place")
	}
}

func TestFormEscapes(t *testing.T) {
	s := newState(t)
	x := `<img src=x onerror=alert(1)>`
	if err := s.SetField("b:GroupId", x); err != nil {
		t.Fatal(err)
	}
	for name, h := range map[string]string{"form": s.Form(nil), "tree": s.Tree(), "hex": s.HexRows(0, s.Rows())} {
		if strings.Contains(h, "<img") {
			t.Errorf("%s holds unescaped markup", name)
		}
	}
	f := s.Form(nil)
	for _, want := range []string{`id="k-b:GroupId"`, `data-null="b:GroupInstanceId"`, `data-act="add" data-key="b:Protocols"`, `min="-2147483648" max="2147483647"`, `The group identifier.`} {
		if !strings.Contains(f, want) {
			t.Errorf("form lacks %s", want)
		}
	}
}

func TestFolding(t *testing.T) {
	s := newState(t)
	for range 40 {
		if err := s.AddElem("b:Protocols"); err != nil {
			t.Fatal(err)
		}
	}
	prot := -1
	for i := range s.Layout.Len() {
		n := s.Layout.Node(i)
		if n.Name == "Protocols" {
			prot = i
		}
	}
	if !s.Folded(prot) || !strings.Contains(s.Tree(), "42 children") {
		t.Fatalf("41 protocols not folded")
	}
	inner := s.Owner(0x1d)
	if s.Shown(inner) != prot {
		t.Errorf("a byte inside the folded array shows on %d, want %d", s.Shown(inner), prot)
	}
	s.ToggleFold(prot)
	if s.Folded(prot) || strings.Contains(s.Tree(), "children,") {
		t.Errorf("unfold failed")
	}
	s.SetField("b:GroupId", "abc") // the fold state survives edits
	if s.Folded(prot) {
		t.Errorf("fold state lost on edit")
	}
}
