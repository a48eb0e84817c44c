package capture

import (
	"encoding/binary"
	"io"
	"math"
	"sort"
	"strconv"
	"time"

	"kwire/capture/tlsdec"
	"kwire/codec"
	"kwire/codec/records"
	"kwire/internal/tlsrec"
	"kwire/internal/xfmt"
)

// Kind says what an Event is.
type Kind uint8

// The kinds of events.
const (
	KindFrame   Kind = iota // a Kafka request or response, whole or incomplete
	KindSASL                // an unframed SASL token (after SaslHandshake v0)
	KindTLS                 // a TLS connection's status: decrypted, or why not (Event.TLS)
	KindSkipped             // bytes that are not frames, skipped to resynchronise
	KindNote                // a packet that could not be read
)

// MaxFrame is the largest frame read (Kafka's socket.request.max.bytes is
// 100 MiB by default); a larger size loses the stream's framing.
const MaxFrame = 128 << 20

// maxResync is the largest frame accepted while looking for the next
// frame after lost bytes.
const maxResync = 16 << 20

// DefaultPorts are the ports read as Kafka without detection.
var DefaultPorts = []uint16{9092, 9093, 9094, 9095, 9096, 9097, 19092, 29092, 39092, 49092}

// Options say which connections are Kafka.
type Options struct {
	// Ports are broker ports besides DefaultPorts.
	Ports []uint16
	// Limits bound the records decoded by Decode and by the checks while
	// resynchronising (zero: the defaults).
	Limits records.Limits
	// TopicFormat is how Decode reads the keys and values of records
	// (codec.TopicAuto: as their topic's, when the capture names it).
	TopicFormat codec.TopicFormat
	// KeyLog holds the secrets that TLS connections are decrypted with
	// (nil: none, unless the capture embeds a key log); the Reader adds
	// the key logs a pcapng file embeds to it.
	KeyLog *tlsdec.KeyLog
}

// Request is what a response needs of its request.
type Request struct {
	N           int // the request's event number
	Key         int16
	Version     int16
	Correlation int32
	Time        time.Time
}

// Event is a frame or another thing a capture holds, in the order its
// last byte was captured.
type Event struct {
	N    int // 1-based number
	Kind Kind
	Conn *Conn
	Dir  codec.Direction
	Time time.Time
	// Start is the time of the capture's first packet, which TIME columns
	// count from: a TLS connection's status, held until its plaintext
	// shows Kafka, is said after events that came later.
	Start  time.Time
	Packet int   // the packet that completed it
	Offset int64 // offset of its first byte in its direction's stream (of a TLS connection, its plaintext)
	// Data is the frame's bytes, its size included; for an incomplete
	// frame, the bytes before the first gap. It is valid only during the
	// callback.
	Data []byte
	// Size is the frame's length on the wire: 4 + its size field.
	Size int
	// Incomplete says why Data lacks bytes of the frame.
	Incomplete string
	// Key, Version and Correlation: a request's from its header, a
	// response's from its request (Correlation from its header).
	Key, Version int16
	Correlation  int32
	// Request is a response's request (nil when the capture lacks it).
	Request *Request
	// Note describes skipped bytes and unreadable packets.
	Note string
	// SASLMechanism is, for a SaslAuthenticate frame, the mechanism
	// the connection's last SaslHandshake request named: Decode reads
	// the frame's AuthBytes with it.
	SASLMechanism string
	// TopicNames are the topic ids that the capture's Metadata,
	// CreateTopics and DescribeTopicPartitions responses named before this
	// event: Decode reads the records of an internal topic given by id
	// with them (codec.TopicNames). The map never changes: a response that
	// names new ids gives the events after it a new one, so events may be
	// decoded beside the reading.
	TopicNames *codec.TopicNames
	// TopicFormat is Options.TopicFormat, which Decode reads records with.
	TopicFormat codec.TopicFormat
	// TLS is, for an event of a TLS connection, its status as last said
	// (a KindTLS event's: after the handshake, and at each failure after
	// it); nil in the clear. It never changes.
	TLS *tlsdec.Status
	// NotKafka: a KindTLS event of a connection on a port that is not
	// Kafka's, not decrypted, so that it may carry something else. (A
	// decrypted one whose plaintext is not Kafka has no events.)
	NotKafka bool
}

// Conn is one TCP connection that carries Kafka.
type Conn struct {
	ID             int
	Client, Broker AddrPort
	// MidStream: the capture holds no SYN of the connection, so its
	// first bytes may be the end of a frame.
	MidStream bool
	r         *Reader
	tcp       [2]half
	fr        [2]*framer
	pending   map[int32]*Request
	sawSYN    bool
	known     bool         // Kafka for sure (port or detection)
	ignored   bool         // not Kafka
	probing   int          // mid-connection on an unknown port: payloads looked at for a whole request
	tlsc      *tlsdec.Conn // a TLS connection's decryption
	tlsDir    codec.Direction
	tlsSt     *tlsdec.Status // the last said, never changed (events of the connection point to it)
	tlsHeld   []*Event       // statuses of a connection on a port that is not Kafka's, until its plaintext is
	sasl      bool           // raw SASL tokens follow SaslHandshake v0
	saslV0    map[int32]bool
	saslMech  string // named by the last SaslHandshake request
	closed    [2]bool
	last      time.Time
}

func (c *Conn) String() string { return c.Client.String() + " → " + c.Broker.String() }

// TLS is the status of a TLS connection's decryption as last said (a
// KindTLS event), nil for a connection in the clear or before.
func (c *Conn) TLS() *tlsdec.Status { return c.tlsSt }

type connKey struct{ a, b AddrPort }

func keyOf(s, d AddrPort) connKey {
	if lessAddrPort(s, d) {
		return connKey{s, d}
	}
	return connKey{d, s}
}

// Reader turns packets into events.
type Reader struct {
	opts   Options
	ports  map[uint16]bool
	emit   func(*Event)
	conns  map[connKey]*Conn
	n      int // events
	nconn  int
	packet int
	known  map[[2]int16]bool
	topics *codec.TopicNames // topic ids named by responses (Event.TopicNames)
	keys   *tlsdec.KeyLog
	sess   *tlsdec.Sessions // TLS 1.2 sessions by id and ticket, for resumptions
	stop   bool
	start  time.Time // of the first packet (Event.Start)
	// kafkaAt are the brokers' addresses where a connection on a port not
	// known to be Kafka's showed Kafka in the clear.
	kafkaAt map[AddrPort]bool
	// tlsWaiting are the statuses of the closed TLS connections, not
	// decrypted, to an address not yet in kafkaAt: said once a
	// connection in the clear to it shows Kafka (the TLS client came
	// first), or at the capture's end as on a port that is not Kafka's.
	tlsWaiting map[AddrPort][]*Event
	// spare is the buffer of the last large frame, handed to the next
	// connection whose buffer grows past largeBuf rather than grown anew.
	spare []byte
	// Packets and NotTCP count the packets read and those without TCP.
	Packets, NotTCP int
}

// NewReader returns a Reader that calls emit for each event.
func NewReader(opts Options, emit func(*Event)) *Reader {
	r := &Reader{opts: opts, emit: emit, conns: map[connKey]*Conn{}, ports: map[uint16]bool{}, known: map[[2]int16]bool{}, topics: codec.NewTopicNames(),
		keys: opts.KeyLog, sess: tlsdec.NewSessions()}
	for _, p := range DefaultPorts {
		r.ports[p] = true
	}
	for _, p := range opts.Ports {
		r.ports[p] = true
	}
	return r
}

// Read reads a whole capture file, calling emit for each event. A
// damaged file ends the reading with a *FileError after the events
// decoded before it (the open connections are flushed first).
func Read(f io.Reader, opts Options, emit func(*Event)) (*Reader, error) {
	r := NewReader(opts, emit)
	return r, r.ReadAll(f)
}

// ReadAll reads a capture file to its end, or until Stop.
func (r *Reader) ReadAll(f io.Reader) error {
	pr, err := NewPacketReader(f)
	if err != nil {
		return err
	}
	var last time.Time
	for !r.stop {
		p, err := pr.Next()
		if k := pr.Secrets(); k != nil {
			r.AddKeyLog(k, p.N)
		}
		if err != nil {
			r.Close(last)
			if err == io.EOF {
				return nil
			}
			return err
		}
		last = p.Time
		r.Packet(p)
	}
	return nil
}

// AddKeyLog adds the lines of a key log (one a pcapng file embeds, read
// before packet n) to the secrets the connections after it are decrypted
// with; a line that cannot be read is a note.
func (r *Reader) AddKeyLog(b []byte, n int) {
	if r.keys == nil {
		r.keys = tlsdec.NewKeyLog()
	}
	if err := r.keys.Add(b); err != nil {
		r.send(&Event{Kind: KindNote, Packet: n, Note: xfmt.Sprintf("the key log embedded before packet %d: %v", n, err)})
	}
}

// Stop makes ReadAll return after the current packet (from emit).
func (r *Reader) Stop() { r.stop = true }

func (r *Reader) send(e *Event) {
	r.n++
	e.N, e.Start = r.n, r.start
	e.TopicNames, e.TopicFormat = r.topics, r.opts.TopicFormat
	if e.TLS == nil && e.Conn != nil {
		e.TLS = e.Conn.tlsSt
	}
	r.emit(e)
	if e.Kind == KindFrame && e.Dir == codec.Response && e.Request != nil && e.Incomplete == "" && NamesTopics(e.Key) {
		if f, err := e.DecodeValues(r.opts.Limits); err == nil {
			_, bp, _ := f.Plans()
			r.topics = r.topics.With(bp, f.Body)
		}
	}
}

// TopicNames are the topic ids that the capture's responses named so
// far (Event.TopicNames); the map never changes.
func (r *Reader) TopicNames() *codec.TopicNames { return r.topics }

// NamesTopics says whether the responses of an API name topics with
// their ids: Metadata, CreateTopics, DescribeTopicPartitions.
func NamesTopics(key int16) bool { return key == 3 || key == 19 || key == 75 }

// Packet reads one packet.
func (r *Reader) Packet(p Packet) {
	if r.Packets == 0 {
		r.start = p.Time
	}
	r.Packets++
	r.packet = p.N
	seg, err := ParseTCP(p.Link, p.Data, p.Len)
	if err != nil {
		if _, ok := err.(NotTCP); ok {
			r.NotTCP++
			return
		}
		r.send(&Event{Kind: KindNote, Time: p.Time, Packet: p.N, Note: xfmt.Sprintf("packet %d at byte offset %d: %v", p.N, p.Offset, err)})
		return
	}
	k := keyOf(seg.Src, seg.Dst)
	c := r.conns[k]
	syn := seg.Flags&FlagSYN != 0
	if c != nil && syn && seg.Flags&FlagACK == 0 && (c.closed[0] || c.closed[1] || c.tcp[0].started && c.tcp[0].next != seg.Seq+1) {
		r.closeConn(k, c, p.Time) // a new connection on the same addresses
		c = nil
	}
	if c == nil {
		if len(seg.Payload)+seg.Missing == 0 && !syn {
			return
		}
		c = r.newConn(seg)
		r.conns[k] = c
	}
	if c.ignored {
		return
	}
	if c.probing > 0 && !c.probe(seg) {
		return
	}
	dir := codec.Request
	if seg.Src != c.Client {
		dir = codec.Response
	}
	c.last = p.Time
	h := &c.tcp[dir]
	if syn {
		h.syn(seg.Seq)
	}
	if seg.Flags&FlagACK != 0 {
		c.tcp[1-dir].acked(seg.Ack)
		if len(seg.Payload) > 0 {
			// An answer: the bytes it acknowledges were read, not late.
			c.tcp[1-dir].lost(p.Time)
		}
	}
	var why string
	if seg.Missing > 0 {
		why = xfmt.Sprintf("packet %d captured %d of %d bytes (snaplen)", p.N, len(p.Data), p.Len)
	}
	h.segment(seg.Seq, seg.Payload, seg.Missing, why, p.Time)
	if seg.Flags&FlagRST != 0 {
		r.closeConn(k, c, p.Time)
		return
	}
	if seg.Flags&FlagFIN != 0 {
		h.finAt(seg.Seq + uint32(len(seg.Payload)+seg.Missing))
		c.closed[dir] = true
		if c.closed[1-dir] {
			r.closeConn(k, c, p.Time)
		}
	}
}

func (r *Reader) newConn(seg Segment) *Conn {
	r.nconn++
	c := &Conn{ID: r.nconn, r: r, pending: map[int32]*Request{}, Client: seg.Src, Broker: seg.Dst}
	syn, ack := seg.Flags&FlagSYN != 0, seg.Flags&FlagACK != 0
	switch {
	case syn && !ack:
	case syn && ack:
		c.Client, c.Broker = seg.Dst, seg.Src
	case r.ports[seg.Dst.Port()]:
	case r.ports[seg.Src.Port()]:
		c.Client, c.Broker = seg.Dst, seg.Src
	}
	c.sawSYN, c.MidStream = syn, !syn
	c.known = r.ports[c.Broker.Port()]
	if !c.known && !c.sawSYN {
		// Mid-connection on a port that is not Kafka's (--port says it
		// is): Kafka when a segment is one whole request (probe).
		c.probing = 1
	}
	for d := range c.fr {
		c.fr[d] = &framer{c: c, dir: codec.Direction(d), synced: c.sawSYN}
		c.tcp[d].out = c.fr[d]
	}
	return c
}

// maxProbes is how many segments with a payload of a connection met
// mid-stream on an unknown port are looked at for a whole request.
const maxProbes = 16

// probe looks at a segment of a connection met mid-stream on a port that is
// not Kafka's: the connection is Kafka from this segment on when it is one
// whole request, its size field the segment's length, of a known API and
// version, decoding to its last byte (a broker's connections to its
// controllers, open before the capture started: their BrokerHeartbeat and
// raft Fetch requests are a segment each). Its sender is the client. The
// segments before it are not read.
func (c *Conn) probe(seg Segment) bool {
	if len(seg.Payload) == 0 || seg.Missing > 0 {
		return false
	}
	if c.r.wholeRequest(seg.Payload) {
		c.probing, c.known = 0, true
		c.Client, c.Broker = seg.Src, seg.Dst
		return true
	}
	if c.probing++; c.probing > maxProbes {
		c.probing, c.ignored = 0, true
	}
	return false
}

// wholeRequest says whether b is exactly one request frame that decodes
// to its last byte.
func (r *Reader) wholeRequest(b []byte) bool {
	if len(b) < 14 || int64(binary.BigEndian.Uint32(b)) != int64(len(b)-4) || !r.plausibleRequest(b, len(b)) {
		return false
	}
	e := Event{Kind: KindFrame, Dir: codec.Request, Data: b, Size: len(b)}
	f, err := e.DecodeValues(r.opts.Limits)
	return err == nil && len(f.Trailing) == 0
}

// Close ends every open connection (at the end of the capture).
func (r *Reader) Close(t time.Time) {
	keys := make([]connKey, 0, len(r.conns))
	for k := range r.conns {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return r.conns[keys[i]].ID < r.conns[keys[j]].ID })
	for _, k := range keys {
		r.closeConn(k, r.conns[k], t)
	}
	waiting := make([][]*Event, 0, len(r.tlsWaiting))
	for _, held := range r.tlsWaiting {
		waiting = append(waiting, held)
	}
	sort.Slice(waiting, func(i, j int) bool { return waiting[i][0].Conn.ID < waiting[j][0].Conn.ID })
	for _, held := range waiting {
		r.sayHeldTLS(held, false)
	}
	r.tlsWaiting = nil
}

// sayHeldTLS sends the held statuses of a TLS connection not decrypted,
// on a port not known to be Kafka's, saying whether other connections to
// its address showed Kafka in the clear (kafka: then it is a failure, a
// TLS client at a listener in the clear) or not (NotKafka: it may carry
// something else).
func (r *Reader) sayHeldTLS(held []*Event, kafka bool) {
	for _, e := range held {
		if kafka {
			e.Note += " (the broker's address speaks Kafka in the clear on other connections)"
		} else {
			e.NotKafka = true
			e.Note += " (on a port that is not Kafka's: --port says it is)"
		}
		r.send(e)
	}
}

func (r *Reader) closeConn(k connKey, c *Conn, t time.Time) {
	delete(r.conns, k)
	if c.ignored || c.probing > 0 {
		return
	}
	for d := range c.tcp {
		c.tcp[d].flush(t)
	}
	if c.tlsc != nil {
		c.tlsc.Close()
		if c.tlsSt != nil && !c.tlsSt.Decrypted && len(c.tlsHeld) > 0 {
			// Not on a Kafka port and not decrypted: it may be Kafka, and
			// is when other connections to the broker's address show
			// Kafka in the clear (a TLS client at a listener in the
			// clear), before it or after.
			if c.r.kafkaAt[c.Broker] {
				c.r.sayHeldTLS(c.tlsHeld, true)
			} else {
				if c.r.tlsWaiting == nil {
					c.r.tlsWaiting = map[AddrPort][]*Event{}
				}
				c.r.tlsWaiting[c.Broker] = append(c.r.tlsWaiting[c.Broker], c.tlsHeld...)
			}
		}
		c.tlsHeld = nil
	}
	for d := range c.fr {
		c.fr[d].end(t)
	}
}

// knownRequest says whether a release has an API key at a request version.
func (r *Reader) knownRequest(key, version int16) bool {
	k := [2]int16{key, version}
	ok, seen := r.known[k]
	if !seen {
		_, err := setFor(key, version, codec.Request)
		ok = err == nil
		r.known[k] = ok
	}
	return ok
}

// plausibleRequest says whether b starts with a request header: a size
// from 12 to max, a known API key and version, a correlation id of 0 or
// more and a client id that fits.
func (r *Reader) plausibleRequest(b []byte, maxSize int) bool {
	if len(b) < 14 {
		return false
	}
	size := int32(binary.BigEndian.Uint32(b))
	key, version := int16(binary.BigEndian.Uint16(b[4:])), int16(binary.BigEndian.Uint16(b[6:]))
	corr := int32(binary.BigEndian.Uint32(b[8:]))
	idLen := int16(binary.BigEndian.Uint16(b[12:]))
	return size >= 10 && int(size) <= maxSize && corr >= 0 && idLen >= -1 && int(idLen) <= int(size)-10 &&
		r.knownRequest(key, version)
}

// framer splits one direction's byte stream into frames.
type framer struct {
	c       *Conn
	dir     codec.Direction
	buf     []byte
	off     int64 // stream offset of buf[0]
	synced  bool  // buf starts at a frame
	skip    int   // bytes still to drop of a frame cut by a gap
	skipped int   // bytes dropped while resynchronising, not yet reported
	skipAt  int64
	started bool
	framed  bool   // a frame was read
	win     []byte // the first bytes of a connection held from its middle, while they may be TLS
	t       time.Time
}

func (f *framer) data(b []byte, t time.Time) {
	c := f.c
	if c.ignored {
		return
	}
	if c.tlsc != nil {
		f.t, c.tlsDir = t, f.dir
		c.tlsc.Data(int(f.dir), b, c.r.packet)
		return
	}
	f.feed(b, t)
}

// startTLS: the connection is TLS; the bytes so far go to its
// decryption, and the framers read what it decrypts.
func (c *Conn) startTLS(f *framer, t time.Time) {
	c.tlsc = tlsdec.NewConn(c.r.keys, c.r.sess)
	c.tlsc.OnStatus = func(s tlsdec.Status) {
		c.tlsSt = &s
		e := &Event{Kind: KindTLS, Conn: c, Dir: c.tlsDir, Time: c.fr[c.tlsDir].t, Packet: c.r.packet, Note: s.Text(), TLS: &s}
		if !c.known {
			c.tlsHeld = append(c.tlsHeld, e) // until the plaintext says it is Kafka
			return
		}
		c.r.send(e)
	}
	c.tlsc.Out = func(dir int, b []byte) { c.fr[dir].feed(b, c.fr[dir].t) }
	for _, fr := range []*framer{f, c.fr[1-f.dir]} {
		b := fr.buf
		if len(fr.win) > 0 {
			b = fr.win // all of a connection held from its middle, not what resynchronising left
		}
		fr.buf, fr.off, fr.started, fr.win, fr.skipped = nil, 0, true, nil, 0
		if len(b) > 0 {
			fr.t, c.tlsDir = t, fr.dir
			c.tlsc.Data(int(fr.dir), b, c.r.packet)
		}
	}
}

// answeredInTLS: the broker answers in TLS what the client sent in the
// clear, as a TLS listener does (with an alert, which a client in the
// clear would read as a frame size of 352 million: KAFKA-4090). It says
// so once, as bytes that are not frames, and drops the rest of the
// direction.
func (f *framer) answeredInTLS() {
	r, _ := tlsrec.Sniff(f.buf)
	note := "the broker answered in TLS: " + r.String() + "; this listener speaks TLS and the client does not (security.protocol SSL or SASL_SSL)"
	f.c.r.send(&Event{Kind: KindSkipped, Conn: f.c, Dir: f.dir, Time: f.t, Packet: f.c.r.packet, Offset: f.off, Size: len(f.buf), Note: note})
	f.off += int64(len(f.buf))
	f.buf, f.skip = f.buf[:0], math.MaxInt
}

// feed reads the next bytes of a direction's stream: as captured, or as
// decrypted.
func (f *framer) feed(b []byte, t time.Time) {
	c := f.c
	if c.ignored {
		return
	}
	f.t = t
	if f.skip > 0 {
		n := min(f.skip, len(b))
		f.skip -= n
		f.off += int64(n)
		b = b[n:]
		if len(b) == 0 {
			return
		}
	}
	if need := len(f.buf) + len(b); need > cap(f.buf) && need > largeBuf && cap(c.r.spare) >= need {
		f.buf = append(c.r.spare[:0], f.buf...)
		c.r.spare = nil
	}
	f.buf = append(f.buf, b...)
	if !f.started && len(f.buf) >= 5 {
		f.started = true
		if c.tlsc == nil && isTLS(f.buf) {
			if f.dir == codec.Response && c.fr[codec.Request].framed {
				f.answeredInTLS()
				return
			}
			c.startTLS(f, t)
			return
		}
	}
	if c.MidStream && c.tlsc == nil && !f.framed && len(f.win) < maxWin {
		// The capture may start inside a TLS record: the first bytes
		// are kept until two record headers in a row show the records
		// from the next one on (tlsdec then says the handshake was not
		// captured), or a frame shows Kafka in the clear.
		f.win = append(f.win, b...)
		if at := tlsChain(f.win); at >= 0 {
			f.buf, f.win, f.skipped = append(f.buf[:0], f.win[at:]...), nil, 0
			c.startTLS(f, t)
			return
		}
		if len(f.win) >= maxWin {
			f.win = nil
		}
	}
	if !c.known {
		// Detection: the client speaks first, with a request.
		if f.dir == codec.Response {
			c.ignored = true
			return
		}
		if len(f.buf) < 14 {
			return
		}
		if !c.r.plausibleRequest(f.buf, MaxFrame) {
			c.ignored = true
			return
		}
		c.known = true
		if c.r.kafkaAt == nil {
			c.r.kafkaAt = map[AddrPort]bool{}
		}
		c.r.kafkaAt[c.Broker] = true
		if held := c.r.tlsWaiting[c.Broker]; held != nil {
			delete(c.r.tlsWaiting, c.Broker)
			c.r.sayHeldTLS(held, true)
		}
		for _, e := range c.tlsHeld {
			c.r.send(e)
		}
		c.tlsHeld = nil
	}
	f.process()
}

// isTLS says whether bytes (5 or more) start with a TLS record header
// (tlsrec.Sniff) of a content type from 20 to 23: a Kafka frame would have
// a size of more than 300 MB.
func isTLS(b []byte) bool {
	r, ok := tlsrec.Sniff(b[:5])
	return ok && r.Type <= tlsrec.ApplicationData
}

// maxWin bounds the bytes a connection that the capture holds from its
// middle keeps while looking for TLS records: two of the largest.
const maxWin = 2 * (5 + tlsrec.MaxLength)

// tlsChain is the offset in b of the first of two TLS record headers in
// a row (one where the other's length says), within the first record's
// largest length: where a capture that starts inside a record finds its
// next; -1 for none.
func tlsChain(b []byte) int {
	for i := 0; i+5 <= len(b) && i <= tlsrec.MaxLength+5; i++ {
		if !isTLS(b[i:]) {
			continue
		}
		j := i + 5 + (int(b[i+3])<<8 | int(b[i+4]))
		if j+5 <= len(b) && isTLS(b[j:]) && b[j] == b[i] {
			return i
		}
	}
	return -1
}

// process emits the frames at the start of buf.
func (f *framer) process() {
	for {
		if !f.synced && !f.resync() {
			return
		}
		if len(f.buf) < 4 {
			return
		}
		size := int32(binary.BigEndian.Uint32(f.buf))
		if size < 0 || size > MaxFrame || (!f.c.sasl && size < 4) {
			f.synced = false
			continue
		}
		n := 4 + int(size)
		if len(f.buf) < n {
			return
		}
		f.frame(f.buf[:n], n, "")
		f.consume(n)
	}
}

func (f *framer) consume(n int) {
	f.off += int64(n)
	rest := copy(f.buf, f.buf[n:])
	f.buf = f.buf[:rest]
	if rest == 0 && cap(f.buf) > largeBuf {
		// A large frame's buffer goes, to the reader's spare if larger.
		if cap(f.buf) > cap(f.c.r.spare) {
			f.c.r.spare = f.buf
		}
		f.buf = nil
	}
}

// largeBuf is the size past which a connection's buffer is not kept
// once empty: the reader keeps one, its spare.
const largeBuf = 1 << 20

// resync drops bytes until buf starts at a plausible frame: a request
// header that names a known API and version, a response whose
// correlation id is one of a request waiting for its response, each
// decoding without error when whole. It says whether buf now starts at a
// frame; else it waits for more bytes.
func (f *framer) resync() bool {
	i := 0
	for ; i+4 <= len(f.buf); i++ {
		ok, wait := f.plausibleAt(f.buf[i:])
		if wait {
			break
		}
		if ok {
			f.drop(i)
			f.synced = true
			f.report()
			return true
		}
	}
	f.drop(max(i, len(f.buf)-14))
	return false
}

func (f *framer) drop(n int) {
	if n <= 0 {
		return
	}
	if f.skipped == 0 {
		f.skipAt = f.off
	}
	f.skipped += n
	f.consume(n)
}

// report emits the bytes skipped so far.
func (f *framer) report() {
	if f.skipped == 0 {
		return
	}
	note := xfmt.Sprintf("skipped %d bytes at stream offset %d to the next frame", f.skipped, f.skipAt)
	if !f.c.sawSYN && f.skipAt == 0 {
		note = xfmt.Sprintf("skipped %d bytes at the start: the capture starts mid-connection", f.skipped)
	}
	f.c.r.send(&Event{Kind: KindSkipped, Conn: f.c, Dir: f.dir, Time: f.t, Packet: f.c.r.packet, Offset: f.skipAt, Size: f.skipped, Note: note})
	f.skipped = 0
}

// plausibleAt says whether b starts with a frame, or that it cannot say
// before more bytes come.
func (f *framer) plausibleAt(b []byte) (ok, wait bool) {
	size := int32(binary.BigEndian.Uint32(b))
	if size < 4 || size > maxResync {
		return false, false
	}
	n := 4 + int(size)
	if f.dir == codec.Request {
		if len(b) < 14 {
			return false, true
		}
		if !f.c.r.plausibleRequest(b, maxResync) {
			return false, false
		}
	} else {
		if len(b) < 8 {
			return false, true
		}
		if f.c.pending[int32(binary.BigEndian.Uint32(b[4:]))] == nil {
			return false, false
		}
	}
	if len(b) < n {
		return false, true
	}
	e := f.event(b[:n], n, "")
	fr, _, err := e.Decode(f.c.r.opts.Limits)
	// Bytes after the body (Frame.Trailing) are a frame the broker
	// answers, but not evidence enough of a frame boundary after a gap.
	return err == nil && len(fr.Trailing) == 0, false
}

// event describes the frame in b (n bytes on the wire).
func (f *framer) event(b []byte, n int, incomplete string) *Event {
	c := f.c
	e := &Event{Kind: KindFrame, Conn: c, Dir: f.dir, Time: f.t, Packet: c.r.packet, Offset: f.off, Data: b, Size: n, Incomplete: incomplete}
	if f.dir == codec.Request {
		if len(b) >= 12 {
			e.Key, e.Version = int16(binary.BigEndian.Uint16(b[4:])), int16(binary.BigEndian.Uint16(b[6:]))
			e.Correlation = int32(binary.BigEndian.Uint32(b[8:]))
		}
	} else if len(b) >= 8 {
		e.Correlation = int32(binary.BigEndian.Uint32(b[4:]))
		if q := c.pending[e.Correlation]; q != nil {
			e.Request, e.Key, e.Version = q, q.Key, q.Version
		}
	}
	return e
}

// frame emits one frame (or SASL token) and pairs it.
func (f *framer) frame(b []byte, n int, incomplete string) {
	c := f.c
	if c.sasl && incomplete == "" {
		if f.dir == codec.Request && !c.r.plausibleRequest(b, MaxFrame) ||
			f.dir == codec.Response && (len(b) < 8 || c.pending[int32(binary.BigEndian.Uint32(b[4:]))] == nil) {
			c.r.send(&Event{Kind: KindSASL, Conn: c, Dir: f.dir, Time: f.t, Packet: c.r.packet, Offset: f.off, Data: b, Size: n,
				Note: "SASL token after SaslHandshake v0 (" + strconv.Itoa(n-4) + " bytes, not a Kafka frame)"})
			return
		}
		if f.dir == codec.Request {
			c.sasl = false // the client is authenticated: frames again
		}
	}
	f.framed, f.win = true, nil
	e := f.event(b, n, incomplete)
	if e.Key == keySaslAuthenticate && (f.dir == codec.Request || e.Request != nil) {
		e.SASLMechanism = c.saslMech
	}
	c.r.send(e)
	if f.dir == codec.Request {
		if e.Key == keySaslHandshake && len(b) >= 12 {
			c.saslMech = handshakeMechanism(b)
		}
		if len(b) >= 12 {
			c.addPending(&Request{N: e.N, Key: e.Key, Version: e.Version, Correlation: e.Correlation, Time: e.Time})
			if e.Key == 17 && e.Version == 0 {
				if c.saslV0 == nil {
					c.saslV0 = map[int32]bool{}
				}
				c.saslV0[e.Correlation] = true
			}
		}
	} else if e.Request != nil {
		delete(c.pending, e.Correlation)
		// SaslHandshake v0 accepted (error code 0): raw tokens follow.
		if c.saslV0[e.Correlation] && len(b) >= 10 && b[8] == 0 && b[9] == 0 {
			c.sasl = true
		}
		delete(c.saslV0, e.Correlation)
	}
}

const (
	keySaslHandshake    = 17
	keySaslAuthenticate = 36
)

// handshakeMechanism is the Mechanism of a SaslHandshake request frame
// (size, a v1 request header, then the string; every version is
// non-flexible), or "" when the frame is too short or the name no
// mechanism's.
func handshakeMechanism(b []byte) string {
	if len(b) < 14 {
		return ""
	}
	at := 14
	if cid := int16(binary.BigEndian.Uint16(b[12:])); cid > 0 {
		at += int(cid)
	}
	if at+2 > len(b) {
		return ""
	}
	n := int(int16(binary.BigEndian.Uint16(b[at:])))
	at += 2
	if n <= 0 || n > 64 || at+n > len(b) {
		return ""
	}
	m := b[at : at+n]
	for _, c := range m {
		if !(c >= 'A' && c <= 'Z' || c >= 'a' && c <= 'z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return ""
		}
	}
	return string(m)
}

// maxPendingRequests bounds the requests a connection keeps waiting for
// their responses.
const maxPendingRequests = 4096

func (c *Conn) addPending(q *Request) {
	if len(c.pending) >= maxPendingRequests {
		var oldest *Request
		for _, p := range c.pending {
			if oldest == nil || p.N < oldest.N {
				oldest = p
			}
		}
		delete(c.pending, oldest.Correlation)
	}
	c.pending[q.Correlation] = q
}

// gap: n bytes of the stream are not in the capture.
func (f *framer) gap(n int, t time.Time, why string) {
	c := f.c
	if c.ignored {
		return
	}
	if c.tlsc != nil {
		f.t, c.tlsDir = t, f.dir
		c.tlsc.Gap(int(f.dir), n, c.r.packet)
		return
	}
	f.t = t
	if why == "" {
		why = xfmt.Sprintf("the capture lacks %d bytes at stream offset %d (a lost segment)", n, f.off+int64(len(f.buf))+int64(f.skip))
	}
	f.started = true
	if !c.known {
		c.ignored = true
		return
	}
	if f.skip > 0 {
		k := min(f.skip, n)
		f.skip -= k
		f.off += int64(k)
		n -= k
		if n == 0 {
			return
		}
	}
	if !f.synced || len(f.buf) < 4 {
		f.drop(len(f.buf))
		f.synced = false
		f.off += int64(n)
		return
	}
	size := 4 + int(int32(binary.BigEndian.Uint32(f.buf)))
	need := size - len(f.buf)
	f.frame(f.buf, size, why)
	f.off += int64(len(f.buf))
	f.buf = f.buf[:0]
	f.off += int64(n)
	if n <= need { // the frame's size says where the next one starts
		f.skip = need - n
	} else {
		f.synced = false
	}
}

// end: the connection or the capture ended.
func (f *framer) end(t time.Time) {
	c := f.c
	if c.ignored {
		return
	}
	f.t = t
	if f.synced && len(f.buf) >= 4 {
		size := 4 + int(int32(binary.BigEndian.Uint32(f.buf)))
		f.frame(f.buf, size, xfmt.Sprintf("the stream ends after %d of its %d bytes", len(f.buf), size))
		f.buf = nil
		return
	}
	f.drop(len(f.buf))
	f.report()
}
