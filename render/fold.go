package render

import (
	"strings"

	"kwire/internal/xfmt"
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
		prefixOf := func(d int) string {
			var p strings.Builder
			for _, more := range guides {
				if more {
					p.WriteString("|   ")
				} else {
					p.WriteString("    ")
				}
			}
			if d > 0 {
				p.WriteString("+-- ")
			}
			return p.String()
		}
		for i := 0; i < len(l.Nodes); i++ {
			n := l.Nodes[i]
			d := int(l.Depth[i])
			guides = guides[:max(d-1, 0)]
			prefix := prefixOf(d)
			if d > 0 {
				guides = append(guides, !lastChild[i])
			}
			line(b, i, d, prefix, n)
			if len(n.Children) == 0 || folded == nil || !folded(i) {
				continue
			}
			end := l.SubtreeEnd(i)
			xfmt.Fprintf(b, `<div class="tn fold" data-n="%d" data-d="%d"><span class="g">%s</span><span class="fm">… %d children, %d nodes folded</span></div>`+"\n",
				i, d+1, prefixOf(d+1), len(n.Children), end-i-1)
			i = end - 1
		}
	}
	b.WriteString("</div>\n")
}
