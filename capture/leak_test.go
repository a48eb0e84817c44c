package capture_test

import (
	"testing"

	"kwire/capture"
	"kwire/capture/capturetest"
	"kwire/codec"
	"kwire/schemas/sets"
)

func TestParseAdvertised(t *testing.T) {
	for in, want := range map[string]string{
		"a:9092":                "a:9092",
		" a:1 , b:2 ":           "a:1 b:2",
		"[::1]:9092":            "[::1]:9092",
		"a":                     "",
		"a:0":                   "",
		"a:65536":               "",
		"::1:9092":              "",
		":9092":                 "",
		"":                      "",
		"kafka-0.internal:9093": "kafka-0.internal:9093",
	} {
		got, err := capture.ParseAdvertised(in)
		s := ""
		for i, g := range got {
			if i > 0 {
				s += " "
			}
			s += g
		}
		if s != want || (err == nil) != (want != "") {
			t.Errorf("%q: %q %v, want %q", in, s, err, want)
		}
	}
}

func TestClientID(t *testing.T) {
	f, err := capturetest.FrameFromJSON("trunk", "Metadata", 12, codec.Request, 7, "{}")
	if err != nil {
		t.Fatal(err)
	}
	if got := capture.ClientID(f); got != "" {
		t.Errorf("empty client id: %q", got)
	}
	// The header's client id is the int16 length at 12 and its bytes.
	g := append(append(append([]byte{}, f[:12]...), 0, 3, 'a', 'p', 'p'), f[14:]...)
	if got := capture.ClientID(g); got != "app" {
		t.Errorf("%q", got)
	}
	cs := append([]byte{}, g...)
	cs[5], cs[7] = 7, 0 // ControlledShutdown v0: header v0
	if got := capture.ClientID(cs); got != "" {
		t.Errorf("ControlledShutdown v0: %q", got)
	}
	for _, cut := range []int{0, 11, 13, 15} {
		if got := capture.ClientID(g[:cut]); got != "" && cut < 17 {
			t.Errorf("cut at %d: %q", cut, got)
		}
	}
}

// TestEndpoints: the endpoints of a DescribeQuorum response are its
// nodes' listeners, named by the node of their parent; one node's two
// listeners are not a node with two endpoints.
func TestEndpoints(t *testing.T) {
	b, err := capturetest.FrameFromJSON("trunk", "DescribeQuorum", 2, codec.Response, 1,
		`{"Nodes":[{"NodeId":3,"Listeners":[{"Name":"CONTROLLER","Host":"c3","Port":9093},{"Name":"INTERNAL","Host":"c3","Port":9094}]}]}`)
	if err != nil {
		t.Fatal(err)
	}
	s, _ := sets.Load("trunk")
	f, _, err := codec.Decode(b, codec.DecodeOptions{Set: s, API: s.APIByKey(55), Version: 2, Dir: codec.Response})
	if err != nil {
		t.Fatal(err)
	}
	eps := capture.Endpoints(f)
	if len(eps) != 2 || eps[0].Node != 3 || eps[0].Listener != "CONTROLLER" || eps[1].Path != "Nodes[0].Listeners[1].Host" || eps[1].PortPath != "Nodes[0].Listeners[1].Port" || eps[1].Addr() != "c3:9094" {
		t.Fatalf("%+v", eps)
	}
	if leaks := capture.NewAudit(nil).Check(eps); len(leaks) != 0 {
		t.Errorf("%+v", leaks)
	}
	if leaks := capture.NewAudit([]string{"c3:9093"}).Check(eps); len(leaks) != 1 || leaks[0].Port != 9094 || leaks[0].Why != "not advertised" {
		t.Errorf("%+v", leaks)
	}
	// A Streams member's endpoint is the application's: no node names it.
	b, err = capturetest.FrameFromJSON("trunk", "StreamsGroupHeartbeat", 0, codec.Response, 1,
		`{"PartitionsByUserEndpoint":[{"UserEndpoint":{"Host":"app","Port":8080}}]}`)
	if err != nil {
		t.Fatal(err)
	}
	f, _, err = codec.Decode(b, codec.DecodeOptions{Set: s, API: s.APIByKey(88), Version: 0, Dir: codec.Response})
	if err != nil {
		t.Fatal(err)
	}
	if eps := capture.Endpoints(f); len(eps) != 0 {
		t.Errorf("%+v", eps)
	}
	if capture.Carries(18) || !capture.Carries(3) || !capture.Carries(0) {
		t.Error("Carries")
	}
}
