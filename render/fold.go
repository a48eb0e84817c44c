package render

import (
	"strconv"
	"strings"
)

// SubtreeEnd returns the number just past the last descendant of node id
// (nodes are numbered in preorder, so a subtree is a run of numbers).
func (l *Layout) SubtreeEnd(id int) int { return int(l.flat.Spans[id].Next) }

// HasChildren says whether node id has children.
func (l *Layout) HasChildren(id int) bool { return int(l.flat.Spans[id].Next) > id+1 }

// TreeView writes the object tree like Tree, except that the descendants
// of a node for which folded reports true are left out and replaced by one
// placeholder line (class "tn fold", data-n of the folded node) saying how
// many nodes it hides. Large trees stay cheap to draw: only what is
// unfolded is written. A nil folded writes every node, as Tree does.
func TreeView(b *strings.Builder, l *Layout, folded func(id int) bool) {
	b.WriteString(`<div class="tree">`)
	lines := TreeLines(l, folded)
	TreeRows(b, l, lines, 0, len(lines))
	b.WriteString("</div>\n")
}

// TreeLine is a line of the tree as TreeView draws it: node Node's, or,
// with Fold, the placeholder of Node's folded descendants.
type TreeLine struct {
	Node int32
	Fold bool
}

// TreeLines lists the lines TreeView draws, in order, without formatting
// them: the explorer draws only those in view (TreeRows).
func TreeLines(l *Layout, folded func(id int) bool) []TreeLine {
	var lines []TreeLine
	for i := 0; i < l.Len(); i++ {
		lines = append(lines, TreeLine{Node: int32(i)})
		if folded != nil && l.HasChildren(i) && folded(i) {
			lines = append(lines, TreeLine{Node: int32(i), Fold: true})
			i = l.SubtreeEnd(i) - 1
		}
	}
	return lines
}

// TreeRows writes lines [from, to) as TreeView writes them, each ending
// in "\n", without the tree's div.
func TreeRows(b *strings.Builder, l *Layout, lines []TreeLine, from, to int) {
	var w, prefix []byte
	for _, ln := range lines[max(from, 0):min(to, len(lines))] {
		i := int(ln.Node)
		d := int(l.depth[i])
		if !ln.Fold {
			prefix = l.appendGuides(prefix[:0], l.Parent(i))
			if d > 0 {
				prefix = append(prefix, "+-- "...)
			}
			w = appendLine(w[:0], i, d, prefix, l.Node(i), l.HasChildren(i))
			b.Write(w)
			continue
		}
		w = append(w[:0], `<div class="tn fold" data-n="`...)
		w = strconv.AppendInt(w, int64(i), 10)
		w = append(w, `" data-d="`...)
		w = strconv.AppendInt(w, int64(d+1), 10)
		w = append(w, `"><span class="g">`...)
		w = l.appendGuides(w, i)
		w = append(w, `+-- </span><span class="fm">… `...)
		w = strconv.AppendInt(w, int64(l.flat.ChildCount(i)), 10)
		w = append(w, ` children, `...)
		w = strconv.AppendInt(w, int64(l.SubtreeEnd(i)-i-1), 10)
		w = append(w, " nodes folded</span></div>\n"...)
		b.Write(w)
	}
}

// appendGuides appends the guides that node id's children are drawn
// under: for id and each of its ancestors but the root, "|   " when it
// has a sibling after it, else spaces; none for the root or -1.
func (l *Layout) appendGuides(w []byte, id int) []byte {
	if id <= 0 {
		return w
	}
	p := l.Parent(id)
	w = l.appendGuides(w, p)
	if l.last(id, p) {
		return append(w, "    "...)
	}
	return append(w, "|   "...)
}

// last says whether node id is the last child of its parent p (-1: a
// root, the last if no node follows its subtree).
func (l *Layout) last(id, p int) bool {
	end := int32(l.Len())
	if p >= 0 {
		end = l.flat.Spans[p].Next
	}
	return l.flat.Spans[id].Next == end
}
