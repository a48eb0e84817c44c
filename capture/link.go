package capture

import (
	"encoding/binary"

	"kwire/internal/xfmt"
)

// LinkType is a capture's link-layer header type, as pcap numbers it
// (and gopacket's layers.LinkType, a byte, holds it).
type LinkType uint8

// The link types ParseTCP reads.
const (
	LinkTypeNull     LinkType = 0
	LinkTypeEthernet LinkType = 1
	LinkTypeRaw      LinkType = 101
	LinkTypeLoop     LinkType = 108
	LinkTypeLinuxSLL LinkType = 113
	LinkTypeIPv4     LinkType = 228
	LinkTypeIPv6     LinkType = 229
)

// LinkTypeLinuxSLL2 is the link type of Linux cooked capture v2 (276,
// tcpdump -i any since libpcap 1.10) as pcapgo reports it: gopacket
// 1.1.19's LinkType is a byte, so 276 arrives as 276 & 0xff (no link
// type 20 is assigned).
const LinkTypeLinuxSLL2 LinkType = 276 & 0xff

// TCP flags.
const (
	FlagFIN = 0x01
	FlagSYN = 0x02
	FlagRST = 0x04
	FlagACK = 0x10
)

// Segment is the TCP part of a packet.
type Segment struct {
	Src, Dst AddrPort
	Seq, Ack uint32
	Flags    uint8
	Payload  []byte // the captured payload
	Missing  int    // payload bytes the snaplen cut off after Payload
}

// NotTCP says a packet holds no TCP segment (ARP, UDP, ICMP...): skipped
// without a message.
type NotTCP struct{ What string }

func (e NotTCP) Error() string { return "not TCP: " + e.What }

// ParseTCP reads the link, IP and TCP headers of a packet. origLen is
// the packet's length on the wire; when the capture holds less, the
// segment's Missing says how many payload bytes are not there.
func ParseTCP(link LinkType, b []byte, origLen int) (Segment, error) {
	cut := max(origLen-len(b), 0)
	var ethType uint16
	var off int
	switch link {
	case LinkTypeEthernet:
		if len(b) < 14 {
			return Segment{}, xfmt.Errorf("an Ethernet header of %d bytes (14)", len(b))
		}
		ethType, off = binary.BigEndian.Uint16(b[12:]), 14
		for ethType == 0x8100 || ethType == 0x88a8 || ethType == 0x9100 { // VLAN tags
			if len(b) < off+4 {
				return Segment{}, xfmt.Errorf("a VLAN tag cut at byte %d", len(b))
			}
			ethType, off = binary.BigEndian.Uint16(b[off+2:]), off+4
		}
	case LinkTypeLinuxSLL:
		if len(b) < 16 {
			return Segment{}, xfmt.Errorf("a Linux cooked (SLL) header of %d bytes (16)", len(b))
		}
		ethType, off = binary.BigEndian.Uint16(b[14:]), 16
	case LinkTypeLinuxSLL2:
		if len(b) < 20 {
			return Segment{}, xfmt.Errorf("a Linux cooked v2 (SLL2) header of %d bytes (20)", len(b))
		}
		ethType, off = binary.BigEndian.Uint16(b), 20
	case LinkTypeNull, LinkTypeLoop:
		if len(b) < 4 {
			return Segment{}, xfmt.Errorf("a loopback header of %d bytes (4)", len(b))
		}
		family := binary.LittleEndian.Uint32(b) // the writer's byte order: try both
		if family > 0xffff {
			family = binary.BigEndian.Uint32(b)
		}
		switch family {
		case 2:
			ethType = 0x0800
		case 10, 24, 28, 30:
			ethType = 0x86dd
		default:
			return Segment{}, NotTCP{xfmt.Sprintf("loopback address family %d", family)}
		}
		off = 4
	case LinkTypeRaw, LinkTypeIPv4, LinkTypeIPv6, 12, 14:
		if len(b) == 0 {
			return Segment{}, xfmt.Errorf("an empty raw IP packet")
		}
		ethType = 0x0800
		if b[0]>>4 == 6 {
			ethType = 0x86dd
		}
	default:
		return Segment{}, NotTCP{xfmt.Sprintf("link type %d is not read", link)}
	}
	return parseIP(ethType, b[off:], cut)
}

// parseIP reads an IPv4 or IPv6 header and the TCP header after it.
func parseIP(ethType uint16, b []byte, cut int) (Segment, error) {
	var s Segment
	var proto byte
	var end int // end of the IP payload in b, as the IP header says it
	switch ethType {
	case 0x0800:
		if len(b) < 20 {
			return s, xfmt.Errorf("an IPv4 header of %d bytes (20)", len(b))
		}
		if b[0]>>4 != 4 {
			return s, xfmt.Errorf("IP version %d in an IPv4 packet", b[0]>>4)
		}
		ihl := int(b[0]&0x0f) * 4
		total := int(binary.BigEndian.Uint16(b[2:]))
		if total == 0 { // TCP segmentation offload
			total = len(b) + cut
		}
		if ihl < 20 || len(b) < ihl || total < ihl {
			return s, xfmt.Errorf("IPv4 header length %d, total length %d, %d bytes captured", ihl, total, len(b))
		}
		if frag := binary.BigEndian.Uint16(b[6:]); frag&0x3fff != 0 {
			return s, NotTCP{"an IPv4 fragment"}
		}
		proto = b[9]
		s.Src = addrPort4([4]byte(b[12:16]))
		s.Dst = addrPort4([4]byte(b[16:20]))
		b, end = b[ihl:], total-ihl
	case 0x86dd:
		if len(b) < 40 {
			return s, xfmt.Errorf("an IPv6 header of %d bytes (40)", len(b))
		}
		if b[0]>>4 != 6 {
			return s, xfmt.Errorf("IP version %d in an IPv6 packet", b[0]>>4)
		}
		proto = b[6]
		end = int(binary.BigEndian.Uint16(b[4:]))
		s.Src = addrPort16([16]byte(b[8:24]))
		s.Dst = addrPort16([16]byte(b[24:40]))
		b = b[40:]
		// Extension headers before TCP: hop-by-hop, routing, destination.
		for proto == 0 || proto == 43 || proto == 60 {
			if len(b) < 8 {
				return s, xfmt.Errorf("an IPv6 extension header cut short")
			}
			n := 8 + int(b[1])*8
			if len(b) < n || end < n {
				return s, xfmt.Errorf("an IPv6 extension header of %d bytes, %d captured", n, len(b))
			}
			proto, b, end = b[0], b[n:], end-n
		}
	default:
		return s, NotTCP{xfmt.Sprintf("ethertype %#04x", ethType)}
	}
	if proto != 6 {
		return s, NotTCP{xfmt.Sprintf("IP protocol %d", proto)}
	}
	if len(b) < 20 {
		return s, xfmt.Errorf("a TCP header of %d bytes (20)", len(b))
	}
	doff := int(b[12]>>4) * 4
	if doff < 20 || len(b) < doff {
		return s, xfmt.Errorf("TCP header length %d, %d bytes captured", doff, len(b))
	}
	s.Src = withPort(s.Src, binary.BigEndian.Uint16(b))
	s.Dst = withPort(s.Dst, binary.BigEndian.Uint16(b[2:]))
	s.Seq, s.Ack, s.Flags = binary.BigEndian.Uint32(b[4:]), binary.BigEndian.Uint32(b[8:]), b[13]
	payload := end - doff // what the IP header says
	if payload < 0 {
		return s, xfmt.Errorf("IP length %d shorter than the TCP header (%d)", end, doff)
	}
	have := min(len(b)-doff, payload) // Ethernet padding is not payload
	s.Payload, s.Missing = b[doff:doff+have], min(payload-have, cut)
	return s, nil
}
