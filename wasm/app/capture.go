package app

import (
	"bytes"
	"encoding/binary"
	"errors"
	"io"
	"strconv"
	"strings"
	"time"

	"kwire/capture"
	"kwire/capture/tlsdec"
	"kwire/codec"
	"kwire/codec/records"
	"kwire/hexin"
	"kwire/internal/xfmt"
	"kwire/render"
	"kwire/schemas/sets"
)

// CapRow is one line of the conversation list: a request and its
// response (either may be missing), or another thing the capture holds
// (TLS, skipped bytes, an unreadable packet).
type CapRow struct {
	N        int     // 1-based line number
	Time     float64 // seconds since the capture's first event
	Conn     string  // client → broker ("" for a pasted stream)
	Kind     string  // "" for frames; "tls", "sasl", "skipped", "note"
	API      string  // the API's name ("?" when unknown)
	Key      int16
	Version  int16
	Corr     int32
	ReqSize  int // -1: no request
	RespSize int // -1: no response
	Latency  time.Duration
	Errors   []string // non-zero error codes of the response
	Status   string   // "" when every frame decoded, else what went wrong
	Info     string   // what a row that is no failure says: a decrypted TLS connection's version and suite
	Req      []byte   // the request frame
	Resp     []byte   // the response frame
	SASLMech string   // a SaslAuthenticate's mechanism, named by its connection's SaslHandshake
	// Leaks are the findings of the address audit in its response
	// (Capture.SetAdvertised).
	Leaks []capture.Leak
	text  string // what the filter matches, lower case
}

// Capture is a packet capture (or a pasted stream of frames) read into
// the conversation list. A file is read in steps (Step), so that the page
// can draw between them.
type Capture struct {
	Name   string
	Rows   []CapRow
	Stream bool  // from pasted hex, not a capture file
	Err    error // a damaged file: where reading stopped
	Done   bool

	filter string
	view   []int32 // the rows that match the filter

	size  int
	in    *countReader
	pr    *capture.PacketReader
	r     *capture.Reader
	last  time.Time
	t0    time.Time
	byReq map[int]int       // request event number → row
	names *codec.TopicNames // a pasted stream's topic ids (a file's are its reader's)

	up     *capture.Upgrade // the release report's gathering
	eps    []capture.Leak   // the responses' endpoints, in order
	byResp map[int]int      // response event number → row, for those with endpoints
	adv    []string         // the advertised addresses audited
	leaks  []capture.Leak
}

// topics names the topic ids that the capture's responses named.
func (c *Capture) topics() *codec.TopicNames {
	if c.r != nil {
		return c.r.TopicNames()
	}
	return c.names
}

type countReader struct {
	r *bytes.Reader
	n int
}

func (c *countReader) Read(p []byte) (int, error) {
	n, err := c.r.Read(p)
	c.n += n
	return n, err
}

// IsCapture reports whether b starts with the magic number of a pcap
// (either byte order, micro- or nanoseconds) or pcapng file.
func IsCapture(b []byte) bool {
	if len(b) < 4 {
		return false
	}
	switch binary.LittleEndian.Uint32(b) {
	case 0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1, 0x0a0d0d0a:
		return true
	}
	return false
}

// IsKeyLog reports whether b is an NSS key log (SSLKEYLOGFILE's
// format): its first line that is not a comment starts with a label of
// one.
func IsKeyLog(b []byte) bool {
	for len(b) > 0 {
		line := b
		if i := bytes.IndexByte(b, '\n'); i >= 0 {
			line, b = b[:i], b[i+1:]
		} else {
			b = nil
		}
		line = bytes.TrimSpace(line)
		if len(line) == 0 || line[0] == '#' {
			continue
		}
		for _, l := range []string{"CLIENT_RANDOM ", "CLIENT_HANDSHAKE_TRAFFIC_SECRET ", "SERVER_HANDSHAKE_TRAFFIC_SECRET ", "CLIENT_TRAFFIC_SECRET_0 ", "SERVER_TRAFFIC_SECRET_0 ", "EXPORTER_SECRET ", "CLIENT_EARLY_TRAFFIC_SECRET "} {
			if bytes.HasPrefix(line, []byte(l)) {
				return true
			}
		}
		return false
	}
	return false
}

// OpenCapture starts reading a pcap or pcapng file, its TLS connections
// decrypted with keys (nil: none but those the file embeds); Step reads
// it.
func OpenCapture(name string, b []byte, keys *tlsdec.KeyLog) (*Capture, error) {
	c := &Capture{Name: name, size: len(b), in: &countReader{r: bytes.NewReader(b)}, byReq: map[int]int{},
		up: capture.NewUpgrade(), byResp: map[int]int{}}
	pr, err := capture.NewPacketReader(c.in)
	if err != nil {
		return nil, err
	}
	c.pr = pr
	c.r = capture.NewReader(capture.Options{KeyLog: keys}, c.event)
	return c, nil
}

// Step reads packets for about budget (at least one), and reports
// whether the file is read to its end.
func (c *Capture) Step(budget time.Duration) bool {
	if c.Done {
		return true
	}
	start := time.Now()
	for i := 0; ; i++ {
		if i%64 == 63 && time.Since(start) >= budget {
			return false
		}
		p, err := c.pr.Next()
		if k := c.pr.Secrets(); k != nil {
			c.r.AddKeyLog(k, p.N)
		}
		if err != nil {
			c.r.Close(c.last)
			if err != io.EOF {
				c.Err = err
			}
			c.Done, c.pr, c.in = true, nil, nil
			c.applyFilter()
			return true
		}
		c.last = p.Time
		c.r.Packet(p)
	}
}

// Progress says how much of the file is read, in bytes.
func (c *Capture) Progress() (read, size int) {
	if c.Done || c.in == nil {
		return c.size, c.size
	}
	return min(c.in.n, c.size), c.size
}

// Summary says what the list holds (and, while reading, how far it is).
func (c *Capture) Summary() string {
	var b strings.Builder
	b.WriteString(c.Name)
	if b.Len() > 0 {
		b.WriteString(": ")
	}
	if !c.Done {
		read, size := c.Progress()
		xfmt.Fprintf(&b, "reading, %d%% of %d bytes; ", int(float64(read)*100/float64(max(size, 1))), size)
	}
	what := "conversations"
	if c.Stream {
		what = "frames paired into rows"
	}
	xfmt.Fprintf(&b, "%d %s", len(c.Rows), what)
	if c.r != nil {
		xfmt.Fprintf(&b, " from %d packets", c.r.Packets)
	}
	if len(c.view) != len(c.Rows) {
		xfmt.Fprintf(&b, ", %d match the filter", len(c.view))
	}
	if c.Err != nil {
		b.WriteString("; the file is damaged: " + c.Err.Error())
	}
	return b.String()
}

var capLimits = records.Limits{}

// event adds a capture event to the list.
func (c *Capture) event(e *capture.Event) {
	if c.t0.IsZero() {
		c.t0 = e.Start
	}
	row := CapRow{Time: e.Time.Sub(c.t0).Seconds(), ReqSize: -1, RespSize: -1, Latency: -1, Key: -1}
	if e.Conn != nil {
		row.Conn = e.Conn.String()
	}
	switch e.Kind {
	case capture.KindFrame:
	case capture.KindTLS:
		row.Kind, row.API = "tls", "TLS"
		if e.TLS.Decrypted || e.NotKafka {
			row.Info = e.Note
		} else {
			row.Status = e.Note
		}
	case capture.KindSASL:
		row.Kind, row.API, row.Status = "sasl", "SASL token", xfmt.Sprintf("%d bytes", len(e.Data))
	case capture.KindSkipped:
		row.Kind, row.API, row.Status = "skipped", "skipped", e.Note
	default:
		row.Kind, row.API, row.Status = "note", "note", e.Note
	}
	if e.Kind != capture.KindFrame {
		c.add(row)
		return
	}
	if c.up != nil {
		c.up.Add(e)
	}
	data := bytes.Clone(e.Data)
	// Without trees: a capture's frames are many, and a tree costs ten
	// times the values (damage inside records shows when a row is opened).
	f, err := e.DecodeValues(capLimits)
	status := capture.FrameStatus(e.Incomplete, nil, err)
	var eps []capture.Leak
	if c.byResp != nil && err == nil {
		eps = capture.FrameEndpoints(e, f)
		c.eps = append(c.eps, eps...)
	}
	if e.Dir == codec.Request {
		row.Key, row.Version, row.Corr = e.Key, e.Version, e.Correlation
		row.API = capture.APIName(e.Key)
		row.ReqSize, row.Req, row.SASLMech = e.Size, data, e.SASLMechanism
		if status != "" {
			row.Status = "request: " + status
		}
		c.byReq[e.N] = len(c.Rows)
		c.add(row)
		return
	}
	i, ok := -1, false
	if e.Request != nil {
		i, ok = c.byReq[e.Request.N]
		delete(c.byReq, e.Request.N)
	}
	if !ok {
		row.Key, row.Version, row.Corr, row.API = e.Key, e.Version, e.Correlation, "?"
		if e.Request != nil {
			row.API = capture.APIName(e.Key)
		}
		row.RespSize, row.Resp, row.Errors = e.Size, data, capture.ErrorCodes(f)
		if status != "" {
			row.Status = "response: " + status
		}
		if len(eps) > 0 {
			c.byResp[e.N] = len(c.Rows)
		}
		c.add(row)
		return
	}
	if len(eps) > 0 {
		c.byResp[e.N] = i
	}
	r := &c.Rows[i]
	before := c.matches(r)
	r.RespSize, r.Resp, r.Errors = e.Size, data, capture.ErrorCodes(f)
	r.Latency = e.Time.Sub(e.Request.Time)
	if status != "" {
		r.Status = strings.TrimPrefix(r.Status+"; response: "+status, "; ")
	}
	r.text = rowText(r)
	if c.matches(r) != before {
		c.applyFilter()
	}
}

func (c *Capture) add(row CapRow) {
	row.N = len(c.Rows) + 1
	row.text = rowText(&row)
	c.Rows = append(c.Rows, row)
	if c.matches(&row) {
		c.view = append(c.view, int32(len(c.Rows)-1))
	}
}

func rowText(r *CapRow) string {
	var b strings.Builder
	xfmt.Fprintf(&b, "%s v%d %d %s %s %s %s", r.API, r.Version, r.Corr, r.Conn, r.Kind, r.Status, r.Info)
	for _, e := range r.Errors {
		b.WriteString(" " + e)
	}
	if len(r.Errors) > 0 {
		b.WriteString(" error")
	}
	if r.Status != "" {
		b.WriteString(" failed")
	}
	return strings.ToLower(b.String())
}

// SetFilter shows only the rows that hold every word of q (API, version
// as vN, correlation id, connection, error code names, status; "error"
// matches rows with an error code, "failed" rows that did not decode).
func (c *Capture) SetFilter(q string) {
	c.filter = strings.ToLower(strings.TrimSpace(q))
	c.applyFilter()
}

func (c *Capture) matches(r *CapRow) bool {
	for w := range strings.FieldsSeq(c.filter) {
		if !strings.Contains(r.text, w) {
			return false
		}
	}
	return true
}

func (c *Capture) applyFilter() {
	c.view = c.view[:0]
	for i := range c.Rows {
		if c.matches(&c.Rows[i]) {
			c.view = append(c.view, int32(i))
		}
	}
}

// Len is the number of rows that match the filter.
func (c *Capture) Len() int { return len(c.view) }

// Row returns the index in Rows of the i-th row shown, or -1.
func (c *Capture) Row(i int) int {
	if i < 0 || i >= len(c.view) {
		return -1
	}
	return int(c.view[i])
}

// Move returns the row (an index of Rows) that is by rows shown away from
// sel, the row open, and its position among those shown, clamped to the
// first and last: a key in the list moves the open row so. With sel not
// shown (none open, or filtered out), moving down starts at the first row
// shown and moving up at the last. It returns -1, -1 when no row is shown.
func (c *Capture) Move(sel, by int) (row, pos int) {
	if len(c.view) == 0 {
		return -1, -1
	}
	pos = -1
	for i, ri := range c.view {
		if int(ri) == sel {
			pos = i
			break
		}
	}
	switch {
	case pos >= 0:
		pos += by
	case by > 0:
		pos = by - 1
	default:
		pos = len(c.view) + by
	}
	pos = min(max(pos, 0), len(c.view)-1)
	return int(c.view[pos]), pos
}

// CapHead is the list's column header.
const CapHead = `<div class="crow chead"><span class="cn">#</span><span class="ct">time</span><span class="cc">connection</span><span class="ca">API</span><span class="cv">ver</span><span class="ck">corr</span><span class="cs">request</span><span class="cs">response</span><span class="cl">latency</span><span class="ce">errors / status</span></div>`

// RowsHTML returns rows [from, to) of those shown, escaped; sel is the
// index in Rows of the row open, or -1. A request's and a response's size
// are buttons that open that frame.
func (c *Capture) RowsHTML(from, to, sel int) string {
	var b strings.Builder
	from, to = max(from, 0), min(to, len(c.view))
	for i := from; i < to; i++ {
		ri := int(c.view[i])
		r := &c.Rows[ri]
		cls := "crow"
		if ri == sel {
			cls += " sel"
		}
		if r.Status != "" {
			cls += " bad"
		} else if len(r.Errors) > 0 {
			cls += " haserr"
		}
		if len(r.Leaks) > 0 {
			cls += " leak"
		}
		xfmt.Fprintf(&b, `<div class="%s" data-r="%d"><span class="cn">%d</span><span class="ct">%.6f</span><span class="cc">%s</span><span class="ca">%s</span>`,
			cls, ri, r.N, r.Time, render.Text(r.Conn), render.Text(r.API))
		if r.Kind != "" {
			xfmt.Fprintf(&b, `<span class="cv"></span><span class="ck"></span><span class="cs"></span><span class="cs"></span><span class="cl"></span><span class="ce">%s</span></div>`, render.Text(r.Status+r.Info))
			continue
		}
		xfmt.Fprintf(&b, `<span class="cv">%d</span><span class="ck">%d</span>`, r.Version, r.Corr)
		for j, n := range []int{r.ReqSize, r.RespSize} {
			if n < 0 {
				b.WriteString(`<span class="cs">-</span>`)
				continue
			}
			xfmt.Fprintf(&b, `<span class="cs"><button type="button" data-act="cap-open" data-r="%d" data-resp="%t">%d B</button></span>`, ri, j == 1, n)
		}
		lat := ""
		if r.Latency >= 0 {
			lat = xfmt.Sprintf("%.3fms", float64(r.Latency.Microseconds())/1000)
		}
		text := strings.Join(r.Errors, ",")
		if r.Status != "" {
			text = strings.TrimPrefix(text+"; "+r.Status, "; ")
		}
		for _, l := range r.Leaks {
			text = strings.TrimPrefix(text+"; leak: "+l.Path+" = "+l.Addr()+" ("+l.Why+")", "; ")
		}
		xfmt.Fprintf(&b, `<span class="cl">%s</span><span class="ce">%s</span></div>`, lat, render.Text(text))
	}
	return b.String()
}

// OpenRow shows a row's request (or, with resp, its response) as a
// pasted frame: editable, and in the link when small enough. A response
// is read with its request's API and version.
func (s *State) OpenRow(c *Capture, ri int, resp bool) error {
	if c == nil || ri < 0 || ri >= len(c.Rows) {
		return errors.New("no such row")
	}
	r := &c.Rows[ri]
	b := r.Req
	if resp && r.Resp != nil || b == nil {
		b, resp = r.Resp, true
	} else {
		resp = false
	}
	if b == nil {
		return errors.New("row " + strconv.Itoa(r.N) + " holds no Kafka frame")
	}
	s.choice, s.Body, s.guess = Auto, false, false
	s.leakPaths = nil
	if !resp {
		s.Dir = codec.Request
		return s.load(b, r.SASLMech, c.topics(), true)
	}
	if r.API != "?" && r.Key >= 0 {
		if set, err := sets.ForVersion(r.Key, r.Version, true); err == nil {
			if a := set.APIByKey(r.Key); a != nil {
				s.Set, s.API, s.Version = set, a, r.Version
			}
		}
	}
	s.Dir = codec.Response
	s.leakPaths = r.LeakPaths()
	return s.load(b, r.SASLMech, c.topics(), true)
}

// SplitFrames splits bytes into size-prefixed frames when there are two
// or more and their sizes cover the bytes exactly; else nil.
func SplitFrames(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		if len(b) < 12 {
			return nil
		}
		n := int64(binary.BigEndian.Uint32(b))
		if n < 8 || n > int64(len(b)-4) {
			return nil
		}
		out = append(out, b[:4+n])
		b = b[4+n:]
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// PastedStream reads pasted text holding several frames end to end (a
// stream copied from Wireshark's "Follow TCP Stream") as a list: each
// frame that decodes as a request is one; a response is paired with the
// request before it of the same correlation id. It returns nil for text
// that is not two or more frames.
func PastedStream(text string) *Capture {
	b, err := hexin.Parse(text)
	if err != nil {
		return nil
	}
	frames := SplitFrames(b)
	if frames == nil {
		return nil
	}
	c := &Capture{Name: "pasted stream", Stream: true, Done: true, size: len(b), names: codec.NewTopicNames()}
	auto, err := sets.Load(Auto)
	if err != nil {
		return nil
	}
	pending := map[int32]int{}
	for _, f := range frames {
		f = bytes.Clone(f)
		corr := int32(binary.BigEndian.Uint32(f[4:]))
		fr, fl, err := codec.Decode(f, codec.DecodeOptions{Set: auto, Choose: sets.Choice{}, Dir: codec.Request})
		// A response may read as some request with bytes left over
		// (Frame.Trailing): such a reading is not taken as a request, and
		// the row is identified when opened.
		if err == nil && fl != nil && (fr == nil || len(fr.Trailing) == 0) {
			row := CapRow{ReqSize: len(f), RespSize: -1, Latency: -1, Req: f,
				Key: int16(binary.BigEndian.Uint16(f[4:])), Version: int16(binary.BigEndian.Uint16(f[6:])),
				Corr: int32(binary.BigEndian.Uint32(f[8:]))}
			row.API = capture.APIName(row.Key)
			if st := capture.FrameStatus("", fl, nil); st != "" {
				row.Status = "request: " + st
			}
			pending[row.Corr] = len(c.Rows)
			c.add(row)
			continue
		}
		i, ok := pending[corr]
		if !ok {
			c.add(CapRow{API: "?", Key: -1, Corr: corr, ReqSize: -1, RespSize: len(f), Latency: -1, Resp: f})
			continue
		}
		delete(pending, corr)
		r := &c.Rows[i]
		r.RespSize, r.Resp = len(f), f
		if set, err := sets.ForVersion(r.Key, r.Version, true); err == nil {
			if a := set.APIByKey(r.Key); a != nil {
				fr, fl, err := codec.Decode(f, codec.DecodeOptions{Set: set, API: a, Version: r.Version, Dir: codec.Response, TopicNames: c.names, Trailing: true})
				r.Errors = capture.ErrorCodes(fr)
				if err == nil && capture.NamesTopics(r.Key) {
					if _, bp, err := fr.Plans(); err == nil {
						c.names.Add(bp, fr.Body)
					}
				}
				if st := capture.FrameStatus("", fl, err); st != "" {
					r.Status = strings.TrimPrefix(r.Status+"; response: "+st, "; ")
				}
			}
		}
		r.text = rowText(r)
	}
	c.applyFilter()
	return c
}
