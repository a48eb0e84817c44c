//go:build !js

package capture

import (
	"bufio"
	"errors"
	"io"

	"github.com/google/gopacket"
	"github.com/google/gopacket/layers"
	"github.com/google/gopacket/pcapgo"
)

// The native build reads captures with pcapgo; openPcap and openPcapng
// are the browser's in lite_js.go.

func openPcap(br *bufio.Reader) (packetSource, error) {
	pr, err := pcapgo.NewReader(br)
	if err != nil {
		return nil, err
	}
	if pr.Snaplen() > MaxPacket || pr.Snaplen() == 0 {
		pr.SetSnaplen(MaxPacket)
	}
	return &goPackets{pcap: pr, offset: 24}, nil
}

func openPcapng(g *ngGuard) (packetSource, error) {
	ng, err := pcapgo.NewNgReader(g, pcapgo.NgReaderOptions{WantMixedLinkType: true, SkipUnknownVersion: false})
	if err != nil {
		return nil, err
	}
	return &goPackets{ng: ng, guard: g}, nil
}

// goPackets reads packets with pcapgo.
type goPackets struct {
	pcap   *pcapgo.Reader
	ng     *pcapgo.NgReader
	guard  *ngGuard
	offset int64 // pcap: offset of the next record
}

func (r *goPackets) next(n int) (Packet, error) {
	var data []byte
	var ci gopacket.CaptureInfo
	var err error
	off := r.offset
	p := Packet{N: n}
	if r.ng != nil {
		data, ci, err = r.ng.ZeroCopyReadPacketData()
		off = r.guard.offset
		if len(r.guard.packets) > 0 {
			off, r.guard.packets = r.guard.packets[0], r.guard.packets[1:]
		}
		if err != nil && r.guard.err != nil && r.guard.err != io.EOF {
			err = r.guard.err
		}
		if err == nil && len(ci.AncillaryData) > 0 {
			l, _ := ci.AncillaryData[0].(layers.LinkType)
			p.Link = LinkType(l)
		}
	} else {
		data, ci, err = r.pcap.ZeroCopyReadPacketData()
		r.offset += 16 + int64(len(data))
		p.Link = LinkType(r.pcap.LinkType())
	}
	switch {
	case err == io.EOF && (r.ng == nil && ci.CaptureLength == 0 || r.ng != nil && r.guard.atBoundary()):
		// (pcapgo says io.EOF, not io.ErrUnexpectedEOF, for a file that
		// ends after a record's header: its capture length tells.)
		return p, io.EOF
	case err == io.EOF || err == io.ErrUnexpectedEOF:
		return p, &FileError{Packet: n, Offset: off, Err: errors.New("the file ends inside this packet (truncated capture)")}
	case err != nil:
		return p, &FileError{Packet: n, Offset: off, Err: err}
	}
	p.Offset, p.Time, p.Data, p.Len = off, ci.Timestamp, data, max(ci.Length, len(data))
	return p, nil
}

// atBoundary reports whether pcapgo read every block the guard passed.
func (g *ngGuard) atBoundary() bool { return g.pos == len(g.buf) && g.err == io.EOF }
