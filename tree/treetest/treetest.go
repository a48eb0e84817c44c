// Package treetest helps the tests of packages that read a tree.Flat
// (render, the explorer): FlatOf gives the Flat of a tree.Node tree built
// by hand, every node stored, as a decoder's nested formats are.
package treetest

import "kwire/tree"

// FlatOf returns the Flat of a Node tree: every node stored.
func FlatOf(root *tree.Node) *tree.Flat {
	f := &tree.Flat{}
	if root != nil {
		f.Store(-1, root)
		f.Done()
	}
	return f
}
