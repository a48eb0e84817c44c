// Package capture reads Kafka conversations from packet captures: pcap
// and pcapng files (packets.go), the link, IP and TCP headers of each
// packet (link.go), TCP reassembly per direction (tcp.go) and the Kafka
// framing of each byte stream, with requests and responses paired by
// correlation id (kafka.go). It streams: memory is bounded by the open
// connections' buffers and the largest frame, not by the file.
//
// Reads Kafka conversations from packet captures, streaming: PacketReader
// reads pcap and pcapng natively with gopacket's pcapgo (pcapgo.go; each
// pcapng block checked whole, lengths and options, before pcapgo sees it, so
// that no length in the file is allocated or read past), and in the browser
// with a small reader of its own on the same checked blocks (lite.go, tested
// against pcapgo on every capture shape and cut at every length; pcapgo's
// gopacket layers would add 600 KB gzip to the app), as AddrPort is netip's
// natively and a small type in the browser (liteaddr.go, netip would add 30
// KB); LinkType numbers link types as pcap does; ParseTCP reads the link
// (Ethernet and VLAN tags, SLL, SLL2, loopback, raw IP), IPv4 or IPv6 and
// TCP headers at fixed offsets; a half reassembles one direction of a
// connection (out of order, retransmitted, overlapping, lost: acknowledged
// by the other side, too far ahead, or at the end); a framer splits its
// bytes into frames and resynchronises after a gap or a capture that starts
// mid-connection; Reader keeps the connections (Kafka by port, by a first
// request header, or, met mid-stream on another port, from a segment that is
// one whole request: Conn.probe), pairs responses with requests by
// correlation id, hands a TLS connection's bytes to capture/tlsdec and
// frames the plaintext it gives back (a TLS connection is known by a record
// header at its start or, held from its middle, by two in a row in its first
// bytes, tlsChain; one on a port that is not Kafka's says its status once
// its plaintext is Kafka, Conn.tlsHeld) (with Options.KeyLog and the key
// logs of pcapng Decryption Secrets Blocks, which ngGuard collects and
// PacketReader.Secrets hands on; each status said is a KindTLS event, and
// every event of the connection points to the last, Event.TLS), follows
// SaslHandshake (v0: the raw tokens that follow; every version: the
// mechanism, Event.SASLMechanism, that its connection's SaslAuthenticate
// frames are read with), and calls back with each Event; Event.Decode
// decodes a frame with codec (a response with its request's API and version;
// FrameStatus says what went wrong, ErrorCodes names the non-zero error
// codes read from the decoded values, for the command line's lines and the
// explorer's rows alike), Event.DecodeValues its values alone, its records
// fields in place (codec.DecodeOptions.InPlace), with the topic ids that the
// capture's Metadata, CreateTopics and DescribeTopicPartitions responses
// named (Event.TopicNames: those named before the event, in a map that never
// changes, as a response that names new ids gives the events after it a
// copy, so that workers decode beside the reading). Memory: the open
// connections' buffers, the largest frame, and one spare buffer of a large
// frame that the reader hands to the next. upgrade.go: Upgrade gathers in
// order what each client (client id, ApiVersions v3+'s software) sent and
// each broker's ApiVersions ranges, decoding only ApiVersions frames; Report
// against a release (sets.Refuses, hints), Report.Lines its text. leak.go:
// Endpoints walks a decoded response for the atlas's host and port fields
// side by side that a node id names (its struct's or its parent's),
// Audit.Check finds those not advertised and a node with two endpoints on
// one connection.
package capture

import (
	"bufio"
	"encoding/binary"
	"io"
	"time"

	"kwire/capture/tlsdec"
	"kwire/internal/xfmt"
)

// MaxPacket is the largest packet (and pcapng block) the reader accepts:
// a larger length in the file is an error, not an allocation.
const MaxPacket = 1 << 18

// Packet is one captured packet.
type Packet struct {
	N      int       // 1-based number in the file
	Offset int64     // byte offset of its record (pcap) or block (pcapng) in the file
	Time   time.Time // capture time
	Link   LinkType  // link type of its interface
	Data   []byte    // the captured bytes; valid until the next call to Next
	Len    int       // the packet's length on the wire (more than len(Data) when the snaplen cut it)
}

// FileError is an error in the capture file: where and what.
type FileError struct {
	Packet int   // number of the packet being read (1-based)
	Offset int64 // byte offset in the file
	Err    error
}

func (e *FileError) Error() string {
	if e.Packet == 0 {
		return xfmt.Sprintf("file header: %v", e.Err)
	}
	return xfmt.Sprintf("packet %d at byte offset %d: %v", e.Packet, e.Offset, e.Err)
}

func (e *FileError) Unwrap() error { return e.Err }

// PacketReader reads the packets of a pcap or pcapng file, one at a time:
// natively with gopacket's pcapgo (pcapgo.go), in the browser with the
// small reader of lite.go (pcapgo's layers would not fit the app's size
// budget).
type PacketReader struct {
	src    packetSource
	guard  *ngGuard // pcapng: its Decryption Secrets Blocks
	n      int
	Format string // "pcap" or "pcapng"
}

// packetSource reads the packets after the file header.
type packetSource interface {
	next(n int) (Packet, error)
}

// NewPacketReader reads the file header of a pcap or pcapng file.
func NewPacketReader(r io.Reader) (*PacketReader, error) {
	br := bufio.NewReaderSize(r, 1<<16)
	magic, err := br.Peek(4)
	if err != nil {
		return nil, &FileError{Packet: 0, Offset: 0, Err: xfmt.Errorf("not a capture file: %d bytes, a pcap or pcapng file starts with a 4-byte magic number", len(magic))}
	}
	switch binary.LittleEndian.Uint32(magic) {
	case 0x0a0d0d0a: // pcapng section header block
		g := &ngGuard{r: br}
		src, err := openPcapng(g)
		if err != nil {
			return nil, &FileError{Offset: 0, Err: xfmt.Errorf("pcapng section header: %w", err)}
		}
		return &PacketReader{src: src, guard: g, Format: "pcapng"}, nil
	case 0xa1b2c3d4, 0xd4c3b2a1, 0xa1b23c4d, 0x4d3cb2a1:
		src, err := openPcap(br)
		if err != nil {
			return nil, &FileError{Offset: 0, Err: xfmt.Errorf("pcap file header: %w", err)}
		}
		return &PacketReader{src: src, Format: "pcap"}, nil
	}
	return nil, &FileError{Offset: 0, Err: xfmt.Errorf("not a pcap or pcapng file: magic number %x (pcap: a1b2c3d4 or a1b23c4d in either byte order; pcapng: 0a0d0d0a)", magic)}
}

// Next returns the next packet, or io.EOF after the last one. A file
// that ends inside a packet or holds an impossible length returns a
// *FileError.
func (r *PacketReader) Next() (Packet, error) {
	r.n++
	return r.src.next(r.n)
}

// Secrets returns the TLS key logs that the pcapng file's Decryption
// Secrets Blocks held since the last call (nil: none), the lines of those
// before the packet Next returned last among them.
func (r *PacketReader) Secrets() []byte {
	if r.guard == nil || r.guard.secrets == nil {
		return nil
	}
	b := r.guard.secrets
	r.guard.secrets = nil
	return b
}

// ngGuard passes a pcapng file to pcapgo block by block, after checking
// each block's lengths against the bytes there, so that no length in the
// file makes pcapgo allocate or read past its block.
type ngGuard struct {
	r       *bufio.Reader
	buf     []byte // the current block
	pos     int
	offset  int64   // offset of the next block
	packets []int64 // offsets of the packet blocks read ahead of pcapgo
	big     bool    // the section's byte order
	snap0   uint32
	ifaces  int
	err     error
	secrets []byte // the TLS key logs of Decryption Secrets Blocks not yet taken
}

func (g *ngGuard) Read(p []byte) (int, error) {
	if g.pos == len(g.buf) {
		if g.err != nil {
			return 0, g.err
		}
		if g.err = g.next(); g.err != nil {
			g.buf, g.pos = g.buf[:0], 0 // nothing of a bad block reaches pcapgo
			return 0, g.err
		}
	}
	n := copy(p, g.buf[g.pos:])
	g.pos += n
	return n, nil
}

func (g *ngGuard) u32(b []byte) uint32 {
	if g.big {
		return binary.BigEndian.Uint32(b)
	}
	return binary.LittleEndian.Uint32(b)
}

func (g *ngGuard) u16(b []byte) uint16 {
	if g.big {
		return binary.BigEndian.Uint16(b)
	}
	return binary.LittleEndian.Uint16(b)
}

// options checks the options of a section header, interface description
// or statistics block: each inside the block, and the timestamp
// resolution and offset of an interface of a size and value pcapgo can
// use.
func (g *ngGuard) options(typ uint32, b []byte) error {
	pos := 0
	for pos+4 <= len(b) {
		code, n := g.u16(b[pos:]), int(g.u16(b[pos+2:]))
		if code == 0 {
			return nil
		}
		if pos+4+(n+3)&^3 > len(b) {
			return xfmt.Errorf("option %d of %d bytes at +%d runs past the block's end", code, n, pos)
		}
		v := b[pos+4 : pos+4+n]
		switch {
		case typ == 1 && code == 9: // if_tsresol
			if n < 1 || v[0]&0x80 != 0 && v[0]&0x7f > 62 || v[0]&0x80 == 0 && v[0] > 18 {
				return xfmt.Errorf("timestamp resolution option of %d bytes, value %x: want 1 byte, 2^-62 to 10^-18", n, v)
			}
		case typ == 1 && code == 14, typ == 5 && code >= 2 && code <= 8: // if_tsoffset, statistics
			if n != 8 {
				return xfmt.Errorf("option %d of %d bytes (8)", code, n)
			}
		}
		pos += 4 + (n+3)&^3
	}
	if pos != len(b) {
		return xfmt.Errorf("%d bytes after the last option", len(b)-pos)
	}
	return nil
}

// next reads and checks one block.
func (g *ngGuard) next() error {
	g.buf, g.pos = g.buf[:0], 0
	head, err := g.r.Peek(12)
	if len(head) == 0 && err == io.EOF {
		return io.EOF
	}
	if len(head) < 12 {
		return xfmt.Errorf("block at byte offset %d: the file ends inside its header (truncated capture)", g.offset)
	}
	typ := binary.LittleEndian.Uint32(head)
	if typ == 0x0a0d0d0a {
		switch binary.LittleEndian.Uint32(head[8:]) {
		case 0x1a2b3c4d:
			g.big = false
		case 0x4d3c2b1a:
			g.big = true
		default:
			return xfmt.Errorf("section header at byte offset %d: byte-order magic %x is neither 1a2b3c4d nor 4d3c2b1a", g.offset, head[8:12])
		}
		g.ifaces, g.snap0 = 0, 0
	}
	typ = g.u32(head)
	total := g.u32(head[4:])
	if total < 12 || total%4 != 0 || total > MaxPacket+1024 {
		return xfmt.Errorf("block of type %#x at byte offset %d: length %d is not a multiple of 4 from 12 to %d", typ, g.offset, total, MaxPacket+1024)
	}
	if cap(g.buf) < int(total) {
		g.buf = make([]byte, total)
	}
	g.buf = g.buf[:total]
	if n, _ := io.ReadFull(g.r, g.buf); n < int(total) {
		return xfmt.Errorf("block of type %#x at byte offset %d: %d bytes of %d, the file ends inside it (truncated capture)", typ, g.offset, n, total)
	}
	if g.u32(g.buf[total-4:]) != total {
		return xfmt.Errorf("block of type %#x at byte offset %d: its trailing length %d differs from its length %d", typ, g.offset, g.u32(g.buf[total-4:]), total)
	}
	body := g.buf[8 : total-4]
	bad := func(format string, a ...any) error {
		return xfmt.Errorf("block of type %#x at byte offset %d: %s", typ, g.offset, xfmt.Sprintf(format, a...))
	}
	optionsAt := map[uint32]int{0x0a0d0d0a: 16, 1: 8, 5: 12}
	if at, ok := optionsAt[typ]; ok {
		if len(body) < at {
			return bad("%d bytes before its options, %d there", at, len(body))
		}
		if err := g.options(typ, body[at:]); err != nil {
			return bad("%v", err)
		}
	}
	switch typ {
	case 0x0a0d0d0a: // section header
		if major := g.u16(body[4:]); major != 1 {
			return bad("pcapng version %d.%d (kwire reads 1.0)", major, g.u16(body[6:]))
		}
	case 1: // interface description
		if g.ifaces == 0 {
			g.snap0 = g.u32(body[4:])
		}
		g.ifaces++
	case 2, 6: // packet, enhanced packet
		if len(body) < 20 {
			return bad("a packet block of %d bytes (at least 20)", len(body))
		}
		if caplen := g.u32(body[12:]); int64(caplen) > int64(len(body)-20) {
			return bad("captured length %d, but the block holds %d bytes", caplen, len(body)-20)
		}
	case 10: // Decryption Secrets Block: a secrets type, a length, the secrets
		if len(body) < 8 || int64(g.u32(body[4:])) > int64(len(body)-8) {
			return bad("a decryption secrets block of %d bytes that says it holds more", len(body))
		}
		if g.u32(body) == 0x544c534b { // "TLSK": an NSS key log
			n := g.u32(body[4:])
			if len(g.secrets)+int(n) > tlsdec.MaxKeyLog {
				return bad("the embedded key logs pass %d bytes", tlsdec.MaxKeyLog)
			}
			g.secrets = append(g.secrets, body[8:8+n]...)
			if n > 0 && body[8+n-1] != '\n' {
				g.secrets = append(g.secrets, '\n')
			}
		}
	case 3: // simple packet
		if len(body) < 4 {
			return bad("a simple packet block of %d bytes (at least 4)", len(body))
		}
		caplen := g.u32(body)
		if g.snap0 != 0 && caplen > g.snap0 {
			caplen = g.snap0
		}
		if int64(caplen) > int64(len(body)-4) {
			return bad("packet length %d, but the block holds %d bytes", caplen, len(body)-4)
		}
	}
	if typ == 2 || typ == 3 || typ == 6 {
		g.packets = append(g.packets, g.offset)
	}
	g.offset += int64(total)
	return nil
}
