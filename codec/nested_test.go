package codec

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"kwire/schemas"
	"kwire/tree"
	"kwire/tree/treetest"
)

// frameFromJSON encodes a frame of api at version from its body's JSON.
func frameFromJSON(t *testing.T, api string, version int16, dir Direction, body string) []byte {
	t.Helper()
	return frameFromJSONSet(t, loadSet(t, "trunk"), api, version, dir, body)
}

// frameFromJSONSet is frameFromJSON with the schemas of set.
func frameFromJSONSet(t *testing.T, set *schemas.Set, api string, version int16, dir Direction, body string) []byte {
	t.Helper()
	a, err := set.LookupAPI(api)
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFrame(set, a, version, dir)
	if err != nil {
		t.Fatal(err)
	}
	if err := f.SetJSON([]byte(body)); err != nil {
		t.Fatal(err)
	}
	b, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// decodeFrame decodes b as a frame of api and version with trunk.
func decodeTest(t *testing.T, b []byte, api string, version int16, dir Direction) (*Frame, *tree.Flat, error) {
	t.Helper()
	set := loadSet(t, "trunk")
	a, err := set.LookupAPI(api)
	if err != nil {
		t.Fatal(err)
	}
	return Decode(b, DecodeOptions{Set: set, API: a, Version: version, Dir: dir})
}

func subscription(t *testing.T) []byte {
	rack := "rack-a"
	m := kmsg.ConsumerMemberMetadata{Version: 3, Topics: []string{"orders", "payments"}, UserData: []byte{1, 2},
		OwnedPartitions: []kmsg.ConsumerMemberMetadataOwnedPartition{{Topic: "orders", Partitions: []int32{0, 2}}},
		Generation:      7, Rack: &rack}
	return m.AppendTo(nil)
}

// roundTrip checks that the frame's JSON form encodes back to b, and
// returns it.
func roundTrip(t *testing.T, b []byte, api string, version int16, dir Direction) string {
	t.Helper()
	f, _, err := decodeTest(t, b, api, version, dir)
	if err != nil {
		t.Fatal(err)
	}
	j, err := f.JSON(len(b))
	if err != nil {
		t.Fatal(err)
	}
	f2, _, _ := decodeTest(t, b, api, version, dir)
	if err := f2.SetJSON(j); err != nil {
		t.Fatalf("%v\n%s", err, j)
	}
	back, err := f2.Encode()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(back, b) {
		t.Fatalf("JSON round trip:\n got %x\nwant %x\n%s", back, b, j)
	}
	return string(j)
}

func TestNestedJoinGroupSubscription(t *testing.T) {
	meta := subscription(t)
	body := fmt.Sprintf(`{"GroupId":"g","SessionTimeoutMs":45000,"RebalanceTimeoutMs":60000,"MemberId":"","ProtocolType":"consumer","Protocols":[{"Name":"range","Metadata":"%x"}],"Reason":"why"}`, meta)
	b := frameFromJSON(t, "JoinGroup", 9, Request, body)
	_, fl, err := decodeTest(t, b, "JoinGroup", 9, Request)
	if err != nil {
		t.Fatal(err)
	}
	if e := treetest.FirstError(fl); e != nil {
		t.Fatalf("error node %s: %s", e.Name, e.Err)
	}
	md, _ := treetest.Find(fl, "Protocols[0].Metadata", "Metadata")
	si, sub := treetest.FindUnder(fl, md, "Protocols[0].Metadata.ConsumerProtocolSubscription", "ConsumerProtocolSubscription")
	if sub == nil {
		t.Fatalf("no subscription node:\n%s", treetest.Text(fl))
	}
	start := bytes.Index(b, meta)
	if sub.Offset != start || sub.Size != len(meta) || sub.Type != "v3" {
		t.Errorf("subscription node at %d size %d type %s; want %d, %d, v3", sub.Offset, sub.Size, sub.Type, start, len(meta))
	}
	// Each topic's string node covers its int16 length and its bytes in the outer frame.
	for _, name := range []string{"orders", "payments"} {
		var n *tree.Node
		for _, c := range treetest.Under(fl, si) {
			if c.Type == "string" && c.Value == `"`+name+`"` {
				n = c
				break
			}
		}
		if n == nil {
			t.Fatalf("no topic %s:\n%s", name, treetest.Text(fl))
		}
		if got := string(b[n.Offset+2 : n.End()]); got != name {
			t.Errorf("topic %s node spans %q", name, got)
		}
	}
	for _, want := range []string{"OwnedPartitions", "GenerationId", "RackId", "UserData"} {
		if i, _ := treetest.FindUnder(fl, si, "", want); i < 0 && !strings.Contains(treetest.TextAt(fl, si), want) {
			t.Errorf("no %s in\n%s", want, treetest.TextAt(fl, si))
		}
	}
	_, g := treetest.FindUnder(fl, si, "Protocols[0].Metadata.ConsumerProtocolSubscription.GenerationId", "GenerationId")
	if g == nil || g.Value != "7" || !bytes.Equal(b[g.Offset:g.End()], []byte{0, 0, 0, 7}) {
		t.Errorf("GenerationId node %+v", g)
	}

	j := roundTrip(t, b, "JoinGroup", 9, Request)
	if !strings.Contains(j, `"ConsumerProtocolSubscription"`) {
		t.Fatalf("JSON without the decoded subscription:\n%s", j)
	}

	// Edit a subscribed topic's name in the JSON form: the metadata and
	// the outer lengths are written anew.
	f, _, _ := decodeTest(t, b, "JoinGroup", 9, Request)
	edited := strings.Replace(j, `"payments"`, `"payments-and-refunds"`, 1)
	if err := f.SetJSON([]byte(edited)); err != nil {
		t.Fatal(err)
	}
	nb, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	var req kmsg.JoinGroupRequest
	req.Version = 9
	hdr := 4 + 2 + 2 + 4 + 2 + 1 + 1 // size, key, version, correlation id, client id "", tagged fields; client_id is empty
	if err := req.ReadFrom(nb[hdr-1:]); err != nil {
		t.Fatalf("kmsg: %v", err)
	}
	var m kmsg.ConsumerMemberMetadata
	if err := m.ReadFrom(req.Protocols[0].Metadata); err != nil {
		t.Fatal(err)
	}
	if strings.Join(m.Topics, ",") != "orders,payments-and-refunds" || m.Generation != 7 || *m.Rack != "rack-a" {
		t.Errorf("edited subscription %+v", m)
	}
	if _, _, err := decodeTest(t, nb, "JoinGroup", 9, Request); err != nil {
		t.Errorf("edited frame: %v", err)
	}

	// Both forms given: they must agree.
	both := strings.Replace(j, `"ConsumerProtocolSubscription"`, fmt.Sprintf(`"hex":"%x","ConsumerProtocolSubscription"`, meta), 1)
	if err := f.SetJSON([]byte(both)); err != nil {
		t.Errorf("agreeing hex: %v", err)
	}
	bad := strings.Replace(both, `"payments"`, `"refunds"`, 1)
	if err := f.SetJSON([]byte(bad)); err == nil || !strings.Contains(err.Error(), "disagree") {
		t.Errorf("disagreeing hex: %v", err)
	}
}

func TestNestedConnectStaysBytes(t *testing.T) {
	body := `{"GroupId":"g","SessionTimeoutMs":45000,"RebalanceTimeoutMs":60000,"MemberId":"","ProtocolType":"connect","Protocols":[{"Name":"sessioned","Metadata":"000100000000"}]}`
	b := frameFromJSON(t, "JoinGroup", 9, Request, body)
	_, fl, err := decodeTest(t, b, "JoinGroup", 9, Request)
	if err != nil {
		t.Fatal(err)
	}
	mi, md := treetest.Find(fl, "Protocols[0].Metadata", "Metadata")
	if fl.ChildCount(mi) != 0 || !strings.Contains(md.Detail, `protocol type "connect"`) {
		t.Errorf("connect metadata: %s", md.Line())
	}
	if e := treetest.FirstError(fl); e != nil {
		t.Errorf("error node %s", e.Err)
	}
	if j := roundTrip(t, b, "JoinGroup", 9, Request); !strings.Contains(j, `"Metadata": "000100000000"`) {
		t.Errorf("connect metadata not hex:\n%s", j)
	}
}

func TestNestedSyncGroupAssignment(t *testing.T) {
	a := kmsg.ConsumerMemberAssignment{Version: 3, Topics: []kmsg.ConsumerMemberAssignmentTopic{{Topic: "orders", Partitions: []int32{1, 3}}}}
	ab := a.AppendTo(nil)
	for _, version := range []int16{3, 5} { // v3: no ProtocolType, read from the bytes
		pt := ""
		if version >= 5 {
			pt = `,"ProtocolType":"consumer","ProtocolName":"range"`
		}
		body := fmt.Sprintf(`{"ErrorCode":0%s,"Assignment":"%x"}`, pt, ab)
		b := frameFromJSON(t, "SyncGroup", version, Response, body)
		_, fl, err := decodeTest(t, b, "SyncGroup", version, Response)
		if err != nil {
			t.Fatal(err)
		}
		i, n := treetest.Find(fl, "Assignment.ConsumerProtocolAssignment", "ConsumerProtocolAssignment")
		if n == nil || n.Offset != bytes.Index(b, ab) {
			t.Fatalf("v%d: no assignment node:\n%s", version, treetest.Text(fl))
		}
		if text := treetest.TextAt(fl, i); !strings.Contains(text, `"orders"`) || !strings.Contains(text, "AssignedPartitions") {
			t.Errorf("v%d:\n%s", version, text)
		}
		if j := roundTrip(t, b, "SyncGroup", version, Response); !strings.Contains(j, "ConsumerProtocolAssignment") {
			t.Errorf("v%d JSON:\n%s", version, j)
		}
	}
}

func TestNestedNewerVersion(t *testing.T) {
	// Version 9 of the subscription: the v3 layout, and bytes it does not know.
	meta := subscription(t)
	meta[1] = 9
	meta = append(meta, 0xca, 0xfe)
	body := fmt.Sprintf(`{"ErrorCode":0,"GenerationId":1,"ProtocolType":"consumer","ProtocolName":"range","Leader":"m","MemberId":"m","Members":[{"MemberId":"m","Metadata":"%x"}]}`, meta)
	b := frameFromJSON(t, "JoinGroup", 9, Response, body)
	_, fl, err := decodeTest(t, b, "JoinGroup", 9, Response)
	if err != nil {
		t.Fatal(err)
	}
	if e := treetest.FirstError(fl); e != nil {
		t.Fatalf("error node %s", e.Err)
	}
	_, un := treetest.Find(fl, "Members[0].Metadata.ConsumerProtocolSubscription.unreadHex", "unread")
	if un == nil || un.Size != 2 || un.Offset != bytes.Index(b, meta)+len(meta)-2 {
		t.Fatalf("unread node %+v\n%s", un, treetest.Text(fl))
	}
	if j := roundTrip(t, b, "JoinGroup", 9, Response); !strings.Contains(j, `"unreadHex": "cafe"`) {
		t.Errorf("JSON:\n%s", j)
	}
}

func TestNestedJoinGroupResponseSniff(t *testing.T) {
	meta := subscription(t)
	body := fmt.Sprintf(`{"ErrorCode":0,"GenerationId":1,"ProtocolName":"range","Leader":"m","MemberId":"m","Members":[{"MemberId":"m","Metadata":"%x"},{"MemberId":"n","Metadata":"00010203"}]}`, meta)
	b := frameFromJSON(t, "JoinGroup", 6, Response, body)
	_, fl, err := decodeTest(t, b, "JoinGroup", 6, Response)
	if err != nil {
		t.Fatal(err)
	}
	if i, _ := treetest.Find(fl, "Members[0].Metadata.ConsumerProtocolSubscription", "ConsumerProtocolSubscription"); i < 0 {
		t.Errorf("v6 subscription not read:\n%s", treetest.Text(fl))
	}
	oi, other := treetest.Find(fl, "Members[1].Metadata", "Metadata")
	if fl.ChildCount(oi) != 0 || !strings.Contains(other.Detail, "not decoded") {
		t.Errorf("other metadata: %s", other.Line())
	}
	if e := treetest.FirstError(fl); e != nil {
		t.Errorf("error node %s", e.Err)
	}
	roundTrip(t, b, "JoinGroup", 6, Response)
}

func TestNestedHostile(t *testing.T) {
	good := subscription(t)
	for _, meta := range [][]byte{nil, {0}, {0xff, 0xff}, good[:len(good)-3], {0, 0, 0x7f, 0xff, 0xff, 0xff}, append(append([]byte{}, good...), 1), {0, 3, 0, 0, 0, 1, 0, 200}} {
		body := fmt.Sprintf(`{"GroupId":"g","ProtocolType":"consumer","Protocols":[{"Name":"range","Metadata":"%x"}],"Reason":"r"}`, meta)
		b := frameFromJSON(t, "JoinGroup", 9, Request, body)
		_, fl, err := decodeTest(t, b, "JoinGroup", 9, Request)
		if err != nil {
			t.Fatalf("%x: outer decode: %v", meta, err)
		}
		e := treetest.FirstError(fl)
		if e == nil {
			t.Errorf("%x: no error node:\n%s", meta, treetest.Text(fl))
			continue
		}
		if !strings.HasPrefix(e.Path, "Protocols[0].Metadata") {
			t.Errorf("%x: error node at %q", meta, e.Path)
		}
		if i, _ := treetest.Find(fl, "Reason", "Reason"); i < 0 {
			t.Errorf("%x: the outer tree stops", meta)
		}
		if e.Offset < 0 || e.End() > len(b) {
			t.Errorf("%x: error node [%d, %d) outside the frame", meta, e.Offset, e.End())
		}
		roundTrip(t, b, "JoinGroup", 9, Request)
	}
}

func TestNestedEnvelope(t *testing.T) {
	inner := frameFromJSON(t, "JoinGroup", 9, Request, fmt.Sprintf(`{"GroupId":"g","ProtocolType":"consumer","Protocols":[{"Name":"range","Metadata":"%x"}]}`, subscription(t)))
	principal := kmsg.DefaultPrincipalData{Version: 0, Type: "User", Name: "alice", TokenAuthenticated: true}
	pb := principal.AppendTo(nil)
	body := fmt.Sprintf(`{"RequestData":"%x","RequestPrincipal":"%x","ClientHostAddress":"7f000001"}`, inner[4:], pb)
	b := frameFromJSON(t, "Envelope", 0, Request, body)
	_, fl, err := decodeTest(t, b, "Envelope", 0, Request)
	if err != nil {
		t.Fatal(err)
	}
	if e := treetest.FirstError(fl); e != nil {
		t.Fatalf("error node %s: %s\n%s", e.Name, e.Err, treetest.Text(fl))
	}
	rd, _ := treetest.Find(fl, "RequestData", "RequestData")
	if fl.ChildCount(rd) != 1 || fl.Node(rd+1, nil).Name != "JoinGroupRequest" {
		t.Fatalf("RequestData:\n%s", treetest.TextAt(fl, rd))
	}
	start := bytes.Index(b, inner[4:])
	_, gid := treetest.FindUnder(fl, rd, "RequestData.request.GroupId", "GroupId")
	if gid == nil || string(b[gid.Offset+1:gid.End()]) != "g" || gid.Offset < start {
		t.Errorf("inner GroupId %+v", gid)
	}
	// The carried request's own nested bytes are decoded too.
	if i, _ := treetest.FindUnder(fl, rd, "RequestData.request.Protocols[0].Metadata.ConsumerProtocolSubscription", "ConsumerProtocolSubscription"); i < 0 {
		t.Errorf("no subscription in the envelope's request:\n%s", treetest.TextAt(fl, rd))
	}
	pi, p := treetest.Find(fl, "RequestPrincipal.DefaultPrincipalData", "DefaultPrincipalData")
	if p == nil || !strings.Contains(treetest.TextAt(fl, pi), `"alice"`) || p.Offset != bytes.Index(b, pb) {
		t.Fatalf("principal:\n%s", treetest.Text(fl))
	}
	j := roundTrip(t, b, "Envelope", 0, Request)
	if !strings.Contains(j, `"DefaultPrincipalData"`) || !strings.Contains(j, `"request": {`) || !strings.Contains(j, `"ConsumerProtocolSubscription"`) {
		t.Errorf("JSON:\n%s", j)
	}
	// Bytes that are no request, a principal of a version Kafka refuses:
	// error nodes inside the fields, the rest of the tree whole.
	for _, bad := range []string{
		fmt.Sprintf(`{"RequestData":"ffff0000","RequestPrincipal":"%x","ClientHostAddress":"7f000001"}`, pb),
		fmt.Sprintf(`{"RequestData":"%x","RequestPrincipal":"0001%x","ClientHostAddress":"7f000001"}`, inner[4:], pb[2:]),
	} {
		bb := frameFromJSON(t, "Envelope", 0, Request, bad)
		_, bfl, err := decodeTest(t, bb, "Envelope", 0, Request)
		if err != nil {
			t.Fatal(err)
		}
		e := treetest.FirstError(bfl)
		if ci, _ := treetest.Find(bfl, "ClientHostAddress", "ClientHostAddress"); e == nil || !strings.HasPrefix(e.Path, "Request") || ci < 0 {
			t.Errorf("%s:\n%s", bad, treetest.Text(bfl))
		}
		roundTrip(t, bb, "Envelope", 0, Request)
	}

	// An edit of the carried request re-encodes it, then the envelope.
	f, _, _ := decodeTest(t, b, "Envelope", 0, Request)
	if err := f.SetJSON([]byte(strings.Replace(j, `"GroupId": "g"`, `"GroupId": "group-2"`, 1))); err != nil {
		t.Fatal(err)
	}
	nb, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	_, fl, err = decodeTest(t, nb, "Envelope", 0, Request)
	if err != nil {
		t.Fatal(err)
	}
	_, gid = treetest.Find(fl, "RequestData.request.GroupId", "GroupId")
	if gid == nil || gid.Value != `"group-2"` || string(nb[gid.Offset+1:gid.End()]) != "group-2" {
		t.Errorf("edited GroupId %+v", gid)
	}
}

func TestNestedOwner(t *testing.T) {
	for p, want := range map[string]string{
		"Protocols[0].Metadata.ConsumerProtocolSubscription.Topics[0]":           "Protocols[0].Metadata",
		"Assignment.ConsumerProtocolAssignment":                                  "Assignment",
		"RequestData.request.GroupId":                                            "RequestData",
		"RequestData.request.Protocols[0].Metadata.ConsumerProtocolSubscription": "RequestData",
		"Protocols[0].Metadata":                                                  "",
		"Topics[0].requestX":                                                     "",
	} {
		got, ok := NestedOwner(p)
		if want == "" && (ok || got != p) || want != "" && (!ok || got != want) {
			t.Errorf("NestedOwner(%q) = %q, %v", p, got, ok)
		}
	}
}

// FuzzNested decodes hostile bytes where other formats are read in
// place: a consumer's JoinGroup metadata (mode 0), metadata without a
// protocol type to say what it is (1), SyncGroup's assignment (2),
// Envelope's principal (3) and carried request (4), SaslAuthenticate's
// AuthBytes in a request (5) and a response (6). Nothing panics, every
// node lies in the frame, and the JSON form encodes back byte for byte.
func FuzzNested(f *testing.F) {
	f.Add(subscription(&testing.T{}), uint8(0))
	f.Add([]byte{0, 9, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}, uint8(1))
	f.Add([]byte{0, 3, 0, 0, 0, 1, 0, 1, 'a', 0, 0, 0, 1, 0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff}, uint8(2))
	f.Add((&kmsg.DefaultPrincipalData{Type: "User", Name: "alice"}).AppendTo(nil), uint8(3))
	f.Add([]byte{0, 11, 0, 9, 0, 0, 0, 0, 0, 0, 0, 2, 'g', 0}, uint8(4))
	f.Add([]byte("a\x00alice\x00pw"), uint8(5))
	f.Add([]byte("n,a=x,n=user,r=abc,x=1"), uint8(5))
	f.Add([]byte("c=biws,r=abc,p=AAAA"), uint8(5))
	f.Add([]byte("n,,\x01auth=Bearer eyJhIjoxfQ.eyJzdWIiOiJhIn0.c2ln\x01host=h\x01\x01"), uint8(5))
	f.Add([]byte("r=abc,s=QSXCR+Q6sek8bf92,i=4096"), uint8(6))
	f.Add([]byte("v=rmF9pqV8S7suAoZWja4dJRkFsKQ="), uint8(6))
	f.Add([]byte(`{"status":"invalid_token"}`), uint8(6))
	f.Add(otlpSeed, uint8(7))
	f.Add([]byte{0x0a, 0xff, 0xff, 0xff, 0xff, 0x0f}, uint8(7))
	f.Add(otlpGzipSeed, uint8(8))
	f.Add(otlpSnappySeed, uint8(9))
	set := loadSet(f, "trunk")
	type frameOf struct {
		api     string
		version int16
		dir     Direction
		body    string
	}
	modes := []frameOf{
		{"JoinGroup", 9, Request, `{"GroupId":"g","ProtocolType":"consumer","Protocols":[{"Name":"range","Metadata":"%x"}]}`},
		{"JoinGroup", 6, Response, `{"Members":[{"MemberId":"m","Metadata":"%x"}]}`},
		{"SyncGroup", 5, Response, `{"ProtocolType":"consumer","Assignment":"%x"}`},
		{"Envelope", 0, Request, `{"RequestData":"000c0004000000000000","RequestPrincipal":"%x"}`},
		{"Envelope", 0, Request, `{"RequestData":"%x","RequestPrincipal":"0000000000"}`},
		{"SaslAuthenticate", 2, Request, `{"AuthBytes":"%x"}`},
		{"SaslAuthenticate", 1, Response, `{"AuthBytes":"%x"}`},
		{"PushTelemetry", 0, Request, `{"CompressionType":0,"Metrics":"%x"}`},
		{"PushTelemetry", 0, Request, `{"CompressionType":1,"Metrics":"%x"}`},
		{"PushTelemetry", 0, Request, `{"CompressionType":2,"Metrics":"%x"}`},
	}
	f.Fuzz(func(t *testing.T, inner []byte, mode uint8) {
		m := modes[int(mode)%len(modes)]
		api, err := set.LookupAPI(m.api)
		if err != nil {
			t.Fatal(err)
		}
		fr, err := NewFrame(set, api, m.version, m.dir)
		if err != nil {
			t.Fatal(err)
		}
		if err := fr.SetJSON(fmt.Appendf(nil, m.body, inner)); err != nil {
			t.Fatal(err)
		}
		b, err := fr.Encode()
		if err != nil {
			t.Fatal(err)
		}
		got, fl, err := Decode(b, DecodeOptions{Set: set, API: api, Version: m.version, Dir: m.dir})
		if err != nil {
			t.Fatal(err)
		}
		for _, n := range treetest.All(fl) {
			if !n.Relative && (n.Offset < 0 || n.End() > len(b)) {
				t.Fatalf("node %s [%d, %d) outside the frame", n.Name, n.Offset, n.End())
			}
		}
		j, err := got.JSON(len(b))
		if err != nil {
			t.Fatal(err)
		}
		if err := got.SetJSON(j); err != nil {
			t.Fatal(err)
		}
		back, err := got.Encode()
		if err != nil || !bytes.Equal(back, b) {
			t.Fatalf("round trip: %v\n%x\n%x\n%s", err, back, b, j)
		}
	})
}
