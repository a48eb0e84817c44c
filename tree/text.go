package tree

import (
	"encoding/binary"
	"io"
	"slices"
	"strconv"
	"sync"
	"unicode"
	"unicode/utf8"

	"kwire/internal/textesc"
	"kwire/internal/xfmt"
)

// A Shortener is a Describer whose descriptions repeat from row to row
// (a schema field's, on every element): Short returns Shorten(about,
// MaxAbout) for the About that Describe gave span i, kept rather than
// made again, or false when it has none kept for it.
type Shortener interface {
	Short(f *Flat, i int, about string) (string, bool)
}

// A LineAppender is a Describer that appends the line of a span itself,
// for WriteText, without a Node: AppendLine appends to b what appendRaw
// would for the node Describe writes (Line's text, unescaped), or returns
// ok false, and b as it was, to leave the span to Describe. plain says
// that what it appended has no control and no byte past ASCII (so that
// Escape would not change it), when it knows.
type LineAppender interface {
	AppendLine(b []byte, f *Flat, i int) (out []byte, ok, plain bool)
}

// A RowsAppender is a LineAppender that appends rows itself, for
// WriteText, without a call from it for each: AppendRows appends, for span
// i and each span after it before end while it can, the guides (g.Enter,
// then g.Pre), the line AppendLine appends and a newline, opening the
// guides of a row that has children (g.Open); it returns the first span
// it did not write (i for none). It writes only lines that need no
// escaping (plain), and stops once b holds more than limit bytes.
type RowsAppender interface {
	AppendRows(b []byte, f *Flat, i, end int, g *Guides, limit int) (out []byte, next int)
}

// Guides are the `+--` and `|` guides of the rows WriteText writes, as it
// walks the spans in preorder: Pre is the current row's.
type Guides struct {
	pre  []byte  // the guides of the open ancestors, then the row's own "+-- "
	ends []int32 // the Next of each open ancestor, the walk's root first
}

// Pre returns the guides of the row entered last; its capacity holds 32
// bytes more, for a copy 16 bytes at a time.
func (g *Guides) Pre() []byte { return g.pre }

// Enter readies the guides for the row of span j, below the walk's root:
// the subtrees that end at j or before it close.
func (g *Guides) Enter(j int) {
	if int32(j) >= g.ends[len(g.ends)-1] {
		g.close(int32(j))
	}
}

func (g *Guides) close(j int32) {
	for len(g.ends) > 1 && j >= g.ends[len(g.ends)-1] {
		g.ends = g.ends[:len(g.ends)-1]
		g.pre = g.pre[:len(g.pre)-4]
	}
	copy(g.pre[len(g.pre)-4:], "+-- ")
}

// Open opens the subtree of the row just written, below the walk's root,
// whose children end at next: its own guide becomes the line down to its
// next sibling, or blank for the last child.
func (g *Guides) Open(next int32) {
	if next >= g.ends[len(g.ends)-1] {
		copy(g.pre[len(g.pre)-4:], "    ")
	} else {
		copy(g.pre[len(g.pre)-4:], "|   ")
	}
	g.pre = append(g.pre, "+-- "...)
	if cap(g.pre)-len(g.pre) < 32 {
		g.pre = slices.Grow(g.pre, 64)
	}
	g.ends = append(g.ends, next)
}

// textState is what WriteText reuses from one call to the next: its
// buffers and the strings block of its rows.
type textState struct {
	a    Alloc
	out  []byte
	line []byte
	g    Guides
	who  []textWho // what each describer of the tree can do
	n    Node      // the row's
}

// flushAt is how many bytes WriteText holds before it writes them.
const flushAt = 7 << 10

// textWho is a describer as WriteText uses it: the interfaces it has, or
// nil.
type textWho struct {
	sh Shortener
	la LineAppender
	ra RowsAppender
}

var textStates = sync.Pool{New: func() any { return &textState{out: make([]byte, 0, 8<<10)} }}

// WriteText writes the text tree of the root at index i, one node a line
// under `+--` and `|` guides, without a Node per row: the spans
// are walked in preorder and each row is appended by its describer
// (LineAppender) or, for a describer that cannot, written into one
// scratch node whose strings are made in a block that the next row
// reuses; descriptions come shortened from describers that keep them so
// (Shortener). Nothing is allocated per row. top, when not nil, is called
// with node i's own node before its line is written, to change its text
// (kwire decode's "read with the schemas of ..."); it must not keep the
// node or its strings. Node.Path is not printed, so it is not made.
func (f *Flat) WriteText(w io.Writer, i int, top func(n *Node)) error {
	st := textStates.Get().(*textState)
	defer textStates.Put(st)
	st.who = st.who[:0]
	for _, d := range f.who {
		var t textWho
		t.sh, _ = d.(Shortener)
		t.la, _ = d.(LineAppender)
		t.ra, _ = d.(RowsAppender)
		st.who = append(st.who, t)
	}
	var (
		err   error
		spans = f.Spans
		out   = st.out[:0]
		g     = &st.g
	)
	g.pre, g.ends = append(slices.Grow(g.pre[:0], 64), "+-- "...), g.ends[:0]
	end := int(spans[i].Next)
	for j := i; j < end && err == nil; j++ {
		s := &spans[j]
		if j != i {
			g.Enter(j)
			if ra := st.who[s.Who].ra; ra != nil {
				var next int
				if out, next = ra.AppendRows(out, f, j, end, g, flushAt); next > j {
					j = next - 1
					if len(out) > flushAt {
						_, err = w.Write(out)
						out = out[:0]
					}
					continue
				}
			}
			out = append(out, g.pre...)
		}
		at := len(out)
		done, plain := false, false
		if j != i || top == nil {
			if la := st.who[s.Who].la; la != nil {
				out, done, plain = la.AppendLine(out, f, j)
			}
		}
		if !done {
			out = f.appendDescribed(out, j, st, i, top)
		}
		if !(done && plain) && needsEscape(out[at:]) { // rare: written again, escaped
			st.line = append(st.line[:0], out[at:]...)
			out = textesc.AppendEscaped(out[:at], string(st.line), false)
		}
		out = append(out, '\n')
		if s.Next > int32(j+1) { // it has children
			if j != i {
				g.Open(s.Next)
			} else {
				g.ends = append(g.ends, s.Next)
			}
		}
		if len(out) > flushAt {
			_, err = w.Write(out)
			out = out[:0]
		}
	}
	if err == nil && len(out) > 0 {
		_, err = w.Write(out)
	}
	st.out = out[:0]
	clear(st.who)
	st.n = Node{}
	st.a.rewind()
	return err
}

// appendDescribed appends the line of span j from the node its describer
// writes into st.n (top changes root i's).
func (f *Flat) appendDescribed(out []byte, j int, st *textState, i int, top func(n *Node)) []byte {
	s, n := &f.Spans[j], &st.n
	st.a.rewind()
	*n = Node{Offset: int(s.Off), Size: int(s.Size), Section: s.Section, Relative: s.Flags&InStream != 0}
	f.who[s.Who].Describe(f, j, n, &st.a)
	if j == i && top != nil {
		top(n)
	}
	short := false
	if sh := st.who[s.Who].sh; n.Err == nil && n.About != "" && sh != nil {
		var about string
		if about, short = sh.Short(f, j, n.About); short {
			n.About = ""
			out = appendRaw(out, n)
			out = append(out, ' ')
			out = append(out, about...)
		}
	}
	if !short {
		out = appendRaw(out, n)
	}
	return out
}

// appendRaw appends n's line (Node.Line) before it is escaped.
func appendRaw(b []byte, n *Node) []byte {
	b = append(b, n.Name...)
	if n.Type != "" {
		b = append(b, ' ')
		b = append(b, n.Type...)
	}
	if n.Value != "" {
		b = append(b, " = "...)
		b = append(b, n.Value...)
	}
	if n.Detail != "" {
		b = append(b, ' ')
		b = append(b, n.Detail...)
	}
	b = AppendPlace(b, n.Offset, n.Size, n.Relative)
	if n.Err != nil {
		b = append(b, " ERROR: "...)
		b = append(b, n.Err.Error()...)
	} else if n.About != "" {
		b = append(b, ' ')
		b = appendShortened(b, n.About, MaxAbout)
	}
	return b
}

const hexDigits = "0123456789abcdef"

// placeHex holds byte i as two hex digits, in the order they are
// written; placeSize holds ", nB]" for a size n below 100 (13 bytes less
// the place's first eight: 5 or 6), in the order written.
var (
	placeHex  [256]uint16
	placeSize [100]uint64
)

func init() {
	for i := range placeHex {
		placeHex[i] = uint16(hexDigits[i>>4]) | uint16(hexDigits[i&15])<<8
	}
	for n := range placeSize {
		w := uint64(',') | ' '<<8
		if n < 10 {
			w |= uint64('0'+n)<<16 | 'B'<<24 | ']'<<32
		} else {
			w |= uint64('0'+n/10)<<16 | uint64('0'+n%10)<<24 | 'B'<<32 | ']'<<40
		}
		placeSize[n] = w
	}
}

// PutPlace writes into d what AppendPlace appends for most nodes, at an
// offset of four hex digits or fewer in the buffer (not in a stream) and
// of fewer than 100 bytes, as two words, and returns its length; it
// writes nothing and returns 0 for other places and when d holds fewer
// than 16 bytes (it writes 16).
func PutPlace(d []byte, off, size int) int {
	if uint(off) > 0xffff || uint(size) >= 100 || len(d) < 16 {
		return 0
	}
	binary.LittleEndian.PutUint64(d, ' '|'['<<8|'0'<<16|'x'<<24|uint64(placeHex[off>>8])<<32|uint64(placeHex[off&0xff])<<48)
	binary.LittleEndian.PutUint64(d[8:], placeSize[size])
	return 13 + (size+90)/100 // 14 from 10 on
}

// AppendPlace appends where a line's node lies, as Line writes it:
// " [0x000f, 1B]",
// " [+0x0010, 4B]" in a decompressed stream (rel).
func AppendPlace(b []byte, off, size int, rel bool) []byte {
	if n := len(b); !rel && cap(b)-n >= 16 { // most
		if k := PutPlace(b[n:n+16], off, size); k > 0 {
			return b[:n+k]
		}
	}
	if rel {
		b = append(b, " [+0x"...)
	} else {
		b = append(b, " [0x"...)
	}
	switch {
	case off >= 0 && off <= 0xffff: // four digits
		b = append(b, hexDigits[off>>12], hexDigits[off>>8&15], hexDigits[off>>4&15], hexDigits[off&15], ',', ' ')
	case off >= 0:
		var d [16]byte // hex digits, from the right
		k := len(d)
		for v := uint64(off); v > 0; v >>= 4 {
			k--
			d[k] = hexDigits[v&15]
		}
		b = append(append(b, d[k:]...), ", "...)
	default:
		b = append(xfmt.Appendf(b[:len(b)-2], "0x%04x", off), ", "...)
	}
	return append(strconv.AppendInt(b, int64(size), 10), "B]"...)
}

// Plain reports that b has no control and no byte past ASCII: Escape
// leaves it as it is.
func Plain(b []byte) bool { return !needsEscape(b) }

// needsEscape says whether Escape would change line: it holds a control
// or a byte past ASCII (of which only some are escaped, as Escape does).
// It looks at eight bytes at a time: a byte below 0x20 borrows into its
// top bit when 0x20 is taken from it, one of 0x7f or more has it set or
// carries into it when 1 is added (a carry or borrow across bytes starts
// only at a byte that is itself one of them).
func needsEscape(line []byte) bool {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	for len(line) >= 8 {
		w := binary.LittleEndian.Uint64(line)
		if ((w-0x20*ones)&^w|w|(w+ones))&highs != 0 {
			return true
		}
		line = line[8:]
	}
	for _, c := range line {
		if c < 0x20 || c >= 0x7f {
			return true
		}
	}
	return false
}

// appendShortened appends Shorten(s, max) without making strings: the
// words of s one space apart, cut to max runes and "..." when longer.
func appendShortened(b []byte, s string, max int) []byte {
	if len(s) <= max && spaced(s) {
		return append(b, s...)
	}
	at := len(b)
	word := false // inside a word
	runes := 0    // written: past max, the rest cannot matter but for "..."
	for i := 0; i < len(s) && runes <= max; {
		r, size := rune(s[i]), 1
		space := r == ' ' || r >= '\t' && r <= '\r' // unicode.IsSpace's ASCII
		if r >= utf8.RuneSelf {
			r, size = utf8.DecodeRuneInString(s[i:])
			space = unicode.IsSpace(r)
		}
		if space {
			word = false
		} else {
			if !word && len(b) > at {
				b = append(b, ' ')
				runes++
			}
			word = true
			b = append(b, s[i:i+size]...)
			runes++
		}
		i += size
	}
	if runes <= max {
		return b
	}
	// Cut after max runes, as string([]rune(s)[:max]) does: a byte that
	// is not UTF-8 becomes U+FFFD there.
	end, k := at, 0
	for ; k < max; k++ {
		r, size := utf8.DecodeRune(b[end:])
		if r == utf8.RuneError && size == 1 {
			r := []rune(string(b[at:]))
			return append(append(b[:at], string(r[:max])...), "..."...)
		}
		end += size
	}
	return append(b[:end], "..."...)
}
