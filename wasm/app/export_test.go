package app

import "kwire/tree"

// Root returns the tree shown as nodes, every one formatted, for the
// tests that read the whole tree's text; nil before anything is shown.
func (s *State) Root() *tree.Node {
	if s.Flat == nil || s.Flat.Len() == 0 {
		return nil
	}
	return s.Flat.Tree(0, nil)
}
