package capture

// AddrPort is an IP address and a port (see addr.go).
type AddrPort = liteAddrPort

func addrPort4(ip [4]byte) AddrPort {
	a := AddrPort{v4: true}
	copy(a.ip[12:], ip[:])
	return a
}

func addrPort16(ip [16]byte) AddrPort { return AddrPort{ip: ip} }

func withPort(a AddrPort, port uint16) AddrPort { a.port = port; return a }

func lessAddrPort(s, d AddrPort) bool { return s.less(d) }
