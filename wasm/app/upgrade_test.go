package app

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"kwire/capture/capturetest"
	"kwire/codec"
)

// leakyCapture is one connection: ApiVersions v0 and Produce v2 (which
// 4.0 removed), a Metadata v12 response that names node 1 at
// proxy:9092, then a FindCoordinator v4 response that names it at
// broker-1:19092, the address behind the proxy.
func leakyCapture(t *testing.T) *Capture {
	at := time.Unix(1700000000, 0)
	frames := [][]byte{
		frameOf(t, "ApiVersions", 0, codec.Request, map[string]string{"h:CorrelationId": "1", "h:ClientId": "old-app"}),
		frameOf(t, "ApiVersions", 0, codec.Response, map[string]string{"h:CorrelationId": "1"}),
		frameOf(t, "Produce", 2, codec.Request, map[string]string{"h:CorrelationId": "2", "h:ClientId": "old-app"}),
		frameOf(t, "Metadata", 12, codec.Request, map[string]string{"h:CorrelationId": "3", "h:ClientId": "old-app"}),
		frameOf(t, "Metadata", 12, codec.Response, map[string]string{"h:CorrelationId": "3",
			"b:Brokers[0].NodeId": "1", "b:Brokers[0].Host": "proxy", "b:Brokers[0].Port": "9092"}),
		frameOf(t, "FindCoordinator", 4, codec.Request, map[string]string{"h:CorrelationId": "4", "h:ClientId": "old-app"}),
		frameOf(t, "FindCoordinator", 4, codec.Response, map[string]string{"h:CorrelationId": "4",
			"b:Coordinators[0].NodeId": "1", "b:Coordinators[0].Host": "broker-1", "b:Coordinators[0].Port": "19092"}),
	}
	var chunks []capturetest.Chunk
	for i, f := range frames {
		response := i == 1 || i == 4 || i == 6
		chunks = append(chunks, capturetest.Chunk{Conn: 0, FromClient: !response, Time: at.Add(time.Duration(i) * time.Millisecond), Data: f})
	}
	var b bytes.Buffer
	if err := capturetest.WritePcap(&b, capturetest.Packets(chunks, capturetest.Options{}), 1, false, false, 65535); err != nil {
		t.Fatal(err)
	}
	return readCapture(t, b.Bytes())
}

func TestCaptureReport(t *testing.T) {
	c := leakyCapture(t)
	if c.ReportHTML("") != "" {
		t.Error("a report without a release")
	}
	h := c.ReportHTML("4.0")
	for _, want := range []string{"Against 4.0", `client &#34;old-app&#34;`, "refused: Produce v2 ×1: 4.0 removed Produce v2 (KIP-896)", "works if the client supports v3"} {
		if !strings.Contains(h, want) {
			t.Errorf("report lacks %q:\n%s", want, h)
		}
	}
	if h := c.ReportHTML("3.9"); !strings.Contains(h, "3.9 refuses none of it") {
		t.Errorf("against 3.9:\n%s", h)
	}
}

func TestCaptureLeaks(t *testing.T) {
	c := leakyCapture(t)
	if _, err := c.SetAdvertised("proxy"); err == nil {
		t.Error("no error for an address without a port")
	}
	sum, err := c.SetAdvertised("proxy:9092")
	if err != nil || !strings.Contains(sum, "2 address leaks") {
		t.Fatalf("%q %v", sum, err)
	}
	var row = -1
	for i, r := range c.Rows {
		if len(r.Leaks) > 0 {
			if r.API != "FindCoordinator" || row >= 0 {
				t.Errorf("row %d (%s) marked", i, r.API)
			}
			row = i
		}
	}
	if row < 0 {
		t.Fatal("no row marked")
	}
	if h := c.RowsHTML(0, c.Len(), -1); !strings.Contains(h, "crow leak") || !strings.Contains(h, "leak: Coordinators[0].Host = broker-1:19092 (not advertised)") {
		t.Errorf("rows:\n%s", h)
	}
	s := newState(t)
	if err := s.OpenRow(c, row, true); err != nil {
		t.Fatal(err)
	}
	ids := s.LeakNodes()
	if len(ids) != 2 {
		t.Fatalf("marked nodes %v", ids)
	}
	for _, id := range ids {
		if n := s.Node(id); n.Path != "Coordinators[0].Host" && n.Path != "Coordinators[0].Port" {
			t.Errorf("node %d: %s", id, n.Path)
		}
	}
	if err := s.OpenRow(c, row, false); err != nil || s.LeakNodes() != nil {
		t.Errorf("the request has marks: %v", s.LeakNodes())
	}
	if sum, _ := c.SetAdvertised("proxy:9092,broker-1:19092"); !strings.Contains(sum, "1 address leak") {
		t.Errorf("with both advertised (node 1 still has two endpoints): %q", sum)
	}
	if sum, _ := c.SetAdvertised(""); sum != "" || len(c.Rows[row].Leaks) != 0 {
		t.Errorf("cleared: %q", sum)
	}
}
