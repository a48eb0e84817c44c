package tlsdec

import (
	"bytes"
	"encoding/binary"
	"hash"

	"kwire/internal/tlsrec"
	"kwire/internal/xfmt"
)

// The two directions of a connection.
const (
	Client = 0 // the bytes the client sent
	Server = 1 // the bytes the server sent
)

var dirName = [2]string{"client", "server"}

// maxRecord is the largest TLS record body: 2^14 bytes of plaintext and
// 2048 of expansion (RFC 5246 section 6.2.3; TLS 1.3 allows 256).
const maxRecord = tlsrec.MaxLength

// maxHandshake bounds a handshake message (certificate chains are the
// largest, some kilobytes).
const maxHandshake = 1 << 18

// Status says what became of a connection's TLS.
type Status struct {
	Version string // "TLS 1.3", "TLS 1.2"; "" before a ServerHello
	Suite   string // the cipher suite's IANA name
	// Resumed says how a TLS 1.2 session was resumed ("session id",
	// "ticket") and a TLS 1.3 one ("psk").
	Resumed string
	// Decrypted: every record read so far was decrypted.
	Decrypted bool
	// Why is what could not be decrypted, and why ("" when Decrypted).
	Why string
}

// Text is the status as one line: version, suite, decrypted or why not.
func (s Status) Text() string {
	t := s.Version
	if s.Suite != "" {
		t += " " + s.Suite
	}
	if s.Resumed != "" {
		t += " (resumed by " + s.Resumed + ")"
	}
	if t == "" {
		t = "TLS"
	}
	if s.Decrypted {
		return t + ": decrypted"
	}
	return t + ": not decrypted: " + s.Why
}

// Sessions remembers the TLS 1.2 master secrets of a capture's sessions
// by session id and by ticket, for the connections that resume them
// (Go writes no key-log line for a resumed TLS 1.2 session). One is
// shared by the connections of a capture.
type Sessions struct {
	byID, byTicket map[string][]byte
}

// maxSessions bounds each of a Sessions' maps; past it they start again.
const maxSessions = 1 << 16

// NewSessions returns an empty Sessions.
func NewSessions() *Sessions {
	return &Sessions{byID: map[string][]byte{}, byTicket: map[string][]byte{}}
}

func remember(m map[string][]byte, k, master []byte) {
	if len(k) == 0 || master == nil {
		return
	}
	if len(m) >= maxSessions {
		clear(m)
	}
	m[string(k)] = master
}

// Conn decrypts one TLS connection: Data takes each direction's bytes in
// order (as TCP reassembles them), Gap says bytes are missing, Close ends
// it. The application data goes to Out, and each change of status (the
// handshake read, a failure) to OnStatus.
type Conn struct {
	// Out receives the plaintext of application data records, valid
	// during the call.
	Out func(dir int, b []byte)
	// OnStatus is called when the handshake has been read (decrypted or
	// why not) and at each failure after it.
	OnStatus func(s Status)

	keys   *KeyLog
	sess   *Sessions
	st     Status
	said   bool // a status was given
	d      [2]direction
	packet int

	sawCH, sawSH bool
	hrr          bool
	tls13        bool
	s            *suite
	clientRandom [32]byte
	serverRandom [32]byte
	chSessionID  []byte
	chTicket     []byte
	chEtM        bool
	etm          bool      // TLS 1.2: encrypt-then-MAC (both hellos asked for it)
	master       []byte    // TLS 1.2
	app          [2][]byte // TLS 1.3: the traffic secrets after Finished
}

type direction struct {
	buf     []byte // record bytes not yet whole
	off     int64  // stream offset of buf[0]
	hs      []byte // handshake bytes not yet a whole message
	aead    aead
	iv      []byte
	seq     uint64
	secret  []byte // TLS 1.3: the current traffic secret
	next    aead   // TLS 1.2: the keys after ChangeCipherSpec
	nextIV  []byte
	block   cbcCipher // a CBC suite's cipher and HMAC (aead nil)
	mac     hash.Hash
	nextBlk cbcCipher
	nextMAC hash.Hash
	macBuf  []byte
	enc     bool // TLS 1.2: after ChangeCipherSpec
	stopped bool // a failure: the rest is not read
	nonce   [12]byte
	aad     [13]byte
}

// NewConn returns a Conn that decrypts with the secrets of keys (nil: no
// key log) and sess (nil: no resumption across connections).
func NewConn(keys *KeyLog, sess *Sessions) *Conn {
	if sess == nil {
		sess = NewSessions()
	}
	return &Conn{keys: keys, sess: sess, st: Status{Decrypted: true}}
}

// Status is the connection's status so far.
func (c *Conn) Status() Status { return c.st }

// fail stops one direction (or both, dir < 0) and says why; the first
// failure is the status's.
func (c *Conn) fail(dir int, why string) {
	if dir < 0 && c.d[0].stopped && c.d[1].stopped {
		return // said
	}
	if dir < 0 {
		c.d[0].stopped, c.d[1].stopped = true, true
		c.d[0].buf, c.d[1].buf = nil, nil
	} else {
		if c.d[dir].stopped {
			return
		}
		c.d[dir].stopped = true
		c.d[dir].buf = nil
	}
	if c.st.Decrypted {
		c.st.Decrypted, c.st.Why = false, why
	}
	c.said = true
	if c.OnStatus != nil {
		s := c.st
		s.Why = why
		c.OnStatus(s)
	}
}

func (c *Conn) ok() {
	c.said = true
	if c.OnStatus != nil {
		c.OnStatus(c.st)
	}
}

// Data takes the next bytes of one direction, captured by packet (for
// the messages).
func (c *Conn) Data(dir int, b []byte, packet int) {
	d := &c.d[dir]
	if d.stopped {
		return
	}
	c.packet = packet
	if d.buf == nil && len(b) < 5+maxRecord {
		d.buf = make([]byte, 0, 5+maxRecord) // a record at most, once
	}
	d.buf = append(d.buf, b...)
	at := 0
	for !d.stopped && len(d.buf)-at >= 5 {
		h := d.buf[at : at+5]
		r, ok := tlsrec.Sniff(h)
		if !ok {
			if !c.sawCH {
				c.fail(-1, "the handshake was not captured: the capture starts after it")
				return
			}
			c.fail(dir, xfmt.Sprintf("the %s's bytes at stream offset %d (packet %d) are not a TLS record: header %x", dirName[dir], d.off+int64(at), packet, h))
			return
		}
		if len(d.buf)-at < 5+r.Length {
			break
		}
		c.record(dir, h, d.buf[at+5:at+5+r.Length])
		at += 5 + r.Length
	}
	if d.stopped {
		return
	}
	if at == 0 {
		return // a record not yet whole
	}
	d.off += int64(at)
	rest := copy(d.buf, d.buf[at:])
	d.buf = d.buf[:rest]
	if rest == 0 && cap(d.buf) > 4*(5+maxRecord) {
		d.buf = nil // grown by a large segment
	}
}

// Gap says n bytes of one direction are not in the capture (lost, or cut
// by the snaplen): the records after them cannot be read in order.
func (c *Conn) Gap(dir int, n int, packet int) {
	if c.d[dir].stopped {
		return
	}
	c.fail(dir, xfmt.Sprintf("the capture lacks %d bytes of the %s's TLS stream at packet %d: its records from there are not decrypted", n, dirName[dir], packet))
}

// Close ends the connection: a connection whose handshake the capture
// did not hold says so.
func (c *Conn) Close() {
	if c.said {
		return
	}
	switch {
	case !c.sawCH:
		c.fail(-1, "the handshake was not captured (no ClientHello)")
	case !c.sawSH && c.d[1].off == 0 && len(c.d[1].buf) == 0:
		// As a Kafka listener in the clear does: it reads the
		// ClientHello's record header as a frame size of about 369
		// million, more than it takes, and closes (KAFKA-4090).
		c.fail(-1, "the server sent nothing after the ClientHello: it may not speak TLS (a Kafka listener in the clear reads a ClientHello as a frame of 369 million bytes and closes)")
	case !c.sawSH:
		c.fail(-1, "the handshake was not captured whole (no ServerHello)")
	}
}

func (c *Conn) record(dir int, h, body []byte) {
	d := &c.d[dir]
	typ := h[0]
	if !d.enc && !(c.tls13 && typ == 23) {
		switch typ {
		case 22:
			c.handshake(dir, body)
		case 20: // ChangeCipherSpec: TLS 1.2's keys start (TLS 1.3 sends it for middleboxes)
			if !c.tls13 && c.sawSH {
				d.enc, d.aead, d.iv, d.seq = true, d.next, d.nextIV, 0
				d.block, d.mac = d.nextBlk, d.nextMAC
			}
		case 23:
			if !c.sawSH {
				c.fail(-1, "the handshake was not captured: the capture starts after it")
			} else {
				c.fail(dir, xfmt.Sprintf("application data in the clear from the %s at packet %d", dirName[dir], c.packet))
			}
		}
		return
	}
	if d.aead == nil && d.block == nil {
		if !c.sawSH {
			c.fail(-1, "the handshake was not captured: the capture starts after it")
		}
		return // no keys: said at the ServerHello
	}
	plain, inner, ok := c.open(d, h, body)
	if !ok {
		c.fail(dir, xfmt.Sprintf("a record of the %s fails its tag at packet %d (stream offset %d): a wrong key or damaged bytes", dirName[dir], c.packet, d.off))
		return
	}
	switch inner {
	case 22:
		c.handshake(dir, plain)
	case 23:
		if c.Out != nil && len(plain) > 0 {
			c.Out(dir, plain)
		}
	}
}

// open decrypts a record in place: its plaintext and (TLS 1.3's inner)
// content type.
func (c *Conn) open(d *direction, h, body []byte) ([]byte, byte, bool) {
	seq := d.seq
	d.seq++
	if c.tls13 {
		// RFC 8446 section 5.3: the iv XOR the sequence number; the
		// record header is the additional data.
		copy(d.nonce[:], d.iv)
		for i := range 8 {
			d.nonce[4+i] ^= byte(seq >> (56 - 8*i))
		}
		if len(body) < d.aead.Overhead() {
			return nil, 0, false
		}
		p, err := d.aead.Open(body[:0], d.nonce[:], body, h)
		if err != nil {
			return nil, 0, false
		}
		i := len(p) - 1
		for i >= 0 && p[i] == 0 {
			i--
		}
		if i < 0 {
			return nil, 0, false
		}
		return p[:i], p[i], true
	}
	// TLS 1.2 (RFC 5246 section 6.2.3.3): the additional data is the
	// sequence number, type, version and plaintext length.
	binary.BigEndian.PutUint64(d.aad[:], seq)
	d.aad[8], d.aad[9], d.aad[10] = h[0], h[1], h[2]
	if d.block != nil {
		p, ok := c.openCBC(d, body)
		return p, h[0], ok
	}
	ct := body
	if c.s.chacha {
		// RFC 7905: the iv XOR the sequence number, no explicit nonce.
		copy(d.nonce[:], d.iv)
		for i := range 8 {
			d.nonce[4+i] ^= byte(seq >> (56 - 8*i))
		}
	} else {
		// RFC 5288: a 4-byte salt and the record's 8-byte explicit nonce.
		if len(body) < 8 {
			return nil, 0, false
		}
		copy(d.nonce[:4], d.iv)
		copy(d.nonce[4:], body[:8])
		ct = body[8:]
	}
	if len(ct) < d.aead.Overhead() {
		return nil, 0, false
	}
	binary.BigEndian.PutUint16(d.aad[11:], uint16(len(ct)-d.aead.Overhead()))
	p, err := d.aead.Open(ct[:0], d.nonce[:], ct, d.aad[:])
	if err != nil {
		return nil, 0, false
	}
	return p, h[0], true
}

// openCBC decrypts a CBC record of TLS 1.2 (RFC 5246 section 6.2.3.2:
// an explicit IV, then the plaintext, its HMAC and padding, encrypted;
// RFC 7366: the HMAC after the ciphertext, of the IV and ciphertext) and
// checks its padding and HMAC. d.aad holds the sequence number, type and
// version.
func (c *Conn) openCBC(d *direction, body []byte) ([]byte, bool) {
	const bs = 16 // AES's block
	m := d.mac.Size()
	mac := func(n int, data ...[]byte) []byte {
		binary.BigEndian.PutUint16(d.aad[11:], uint16(n))
		d.mac.Reset()
		d.mac.Write(d.aad[:])
		for _, b := range data {
			d.mac.Write(b)
		}
		d.macBuf = d.mac.Sum(d.macBuf[:0])
		return d.macBuf
	}
	if c.etm {
		if len(body) < bs+bs+m || (len(body)-m)%bs != 0 {
			return nil, false
		}
		n := len(body) - m
		if !impl.macEqual(mac(n, body[:n]), body[n:]) {
			return nil, false
		}
		ct := body[bs:n]
		d.block.decryptCBC(body[:bs], ct)
		pad := int(ct[len(ct)-1])
		if pad+1 > len(ct) || !padded(ct, pad) {
			return nil, false
		}
		return ct[:len(ct)-1-pad], true
	}
	if len(body) < bs+bs || len(body)%bs != 0 {
		return nil, false
	}
	ct := body[bs:]
	d.block.decryptCBC(body[:bs], ct)
	pad := int(ct[len(ct)-1])
	if pad+1+m > len(ct) || !padded(ct, pad) {
		return nil, false
	}
	p := ct[:len(ct)-1-pad-m]
	if !impl.macEqual(mac(len(p), p), ct[len(p):len(p)+m]) {
		return nil, false
	}
	return p, true
}

// padded says whether the pad bytes before b's last all hold pad.
func padded(b []byte, pad int) bool {
	for _, x := range b[len(b)-1-pad : len(b)-1] {
		if int(x) != pad {
			return false
		}
	}
	return true
}

// handshake reads the handshake messages of one direction.
func (c *Conn) handshake(dir int, b []byte) {
	d := &c.d[dir]
	msgs := b
	if len(d.hs) > 0 {
		d.hs = append(d.hs, b...)
		msgs = d.hs
	}
	for !d.stopped && len(msgs) >= 4 {
		n := int(msgs[1])<<16 | int(msgs[2])<<8 | int(msgs[3])
		if n > maxHandshake {
			c.fail(dir, xfmt.Sprintf("a handshake message of %d bytes from the %s at packet %d (at most %d read)", n, dirName[dir], c.packet, maxHandshake))
			return
		}
		if len(msgs) < 4+n {
			break
		}
		c.message(dir, msgs[0], msgs[4:4+n])
		msgs = msgs[4+n:]
	}
	if d.stopped {
		d.hs = nil
		return
	}
	d.hs = append(d.hs[:0], msgs...)
}

// helloRetry is the ServerHello random of a HelloRetryRequest (RFC 8446
// section 4.1.3): SHA-256("HelloRetryRequest").
var helloRetry = [32]byte{0xcf, 0x21, 0xad, 0x74, 0xe5, 0x9a, 0x61, 0x11, 0xbe, 0x1d, 0x8c, 0x02, 0x1e, 0x65, 0xb8, 0x91,
	0xc2, 0xa2, 0x11, 0x16, 0x7a, 0xbb, 0x8c, 0x5e, 0x07, 0x9e, 0x09, 0xe2, 0xc8, 0xa8, 0x33, 0x9c}

// The handshake messages read (RFC 8446 section 4, RFC 5246 section 7.4).
const (
	msgClientHello      = 1
	msgServerHello      = 2
	msgNewSessionTicket = 4
	msgFinished         = 20
	msgKeyUpdate        = 24
)

// The extensions read.
const (
	extEtM           = 0x0016 // RFC 7366
	extEMS           = 0x0017 // RFC 7627
	extSessionTicket = 0x0023 // RFC 5077
	extPreSharedKey  = 0x0029 // RFC 8446 4.2.11
	extVersions      = 0x002b // RFC 8446 4.2.1
)

// hello is what a ClientHello or ServerHello says.
type hello struct {
	version   uint16
	random    [32]byte
	sessionID []byte
	suite     uint16
	ticket    []byte
	psk       bool
	etm       bool
	ok        bool
}

// parseHello reads a ClientHello or ServerHello body.
func parseHello(b []byte, client bool) hello {
	var h hello
	r := reader{b: b}
	h.version = r.u16()
	copy(h.random[:], r.bytes(32))
	h.sessionID = r.vec(1)
	if client {
		r.vec(2) // cipher suites
		r.vec(1) // compression methods
	} else {
		h.suite = r.u16()
		r.bytes(1)
	}
	if r.bad {
		return h
	}
	if len(r.b) == 0 { // no extensions
		h.ok = true
		return h
	}
	exts := reader{b: r.vec(2)}
	for len(exts.b) > 0 && !exts.bad {
		typ := exts.u16()
		v := exts.vec(2)
		switch typ {
		case extSessionTicket:
			h.ticket = v
		case extPreSharedKey:
			h.psk = true
		case extEtM:
			h.etm = true
		case extVersions:
			if !client && len(v) == 2 {
				h.version = binary.BigEndian.Uint16(v)
			}
		}
	}
	h.ok = !r.bad && !exts.bad
	return h
}

func (c *Conn) message(dir int, typ byte, body []byte) {
	switch {
	case typ == msgClientHello && dir == Client:
		if c.sawCH {
			return // the second ClientHello after a HelloRetryRequest: the same random
		}
		h := parseHello(body, true)
		if !h.ok {
			c.fail(-1, xfmt.Sprintf("the ClientHello at packet %d cannot be read", c.packet))
			return
		}
		c.sawCH, c.clientRandom = true, h.random
		c.chSessionID, c.chTicket, c.chEtM = bytes.Clone(h.sessionID), bytes.Clone(h.ticket), h.etm
	case !c.sawCH:
		c.fail(-1, "the handshake was not captured (no ClientHello)")
	case typ == msgServerHello && dir == Server:
		if c.sawSH {
			return // a renegotiation: not read
		}
		h := parseHello(body, false)
		if !h.ok {
			c.fail(-1, xfmt.Sprintf("the ServerHello at packet %d cannot be read", c.packet))
			return
		}
		if h.random == helloRetry {
			c.hrr = true
			return
		}
		c.sawSH, c.serverRandom, c.etm = true, h.random, c.chEtM && h.etm
		c.serverHello(h)
	case typ == msgNewSessionTicket && dir == Server && !c.tls13 && len(body) >= 6:
		// RFC 5077 section 3.3: a lifetime hint and the ticket.
		if n := int(binary.BigEndian.Uint16(body[4:])); 6+n <= len(body) {
			remember(c.sess.byTicket, body[6:6+n], c.master)
		}
	case typ == msgFinished && c.tls13 && c.app[dir] != nil:
		c.rekey(dir, c.app[dir])
		c.app[dir] = nil
	case typ == msgKeyUpdate && c.tls13 && c.d[dir].secret != nil:
		c.rekey(dir, nextSecret(c.s, c.d[dir].secret))
	}
}

// rekey makes secret the TLS 1.3 traffic secret of one direction.
func (c *Conn) rekey(dir int, secret []byte) {
	d := &c.d[dir]
	key, iv := trafficKeys(c.s, secret)
	d.secret, d.aead, d.iv, d.seq = secret, c.s.aead(key), iv, 0
}

func versionName(v uint16) string {
	switch v {
	case 0x0304:
		return "TLS 1.3"
	case 0x0303:
		return "TLS 1.2"
	case 0x0302:
		return "TLS 1.1"
	case 0x0301:
		return "TLS 1.0"
	case 0x0300:
		return "SSL 3.0"
	}
	return xfmt.Sprintf("TLS version 0x%04x", v)
}

func (c *Conn) serverHello(h hello) {
	c.st.Version, c.st.Suite = versionName(h.version), SuiteName(h.suite)
	if h.version != 0x0304 && h.version != 0x0303 {
		c.fail(-1, c.st.Version+" is not decrypted (TLS 1.2 and 1.3 are)")
		return
	}
	c.tls13 = h.version == 0x0304
	c.s = suiteByID(h.suite)
	switch {
	case c.s == nil:
		c.fail(-1, "the cipher suite "+c.st.Suite+" is not supported")
		return
	case c.s.tls13 != c.tls13:
		c.fail(-1, xfmt.Sprintf("the cipher suite %s in %s", c.st.Suite, c.st.Version))
		return
	}
	sec := c.keys.get(c.clientRandom)
	noKey := xfmt.Sprintf("no key for client random %x", c.clientRandom[:])
	if c.keys == nil {
		noKey = "no key log"
	}
	if c.tls13 {
		if h.psk {
			c.st.Resumed = "psk"
		}
		if sec == nil || sec[labelClientHS] == nil || sec[labelServerHS] == nil || sec[labelClientApp] == nil || sec[labelServerApp] == nil {
			c.fail(-1, noKey)
			return
		}
		for _, s := range [][]byte{sec[labelClientHS], sec[labelServerHS], sec[labelClientApp], sec[labelServerApp]} {
			if len(s) != c.s.hash.size() {
				c.fail(-1, xfmt.Sprintf("the key log's secrets for client random %x are of %d bytes, not the %d of %s", c.clientRandom[:], len(s), c.s.hash.size(), c.st.Suite))
				return
			}
		}
		c.rekey(Client, sec[labelClientHS])
		c.rekey(Server, sec[labelServerHS])
		c.app = [2][]byte{sec[labelClientApp], sec[labelServerApp]}
		c.ok()
		return
	}
	// TLS 1.2: the key log's master secret, else that of the session
	// resumed, by ticket (RFC 5077 3.4: the server echoes the client's
	// session id) or by session id.
	resumed := len(h.sessionID) > 0 && bytes.Equal(h.sessionID, c.chSessionID)
	switch {
	case sec != nil && sec[labelMaster] != nil:
		c.master = sec[labelMaster]
		if resumed {
			c.st.Resumed = "session id"
			if len(c.chTicket) > 0 {
				c.st.Resumed = "ticket"
			}
		}
	case resumed && len(c.chTicket) > 0 && c.sess.byTicket[string(c.chTicket)] != nil:
		c.master, c.st.Resumed = c.sess.byTicket[string(c.chTicket)], "ticket"
	case resumed && c.sess.byID[string(h.sessionID)] != nil:
		c.master, c.st.Resumed = c.sess.byID[string(h.sessionID)], "session id"
	case resumed:
		c.fail(-1, noKey+", nor for the session it resumes")
		return
	default:
		c.fail(-1, noKey)
		return
	}
	remember(c.sess.byID, h.sessionID, c.master)
	// RFC 5246 section 6.3: the key block from the master secret and
	// the randoms, server's first.
	seed := append(c.serverRandom[:], c.clientRandom[:]...)
	ivLen, macLen := 4, 0
	switch {
	case c.s.chacha:
		ivLen = 12
	case c.s.mac != noHash:
		ivLen, macLen = 16, c.s.mac.size()
	}
	kb := prf12(c.s.hash, c.master, "key expansion", seed, 2*macLen+2*c.s.keyLen+2*ivLen)
	take := func(n int) []byte {
		b := kb[:n]
		kb = kb[n:]
		return b
	}
	cm, sm := take(macLen), take(macLen)
	ck, sk := take(c.s.keyLen), take(c.s.keyLen)
	civ, siv := take(ivLen), take(ivLen)
	if c.s.mac != noHash {
		c.d[Client].nextBlk, c.d[Client].nextMAC = c.s.block(ck), impl.newHMAC(c.s.mac, cm)
		c.d[Server].nextBlk, c.d[Server].nextMAC = c.s.block(sk), impl.newHMAC(c.s.mac, sm)
	} else {
		c.d[Client].next, c.d[Client].nextIV = c.s.aead(ck), civ
		c.d[Server].next, c.d[Server].nextIV = c.s.aead(sk), siv
	}
	c.ok()
}

// reader reads the vectors of a handshake message; a short one sets bad.
type reader struct {
	b   []byte
	bad bool
}

func (r *reader) bytes(n int) []byte {
	if r.bad || len(r.b) < n {
		r.bad = true
		return nil
	}
	v := r.b[:n]
	r.b = r.b[n:]
	return v
}

func (r *reader) u16() uint16 {
	v := r.bytes(2)
	if v == nil {
		return 0
	}
	return binary.BigEndian.Uint16(v)
}

// vec reads a vector with a length of size bytes (1 or 2).
func (r *reader) vec(size int) []byte {
	l := r.bytes(size)
	if l == nil {
		return nil
	}
	n := int(l[0])
	if size == 2 {
		n = int(binary.BigEndian.Uint16(l))
	}
	return r.bytes(n)
}
