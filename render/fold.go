package render

import (
	"strconv"
	"strings"
)

// SubtreeEnd returns the number just past the last descendant of node id
// (nodes are numbered in preorder, so a subtree is a run of numbers).
func (l *Layout) SubtreeEnd(id int) int {
	d := l.Depth[id]
	i := id + 1
	for i < len(l.Nodes) && l.Depth[i] > d {
		i++
	}
	return i
}

// TreeView writes the object tree like Tree, except that the descendants
// of a node for which folded reports true are left out and replaced by one
// placeholder line (class "tn fold", data-n of the folded node) saying how
// many nodes it hides. Large trees stay cheap to draw: only what is
// unfolded is written. A nil folded writes every node, as Tree does.
func TreeView(b *strings.Builder, l *Layout, folded func(id int) bool) {
	b.WriteString(`<div class="tree">`)
	if len(l.Nodes) > 0 {
		lastChild := make([]bool, len(l.Nodes))
		seen := make([]bool, len(l.Nodes)) // by parent
		for i := len(l.Nodes) - 1; i > 0; i-- {
			p := l.Parent[i]
			if !seen[p] {
				lastChild[i], seen[p] = true, true
			}
		}
		var guides []bool
		appendPrefix := func(w []byte, d int) []byte {
			for _, more := range guides {
				if more {
					w = append(w, "|   "...)
				} else {
					w = append(w, "    "...)
				}
			}
			if d > 0 {
				w = append(w, "+-- "...)
			}
			return w
		}
		var w, prefix []byte
		for i := 0; i < len(l.Nodes); i++ {
			n := l.Nodes[i]
			d := int(l.Depth[i])
			guides = guides[:max(d-1, 0)]
			prefix = appendPrefix(prefix[:0], d)
			if d > 0 {
				guides = append(guides, !lastChild[i])
			}
			w = appendLine(w[:0], i, d, prefix, n)
			if len(n.Children) > 0 && folded != nil && folded(i) {
				end := l.SubtreeEnd(i)
				w = append(w, `<div class="tn fold" data-n="`...)
				w = strconv.AppendInt(w, int64(i), 10)
				w = append(w, `" data-d="`...)
				w = strconv.AppendInt(w, int64(d+1), 10)
				w = append(w, `"><span class="g">`...)
				w = appendPrefix(w, d+1)
				w = append(w, `</span><span class="fm">… `...)
				w = strconv.AppendInt(w, int64(len(n.Children)), 10)
				w = append(w, ` children, `...)
				w = strconv.AppendInt(w, int64(end-i-1), 10)
				w = append(w, " nodes folded</span></div>\n"...)
				i = end - 1
			}
			b.Write(w)
		}
	}
	b.WriteString("</div>\n")
}
