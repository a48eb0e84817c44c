package tree

import (
	"encoding/binary"
	"io"
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

// A RunAppender is a LineAppender that appends the lines of a run of
// leaves itself, for WriteText: AppendRun appends, for span i and each
// span after it before end while they have no children, pre, the line
// AppendLine appends and a newline, and returns the first span it did
// not write (i for none). It writes only lines that need no escaping
// (plain), and stops once b holds more than limit bytes.
type RunAppender interface {
	AppendRun(b []byte, f *Flat, i, end int, pre []byte, limit int) (out []byte, next int)
}

// textState is what WriteText reuses from one call to the next: its
// buffers and the strings block of its rows.
type textState struct {
	a    Alloc
	out  []byte
	line []byte
	pre  []byte    // the guides of the current depth
	ends []int32   // the Next of each open ancestor
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
	ra RunAppender
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
		t.ra, _ = d.(RunAppender)
		st.who = append(st.who, t)
	}
	var (
		err   error
		spans = f.Spans
		out   = st.out[:0]
		pre   = append(st.pre[:0], "+-- "...) // the guides, then the row's own
		ends  = st.ends[:0]
	)
	end := spans[i].Next
	for j := i; j < int(end) && err == nil; j++ {
		s := &spans[j]
		if len(ends) > 0 && int32(j) >= ends[len(ends)-1] {
			for len(ends) > 0 && int32(j) >= ends[len(ends)-1] {
				ends = ends[:len(ends)-1]
				pre = pre[:max(len(pre)-4, 4)]
			}
			copy(pre[len(pre)-4:], "+-- ")
		}
		if j != i && s.Next == int32(j+1) { // a leaf: maybe the first of a run
			if ra := st.who[s.Who].ra; ra != nil {
				var next int
				if out, next = ra.AppendRun(out, f, j, int(ends[len(ends)-1]), pre, flushAt); next > j {
					j = next - 1
					if len(out) > flushAt {
						_, err = w.Write(out)
						out = out[:0]
					}
					continue
				}
			}
		}
		if j != i {
			out = append(out, pre...)
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
		if !plain && needsEscape(out[at:]) { // rare: written again, escaped
			st.line = append(st.line[:0], out[at:]...)
			out = textesc.AppendEscaped(out[:at], string(st.line), false)
		}
		out = append(out, '\n')
		if s.Next > int32(j+1) { // it has children
			if j != i {
				if s.Next >= ends[len(ends)-1] {
					copy(pre[len(pre)-4:], "    ") // the last child
				} else {
					copy(pre[len(pre)-4:], "|   ")
				}
				pre = append(pre, "+-- "...)
			}
			ends = append(ends, s.Next)
		}
		if len(out) > flushAt {
			_, err = w.Write(out)
			out = out[:0]
		}
	}
	if err == nil && len(out) > 0 {
		_, err = w.Write(out)
	}
	st.out, st.pre, st.ends = out[:0], pre[:0], ends[:0]
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

// AppendPlace appends where a line's node lies, as Line writes it:
// " [0x000f, 1B]",
// " [+0x0010, 4B]" in a decompressed stream (rel).
func AppendPlace(b []byte, off, size int, rel bool) []byte {
	if off >= 0 && off <= 0xffff && size >= 0 && size < 100 && !rel { // most
		n := len(b)
		if cap(b)-n < 16 {
			b = append(b, make([]byte, 16)...)[:n]
		}
		d := (*[16]byte)(b[n : n+16])
		d[0], d[1], d[2], d[3] = ' ', '[', '0', 'x'
		d[4], d[5], d[6], d[7] = hexDigits[off>>12], hexDigits[off>>8&15], hexDigits[off>>4&15], hexDigits[off&15]
		d[8], d[9] = ',', ' '
		if size < 10 {
			d[10], d[11], d[12] = byte('0'+size), 'B', ']'
			return b[:n+13]
		}
		d[10], d[11], d[12], d[13] = byte('0'+size/10), byte('0'+size%10), 'B', ']'
		return b[:n+14]
	}
	if rel {
		b = append(b, " [+0x"...)
	} else {
		b = append(b, " [0x"...)
	}
	switch {
	case off >= 0 && off <= 0xffff: // most: four digits
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
	switch {
	case size >= 0 && size < 10:
		b = append(b, byte('0'+size), 'B', ']')
	case size >= 10 && size < 100:
		b = append(b, byte('0'+size/10), byte('0'+size%10), 'B', ']')
	default:
		b = append(strconv.AppendInt(b, int64(size), 10), "B]"...)
	}
	return b
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
