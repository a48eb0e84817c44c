//go:build !js

package capture

import (
	"bufio"
	"bytes"
	"encoding/hex"
	"fmt"
	"io"
	"net/netip"
	"testing"
	"time"

	"kwire/capture/capturetest"
)

// liteSeeds are captures of a few frames in every shape capturetest
// writes: pcap in both byte orders, micro- and nanoseconds, a snaplen
// that cuts packets; pcapng with one and two interfaces; IPv6, SLL2,
// VLAN tags, loopback.
func liteSeeds(t *testing.T) [][]byte {
	req, _ := hex.DecodeString("0000000a00120000000000010000")
	resp, _ := hex.DecodeString("0000000c0000000100000000000000")
	meta, _ := hex.DecodeString("0000000e000300010000000200000000ffff")
	at := time.Unix(1700000000, 123456789)
	chunks := []capturetest.Chunk{
		{Conn: 0, FromClient: true, Time: at, Data: req},
		{Conn: 0, FromClient: false, Time: at.Add(time.Millisecond), Data: resp},
		{Conn: 1, FromClient: true, Time: at.Add(3 * time.Millisecond), Data: append(append([]byte(nil), req...), meta...)},
	}
	var out [][]byte
	for i, o := range []capturetest.Options{{MSS: 6}, {IPv6: true, Links: []int{capturetest.LinkTypeSLL2}}, {VLAN: true}, {Links: []int{0}}, {Links: []int{1, 101}}, {IPv6: true, Links: []int{113, 0}}} {
		pkts := capturetest.Packets(chunks, o)
		var b bytes.Buffer
		if len(o.Links) < 2 {
			if err := capturetest.WritePcap(&b, pkts, o.Links0(), i%2 == 0, i%3 == 1, uint32(60+i*1000)); err != nil {
				t.Fatal(err)
			}
			out = append(out, b.Bytes())
			b = bytes.Buffer{}
		}
		if o.Links0() < 256 {
			if err := capturetest.WritePcapng(&b, pkts, o.Links); err != nil {
				t.Fatal(err)
			}
			out = append(out, b.Bytes())
		}
	}
	return out
}

// readWith reads every packet of a capture with a source, as text.
func readWith(b []byte, lite bool) string {
	br := bufio.NewReader(bytes.NewReader(b))
	var src packetSource
	var err error
	if binaryMagic(b) == 0x0a0d0d0a {
		if lite {
			src, err = openLitePcapng(&ngGuard{r: br})
		} else {
			src, err = openPcapng(&ngGuard{r: br})
		}
	} else if lite {
		src, err = openLitePcap(br)
	} else {
		src, err = openPcap(br)
	}
	if err != nil {
		return "open: error"
	}
	var out bytes.Buffer
	for n := 1; ; n++ {
		p, err := src.next(n)
		if err == io.EOF {
			return out.String()
		}
		if err != nil {
			fe, ok := err.(*FileError)
			fmt.Fprintf(&out, "error %v %d\n", ok, fe.Packet)
			return out.String()
		}
		fmt.Fprintf(&out, "%d %d %s %d %d %x\n", p.N, p.Offset, p.Time.UTC().Format(time.RFC3339Nano), p.Link, p.Len, p.Data)
	}
}

func binaryMagic(b []byte) uint32 {
	if len(b) < 4 {
		return 0
	}
	return uint32(b[0]) | uint32(b[1])<<8 | uint32(b[2])<<16 | uint32(b[3])<<24
}

// TestLiteReader checks that the browser's reader reads every capture,
// whole and cut at every length, as pcapgo does.
func TestLiteReader(t *testing.T) {
	for i, b := range liteSeeds(t) {
		want := readWith(b, false)
		if got := readWith(b, true); got != want {
			t.Fatalf("capture %d:\nlite:\n%s\npcapgo:\n%s", i, got, want)
		}
		if bytes.Count([]byte(want), []byte("\n")) < 5 {
			t.Fatalf("capture %d: too few packets:\n%s", i, want)
		}
		for n := 0; n < len(b); n += 7 {
			if got, want := readWith(b[:n], true), readWith(b[:n], false); got != want {
				t.Fatalf("capture %d cut at %d:\nlite:\n%s\npcapgo:\n%s", i, n, got, want)
			}
		}
	}
}

// TestLiteAddrPort checks the browser's addresses against netip's.
func TestLiteAddrPort(t *testing.T) {
	for _, s := range []string{"10.0.0.1:40000", "255.0.9.0:0", "[fd00::1]:9092", "[::]:1", "[1:0:0:1:0:0:0:1]:2", "[1:0:0:1:0:0:1:1]:2",
		"[2001:db8::]:65535", "[1:2:3:4:5:6:7:8]:9", "[0:1:0:1:0:1:0:1]:9", "[::1:0:0:0]:5"} {
		ap := netip.MustParseAddrPort(s)
		var a liteAddrPort
		if ap.Addr().Is4() {
			a.v4 = true
			b := ap.Addr().As4()
			copy(a.ip[12:], b[:])
		} else {
			a.ip = ap.Addr().As16()
		}
		a.port = ap.Port()
		if a.String() != ap.String() {
			t.Errorf("%s: lite writes %s", ap, a.String())
		}
	}
	a4 := liteAddrPort{v4: true, port: 2}
	a6 := liteAddrPort{port: 1}
	if !a4.less(a6) || a6.less(a4) || a4.less(a4) {
		t.Error("less: IPv4 before IPv6, irreflexive")
	}
}
