package render

import (
	"errors"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	"kwire/tree"
	"kwire/tree/treetest"
)

// treeViewRef is TreeView as it was written with fmt, line by line, over
// the nodes of fl (numbered in preorder, their depths and parents found
// from the depths alone): the reference the append-based writer over a
// Layout must match byte for byte.
func treeViewRef(b *strings.Builder, fl *tree.Flat, folded func(id int) bool) {
	b.WriteString(`<div class="tree">`)
	var nodes []*tree.Node
	var depth, parent, kids []int
	for i, n := range treetest.All(fl) {
		nodes, depth, kids = append(nodes, n), append(depth, treetest.Depth(fl, i)), append(kids, fl.ChildCount(i))
	}
	if len(nodes) > 0 {
		parent = make([]int, len(nodes))
		parent[0] = -1
		for i := 1; i < len(nodes); i++ {
			p := i - 1
			for depth[p] >= depth[i] {
				p = parent[p]
			}
			parent[i] = p
		}
		lastChild := make([]bool, len(nodes))
		seen := make([]bool, len(nodes))
		for i := len(nodes) - 1; i > 0; i-- {
			if p := parent[i]; !seen[p] {
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
		for i := 0; i < len(nodes); i++ {
			n := nodes[i]
			d := depth[i]
			guides = guides[:max(d-1, 0)]
			prefix := prefixOf(d)
			if d > 0 {
				guides = append(guides, !lastChild[i])
			}
			lineRef(b, i, d, prefix, n, kids[i] > 0)
			if kids[i] == 0 || folded == nil || !folded(i) {
				continue
			}
			end := i + 1
			for end < len(nodes) && depth[end] > d {
				end++
			}
			fmt.Fprintf(b, `<div class="tn fold" data-n="%d" data-d="%d"><span class="g">%s</span><span class="fm">… %d children, %d nodes folded</span></div>`+"\n",
				i, d+1, prefixOf(d+1), kids[i], end-i-1)
			i = end - 1
		}
	}
	b.WriteString("</div>\n")
}

func lineRef(b *strings.Builder, id, depth int, prefix string, n *tree.Node, parent bool) {
	cls := "tn s-" + n.Section.String()
	if n.Err != nil {
		cls += " err"
	}
	if n.Relative {
		cls += " rel"
	}
	if parent {
		cls += " parent"
	}
	fmt.Fprintf(b, `<div class="%s" data-n="%d" data-d="%d" data-o="%d" data-s="%d" data-path="%s">`,
		cls, id, depth, n.Offset, n.Size, Text(n.Path))
	if prefix != "" {
		fmt.Fprintf(b, `<span class="g">%s</span>`, prefix)
	}
	fmt.Fprintf(b, `<span class="nm">%s</span>`, Text(n.Name))
	if n.Type != "" {
		fmt.Fprintf(b, ` <span class="ty">%s</span>`, Text(n.Type))
	}
	if n.Value != "" {
		fmt.Fprintf(b, ` = <span class="va">%s</span>`, Text(n.Value))
	}
	if n.Detail != "" {
		fmt.Fprintf(b, ` <span class="de">%s</span>`, Text(n.Detail))
	}
	rel := ""
	if n.Relative {
		rel = "+"
	}
	fmt.Fprintf(b, ` <span class="sp">[%s0x%04x, %dB]</span>`, rel, n.Offset, n.Size)
	if n.Err != nil {
		fmt.Fprintf(b, ` <span class="er">ERROR: %s</span>`, Text(treetest.ErrText(n)))
	} else if n.About != "" {
		fmt.Fprintf(b, ` <span class="ab" title="%s">%s</span>`, Text(n.About), Text(tree.Shorten(n.About, tree.MaxAbout)))
	}
	b.WriteString("</div>\n")
}

// TreeView writes what the fmt-based writer wrote, on random trees of
// every shape (negative and relative offsets among them) with texts that
// need escaping (HTML's characters, controls, bidi overrides, bytes that
// are not UTF-8, long descriptions), folded at random.
func TestTreeViewAsFmt(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	texts := []string{"", "Name", "a<b>&'\"c", "tab\there", "\u202eevil", "caf\xe9", "ünï", strings.Repeat("long about ", 30), "0x00ff"}
	pick := func() string { return texts[r.IntN(len(texts))] }
	for i := range 300 {
		size := 1 + r.IntN(200)
		shape := randomTree(r, 1+r.IntN(50), size, i%3)
		root := &tree.Flat{} // the same tree, its nodes given texts in preorder
		for j, n := range treetest.All(shape) {
			n.Name, n.Type, n.Value, n.Detail, n.Path = pick(), pick(), pick(), pick(), pick()
			n.Section = tree.Sections[r.IntN(len(tree.Sections))]
			switch r.IntN(4) {
			case 0:
				if e := pick(); e != "" {
					n.Err = errors.New(e)
				}
			case 1:
				n.About = pick()
			}
			if r.IntN(10) == 0 {
				n.Offset = -r.IntN(70000)
			}
			root.Row(int(shape.Spans[j].Parent), *n)
		}
		root.Done()
		l := NewLayout(root, size)
		var folded func(int) bool
		if i%2 == 1 {
			folded = func(id int) bool { return id%3 == 1 }
		}
		var got, want strings.Builder
		TreeView(&got, l, folded)
		treeViewRef(&want, root, folded)
		if got.String() != want.String() {
			g, w := strings.Split(got.String(), "\n"), strings.Split(want.String(), "\n")
			for j := range min(len(g), len(w)) {
				if g[j] != w[j] {
					t.Fatalf("tree %d, line %d:\n got %s\nwant %s", i, j, g[j], w[j])
				}
			}
			t.Fatalf("tree %d: %d lines, want %d", i, len(g), len(w))
		}
	}
}

// The lines drawn in pieces, as the explorer draws those in view, are
// TreeView's lines: any range of TreeLines, on random trees with folds.
func TestTreeRowsPieces(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for i := range 200 {
		l := NewLayout(randomTree(r, 1+r.IntN(80), 100, inOrder), 100)
		folded := func(id int) bool { return id%4 == 2 }
		var whole strings.Builder
		TreeView(&whole, l, folded)
		want := strings.SplitAfter(strings.TrimSuffix(strings.TrimPrefix(whole.String(), `<div class="tree">`), "</div>\n"), "\n")
		want = want[:len(want)-1]
		lines := TreeLines(l, folded)
		if len(lines) != len(want) {
			t.Fatalf("tree %d: %d lines, TreeView drew %d", i, len(lines), len(want))
		}
		from := r.IntN(len(lines))
		to := from + r.IntN(len(lines)-from+3) // past the end too
		var piece strings.Builder
		TreeRows(&piece, l, lines, from, to)
		if got := piece.String(); got != strings.Join(want[from:min(to, len(want))], "") {
			t.Fatalf("tree %d, lines [%d, %d):\n%s\nwant\n%s", i, from, to, got, strings.Join(want[from:min(to, len(want))], ""))
		}
	}
}
