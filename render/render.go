// Package render draws a decoded message as HTML: the byte view (16 bytes
// a row, coloured by section, with offsets and an ASCII column), the object
// tree (one line a node, with the text tree's guides) and the legend. The
// explorer page and the pre-rendered docs share it. Every text it writes
// goes through Text.
//
// It also has TreeView, the tree with folded subtrees, for large messages;
// TreeLines lists its lines without formatting them and TreeRows writes a
// range of them, each line's guides from its ancestors, so that the explorer
// formats only the lines in view. Layout indexes a tree.Flat: depths in one
// pass, parents, subtree ends, last children, secrets and the text column's
// masking come from the spans, and Layout.Node formats a node when first
// asked for and keeps up to 4,096 (Forget and Relayout start afresh;
// Resized, after an edit in place of the same size, formats anew only the
// edited node and its ancestors, else every node: offsets moved), so that a
// 4 MB Fetch's 300,000 nodes cost 12 bytes each in a layout and only the
// lines drawn are formatted; the docs write the whole tree. The layout keeps
// the bytes' owners as runs of bytes with one owner (a 4 MB Fetch response:
// 286,000 runs for 4.2 million bytes; 8.6 MB a layout instead of 22.8 MB),
// found by binary search; Layout.Resized is the layout after one node's
// bytes grew or shrank in place (codec.Patch): the runs after it move. Lines
// are written with appends (appendLine), not xfmt: the same bytes, compared
// with the fmt-based writer by TestTreeViewAsFmt.
package render

import (
	"strconv"
	"strings"

	"kwire/internal/textesc"
	"kwire/internal/xfmt"
	"kwire/tree"
)

// RowBytes is the number of bytes in a row of the byte view.
const RowBytes = 16

// Layout indexes a tree (a tree.Flat, whose spans are its nodes in
// preorder: a node's number is its span's index) for drawing: each node's
// depth and, for each byte of the buffer, the innermost node that covers
// it, kept as runs of bytes with the same owner (a 4 MB Fetch response has
// about a tenth as many runs as bytes). A node's text is formatted when it
// is first asked for (Node) and kept: a view formats only the rows it
// draws, not the hundreds of thousands of a large message.
type Layout struct {
	flat  *tree.Flat
	depth []int32 // per node
	size  int     // bytes of the buffer
	runs  []run   // the bytes' owners: from each run's start to the next's
	// Secrets says whether a node is a secret, masked or revealed
	// (tree.Masked, tree.Shown), found on the pass that takes depths.
	Secrets bool

	nodes map[int32]*tree.Node // the nodes formatted so far (Node)
	alloc *tree.Alloc          // their nodes and strings
}

// maxFormatted is how many formatted nodes a Layout keeps before it
// forgets them and starts again: a screen shows a few dozen.
const maxFormatted = 4096

// run is a run of bytes with one owner: from start to the next run's start
// (or the end of the buffer), the node numbered id, or -1 for none.
type run struct{ start, id int32 }

// NewLayout indexes the tree f (nil: none) over a buffer of size bytes.
// Nodes whose offsets are relative to a decompressed stream (InStream)
// own no bytes of the buffer. f must have one root, if any, and keep its
// spans while the Layout is used; its text may change (Forget).
func NewLayout(f *tree.Flat, size int) *Layout { return Relayout(nil, f, size) }

// Relayout is NewLayout for a tree that replaces prev's (nil for none), as
// after an edit: when f is another Flat than prev's and the size and every
// node's span are as in prev, the bytes' owners cannot have changed, and
// prev's are shared rather than painted again (a Layout never changes
// them). The new Layout formats its nodes anew.
func Relayout(prev *Layout, f *tree.Flat, size int) *Layout {
	if f == nil {
		f = &tree.Flat{}
	}
	l := &Layout{flat: f, size: size}
	// One pass: the spans are in preorder, so a parent comes before its
	// children.
	l.depth = make([]int32, len(f.Spans))
	for i := range f.Spans {
		s := &f.Spans[i]
		if p := s.Parent; p >= 0 {
			l.depth[i] = l.depth[p] + 1
		}
		if s.Flags&(tree.Masked|tree.Shown) != 0 {
			l.Secrets = true
		}
	}
	if prev != nil && prev.flat != f && prev.size == size && sameSpans(prev.flat.Spans, f.Spans) {
		l.runs = prev.runs
		return l
	}
	// A run starts at a node's first byte or where one ends: about one a
	// node, in a decoder's trees.
	l.runs = make([]run, 0, len(f.Spans)+1)
	if !l.sweep() {
		l.paint()
	}
	return l
}

// sameSpans reports whether a and b cover the same bytes, span by span.
func sameSpans(a, b []tree.Span) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if x, y := &a[i], &b[i]; x.Off != y.Off || x.Size != y.Size || (x.Flags^y.Flags)&tree.InStream != 0 {
			return false
		}
	}
	return true
}

// Flat is the tree the Layout indexes.
func (l *Layout) Flat() *tree.Flat { return l.flat }

// Len is the number of nodes.
func (l *Layout) Len() int { return len(l.depth) }

// Depth is node id's depth: 0 for the root.
func (l *Layout) Depth(id int) int { return int(l.depth[id]) }

// Parent is the number of node id's parent, -1 for the root.
func (l *Layout) Parent(id int) int { return int(l.flat.Spans[id].Parent) }

// Node returns node id with its text (without children), formatted on
// first use and kept until the Layout forgets it (Forget, or after
// maxFormatted nodes). The node is the caller's to read, not to change.
func (l *Layout) Node(id int) *tree.Node {
	if n, ok := l.nodes[int32(id)]; ok {
		return n
	}
	if l.nodes == nil || len(l.nodes) >= maxFormatted {
		l.nodes, l.alloc = make(map[int32]*tree.Node), new(tree.Alloc)
	}
	n := l.flat.Node(id, l.alloc)
	l.nodes[int32(id)] = n
	return n
}

// Forget drops the nodes formatted so far: after the tree's text changed
// in place, Node formats them again.
func (l *Layout) Forget() { l.nodes, l.alloc = nil, nil }

// sweep gives each byte the last node in preorder that covers it, in one
// pass over nodes and bytes: the bytes before at are painted, and open
// holds the spans that reached past at when they started, the last in
// preorder on top; the top owns the bytes from at to its end or to the
// next node's start, whichever comes first. A node starting before at (bit
// fields share their byte) paints over those bytes; if that repainting
// grows past the size of the buffer (odd trees, not a decoder's), sweep
// stops and reports false, and paint does the work instead.
func (l *Layout) sweep() bool {
	size := l.size
	type span struct{ id, hi int32 }
	var open []span
	at, redo := 0, 0
	l.runs = l.runs[:0]
	fill := func(to int) {
		id := int32(-1)
		if len(open) > 0 {
			id = open[len(open)-1].id
		}
		if at < to {
			l.push(at, id)
			at = to
		}
	}
	for id := range l.flat.Spans {
		n := &l.flat.Spans[id]
		lo, hi := max(int(n.Off), 0), min(n.End(), size)
		if n.Flags&tree.InStream != 0 || lo >= hi {
			continue
		}
		for len(open) > 0 && int(open[len(open)-1].hi) <= lo {
			fill(int(open[len(open)-1].hi))
			open = open[:len(open)-1]
		}
		fill(lo)
		if lo < at {
			end := min(hi, at)
			if redo += end - lo; redo > size {
				return false
			}
			l.repaint(lo, end, at, int32(id))
		}
		if hi > at {
			open = append(open, span{int32(id), int32(hi)})
		}
	}
	for len(open) > 0 {
		fill(int(open[len(open)-1].hi))
		open = open[:len(open)-1]
	}
	fill(size)
	return true
}

// push adds a run from start with owner id after the last, which it
// extends when it has the same owner.
func (l *Layout) push(start int, id int32) {
	if n := len(l.runs); n > 0 && l.runs[n-1].id == id {
		return
	}
	l.runs = append(l.runs, run{int32(start), id})
}

// repaint gives bytes [lo, end) the owner id, where the runs cover the
// bytes before at (end <= at): the runs from the one holding lo are
// written again (bit fields that share a byte repaint a few bytes at the
// end).
func (l *Layout) repaint(lo, end, at int, id int32) {
	k := l.runAt(lo)
	after := int32(-1)
	if end < at {
		after = l.runs[l.runAt(end)].id
	}
	var tail []run // runs that start past end
	for j := k + 1; j < len(l.runs); j++ {
		if int(l.runs[j].start) > end {
			tail = append(tail, l.runs[j:]...)
			break
		}
	}
	if int(l.runs[k].start) == lo {
		l.runs = l.runs[:k]
	} else {
		l.runs = l.runs[:k+1]
	}
	l.push(lo, id)
	if end < at && (len(tail) == 0 || int(tail[0].start) != end) {
		l.push(end, after)
	}
	for _, r := range tail {
		l.push(int(r.start), r.id)
	}
}

// runAt returns the index of the run that holds byte off (0 <= off <
// size).
func (l *Layout) runAt(off int) int {
	lo, hi := 0, len(l.runs) // the run is the last whose start <= off
	for hi-lo > 1 {
		m := int(uint(lo+hi) >> 1)
		if int(l.runs[m].start) <= off {
			lo = m
		} else {
			hi = m
		}
	}
	return lo
}

// paint does what sweep does, for any tree and without repainting: it
// paints in reverse preorder and skips bytes already painted with a
// next-unpainted table (path compression), so a deep tree over a large
// buffer costs about one step a byte and a node, not one a byte per level.
func (l *Layout) paint() {
	size := l.size
	owner := make([]int32, size)
	for i := range owner {
		owner[i] = -1
	}
	next := make([]int32, size+1) // next[i] leads to the first unpainted byte >= i
	for i := range next {
		next[i] = int32(i)
	}
	find := func(i int) int {
		r := i
		for int(next[r]) != r {
			r = int(next[r])
		}
		for int(next[i]) != r { // compress the path
			i, next[i] = int(next[i]), int32(r)
		}
		return r
	}
	for id := len(l.flat.Spans) - 1; id >= 0; id-- {
		n := &l.flat.Spans[id]
		if n.Flags&tree.InStream != 0 {
			continue
		}
		lo, hi := max(int(n.Off), 0), min(n.End(), size)
		for j := find(min(lo, size)); j < hi; j = find(j + 1) {
			owner[j] = int32(id)
			next[j] = int32(j + 1)
		}
	}
	l.runs = l.runs[:0]
	for i, id := range owner {
		l.push(i, id)
	}
}

// Resized is the layout of f after the node that alone owns the bytes
// [off, off+oldSize) took newSize bytes instead, in place (an edit of one
// field, codec.Patch): the bytes after it keep their owners, moved by the
// difference; the nodes, their order and depths are the same. f is the
// tree after the edit: the Layout's own Flat changed in place, or one of
// the same shape. The new layout formats anew the nodes whose text may
// have changed: when f is l's own Flat and the size is the same, the node
// that owns the bytes and its ancestors, the others keeping the text l
// formatted (l forgets it); else every node (offsets moved, and the
// frame's size changed). It reports false when those bytes have several owners, or f has
// another number of nodes: then the tree needs Relayout. With newSize ==
// oldSize no byte moves, and the owners are shared.
func (l *Layout) Resized(f *tree.Flat, off, oldSize, newSize int) (*Layout, bool) {
	if f == nil || f.Len() != l.Len() || off < 0 || oldSize <= 0 || newSize <= 0 || off+oldSize > l.size {
		return nil, false
	}
	m := *l
	m.flat = f
	l.Forget() // m has its formatted nodes now, or none
	if id := l.Owner(off); f != l.flat || id < 0 || newSize != oldSize {
		m.Forget()
	} else if m.nodes != nil {
		for a := id; a >= 0; a = int(f.Spans[a].Parent) {
			delete(m.nodes, int32(a))
		}
	}
	if newSize == oldSize {
		return &m, true
	}
	k := l.runAt(off)
	if k+1 < len(l.runs) && int(l.runs[k+1].start) < off+oldSize {
		return nil, false
	}
	m.size = l.size - oldSize + newSize
	m.runs = make([]run, len(l.runs))
	copy(m.runs, l.runs)
	for i := k + 1; i < len(m.runs); i++ {
		m.runs[i].start += int32(newSize - oldSize)
	}
	return &m, true
}

// Owner returns the number of the innermost node covering byte off, or -1.
func (l *Layout) Owner(off int) int {
	if off < 0 || off >= l.size || len(l.runs) == 0 {
		return -1
	}
	return int(l.runs[l.runAt(off)].id)
}

// Section returns the colour of byte off.
func (l *Layout) Section(off int) tree.Section {
	if id := l.Owner(off); id >= 0 {
		return l.flat.Spans[id].Section
	}
	return tree.Error
}

// Rows is the number of rows of the byte view.
func (l *Layout) Rows() int { return (l.size + RowBytes - 1) / RowBytes }

// HexHead writes the column header of the byte view (0 to F).
func HexHead(b *strings.Builder) {
	b.WriteString(`<div class="hrow hhead"><span class="off"></span>`)
	for i := 0; i < RowBytes; i++ {
		xfmt.Fprintf(b, `<span class="hb">%X</span>`, i)
	}
	b.WriteString(`<span class="asc"></span></div>`)
}

// HexRows writes rows [from, to) of the byte view of buf: each byte a span
// with its offset (data-o), its innermost node (data-n) and its section's
// class, then the ASCII column.
func HexRows(b *strings.Builder, buf []byte, l *Layout, from, to int) {
	to = min(to, l.Rows())
	// Written by hand rather than with fmt: the explorer draws these rows
	// on every scroll step.
	var w []byte
	for r := max(from, 0); r < to; r++ {
		start := r * RowBytes
		w = append(w[:0], `<div class="hrow" data-row="`...)
		w = strconv.AppendInt(w, int64(r), 10)
		w = append(w, `"><span class="off">`...)
		w = appendHex(w, uint64(start), 4)
		w = append(w, `</span>`...)
		end := min(start+RowBytes, len(buf))
		for i := start; i < start+RowBytes; i++ {
			if i >= end {
				w = append(w, `<span class="hb pad"></span>`...)
				continue
			}
			w = appendByteSpan(w, "hb", l, i)
			w = appendHex(w, uint64(buf[i]), 2)
			w = append(w, `</span>`...)
		}
		w = append(w, `<span class="asc">`...)
		for i := start; i < end; i++ {
			c := buf[i]
			w = appendByteSpan(w, "ab", l, i)
			switch {
			case l.secret(i):
				w = append(w, "•"...)
			case c < 0x20 || c >= 0x7f:
				w = append(w, '.')
			case c == '<':
				w = append(w, "&lt;"...)
			case c == '>':
				w = append(w, "&gt;"...)
			case c == '&':
				w = append(w, "&amp;"...)
			case c == '\'':
				w = append(w, "&#39;"...)
			case c == '"':
				w = append(w, "&#34;"...)
			default:
				w = append(w, c)
			}
			w = append(w, `</span>`...)
		}
		w = append(w, "</span></div>\n"...)
		b.Write(w)
	}
}

// secret says whether byte i is a secret's (tree.Masked), masked in the
// text column.
func (l *Layout) secret(i int) bool {
	o := l.Owner(i)
	return o >= 0 && l.flat.Spans[o].Flags&tree.Masked != 0
}

// appendByteSpan opens the span of byte i: its class and section, offset
// and innermost node.
func appendByteSpan(w []byte, class string, l *Layout, i int) []byte {
	w = append(w, `<span class="`...)
	w = append(w, class...)
	w = append(w, ` s-`...)
	w = append(w, l.Section(i).String()...)
	w = append(w, `" data-o="`...)
	w = strconv.AppendInt(w, int64(i), 10)
	w = append(w, `" data-n="`...)
	w = strconv.AppendInt(w, int64(l.Owner(i)), 10)
	return append(w, `">`...)
}

// appendHex appends x in lower-case hex, zero-padded to at least digits.
func appendHex(w []byte, x uint64, digits int) []byte {
	const hexDigits = "0123456789abcdef"
	var tmp [16]byte
	n := 0
	for x > 0 || n < digits {
		tmp[len(tmp)-1-n] = hexDigits[x&15]
		x >>= 4
		n++
	}
	return append(w, tmp[len(tmp)-n:]...)
}

// Hex writes the whole byte view.
func Hex(b *strings.Builder, buf []byte, l *Layout) {
	xfmt.Fprintf(b, `<div class="hex" data-size="%d">`, len(buf))
	HexHead(b)
	HexRows(b, buf, l, 0, l.Rows())
	b.WriteString("</div>\n")
}

// Tree writes the object tree, one line a node, with the `+--` and `|`
// guides of the text tree, so that the page's text reads as
// tree.Flat.WriteText writes it. Each line carries its node number
// (data-n), span (data-o, data-s), depth (data-d), field path (data-path)
// and section.
func Tree(b *strings.Builder, l *Layout) { TreeView(b, l, nil) }

// Text is s as HTML text or attribute value: every rune that would not
// show as itself is escaped visibly first (textesc.Escape: a bidi override in
// a draft's field name would otherwise reverse the text after it, a
// control would vanish), then HTML-escaped. Every text from input that
// kwire puts in a page goes through it; only values the page reads back
// (data-key, the value of an input) are HTML-escaped alone.
func Text(s string) string { return EscapeHTML(textesc.Escape(s)) }

// EscapeHTML is html.EscapeString (the same five escapes, by the same
// replacer): the html package's init keeps its table of 2,231 entities
// (for UnescapeString) in the browser app, about 14 KB of gzip.
func EscapeHTML(s string) string { return htmlEscaper.Replace(s) }

var htmlEscaper = strings.NewReplacer(
	`&`, "&amp;",
	`'`, "&#39;", // "&#39;" is shorter than "&apos;" and apos was not in HTML until HTML5.
	`<`, "&lt;",
	`>`, "&gt;",
	`"`, "&#34;", // "&#34;" is shorter than "&quot;".
)

// appendLine appends node n's tree line (id its number, prefix its
// guides, parent whether it has children). Written with appends rather than xfmt: the explorer draws the
// tree on every edit.
func appendLine(w []byte, id, depth int, prefix []byte, n *tree.Node, parent bool) []byte {
	w = append(w, `<div class="tn s-`...)
	w = append(w, n.Section.String()...)
	if n.Err != nil {
		w = append(w, " err"...)
	}
	if n.Relative {
		w = append(w, " rel"...)
	}
	if parent {
		w = append(w, " parent"...)
	}
	w = append(w, `" data-n="`...)
	w = strconv.AppendInt(w, int64(id), 10)
	w = append(w, `" data-d="`...)
	w = strconv.AppendInt(w, int64(depth), 10)
	w = append(w, `" data-o="`...)
	w = strconv.AppendInt(w, int64(n.Offset), 10)
	w = append(w, `" data-s="`...)
	w = strconv.AppendInt(w, int64(n.Size), 10)
	w = append(w, `" data-path="`...)
	w = appendText(w, n.Path)
	w = append(w, `">`...)
	if len(prefix) > 0 {
		w = append(w, `<span class="g">`...)
		w = append(w, prefix...)
		w = append(w, `</span>`...)
	}
	w = append(w, `<span class="nm">`...)
	w = appendText(w, n.Name)
	w = append(w, `</span>`...)
	if n.Type != "" {
		w = append(w, ` <span class="ty">`...)
		w = appendText(w, n.Type)
		w = append(w, `</span>`...)
	}
	if n.Value != "" {
		w = append(w, ` = <span class="va">`...)
		w = appendText(w, n.Value)
		w = append(w, `</span>`...)
	}
	if n.Detail != "" {
		w = append(w, ` <span class="de">`...)
		w = appendText(w, n.Detail)
		w = append(w, `</span>`...)
	}
	w = append(w, ` <span class="sp">[`...)
	if n.Relative {
		w = append(w, '+')
	}
	if n.Offset >= 0 {
		w = append(w, "0x"...)
		w = appendHex(w, uint64(n.Offset), 4)
	} else {
		w = xfmt.Appendf(w, "0x%04x", n.Offset) // the sign as fmt writes it
	}
	w = append(w, ", "...)
	w = strconv.AppendInt(w, int64(n.Size), 10)
	w = append(w, "B]</span>"...)
	if n.Err != nil {
		w = append(w, ` <span class="er">ERROR: `...)
		w = appendText(w, n.Err.Error())
		w = append(w, `</span>`...)
	} else if n.About != "" {
		w = append(w, ` <span class="ab" title="`...)
		w = appendText(w, n.About)
		w = append(w, `">`...)
		w = appendText(w, tree.Shorten(n.About, tree.MaxAbout))
		w = append(w, `</span>`...)
	}
	return append(w, "</div>\n"...)
}

// appendText appends Text(s), without building a string when s is
// printable ASCII that HTML leaves as it is (most names and values).
func appendText(w []byte, s string) []byte {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c < 0x20 || c >= 0x7f, c == '<', c == '>', c == '&', c == '\'', c == '"':
			return append(w, Text(s)...)
		}
	}
	return append(w, s...)
}

// Legend writes the colour legend; dir picks which body sections to list
// ("request", "response" or "" for both), and shown, when not nil, which
// sections there are (those of a tree: a message without records has no
// RecordBatch).
func Legend(b *strings.Builder, dir string, shown func(tree.Section) bool) {
	b.WriteString(`<div class="legend">`)
	for _, s := range tree.Sections {
		if s == tree.Error || (dir == "request" && s == tree.ResponseBody) || (dir == "response" && s == tree.RequestBody) || (shown != nil && !shown(s)) {
			continue
		}
		xfmt.Fprintf(b, `<span class="lg s-%s">%s</span>`, s, Text(s.Label()))
	}
	b.WriteString("</div>\n")
}
