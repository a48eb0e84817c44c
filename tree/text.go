package tree

import (
	"encoding/binary"
	"io"
	"strconv"
	"sync"
	"unicode"
	"unicode/utf8"

	"kwire/internal/xfmt"
)

// A Shortener is a Describer whose descriptions repeat from row to row
// (a schema field's, on every element): Short returns Shorten(about,
// MaxAbout) for the About that Describe gave span i, kept rather than
// made again, or false when it has none kept for it.
type Shortener interface {
	Short(f *Flat, i int, about string) (string, bool)
}

// textState is what WriteText reuses from one call to the next: its
// buffers and the strings block of its rows.
type textState struct {
	a    Alloc
	out  []byte
	line []byte
	pre  []byte  // the guides of the current depth
	ends []int32 // the Next of each open ancestor
	sh   []Shortener
	n    Node // the row's
}

var textStates = sync.Pool{New: func() any { return &textState{out: make([]byte, 0, 8<<10)} }}

// WriteText writes the text tree of the root at index i, as Node.WriteText
// writes that of f.Tree(i, nil), without making the Node tree: the spans
// are walked in preorder and each row's text is written from its
// describer into one scratch node, whose strings are made in a block that
// the next row reuses, as it is printed; descriptions come shortened from
// describers that keep them so (Shortener). top, when not nil, is called
// with node i's own node before its line is written, to change its text
// (kwire decode's "read with the schemas of ..."). Node.Path is not
// printed, so it is not made.
func (f *Flat) WriteText(w io.Writer, i int, top func(n *Node)) error {
	st := textStates.Get().(*textState)
	defer textStates.Put(st)
	st.sh = st.sh[:0]
	for _, d := range f.who {
		s, _ := d.(Shortener)
		st.sh = append(st.sh, s)
	}
	var (
		n     = &st.n
		err   error
		spans = f.Spans
		out   = st.out[:0]
		pre   = st.pre[:0]
		ends  = st.ends[:0]
	)
	end := spans[i].Next
	for j := i; j < int(end) && err == nil; j++ {
		s := &spans[j]
		for len(ends) > 0 && int32(j) >= ends[len(ends)-1] {
			ends = ends[:len(ends)-1]
			pre = pre[:max(len(pre)-4, 0)]
		}
		st.a.rewind()
		*n = Node{Offset: int(s.Off), Size: int(s.Size), Section: s.Section, Relative: s.Flags&InStream != 0}
		f.who[s.Who].Describe(f, j, n, &st.a)
		if j == i {
			if top != nil {
				top(n)
			}
		} else {
			out = append(out, pre...)
			out = append(out, "+-- "...)
		}
		at := len(out)
		short := false
		if n.Err == "" && n.About != "" && st.sh[s.Who] != nil {
			var about string
			if about, short = st.sh[s.Who].Short(f, j, n.About); short {
				n.About = ""
				out = appendRaw(out, n)
				out = append(out, ' ')
				out = append(out, about...)
			}
		}
		if !short {
			out = appendRaw(out, n)
		}
		if needsEscape(out[at:]) { // rare: written again, escaped
			st.line = append(st.line[:0], out[at:]...)
			out = AppendEscaped(out[:at], string(st.line), false)
		}
		out = append(out, '\n')
		if s.Next > int32(j+1) { // it has children
			if j != i {
				if s.Next >= ends[len(ends)-1] {
					pre = append(pre, "    "...) // the last child
				} else {
					pre = append(pre, "|   "...)
				}
			}
			ends = append(ends, s.Next)
		}
		if len(out) > 7<<10 {
			_, err = w.Write(out)
			out = out[:0]
		}
	}
	if err == nil && len(out) > 0 {
		_, err = w.Write(out)
	}
	st.out, st.pre, st.ends = out[:0], pre[:0], ends[:0]
	clear(st.sh)
	*n = Node{}
	st.a.rewind()
	return err
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
	b = append(b, " ["...)
	if n.Relative {
		b = append(b, '+')
	}
	if n.Offset >= 0 {
		b = append(b, "0x"...)
		for d := 0x1000; d > 1 && n.Offset < d; d >>= 4 {
			b = append(b, '0')
		}
		b = strconv.AppendInt(b, int64(n.Offset), 16)
	} else {
		b = xfmt.Appendf(b, "0x%04x", n.Offset)
	}
	b = append(b, ", "...)
	b = strconv.AppendInt(b, int64(n.Size), 10)
	b = append(b, "B]"...)
	if n.Err != "" {
		b = append(b, " ERROR: "...)
		b = append(b, n.Err...)
	} else if n.About != "" {
		b = append(b, ' ')
		b = appendShortened(b, n.About, MaxAbout)
	}
	return b
}

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
