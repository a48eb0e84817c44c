//go:build !js

package capture

import "net/netip"

// AddrPort is an IP address and a port: natively netip's; in the browser
// the small liteAddrPort (netip, with the unique and weak packages it
// brings, adds about 30 KB gzip to the app).
type AddrPort = netip.AddrPort

func addrPort4(ip [4]byte) AddrPort   { return netip.AddrPortFrom(netip.AddrFrom4(ip), 0) }
func addrPort16(ip [16]byte) AddrPort { return netip.AddrPortFrom(netip.AddrFrom16(ip), 0) }
func withPort(a AddrPort, port uint16) AddrPort {
	return netip.AddrPortFrom(a.Addr(), port)
}

func lessAddrPort(s, d AddrPort) bool {
	return s.Addr().Less(d.Addr()) || (s.Addr() == d.Addr() && s.Port() < d.Port())
}
