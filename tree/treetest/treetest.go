// Package treetest helps the tests of packages that read a tree.Flat
// (codec, capture, render, the explorer, ...): the text tree of a Flat
// and of a subtree (Text, TextAt), its nodes with their text in preorder
// (All, Under), a node found by name or by path and name (Named, Find,
// FindUnder), a node's children and depth (Children, Depth), how two
// trees differ (Diff) and a Flat built by hand (Chain;
// tree.Flat.Row for other shapes).
package treetest

import (
	"iter"
	"strconv"
	"strings"

	"kwire/tree"
)

// Text is the text tree of the root at index 0 of f, as kwire decode
// prints it (tree.Flat.WriteText), "" for an empty or nil Flat.
func Text(f *tree.Flat) string { return TextAt(f, 0) }

// TextAt is the text tree of node i of f and its subtree ("" for none).
func TextAt(f *tree.Flat, i int) string {
	if f == nil || i < 0 || i >= f.Len() {
		return ""
	}
	var b strings.Builder
	f.WriteText(&b, i, nil)
	return b.String()
}

// All yields the index and the node (with its text, without children;
// a new one each time) of every node of f, in preorder.
func All(f *tree.Flat) iter.Seq2[int, *tree.Node] {
	return func(yield func(int, *tree.Node) bool) {
		if f == nil {
			return
		}
		a := new(tree.Alloc)
		for i := range f.Len() {
			if !yield(i, f.Node(i, a)) {
				return
			}
		}
	}
}

// Under yields, as All does, node i and every node of its subtree
// (nothing for i < 0).
func Under(f *tree.Flat, i int) iter.Seq2[int, *tree.Node] {
	return func(yield func(int, *tree.Node) bool) {
		if f == nil || i < 0 || i >= f.Len() {
			return
		}
		a := new(tree.Alloc)
		for j := i; j < int(f.Spans[i].Next); j++ {
			if !yield(j, f.Node(j, a)) {
				return
			}
		}
	}
}

// Depth is the depth of node i: 0 for a root.
func Depth(f *tree.Flat, i int) int {
	d := 0
	for p := f.Spans[i].Parent; p >= 0; p = f.Spans[p].Parent {
		d++
	}
	return d
}

// Find returns the index and node of the first node of f, in preorder,
// whose Path is path and Name name, or -1 and nil.
func Find(f *tree.Flat, path, name string) (int, *tree.Node) { return FindUnder(f, 0, path, name) }

// FindUnder is Find in the subtree of node i (none for i < 0).
func FindUnder(f *tree.Flat, i int, path, name string) (int, *tree.Node) {
	for j, n := range Under(f, i) {
		if n.Path == path && n.Name == name {
			return j, n
		}
	}
	return -1, nil
}

// Named returns the index and node of the first node of f, in preorder,
// whose Name is name, or -1 and nil.
func Named(f *tree.Flat, name string) (int, *tree.Node) {
	for i, n := range All(f) {
		if n.Name == name {
			return i, n
		}
	}
	return -1, nil
}

// Chain returns a Flat of nodes, each stored and the only child of the
// one before (the first is the root): a tree built by hand.
func Chain(nodes ...tree.Node) *tree.Flat {
	f := &tree.Flat{}
	p := -1
	for _, n := range nodes {
		p = f.Row(p, n)
	}
	f.Done()
	return f
}

// FirstError returns the first node of f, in preorder, that holds an
// error (tree.Flat.FirstError), with its text, or nil.
func FirstError(f *tree.Flat) *tree.Node {
	if f == nil || f.Len() == 0 {
		return nil
	}
	if j, _ := f.FirstError(0); j >= 0 {
		return f.Node(j, nil)
	}
	return nil
}

// At returns node i of f with its text, nil for i < 0.
func At(f *tree.Flat, i int) *tree.Node {
	if f == nil || i < 0 || i >= f.Len() {
		return nil
	}
	return f.Node(i, nil)
}

// Children returns the indexes of node i's children, in order.
func Children(f *tree.Flat, i int) []int {
	var out []int
	f.Children(i, func(c int) { out = append(out, c) })
	return out
}

// Diff says how a and b differ as trees: their number of nodes, or the
// first node whose text (every field, tree.Flat.Node; an error by its
// text) or parent is not the other's; "" when they are the same tree.
func Diff(a, b *tree.Flat) string {
	if a.Len() != b.Len() {
		return "the trees have " + strconv.Itoa(a.Len()) + " and " + strconv.Itoa(b.Len()) + " nodes:\n" + Text(a) + "\n" + Text(b)
	}
	for i := range a.Len() {
		if na, nb := a.Node(i, nil), b.Node(i, nil); !same(na, nb) || a.Spans[i].Parent != b.Spans[i].Parent {
			return "node " + strconv.Itoa(i) + " differs: " + na.Line() + " (under " + strconv.Itoa(int(a.Spans[i].Parent)) + "), " +
				nb.Line() + " (under " + strconv.Itoa(int(b.Spans[i].Parent)) + ")"
		}
	}
	return ""
}

// ErrText is the text of n's error, "" for none.
func ErrText(n *tree.Node) string {
	if n == nil || n.Err == nil {
		return ""
	}
	return n.Err.Error()
}

// same says whether a and b have the same fields, their errors the same
// text.
func same(a, b *tree.Node) bool {
	x, y := *a, *b
	x.Err, y.Err = nil, nil
	return x == y && ErrText(a) == ErrText(b)
}
