package records

import "kwire/tree"

// Nodes returns the tree nodes of the contents of a records field whose
// bytes b start at offset base: the tree of Spans, with its text (for the
// tests, which compare nodes).
func Nodes(b []byte, base int, o Options) []*tree.Node {
	if o.Alloc == nil {
		o.Alloc = new(tree.Alloc)
	}
	f := &tree.Flat{}
	Spans(f, -1, b, base, o)
	f.Done()
	roots := 0
	for i := 0; i < f.Len(); i = int(f.Spans[i].Next) {
		roots++
	}
	out := o.Alloc.Children(max(roots, 1))
	for i := 0; i < f.Len(); i = int(f.Spans[i].Next) {
		out = append(out, f.Tree(i, o.Alloc))
	}
	return out
}
