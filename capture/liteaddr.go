package capture

import "strconv"

// liteAddrPort is the browser's AddrPort: an IPv4 address (in the last 4
// bytes) or an IPv6 address, and a port, written as netip writes them.
type liteAddrPort struct {
	ip   [16]byte
	v4   bool
	port uint16
}

// Port is the port.
func (a liteAddrPort) Port() uint16 { return a.port }

func (a liteAddrPort) less(b liteAddrPort) bool {
	if a.v4 != b.v4 {
		return a.v4
	}
	if a.ip != b.ip {
		for i := range a.ip {
			if a.ip[i] != b.ip[i] {
				return a.ip[i] < b.ip[i]
			}
		}
	}
	return a.port < b.port
}

// String writes "1.2.3.4:80" or "[fd00::1]:80" (RFC 5952: the longest
// run of two or more zero groups, the first of equals, as "::").
func (a liteAddrPort) String() string {
	b := make([]byte, 0, 48)
	if a.v4 {
		for i, x := range a.ip[12:] {
			if i > 0 {
				b = append(b, '.')
			}
			b = strconv.AppendUint(b, uint64(x), 10)
		}
	} else {
		b = append(b, '[')
		var g [8]uint16
		for i := range g {
			g[i] = uint16(a.ip[2*i])<<8 | uint16(a.ip[2*i+1])
		}
		zs, zl := -1, 1 // longest run of zero groups
		for i := 0; i < 8; {
			j := i
			for j < 8 && g[j] == 0 {
				j++
			}
			if j-i > zl {
				zs, zl = i, j-i
			}
			i = max(j, i+1)
		}
		for i := 0; i < 8; i++ {
			if i == zs {
				b = append(b, ':', ':')
				i += zl - 1
				continue
			}
			if i > 0 && i != zs+zl {
				b = append(b, ':')
			}
			b = strconv.AppendUint(b, uint64(g[i]), 16)
		}
		b = append(b, ']')
	}
	b = append(b, ':')
	return string(strconv.AppendUint(b, uint64(a.port), 10))
}
