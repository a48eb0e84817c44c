package records

import "kwire/tree"

// Tree returns the tree of the contents of a records field whose bytes b
// start at offset base, as Spans makes it (for the tests, which compare
// nodes): a root row (span 0, "Records", over b) with Spans' roots under
// it.
func Tree(b []byte, base int, o Options) *tree.Flat {
	f := &tree.Flat{}
	root := f.Row(-1, tree.Node{Name: "Records", Type: "records", Offset: base, Size: len(b)})
	Spans(f, root, b, base, o)
	f.Done()
	return f
}
