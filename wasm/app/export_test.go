package app

import (
	"kwire/tree"
	"kwire/tree/treetest"
)

// Root returns the node of the tree's root shown (its text, without
// children); nil before anything is shown.
func (s *State) Root() *tree.Node {
	if s.Flat == nil || s.Flat.Len() == 0 {
		return nil
	}
	return s.Flat.Node(0, nil)
}

// TreeText returns the text tree shown, as kwire decode prints it
// (tree.Flat.WriteText), for the tests that read the whole tree's text;
// "" before anything is shown.
func (s *State) TreeText() string { return treetest.Text(s.Flat) }
