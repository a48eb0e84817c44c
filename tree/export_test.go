package tree

import "strings"

// tn is a node of a tree written out in tree's own tests: its row and its
// children.
type tn struct {
	n    Node
	kids []tn
}

// FlatOf returns the Flat of t, every node a row (Flat.Row), in preorder.
func FlatOf(t tn) *Flat {
	f := &Flat{}
	f.rows(-1, t)
	f.Done()
	return f
}

func (f *Flat) rows(parent int, t tn) {
	i := f.Row(parent, t.n)
	for _, k := range t.kids {
		f.rows(i, k)
	}
}

// preorder lists t's nodes as the Flat holds them.
func preorder(t tn) []Node {
	out := []Node{t.n}
	for _, k := range t.kids {
		out = append(out, preorder(k)...)
	}
	return out
}

// text is the text tree of f's root.
func text(f *Flat) string {
	var b strings.Builder
	f.WriteText(&b, 0, nil)
	return b.String()
}
