package capture

import (
	"bufio"
	"encoding/binary"
	"errors"
	"io"
	"math/bits"
	"time"

	"kwire/internal/xfmt"
)

// The small reader of pcap and pcapng that the browser app uses instead
// of pcapgo (whose gopacket layers add about 600 KB gzip to it). It reads
// what pcapgo reads, as pcapgo reads it (tests compare the two), on the
// blocks ngGuard has checked.

// litePcap reads the records of a pcap file.
type litePcap struct {
	r       *bufio.Reader
	order   binary.ByteOrder
	nanos   bool
	snaplen uint32
	link    LinkType
	head    [16]byte
	buf     []byte
	offset  int64
}

func openLitePcap(br *bufio.Reader) (*litePcap, error) {
	var h [24]byte
	if _, err := io.ReadFull(br, h[:]); err != nil {
		return nil, err
	}
	r := &litePcap{r: br, offset: 24}
	switch binary.LittleEndian.Uint32(h[:]) {
	case 0xa1b2c3d4:
		r.order = binary.LittleEndian
	case 0xa1b23c4d:
		r.order, r.nanos = binary.LittleEndian, true
	case 0xd4c3b2a1:
		r.order = binary.BigEndian
	case 0x4d3cb2a1:
		r.order, r.nanos = binary.BigEndian, true
	default:
		return nil, xfmt.Errorf("unknown magic %x", binary.LittleEndian.Uint32(h[:]))
	}
	if major := r.order.Uint16(h[4:]); major != 2 {
		return nil, xfmt.Errorf("unknown major version %d", major)
	}
	r.snaplen = r.order.Uint32(h[16:])
	if r.snaplen > MaxPacket || r.snaplen == 0 {
		r.snaplen = MaxPacket
	}
	r.link = LinkType(r.order.Uint32(h[20:]))
	return r, nil
}

func (r *litePcap) next(n int) (Packet, error) {
	p := Packet{N: n, Offset: r.offset, Link: r.link}
	truncated := &FileError{Packet: n, Offset: r.offset, Err: errors.New("the file ends inside this packet (truncated capture)")}
	got, err := io.ReadFull(r.r, r.head[:])
	if got == 0 && err == io.EOF {
		return p, io.EOF
	}
	if err != nil {
		return p, truncated
	}
	sec, frac := r.order.Uint32(r.head[:]), r.order.Uint32(r.head[4:])
	caplen, length := r.order.Uint32(r.head[8:]), r.order.Uint32(r.head[12:])
	switch {
	case caplen > r.snaplen:
		return p, &FileError{Packet: n, Offset: r.offset, Err: xfmt.Errorf("capture length exceeds snap length: %d > %d", caplen, r.snaplen)}
	case caplen > length:
		return p, &FileError{Packet: n, Offset: r.offset, Err: xfmt.Errorf("capture length exceeds original packet length: %d > %d", caplen, length)}
	}
	if cap(r.buf) < int(caplen) {
		r.buf = make([]byte, max(caplen, 1<<12))
	}
	p.Data = r.buf[:caplen]
	if _, err := io.ReadFull(r.r, p.Data); err != nil {
		return p, truncated
	}
	r.offset += 16 + int64(caplen)
	if !r.nanos {
		frac *= 1000
	}
	p.Time = time.Unix(int64(sec), int64(frac)).UTC()
	p.Len = max(int(length), len(p.Data))
	return p, nil
}

// litePcapng reads the packets of a pcapng file from the blocks its
// guard checked.
type litePcapng struct {
	g      *ngGuard
	ifaces []liteIface
}

type liteIface struct {
	link   LinkType
	snap   uint32
	units  uint64 // timestamp units a second
	offset int64  // seconds added to timestamps
}

func openLitePcapng(g *ngGuard) (*litePcapng, error) {
	r := &litePcapng{g: g}
	if err := g.next(); err != nil {
		return nil, err
	}
	return r, nil
}

func (r *litePcapng) next(n int) (Packet, error) {
	g := r.g
	for {
		off := g.offset
		if err := g.next(); err != nil {
			if err == io.EOF {
				return Packet{N: n}, io.EOF
			}
			return Packet{N: n}, &FileError{Packet: n, Offset: off, Err: err}
		}
		g.packets = g.packets[:0]
		b := g.buf[8 : len(g.buf)-4]
		switch g.u32(g.buf) {
		case 0x0a0d0d0a:
			r.ifaces = r.ifaces[:0]
		case 1: // interface description
			r.ifaces = append(r.ifaces, r.iface(b))
		case 2, 6: // packet, enhanced packet
			i := int(g.u32(b))
			if g.u32(g.buf) == 2 {
				i = int(g.u16(b))
			}
			if i >= len(r.ifaces) {
				return Packet{N: n}, &FileError{Packet: n, Offset: off, Err: xfmt.Errorf("packet on interface %d, but the section describes %d", i, len(r.ifaces))}
			}
			ifc := r.ifaces[i]
			caplen := g.u32(b[12:])
			ts := uint64(g.u32(b[4:]))<<32 | uint64(g.u32(b[8:]))
			sec, frac := ts/ifc.units, ts%ifc.units
			hi, lo := bits.Mul64(frac, 1e9)
			ns, _ := bits.Div64(hi, lo, ifc.units)
			p := Packet{N: n, Offset: off, Link: ifc.link, Data: b[20 : 20+caplen], Len: int(g.u32(b[16:]))}
			p.Time = time.Unix(int64(sec)+ifc.offset, int64(ns)).UTC()
			p.Len = max(p.Len, len(p.Data))
			return p, nil
		case 3: // simple packet
			if len(r.ifaces) == 0 {
				return Packet{N: n}, &FileError{Packet: n, Offset: off, Err: errors.New("simple packet before any interface description")}
			}
			ifc := r.ifaces[0]
			length := g.u32(b)
			caplen := length
			if ifc.snap != 0 && caplen > ifc.snap {
				caplen = ifc.snap
			}
			return Packet{N: n, Offset: off, Link: ifc.link, Data: b[4 : 4+caplen], Len: int(length)}, nil
		}
	}
}

// iface reads an interface description block's body (checked by the
// guard: its options lie inside it, the resolution is in range).
func (r *litePcapng) iface(b []byte) liteIface {
	g := r.g
	ifc := liteIface{link: LinkType(g.u16(b)), snap: g.u32(b[4:]), units: 1e6}
	for pos := 8; pos+4 <= len(b); {
		code, n := g.u16(b[pos:]), int(g.u16(b[pos+2:]))
		if code == 0 {
			break
		}
		v := b[pos+4 : pos+4+n]
		switch code {
		case 9:
			if v[0]&0x80 != 0 {
				ifc.units = 1 << (v[0] & 0x7f)
			} else {
				ifc.units = 1
				for range v[0] {
					ifc.units *= 10
				}
			}
		case 14:
			if g.big {
				ifc.offset = int64(binary.BigEndian.Uint64(v))
			} else {
				ifc.offset = int64(binary.LittleEndian.Uint64(v))
			}
		}
		pos += 4 + (n+3)&^3
	}
	return ifc
}
