package tree

// FlatOf, for tree's own tests, returns the Flat of a Node tree: every node stored.
func FlatOf(root *Node) *Flat {
	f := &Flat{}
	if root != nil {
		n := 0 // sized once: a large message has hundreds of thousands of nodes
		root.Walk(func(*Node, int) bool { n++; return true })
		f.Spans, f.stored = make([]Span, 0, n), make([]Node, 0, n)
		f.Store(-1, root)
		f.Done()
	}
	return f
}
