package render

import (
	"math/rand/v2"
	"slices"
	"testing"

	"kwire/tree"
)

// Shapes of random trees.
const (
	inOrder  = iota // each child within its parent, after the previous sibling: a decoder's tree
	inside          // each child anywhere within its parent (bit fields)
	anywhere        // spans anywhere, some relative or empty
)

// randomTree returns a tree of about n nodes over size bytes, of a shape,
// every node stored.
func randomTree(r *rand.Rand, n, size, shape int) *tree.Flat {
	f := &tree.Flat{}
	var grow func(p int, po, pe, budget int)
	grow = func(p int, po, pe, budget int) {
		at := po
		for budget > 0 {
			c := tree.Node{}
			switch shape {
			case inOrder:
				if at >= pe {
					return
				}
				c.Offset = at + r.IntN(3)
				c.Size = max(min(r.IntN(pe-at+1), pe-c.Offset), 0)
				at = c.End()
			case inside:
				c.Offset = po + r.IntN(pe-po+1)
				c.Size = r.IntN(pe - c.Offset + 1)
			default:
				c.Offset = r.IntN(size+10) - 5
				c.Size = r.IntN(size/2 + 1)
				c.Relative = r.IntN(8) == 0
			}
			i := f.Row(p, c)
			k := r.IntN(budget)
			grow(i, c.Offset, c.End(), k)
			budget -= k + 1
		}
	}
	grow(f.Row(-1, tree.Node{Offset: 0, Size: size}), 0, size, n)
	f.Done()
	return f
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
		l := NewLayout(randomTree(r, 1+r.IntN(60), size, shape), max(size-r.IntN(20), 0))
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
	prev := NewLayout(root, 200)
	same := func(l *Layout) bool { return &l.runs[0] == &prev.runs[0] }
	edited := randomTree(rand.New(rand.NewPCG(3, 4)), 80, 200, inOrder) // a new tree, every span as before
	edited.Stored(0).Name = "edited"
	if l := Relayout(prev, edited, 200); !same(l) || l.Node(0).Name != "edited" {
		t.Errorf("same spans: owners painted again, or nodes not the new tree's")
	}
	// The same Flat changed in place: its spans cannot be compared with
	// what they were, so the owners are painted again.
	if l := Relayout(prev, prev.Flat(), 200); same(l) || !slices.Equal(owners(l), owners(prev)) {
		t.Errorf("same flat: owners shared (%v) or not as before", same(l))
	}
	moved := randomTree(rand.New(rand.NewPCG(3, 4)), 80, 200, inOrder)
	moved.Spans[moved.Len()-1].Off-- // the last node in preorder: the innermost last child
	for name, tc := range map[string]struct {
		root *tree.Flat
		size int
	}{"moved": {moved, 200}, "resized": {root, 190}, "none": {&tree.Flat{}, 200}} {
		l := Relayout(prev, tc.root, tc.size)
		want := NewLayout(tc.root, tc.size)
		if len(l.runs) > 0 && same(l) || !slices.Equal(owners(l), owners(want)) {
			t.Errorf("%s: owners shared (%v) or not as NewLayout paints them", name, same(l))
		}
	}
}
