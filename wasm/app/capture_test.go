package app

import (
	"bytes"
	"encoding/hex"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"kwire/capture"
	"kwire/tree/treetest"

	"kwire/capture/capturetest"
	"kwire/codec"
	"kwire/tree"
)

// frameOf encodes a frame of api at version with fields set (form keys).
func frameOf(t *testing.T, api string, version int, dir codec.Direction, fields map[string]string) []byte {
	t.Helper()
	s, err := New("", api)
	if err != nil {
		t.Fatal(err)
	}
	if err := s.Select(Auto, api, version, dir); err != nil {
		t.Fatal(err)
	}
	for k, v := range fields {
		if err := s.SetField(k, v); err != nil {
			t.Fatalf("%s %s=%s: %v", api, k, v, err)
		}
	}
	return bytes.Clone(s.Bytes)
}

// conversation is two connections: ApiVersions v3 and CreateTopics v7
// (its response with TOPIC_ALREADY_EXISTS) on the first, a Metadata v12
// request without response on the second.
func conversation(t *testing.T) (chunks []capturetest.Chunk, frames [][]byte) {
	at := time.Unix(1700000000, 0)
	frames = [][]byte{
		frameOf(t, "ApiVersions", 3, codec.Request, map[string]string{"h:CorrelationId": "1"}),
		frameOf(t, "ApiVersions", 3, codec.Response, map[string]string{"h:CorrelationId": "1"}),
		frameOf(t, "CreateTopics", 7, codec.Request, map[string]string{"h:CorrelationId": "2", "b:Topics[0].Name": "orders"}),
		frameOf(t, "CreateTopics", 7, codec.Response, map[string]string{"h:CorrelationId": "2", "b:Topics[0].Name": "orders", "b:Topics[0].ErrorCode": "36"}),
		frameOf(t, "Metadata", 12, codec.Request, map[string]string{"h:CorrelationId": "5"}),
	}
	chunks = []capturetest.Chunk{
		{Conn: 0, FromClient: true, Time: at, Data: frames[0]},
		{Conn: 0, FromClient: false, Time: at.Add(time.Millisecond), Data: frames[1]},
		{Conn: 0, FromClient: true, Time: at.Add(5 * time.Millisecond), Data: frames[2]},
		{Conn: 1, FromClient: true, Time: at.Add(6 * time.Millisecond), Data: frames[4]},
		{Conn: 0, FromClient: false, Time: at.Add(17 * time.Millisecond), Data: frames[3]},
	}
	return chunks, frames
}

func readCapture(t *testing.T, b []byte) *Capture {
	t.Helper()
	if !IsCapture(b) {
		t.Fatalf("not a capture: %x", b[:4])
	}
	c, err := OpenCapture("test.pcap", b, nil)
	if err != nil {
		t.Fatal(err)
	}
	for steps := 0; !c.Step(0); steps++ {
		if read, size := c.Progress(); read > size || steps > 1000 {
			t.Fatalf("progress %d of %d after %d steps", read, size, steps)
		}
	}
	if read, size := c.Progress(); read != size || c.Err != nil {
		t.Fatalf("progress %d of %d at the end, error %v", read, size, c.Err)
	}
	return c
}

func TestCaptureList(t *testing.T) {
	chunks, frames := conversation(t)
	pkts := capturetest.Packets(chunks, capturetest.Options{MSS: 20})
	var pcap, ng bytes.Buffer
	if err := capturetest.WritePcap(&pcap, pkts, 1, true, false, 65535); err != nil {
		t.Fatal(err)
	}
	if err := capturetest.WritePcapng(&ng, pkts, nil); err != nil {
		t.Fatal(err)
	}
	for _, b := range [][]byte{pcap.Bytes(), ng.Bytes()} {
		c := readCapture(t, b)
		if len(c.Rows) != 3 || c.Len() != 3 {
			t.Fatalf("%d rows, %d shown; want 3: %+v", len(c.Rows), c.Len(), c.Rows)
		}
		r := c.Rows[1]
		if r.API != "CreateTopics" || r.Version != 7 || r.Corr != 2 || r.Conn != "10.0.0.1:40000 → 10.0.0.2:9092" ||
			r.ReqSize != len(frames[2]) || r.RespSize != len(frames[3]) || r.Latency != 12*time.Millisecond ||
			strings.Join(r.Errors, ",") != "TOPIC_ALREADY_EXISTS" || r.Status != "" || r.Time != 0.005 {
			t.Errorf("CreateTopics row: %+v", r)
		}
		if r := c.Rows[2]; r.API != "Metadata" || r.RespSize != -1 || r.Latency != -1 || r.Conn != "10.0.0.1:40001 → 10.0.0.2:9092" {
			t.Errorf("Metadata row: %+v", r)
		}
		if r := c.Rows[0]; r.API != "ApiVersions" || r.Latency != time.Millisecond || len(r.Errors) != 0 {
			t.Errorf("ApiVersions row: %+v", r)
		}
		if sum := c.Summary(); !strings.Contains(sum, "3 conversations") {
			t.Errorf("summary: %s", sum)
		}
		h := c.RowsHTML(0, 10, 1)
		if strings.Count(h, `class="crow`) != 3 || !strings.Contains(h, `class="crow sel haserr" data-r="1"`) ||
			!strings.Contains(h, "TOPIC_ALREADY_EXISTS") || !strings.Contains(h, "12.000ms") || !strings.Contains(h, "10.0.0.1:40000 → 10.0.0.2:9092") {
			t.Errorf("rows:\n%s", h)
		}
		if h := c.RowsHTML(1, 2, -1); strings.Count(h, `class="crow`) != 1 || !strings.Contains(h, "CreateTopics") {
			t.Errorf("row 1 alone:\n%s", h)
		}
	}
}

func TestCaptureFilter(t *testing.T) {
	chunks, _ := conversation(t)
	var b bytes.Buffer
	if err := capturetest.WritePcap(&b, capturetest.Packets(chunks, capturetest.Options{}), 1, false, false, 65535); err != nil {
		t.Fatal(err)
	}
	c := readCapture(t, b.Bytes())
	for q, want := range map[string][]int{
		"":                     {0, 1, 2},
		"createtopics":         {1},
		"TOPIC_ALREADY":        {1},
		"error":                {1},
		"10.0.0.1:40001":       {2},
		"40000 v3":             {0},
		"apiversions metadata": nil,
		"no such thing":        nil,
		"  ":                   {0, 1, 2},
	} {
		c.SetFilter(q)
		var got []int
		for i := range c.Len() {
			got = append(got, c.Row(i))
		}
		if fmtInts(got) != fmtInts(want) {
			t.Errorf("filter %q: rows %v, want %v", q, got, want)
		}
	}
	// A filter set while reading: a row matches once its response came.
	c, err := OpenCapture("", b.Bytes(), nil)
	if err != nil {
		t.Fatal(err)
	}
	c.SetFilter("TOPIC_ALREADY_EXISTS")
	for !c.Step(0) {
	}
	if c.Len() != 1 || c.Row(0) != 1 {
		t.Errorf("filter while reading: %d rows", c.Len())
	}
	if c.Row(-1) != -1 || c.Row(99) != -1 {
		t.Error("Row out of range")
	}
}

// TestCaptureMove: the keys of the list move the open row through the
// rows shown, filtered or not, and stop at the ends.
func TestCaptureMove(t *testing.T) {
	chunks, _ := conversation(t)
	var b bytes.Buffer
	if err := capturetest.WritePcap(&b, capturetest.Packets(chunks, capturetest.Options{}), 1, false, false, 65535); err != nil {
		t.Fatal(err)
	}
	c := readCapture(t, b.Bytes())
	for _, m := range []struct {
		filter           string
		sel, by          int
		wantRow, wantPos int
	}{
		{"", -1, 1, 0, 0},   // none open: down opens the first
		{"", -1, -1, 2, 2},  // and up the last
		{"", 0, 1, 1, 1},    // down
		{"", 1, -1, 0, 0},   // up
		{"", 2, 1, 2, 2},    // stops at the last
		{"", 0, -1, 0, 0},   // and at the first
		{"", 0, 10, 2, 2},   // a page down past the end
		{"", 2, -10, 0, 0},  // a page up past the start
		{"", -1, 10, 2, 2},  // End with none open
		{"", -1, -10, 0, 0}, // Home with none open
		{"error", 1, 1, 1, 0},
		{"error", 0, 1, 1, 0}, // the open row filtered out: the first shown
		{"no such thing", 0, 1, -1, -1},
	} {
		c.SetFilter(m.filter)
		if row, pos := c.Move(m.sel, m.by); row != m.wantRow || pos != m.wantPos {
			t.Errorf("filter %q, Move(%d, %d) = %d, %d; want %d, %d", m.filter, m.sel, m.by, row, pos, m.wantRow, m.wantPos)
		}
	}
}

func fmtInts(a []int) string {
	var b strings.Builder
	for i, x := range a {
		if i > 0 {
			b.WriteByte(' ')
		}
		b.WriteString(string(rune('0' + x)))
	}
	return b.String()
}

func TestCaptureOpenRow(t *testing.T) {
	chunks, frames := conversation(t)
	var b bytes.Buffer
	if err := capturetest.WritePcapng(&b, capturetest.Packets(chunks, capturetest.Options{IPv6: true}), nil); err != nil {
		t.Fatal(err)
	}
	c := readCapture(t, b.Bytes())
	if c.Rows[0].Conn != "[fd00::1]:40000 → [fd00::2]:9092" {
		t.Errorf("IPv6 connection: %s", c.Rows[0].Conn)
	}
	s := newState(t)
	if err := s.OpenRow(c, 1, false); err != nil {
		t.Fatal(err)
	}
	if s.API.Name != "CreateTopics" || s.Version != 7 || s.Dir != codec.Request || !s.Pasted || s.Frame == nil || !bytes.Equal(s.Bytes, frames[2]) {
		t.Errorf("request: %s v%d %s pasted %v, %x", s.API.Name, s.Version, s.Dir, s.Pasted, s.Bytes)
	}
	if !strings.Contains(s.Query(), "hex="+hex.EncodeToString(frames[2])) {
		t.Errorf("link: %s", s.Query())
	}
	// The response is read with its request's API and version, whatever
	// is selected; it can be edited.
	if err := s.Select("", "Fetch", -1, codec.Response); err != nil {
		t.Fatal(err)
	}
	if err := s.OpenRow(c, 1, true); err != nil {
		t.Fatal(err)
	}
	if s.API.Name != "CreateTopics" || s.Version != 7 || s.Dir != codec.Response || s.Frame == nil || !bytes.Equal(s.Bytes, frames[3]) || len(s.Candidates) != 0 {
		t.Fatalf("response: %s v%d %s %v", s.API.Name, s.Version, s.Dir, s.Err)
	}
	if !strings.Contains(s.Tree(), "TOPIC_ALREADY_EXISTS") {
		t.Error("the response's tree lacks its error code")
	}
	if err := s.SetField("b:Topics[0].ErrorCode", "0"); err != nil || bytes.Equal(s.Bytes, frames[3]) {
		t.Errorf("editing the opened response: %v", err)
	}
	if err := s.OpenRow(c, 2, true); err != nil || s.API.Name != "Metadata" || s.Dir != codec.Request {
		t.Errorf("a row without response opens its request: %v %s %s", err, s.API.Name, s.Dir)
	}
	if err := s.OpenRow(c, 7, false); err == nil {
		t.Error("row 7 opened")
	}
}

func TestCaptureManySteps(t *testing.T) {
	var chunks []capturetest.Chunk
	at := time.Unix(1700000000, 0)
	for i := range 300 {
		corr := map[string]string{"h:CorrelationId": string(rune('1' + i%9))}
		chunks = append(chunks, capturetest.Chunk{Conn: i % 3, FromClient: true, Time: at.Add(time.Duration(i) * time.Millisecond), Data: frameOf(t, "ApiVersions", 3, codec.Request, corr)})
	}
	var b bytes.Buffer
	if err := capturetest.WritePcap(&b, capturetest.Packets(chunks, capturetest.Options{}), 1, false, false, 65535); err != nil {
		t.Fatal(err)
	}
	c, err := OpenCapture("many", b.Bytes(), nil)
	if err != nil {
		t.Fatal(err)
	}
	steps, last := 0, -1
	for !c.Step(0) {
		steps++
		read, _ := c.Progress()
		if read < last {
			t.Fatalf("progress went back: %d after %d", read, last)
		}
		last = read
	}
	if steps < 3 || len(c.Rows) != 300 || !strings.Contains(c.Summary(), "300 conversations from 315 packets") {
		t.Errorf("%d steps, %d rows: %s", steps, len(c.Rows), c.Summary())
	}
	if h := c.RowsHTML(100, 120, -1); strings.Count(h, `class="crow`) != 20 || !strings.Contains(h, `data-r="100"`) || strings.Contains(h, `data-r="120"`) {
		t.Errorf("rows 100 to 120:\n%.300s", h)
	}
}

func TestCaptureBadFile(t *testing.T) {
	chunks, _ := conversation(t)
	var b bytes.Buffer
	if err := capturetest.WritePcap(&b, capturetest.Packets(chunks, capturetest.Options{}), 1, false, false, 65535); err != nil {
		t.Fatal(err)
	}
	c, err := OpenCapture("cut.pcap", b.Bytes()[:b.Len()-30], nil)
	if err != nil {
		t.Fatal(err)
	}
	for !c.Step(time.Second) {
	}
	if c.Err == nil || !strings.Contains(c.Summary(), "truncated") {
		t.Errorf("a cut file: %v, %s", c.Err, c.Summary())
	}
	if _, err := OpenCapture("x", []byte{0xa1, 0xb2}, nil); err == nil {
		t.Error("2 bytes opened")
	}
	if IsCapture([]byte("0000")) || IsCapture(nil) || !IsCapture([]byte{0x0a, 0x0d, 0x0d, 0x0a}) || !IsCapture([]byte{0xa1, 0xb2, 0xc3, 0xd4}) {
		t.Error("IsCapture")
	}
}

func TestPastedStream(t *testing.T) {
	_, frames := conversation(t)
	var text strings.Builder
	for _, i := range []int{0, 2, 1, 3} { // two requests, then their responses
		text.WriteString(hex.EncodeToString(frames[i]) + "\n")
	}
	c := PastedStream(text.String())
	if c == nil {
		t.Fatal("no stream")
	}
	if len(c.Rows) != 2 || c.Rows[0].API != "ApiVersions" || c.Rows[1].API != "CreateTopics" || c.Rows[1].RespSize != len(frames[3]) ||
		strings.Join(c.Rows[1].Errors, ",") != "TOPIC_ALREADY_EXISTS" || c.Rows[0].Status != "" {
		t.Fatalf("rows: %+v", c.Rows)
	}
	s := newState(t)
	if err := s.OpenRow(c, 1, true); err != nil || s.API.Name != "CreateTopics" || s.Dir != codec.Response {
		t.Errorf("response of the stream: %v", err)
	}
	// A response without its request is a row of its own, identified
	// when opened.
	c = PastedStream(hex.EncodeToString(frames[0]) + hex.EncodeToString(frames[3]))
	if c == nil || len(c.Rows) != 2 || c.Rows[1].API != "?" || c.Rows[1].ReqSize != -1 {
		t.Fatalf("unpaired response: %+v", c)
	}
	if err := s.OpenRow(c, 1, false); err != nil || s.API.Name != "CreateTopics" {
		t.Errorf("the unpaired response is identified: %v %s %v", err, s.API.Name, s.Candidates)
	}
	for _, one := range []string{hex.EncodeToString(frames[0]), hex.EncodeToString(frames[0]) + "00", "zz", ""} {
		if PastedStream(one) != nil {
			t.Errorf("%q is a stream", one)
		}
	}
}

// treeErrorCodes reads the error codes from a tree's text, as the rows
// once did: the oracle of TestValueErrorCodes.
func treeErrorCodes(fl *tree.Flat) []string {
	var out []string
	for _, n := range treetest.All(fl) {
		if strings.HasSuffix(n.Name, "ErrorCode") && n.Value != "0" && n.Value != "" && n.Err == nil {
			v := n.Value
			if i := strings.IndexByte(v, '('); i >= 0 {
				v = strings.TrimSuffix(v[i+1:], ")")
			}
			if !slices.Contains(out, v) {
				out = append(out, v)
			}
		}
	}
	return out
}

// TestValueErrorCodes checks capture.ErrorCodes (read from values) against
// the codes in the tree's text, at the top and nested, known and unknown.
func TestValueErrorCodes(t *testing.T) {
	for _, c := range []struct {
		api    string
		v      int
		fields map[string]string
		want   string
	}{
		{"ApiVersions", 3, map[string]string{"b:ErrorCode": "35"}, "UNSUPPORTED_VERSION"},
		{"CreateTopics", 7, map[string]string{"b:Topics[0].ErrorCode": "36"}, "TOPIC_ALREADY_EXISTS"},
		{"Metadata", 12, map[string]string{"b:Topics[0].ErrorCode": "3", "b:Topics[0].Partitions[0].ErrorCode": "9999"}, "UNKNOWN_TOPIC_OR_PARTITION,9999"},
		{"Metadata", 12, nil, ""},
	} {
		b := frameOf(t, c.api, c.v, codec.Response, c.fields)
		s := newState(t)
		if err := s.Select(Auto, c.api, c.v, codec.Response); err != nil {
			t.Fatal(err)
		}
		if err := s.Load(b); err != nil {
			t.Fatal(err)
		}
		tree, values := strings.Join(treeErrorCodes(s.Flat), ","), strings.Join(capture.ErrorCodes(s.Frame), ",")
		if tree != c.want || values != c.want {
			t.Errorf("%s: tree %q, values %q, want %q", c.api, tree, values, c.want)
		}
	}
}

// TestCaptureRowTrailing: librdkafka's Metadata v13 request with three
// bytes after its body (codec/testdata/real) is a row that decodes in a
// capture, and opens without an error; pasted alone, with no connection to
// say it is a request, it is not read so.
func TestCaptureRowTrailing(t *testing.T) {
	h, err := os.ReadFile("../../codec/testdata/real/librdkafka-metadata-v13-trailing.hex")
	if err != nil {
		t.Fatal(err)
	}
	req, err := hex.DecodeString(strings.TrimSpace(string(h)))
	if err != nil {
		t.Fatal(err)
	}
	at := time.Unix(1700000000, 0)
	chunks := []capturetest.Chunk{
		{Conn: 0, FromClient: true, Time: at, Data: req},
		{Conn: 0, FromClient: false, Time: at.Add(time.Millisecond), Data: frameOf(t, "Metadata", 13, codec.Response, map[string]string{"h:CorrelationId": "5"})},
	}
	var b bytes.Buffer
	if err := capturetest.WritePcap(&b, capturetest.Packets(chunks, capturetest.Options{}), 1, false, false, 65535); err != nil {
		t.Fatal(err)
	}
	c := readCapture(t, b.Bytes())
	if len(c.Rows) != 1 || c.Rows[0].API != "Metadata" || c.Rows[0].Status != "" || c.Rows[0].Resp == nil {
		t.Fatalf("rows: %+v", c.Rows)
	}
	s := newState(t)
	if err := s.OpenRow(c, 0, false); err != nil {
		t.Fatalf("the row: %v", err)
	}
	trailing := func() bool {
		found := false
		for _, n := range treetest.All(s.Flat) {
			found = found || n.Name == "trailing" && n.Size == 3
		}
		return found
	}
	if !trailing() {
		t.Error("no trailing node")
	}
	// Pasted, the bytes are a damaged request or identified as
	// something else, not that request read as the broker reads it.
	s.Load(req)
	if trailing() {
		t.Errorf("pasted alone: read with bytes after the body (%s v%d, %v)", s.API.Name, s.Version, s.Err)
	}
}
