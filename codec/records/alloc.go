package records

import (
	"strconv"
	"unicode"
	"unicode/utf8"
	"unsafe"

	"kwire/tree"
)

// alloc hands out tree nodes, child slices and strings from large blocks,
// so that a tree of ten thousand records costs a few hundred allocations
// rather than a few hundred thousand. Strings are written once into a text
// block and never touched again, which is what makes unsafe.String safe.
type alloc struct {
	nodes []tree.Node
	ptrs  []*tree.Node
	text  []byte
}

const (
	nodeBlock = 2048
	ptrBlock  = 2048
	textBlock = 32 << 10
)

func (a *alloc) node() *tree.Node {
	if len(a.nodes) == 0 {
		a.nodes = make([]tree.Node, nodeBlock)
	}
	n := &a.nodes[0]
	a.nodes = a.nodes[1:]
	return n
}

// children returns an empty slice with room for k children; appending more
// than k reallocates it, as any slice would.
func (a *alloc) children(k int) []*tree.Node {
	if k > ptrBlock/4 {
		return make([]*tree.Node, 0, k)
	}
	if len(a.ptrs) < k {
		a.ptrs = make([]*tree.Node, ptrBlock)
	}
	s := a.ptrs[:0:k]
	a.ptrs = a.ptrs[k:]
	return s
}

// reserve makes room for n more bytes of text without moving the block.
func (a *alloc) reserve(n int) {
	if cap(a.text)-len(a.text) < n {
		a.text = make([]byte, 0, max(textBlock, n))
	}
}

// done returns the text written since start as a string.
func (a *alloc) done(start int) string {
	if len(a.text) == start {
		return ""
	}
	return unsafe.String(&a.text[start], len(a.text)-start)
}

// small holds the decimal strings of 0..smallMax.
const smallMax = 1023

var small = func() (s [smallMax + 1]string) {
	for i := range s {
		s[i] = strconv.Itoa(i)
	}
	return s
}()

// itoa is strconv.FormatInt from the block.
func (a *alloc) itoa(v int64) string {
	if v >= 0 && v <= smallMax {
		return small[v]
	}
	a.reserve(20)
	start := len(a.text)
	a.text = strconv.AppendInt(a.text, v, 10)
	return a.done(start)
}

// indexed returns prefix + "[" + i + "]".
func (a *alloc) indexed(prefix string, i int) string {
	a.reserve(len(prefix) + 22)
	start := len(a.text)
	a.text = append(a.text, prefix...)
	a.text = append(a.text, '[')
	a.text = strconv.AppendInt(a.text, int64(i), 10)
	a.text = append(a.text, ']')
	return a.done(start)
}

// join returns a + b.
func (a *alloc) join(x, y string) string {
	a.reserve(len(x) + len(y))
	start := len(a.text)
	a.text = append(a.text, x...)
	a.text = append(a.text, y...)
	return a.done(start)
}

// numWith returns "v (what w)", as in "3 (offset 103)".
func (a *alloc) numWith(v int64, what string, w int64) string {
	a.reserve(len(what) + 44)
	start := len(a.text)
	a.text = strconv.AppendInt(a.text, v, 10)
	a.text = append(a.text, " ("...)
	a.text = append(a.text, what...)
	a.text = append(a.text, ' ')
	a.text = strconv.AppendInt(a.text, w, 10)
	a.text = append(a.text, ')')
	return a.done(start)
}

// labeled returns prefix + v.
func (a *alloc) labeled(prefix string, v int64) string {
	a.reserve(len(prefix) + 20)
	start := len(a.text)
	a.text = append(a.text, prefix...)
	a.text = strconv.AppendInt(a.text, v, 10)
	return a.done(start)
}

// lenDetails holds "(varint len=n)" for small n.
var lenDetails = func() (s [256]string) {
	for i := range s {
		s[i] = "(varint len=" + strconv.Itoa(i-1) + ")"
	}
	return s
}()

func (a *alloc) lenDetail(n int64) string {
	if n >= -1 && n < int64(len(lenDetails))-1 {
		return lenDetails[n+1]
	}
	a.reserve(40)
	start := len(a.text)
	a.text = append(a.text, "(varint len="...)
	a.text = strconv.AppendInt(a.text, n, 10)
	a.text = append(a.text, ')')
	return a.done(start)
}

// maxPreview is how many bytes of a key or value the tree shows.
const maxPreview = 48

// preview is the tree's text for a key, value or header: null, a quoted
// string when the bytes are text (see isText), else hex; at most
// maxPreview bytes (cut at a rune boundary), then the size.
func (a *alloc) preview(b []byte, null bool) string {
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
			a.reserve(len(b) + 2)
			start := len(a.text)
			a.text = append(a.text, '"')
			a.text = append(a.text, b...)
			a.text = append(a.text, '"')
			return a.done(start)
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
	a.reserve(len(shown)*10 + 40)
	start := len(a.text)
	if text {
		a.text = appendQuoted(a.text, shown)
	} else {
		a.text = append(a.text, "0x"...)
		a.text = appendHex(a.text, shown)
	}
	if len(shown) < len(b) {
		a.text = append(a.text, "... ("...)
		a.text = strconv.AppendInt(a.text, int64(len(b)), 10)
		a.text = append(a.text, " bytes)"...)
	}
	return a.done(start)
}

const hexDigits = "0123456789abcdef"

func appendHex(dst, b []byte) []byte {
	for _, c := range b {
		dst = append(dst, hexDigits[c>>4], hexDigits[c&15])
	}
	return dst
}

// isText reports whether b reads as text: valid UTF-8 without control
// characters other than tab, newline and carriage return. The tree quotes
// such keys and values and the JSON form writes them as strings; anything
// else is shown as hex.
func isText(b []byte) bool {
	for i := 0; i < len(b); {
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

// appendQuoted appends text (isText holds) in double quotes, escaping
// quotes, backslashes, tab, newline, carriage return and runes that do not
// print.
func appendQuoted(dst, b []byte) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(b); {
		c := b[i]
		if c < utf8.RuneSelf {
			switch c {
			case '"', '\\':
				dst = append(dst, '\\', c)
			case '\t':
				dst = append(dst, '\\', 't')
			case '\n':
				dst = append(dst, '\\', 'n')
			case '\r':
				dst = append(dst, '\\', 'r')
			default:
				dst = append(dst, c)
			}
			i++
			continue
		}
		r, size := utf8.DecodeRune(b[i:])
		if unicode.IsPrint(r) {
			dst = append(dst, b[i:i+size]...)
		} else {
			dst = appendRuneEscape(dst, r)
		}
		i += size
	}
	return append(dst, '"')
}

// appendRuneEscape appends \uXXXX or \UXXXXXXXX.
func appendRuneEscape(dst []byte, r rune) []byte {
	digits := 4
	dst = append(dst, '\\', 'u')
	if r > 0xffff {
		digits = 8
		dst[len(dst)-1] = 'U'
	}
	for i := digits - 1; i >= 0; i-- {
		dst = append(dst, hexDigits[(r>>(4*i))&15])
	}
	return dst
}
