// Package treetest helps the tests of packages that read a tree.Flat
// (codec, capture, render, the explorer, ...): the text tree of a Flat
// (Text), its nodes with their text in preorder (All), a node found by
// name or path (Named, AtPath), and FlatOf, the Flat of a tree.Node tree
// built by hand, every node stored, as a decoder's nested formats are.
package treetest

import (
	"iter"
	"strings"

	"kwire/tree"
)

// FlatOf returns the Flat of a Node tree: every node stored.
func FlatOf(root *tree.Node) *tree.Flat {
	f := &tree.Flat{}
	if root != nil {
		f.Store(-1, root)
		f.Done()
	}
	return f
}

// Text is the text tree of the root at index 0 of f, as kwire decode
// prints it (tree.Flat.WriteText), "" for an empty or nil Flat.
func Text(f *tree.Flat) string {
	return TextAt(f, 0)
}

// TextAt is the text tree of node i of f and its subtree.
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

// Under yields, as All does, node i and every node of its subtree.
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

// AtPath returns the index and node of the first node of f, in preorder,
// whose Path is path, or -1 and nil.
func AtPath(f *tree.Flat, path string) (int, *tree.Node) {
	for i, n := range All(f) {
		if n.Path == path {
			return i, n
		}
	}
	return -1, nil
}

// Kids returns the indexes of the children of node i, in order.
func Kids(f *tree.Flat, i int) []int {
	var out []int
	f.Children(i, func(c int) { out = append(out, c) })
	return out
}

// Chain returns a Flat of nodes, each stored and the only child of the
// one before (the first is the root): a tree built by hand, with no
// tree.Node.Children.
func Chain(nodes ...tree.Node) *tree.Flat {
	f := &tree.Flat{}
	p := -1
	for _, n := range nodes {
		p = f.Row(p, n)
	}
	f.Done()
	return f
}
