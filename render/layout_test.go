package render

import (
	"math/rand/v2"
	"slices"
	"testing"

	"kwire/tree"
	"kwire/tree/treetest"
)

// Shapes of random trees.
const (
	inOrder  = iota // each child within its parent, after the previous sibling: a decoder's tree
	inside          // each child anywhere within its parent (bit fields)
	anywhere        // spans anywhere, some relative or empty
)

// randomTree returns a tree of about n nodes over size bytes, of a shape.
func randomTree(r *rand.Rand, n, size, shape int) *tree.Node {
	root := &tree.Node{Offset: 0, Size: size}
	var grow func(p *tree.Node, budget int)
	grow = func(p *tree.Node, budget int) {
		at := p.Offset
		for budget > 0 {
			c := &tree.Node{}
			switch shape {
			case inOrder:
				if at >= p.End() {
					return
				}
				c.Offset = at + r.IntN(3)
				c.Size = max(min(r.IntN(p.End()-at+1), p.End()-c.Offset), 0)
				at = c.End()
			case inside:
				c.Offset = p.Offset + r.IntN(p.Size+1)
				c.Size = r.IntN(p.End() - c.Offset + 1)
			default:
				c.Offset = r.IntN(size+10) - 5
				c.Size = r.IntN(size/2 + 1)
				c.Relative = r.IntN(8) == 0
			}
			p.Add(c)
			k := r.IntN(budget)
			grow(c, k)
			budget -= k + 1
		}
	}
	grow(root, n)
	return root
}

// The one-pass painting and its fallback give every byte the owner that
// painting every node in preorder gives, for trees of every shape over
// whole and cut buffers.
func TestLayoutPaintRandom(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	var swept, fellBack [3]int
	for i := range 900 {
		shape := i % 3
		size := 1 + r.IntN(300)
		root := randomTree(r, 1+r.IntN(60), size, shape)
		l := NewLayout(treetest.FlatOf(root), max(size-r.IntN(20), 0))
		probe := &Layout{flat: l.flat, size: l.size}
		if probe.sweep() {
			swept[shape]++
		} else {
			fellBack[shape]++
		}
		want, got := naiveOwners(l), owners(l)
		for j := range want {
			if got[j] != want[j] {
				t.Fatalf("tree %d (shape %d): byte %d owned by %d, want %d", i, shape, j, got[j], want[j])
			}
		}
	}
	t.Logf("swept %v, fell back %v", swept, fellBack)
	if fellBack[inOrder] > 0 || swept[inside] < 200 || fellBack[anywhere] == 0 {
		t.Errorf("swept %v, fell back %v (by shape): the test no longer covers both ways", swept, fellBack)
	}
}

// Relayout paints as NewLayout does, sharing the previous owners only
// when every span is the same: after an edit that kept them, one that
// moved a node, and with another buffer size.
func TestRelayout(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	root := randomTree(r, 80, 200, inOrder)
	prev := NewLayout(treetest.FlatOf(root), 200)
	same := func(l *Layout) bool { return &l.runs[0] == &prev.runs[0] }
	edited := &tree.Node{}
	*edited = *root // a new tree, every span as before
	edited.Name = "edited"
	if l := Relayout(prev, treetest.FlatOf(edited), 200); !same(l) || l.Node(0).Name != "edited" {
		t.Errorf("same spans: owners painted again, or nodes not the new tree's")
	}
	// The same Flat changed in place: its spans cannot be compared with
	// what they were, so the owners are painted again.
	if l := Relayout(prev, prev.Flat(), 200); same(l) || !slices.Equal(owners(l), owners(prev)) {
		t.Errorf("same flat: owners shared (%v) or not as before", same(l))
	}
	moved := randomTree(rand.New(rand.NewPCG(3, 4)), 80, 200, inOrder)
	last := moved
	for len(last.Children) > 0 {
		last = last.Children[len(last.Children)-1]
	}
	last.Offset--
	for name, tc := range map[string]struct {
		root *tree.Node
		size int
	}{"moved": {moved, 200}, "resized": {root, 190}, "none": {nil, 200}} {
		l := Relayout(prev, treetest.FlatOf(tc.root), tc.size)
		want := NewLayout(treetest.FlatOf(tc.root), tc.size)
		if len(l.runs) > 0 && same(l) || !slices.Equal(owners(l), owners(want)) {
			t.Errorf("%s: owners shared (%v) or not as NewLayout paints them", name, same(l))
		}
	}
}
