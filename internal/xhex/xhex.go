// Package xhex is encoding/hex's DecodeString for the browser app: the
// standard library's InvalidByteError formats its text with fmt, which
// alone keeps all of fmt's printer in the binary. Results and error texts
// are encoding/hex's (xhex_test.go).
package xhex

import (
	"encoding/hex"

	"kwire/internal/xfmt"
)

// InvalidByteError is hex.InvalidByteError: a byte that is not a hex
// digit.
type InvalidByteError byte

func (e InvalidByteError) Error() string {
	return xfmt.Sprintf("encoding/hex: invalid byte: %#U", rune(e))
}

func val(c byte) byte {
	switch {
	case '0' <= c && c <= '9':
		return c - '0'
	case 'a' <= c && c <= 'f':
		return c - 'a' + 10
	case 'A' <= c && c <= 'F':
		return c - 'A' + 10
	}
	return 0xff
}

// DecodeString is hex.DecodeString: the bytes s spells in pairs of hex
// digits, those decoded before an error with it (the first bad byte, or
// hex.ErrLength for an odd count).
func DecodeString(s string) ([]byte, error) {
	dst := make([]byte, len(s)/2)
	i, j := 0, 1
	for ; j < len(s); j += 2 {
		a, b := val(s[j-1]), val(s[j])
		if a > 0x0f {
			return dst[:i], InvalidByteError(s[j-1])
		}
		if b > 0x0f {
			return dst[:i], InvalidByteError(s[j])
		}
		dst[i] = a<<4 | b
		i++
	}
	if len(s)%2 == 1 {
		if val(s[j-1]) > 0x0f {
			return dst[:i], InvalidByteError(s[j-1])
		}
		return dst[:i], hex.ErrLength
	}
	return dst[:i], nil
}
