package records

import (
	"encoding/binary"
	"slices"
	"strconv"
	"unicode/utf8"

	"kwire/internal/textesc"
	"kwire/tree"
)

// alloc is the tree's allocator (tree.Alloc: nodes, child lists and
// strings from shared blocks, so that a tree of ten thousand records costs
// a few hundred allocations rather than a few hundred thousand) with the
// record formats written into its text blocks.
type alloc struct {
	*tree.Alloc
}

// numWith returns "v (what w)", as in "3 (offset 103)".
func (a alloc) numWith(v int64, what string, w int64) string {
	b := a.Text(len(what) + 44)
	b = strconv.AppendInt(b, v, 10)
	b = append(b, " ("...)
	b = append(b, what...)
	b = append(b, ' ')
	b = strconv.AppendInt(b, w, 10)
	b = append(b, ')')
	return a.String(b)
}

// labeled returns prefix + v.
func (a alloc) labeled(prefix string, v int64) string {
	b := a.Text(len(prefix) + 20)
	b = append(b, prefix...)
	b = strconv.AppendInt(b, v, 10)
	return a.String(b)
}

// lenDetails holds "(varint len=n)" for small n.
var lenDetails = func() (s [256]string) {
	for i := range s {
		s[i] = "(varint len=" + strconv.Itoa(i-1) + ")"
	}
	return s
}()

func (a alloc) lenDetail(n int64) string {
	if n >= -1 && n < int64(len(lenDetails))-1 {
		return lenDetails[n+1]
	}
	b := a.Text(40)
	b = append(b, "(varint len="...)
	b = strconv.AppendInt(b, n, 10)
	b = append(b, ')')
	return a.String(b)
}

// maxPreview is how many bytes of a key or value the tree shows.
const maxPreview = 48

// preview is the tree's text for a key, value or header: null, a quoted
// string when the bytes are text (see isText), else hex; at most
// maxPreview bytes (cut at a rune boundary), then the size.
func (a alloc) preview(b []byte, null bool) string {
	if null {
		return "null"
	}
	if len(b) <= maxPreview { // the common case: short printable ASCII
		i := 0
		for ; i < len(b); i++ {
			if c := b[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
				break
			}
		}
		if i == len(b) {
			t := a.Text(len(b) + 2)
			t = append(t, '"')
			t = append(t, b...)
			t = append(t, '"')
			return a.String(t)
		}
	}
	text := isText(b)
	shown := b
	if len(shown) > maxPreview {
		cut := maxPreview
		for text && cut > 0 && !utf8.RuneStart(b[cut]) {
			cut--
		}
		shown = b[:cut]
	}
	t := a.Text(len(shown)*10 + 40)
	if text {
		t = textesc.AppendEscaped(t, string(shown), true)
	} else {
		t = append(t, "0x"...)
		t = appendHex(t, shown)
	}
	if len(shown) < len(b) {
		t = append(t, "... ("...)
		t = strconv.AppendInt(t, int64(len(b)), 10)
		t = append(t, " bytes)"...)
	}
	return a.String(t)
}

const hexDigits = "0123456789abcdef"

// isText reports whether b reads as text: valid UTF-8 without control
// characters other than tab, newline and carriage return. The tree quotes
// such keys and values and the JSON form writes them as strings; anything
// else is shown as hex.
func isText(b []byte) bool {
	for i := 0; i < len(b); {
		if i += textPrefix(b[i:]); i == len(b) {
			break
		}
		c := b[i]
		if c < utf8.RuneSelf {
			if (c < 0x20 && c != '\t' && c != '\n' && c != '\r') || c == 0x7f {
				return false
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && size == 1 {
			return false
		}
		if r >= 0x80 && r < 0xa0 { // C1 controls
			return false
		}
		i += size
	}
	return true
}

// Bytes tested eight at a time (SWAR): each expression is non-zero when
// one of the eight bytes of x is of the kind it names.
const (
	ones  = 0x0101010101010101
	highs = 0x8080808080808080
)

func hasByte(x uint64, c byte) uint64 { v := x ^ (ones * uint64(c)); return (v - ones) &^ v & highs }
func hasLess(x uint64, n byte) uint64 { return (x - ones*uint64(n)) &^ x & highs } // a byte < n (n <= 128)

// atLeast7f: a byte >= 0x7f (DEL, or not ASCII): its low seven bits plus
// one reach its high bit (no carry leaves a byte), or that bit is set.
func atLeast7f(x uint64) uint64 { return ((x &^ highs) + ones | x) & highs }

// plainPrefix returns how many bytes at the start of s a JSON string
// holds as they are: ASCII but for C0 controls, DEL, '"' and '\\'.
func plainPrefix(s []byte) int {
	i := 0
	for ; i+8 <= len(s); i += 8 {
		x := binary.LittleEndian.Uint64(s[i:])
		if atLeast7f(x)|hasLess(x, 0x20)|hasByte(x, '"')|hasByte(x, '\\') != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || c == '"' || c == '\\' {
			break
		}
	}
	return i
}

// textPrefix returns how many bytes at the start of b are ASCII text:
// neither C0 controls (but tab, newline and carriage return) nor DEL.
func textPrefix(b []byte) int {
	i := 0
	for ; i+8 <= len(b); i += 8 {
		x := binary.LittleEndian.Uint64(b[i:])
		if atLeast7f(x)|hasLess(x, 0x20) != 0 {
			break // a byte to look at alone (maybe a tab or a newline)
		}
	}
	for ; i < len(b); i++ {
		if c := b[i]; c >= 0x7f || c < 0x20 && c != '\t' && c != '\n' && c != '\r' {
			break
		}
	}
	return i
}

// hexPairs holds the two hex digits of each byte value, the first in the
// low byte (as a little-endian store writes them).
var hexPairs = func() (t [256]uint16) {
	for i := range t {
		t[i] = uint16(hexDigits[i>>4]) | uint16(hexDigits[i&15])<<8
	}
	return t
}()

// appendHex is hex.AppendEncode, four bytes at a time (the JSON form
// writes every compressed batch in hex).
func appendHex(dst, src []byte) []byte {
	n := len(dst)
	dst = slices.Grow(dst, 2*len(src))[:n+2*len(src)]
	out := dst[n:]
	i := 0
	for ; i+4 <= len(src); i += 4 {
		binary.LittleEndian.PutUint64(out[2*i:], uint64(hexPairs[src[i]])|uint64(hexPairs[src[i+1]])<<16|
			uint64(hexPairs[src[i+2]])<<32|uint64(hexPairs[src[i+3]])<<48)
	}
	for ; i < len(src); i++ {
		binary.LittleEndian.PutUint16(out[2*i:], hexPairs[src[i]])
	}
	return dst
}
