// Package capturetest records the bytes of TCP connections (a dialer for
// kgo) and writes them as pcap and pcapng files with synthesized link,
// IP and TCP headers, for the capture tests and the capture benchmark;
// its proxy rewrites broker addresses in some responses, as Kafka
// proxies do, for the address audit's tests.
//
// For tests and benchmarks: writers of pcap (pcapgo; big-endian, nanoseconds
// and SLL2 by hand) and pcapng (pcapgo, several interfaces) with synthesized
// link, IP and TCP headers; TLSTraffic: kgo against kfake behind crypto/tls,
// recorded on the wire and in plaintext (TLSDialer), with kgo's key log;
// proxy.go: a proxy per broker that rewrites the broker ports of some APIs'
// responses through the codec (decode, JSON, encode), and ProxiedTraffic, a
// kgo client's traffic through it (the leak audit's tests, with kfake and
// Apache Kafka).
package capturetest

import (
	"encoding/binary"
	"io"
	"kwire/codec/wire/wiretest"
	"net/netip"
	"time"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
)

// Chunk and Recorder are codec/wire/wiretest's: the recorded bytes of a
// connection, and the kgo dialer that records them.
type (
	Chunk    = wiretest.Chunk
	Recorder = wiretest.Recorder
)

// LinkTypeSLL2 is Linux cooked capture v2, which gopacket's LinkType (a
// byte) cannot hold; WritePcap writes it.
const LinkTypeSLL2 = 276

// Options shape the packets.
type Options struct {
	IPv6       bool
	Links      []int // link type of each interface; connection i is on interface i % len (default Ethernet)
	VLAN       bool  // an 802.1Q tag in Ethernet headers
	MSS        int   // largest payload of a segment (default 1448)
	BrokerPort uint16
}

// Links0 is the link type of the first interface.
func (o Options) Links0() int {
	if len(o.Links) == 0 {
		return int(layers.LinkTypeEthernet)
	}
	return o.Links[0]
}

// Packet is one synthesized packet.
type Packet struct {
	Time       time.Time
	Iface      int
	Link       int
	Data       []byte
	Len        int // length on the wire (len(Data) unless cut)
	Conn       int
	FromClient bool
	Seq        uint32
	Payload    []byte
	Flags      uint8
	Ack        uint32
	opts       *Options
}

// ISNs of connection i: the client's is near 2^32, so that its
// sequence numbers wrap.
func isn(i int, client bool) uint32 {
	if client {
		return 0xffffd000 - uint32(i)*7919
	}
	return 5000 + uint32(i)*104729
}

// Packets turns recorded chunks into packets: a handshake at each
// connection's first chunk, segments of at most MSS bytes, each
// acknowledging the bytes the other side sent so far, and FINs at the end.
func Packets(chunks []Chunk, o Options) []Packet {
	if o.MSS == 0 {
		o.MSS = 1448
	}
	if o.BrokerPort == 0 {
		o.BrokerPort = 9092
	}
	if len(o.Links) == 0 {
		o.Links = []int{int(layers.LinkTypeEthernet)}
	}
	type state struct{ seq [2]uint32 } // next seq: [0] client, [1] broker
	conns := map[int]*state{}
	var out []Packet
	var last time.Time
	add := func(c int, fromClient bool, flags uint8, payload []byte, t time.Time) {
		s := conns[c]
		i, j := 1, 0
		if fromClient {
			i, j = 0, 1
		}
		p := Packet{Time: t, Conn: c, FromClient: fromClient, Seq: s.seq[i], Ack: s.seq[j], Flags: flags, Payload: payload, opts: &o}
		if flags == 0x02 { // a SYN acknowledges nothing
			p.Ack = 0
		}
		p.Rebuild()
		out = append(out, p)
		s.seq[i] += uint32(len(payload))
		if flags&0x03 != 0 { // SYN and FIN take a sequence number
			s.seq[i]++
		}
	}
	for _, ch := range chunks {
		last = ch.Time
		if conns[ch.Conn] == nil {
			conns[ch.Conn] = &state{seq: [2]uint32{isn(ch.Conn, true), isn(ch.Conn, false)}}
			add(ch.Conn, true, 0x02, nil, ch.Time)
			add(ch.Conn, false, 0x12, nil, ch.Time)
			add(ch.Conn, true, 0x10, nil, ch.Time)
		}
		for b := ch.Data; len(b) > 0; {
			n := min(len(b), o.MSS)
			add(ch.Conn, ch.FromClient, 0x18, b[:n], ch.Time)
			b = b[n:]
		}
	}
	for c := range len(conns) {
		if conns[c] == nil {
			continue
		}
		add(c, true, 0x11, nil, last)
		add(c, false, 0x11, nil, last)
	}
	return out
}

// Rebuild writes the packet's bytes again from its fields (after a test
// changed its payload or sequence number).
func (p *Packet) Rebuild() {
	o := p.opts
	p.Iface = p.Conn % len(o.Links)
	p.Link = o.Links[p.Iface]
	client := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, 0, 1}), uint16(40000+p.Conn))
	broker := netip.AddrPortFrom(netip.AddrFrom4([4]byte{10, 0, 0, 2}), o.BrokerPort)
	if o.IPv6 {
		client = netip.AddrPortFrom(netip.MustParseAddr("fd00::1"), client.Port())
		broker = netip.AddrPortFrom(netip.MustParseAddr("fd00::2"), broker.Port())
	}
	src, dst := client, broker
	if !p.FromClient {
		src, dst = broker, client
	}
	tcp := make([]byte, 20, 20+len(p.Payload))
	binary.BigEndian.PutUint16(tcp, src.Port())
	binary.BigEndian.PutUint16(tcp[2:], dst.Port())
	binary.BigEndian.PutUint32(tcp[4:], p.Seq)
	binary.BigEndian.PutUint32(tcp[8:], p.Ack)
	tcp[12] = 5 << 4
	tcp[13] = p.Flags
	binary.BigEndian.PutUint16(tcp[14:], 65535)
	tcp = append(tcp, p.Payload...)
	var ip []byte
	ethType := uint16(0x0800)
	if o.IPv6 {
		ethType = 0x86dd
		ip = make([]byte, 40, 40+len(tcp))
		ip[0] = 0x60
		binary.BigEndian.PutUint16(ip[4:], uint16(len(tcp)))
		ip[6], ip[7] = 6, 64
		s, d := src.Addr().As16(), dst.Addr().As16()
		copy(ip[8:], s[:])
		copy(ip[24:], d[:])
	} else {
		ip = make([]byte, 20, 20+len(tcp))
		ip[0] = 0x45
		binary.BigEndian.PutUint16(ip[2:], uint16(20+len(tcp)))
		ip[8], ip[9] = 64, 6
		s, d := src.Addr().As4(), dst.Addr().As4()
		copy(ip[12:], s[:])
		copy(ip[16:], d[:])
	}
	ip = append(ip, tcp...)
	var link []byte
	switch p.Link {
	case int(layers.LinkTypeEthernet):
		link = []byte{2, 0, 0, 0, 0, 2, 2, 0, 0, 0, 0, 1}
		if o.VLAN {
			link = append(link, 0x81, 0x00, 0x00, 0x2a)
		}
		link = binary.BigEndian.AppendUint16(link, ethType)
	case int(layers.LinkTypeLinuxSLL):
		link = make([]byte, 14, 16)
		link = binary.BigEndian.AppendUint16(link, ethType)
	case LinkTypeSLL2:
		link = binary.BigEndian.AppendUint16(nil, ethType)
		link = append(link, make([]byte, 18)...)
		link[9] = 1 // interface index, ARPHRD and the rest left zero
	case int(layers.LinkTypeNull):
		family := uint32(2)
		if o.IPv6 {
			family = 30
		}
		link = binary.LittleEndian.AppendUint32(nil, family)
	case int(layers.LinkTypeRaw):
	}
	p.Data = append(link, ip...)
	p.Len = len(p.Data)
}

// WritePcap writes a pcap file: microsecond or nanosecond timestamps,
// little- or big-endian. Little-endian files of a link type pcapgo knows
// are written by pcapgo.Writer; the others by hand.
func WritePcap(w io.Writer, pkts []Packet, link int, nanos, bigEndian bool, snaplen uint32) error {
	if !bigEndian && link < 256 {
		pw := pcapgo.NewWriter(w)
		if nanos {
			pw = pcapgo.NewWriterNanos(w)
		}
		if err := pw.WriteFileHeader(snaplen, layers.LinkType(link)); err != nil {
			return err
		}
		for _, p := range pkts {
			ci := gopacket.CaptureInfo{Timestamp: p.Time, CaptureLength: len(p.Data), Length: p.Len}
			if err := pw.WritePacket(ci, p.Data); err != nil {
				return err
			}
		}
		return nil
	}
	var bo binary.AppendByteOrder = binary.LittleEndian
	if bigEndian {
		bo = binary.BigEndian
	}
	magic := uint32(0xa1b2c3d4)
	if nanos {
		magic = 0xa1b23c4d
	}
	h := bo.AppendUint32(nil, magic)
	h = bo.AppendUint16(h, 2)
	h = bo.AppendUint16(h, 4)
	h = append(h, make([]byte, 8)...)
	h = bo.AppendUint32(h, snaplen)
	h = bo.AppendUint32(h, uint32(link))
	if _, err := w.Write(h); err != nil {
		return err
	}
	for _, p := range pkts {
		frac := p.Time.Nanosecond() / 1000
		if nanos {
			frac = p.Time.Nanosecond()
		}
		r := bo.AppendUint32(nil, uint32(p.Time.Unix()))
		r = bo.AppendUint32(r, uint32(frac))
		r = bo.AppendUint32(r, uint32(len(p.Data)))
		r = bo.AppendUint32(r, uint32(p.Len))
		if _, err := w.Write(append(r, p.Data...)); err != nil {
			return err
		}
	}
	return nil
}

// WritePcapng writes a pcapng file with pcapgo.NgWriter: one interface
// per link type of the options, each packet an enhanced packet block on
// its interface.
func WritePcapng(w io.Writer, pkts []Packet, links []int) error {
	if len(links) == 0 {
		links = []int{int(layers.LinkTypeEthernet)}
	}
	nw, err := pcapgo.NewNgWriterInterface(w, pcapgo.NgInterface{Name: "if0", LinkType: layers.LinkType(links[0]), SnapLength: 262144, TimestampResolution: 9}, pcapgo.NgWriterOptions{})
	if err != nil {
		return err
	}
	for i, l := range links[1:] {
		if _, err := nw.AddInterface(pcapgo.NgInterface{Name: "if" + string(rune('1'+i)), LinkType: layers.LinkType(l), SnapLength: 262144, TimestampResolution: 9}); err != nil {
			return err
		}
	}
	for _, p := range pkts {
		ci := gopacket.CaptureInfo{Timestamp: p.Time, CaptureLength: len(p.Data), Length: p.Len, InterfaceIndex: p.Iface}
		if err := nw.WritePacket(ci, p.Data); err != nil {
			return err
		}
	}
	return nw.Flush()
}
