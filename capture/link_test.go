package capture

import (
	"encoding/binary"
	"errors"
	"testing"
)

// tcpBytes is a TCP header (with 4 bytes of options) and payload.
func tcpBytes(payload string) []byte {
	b := make([]byte, 24)
	binary.BigEndian.PutUint16(b, 40000)
	binary.BigEndian.PutUint16(b[2:], 9092)
	binary.BigEndian.PutUint32(b[4:], 1000)
	b[12], b[13] = 6<<4, FlagACK
	b[20] = 1 // a NOP option
	return append(b, payload...)
}

func ipv4(proto byte, body []byte, options int) []byte {
	b := make([]byte, 20+options)
	b[0] = 0x40 | byte(5+options/4)
	binary.BigEndian.PutUint16(b[2:], uint16(len(b)+len(body)))
	b[9] = proto
	copy(b[12:], []byte{10, 0, 0, 1, 10, 0, 0, 2})
	return append(b, body...)
}

func ipv6(next byte, body []byte) []byte {
	b := make([]byte, 40)
	b[0] = 0x60
	binary.BigEndian.PutUint16(b[4:], uint16(len(body)))
	b[6] = next
	b[23], b[39] = 1, 2
	return append(b, body...)
}

func ether(tags int, typ uint16, body []byte) []byte {
	b := make([]byte, 12)
	for range tags {
		b = append(b, 0x81, 0x00, 0, 1)
	}
	return append(binary.BigEndian.AppendUint16(b, typ), body...)
}

func TestParseTCP(t *testing.T) {
	padded := append(ether(0, 0x0800, ipv4(6, tcpBytes("k"), 0)), make([]byte, 6)...) // Ethernet padding
	hop := append([]byte{6, 0, 0, 0, 0, 0, 0, 0}, tcpBytes("kafka")...)               // IPv6 hop-by-hop, then TCP
	frag := ipv4(6, tcpBytes("x"), 0)
	frag[6] = 0x20 // more fragments
	for _, c := range []struct {
		name    string
		link    LinkType
		b       []byte
		payload string
		notTCP  bool
		err     bool
	}{
		{"ethernet padding", LinkTypeEthernet, padded, "k", false, false},
		{"two vlan tags, ipv4 options", LinkTypeEthernet, ether(2, 0x0800, ipv4(6, tcpBytes("kafka"), 8)), "kafka", false, false},
		{"ipv6 hop-by-hop", LinkTypeRaw, ipv6(0, hop), "kafka", false, false},
		{"null, big-endian family", LinkTypeNull, append([]byte{0, 0, 0, 2}, ipv4(6, tcpBytes("kafka"), 0)...), "kafka", false, false},
		{"loop ipv6", LinkTypeLoop, append([]byte{30, 0, 0, 0}, ipv6(6, tcpBytes("kafka"))...), "kafka", false, false},
		{"udp", LinkTypeRaw, ipv4(17, []byte("12345678"), 0), "", true, false},
		{"fragment", LinkTypeRaw, frag, "", true, false},
		{"arp", LinkTypeEthernet, ether(0, 0x0806, make([]byte, 28)), "", true, false},
		{"short ipv4", LinkTypeRaw, ipv4(6, nil, 0)[:12], "", false, true},
		{"short tcp", LinkTypeRaw, ipv4(6, tcpBytes("")[:10], 0), "", false, true},
		{"empty", LinkTypeEthernet, nil, "", false, true},
		{"short sll2", LinkTypeLinuxSLL2, make([]byte, 10), "", false, true},
	} {
		s, err := ParseTCP(c.link, c.b, len(c.b))
		var nt NotTCP
		switch {
		case errors.As(err, &nt) != c.notTCP:
			t.Errorf("%s: %v, not TCP: want %v", c.name, err, c.notTCP)
		case (err != nil && !c.notTCP) != c.err:
			t.Errorf("%s: error %v, want one: %v", c.name, err, c.err)
		case err == nil && (string(s.Payload) != c.payload || s.Dst.Port() != 9092 || s.Missing != 0):
			t.Errorf("%s: %+v", c.name, s)
		}
	}
	// Cut by the snaplen: the payload there, the rest missing.
	b := ether(0, 0x0800, ipv4(6, tcpBytes("0123456789"), 0))
	s, err := ParseTCP(LinkTypeEthernet, b[:len(b)-4], len(b))
	if err != nil || string(s.Payload) != "012345" || s.Missing != 4 || s.Src.String() != "10.0.0.1:40000" {
		t.Errorf("cut: %+v %v", s, err)
	}
}
