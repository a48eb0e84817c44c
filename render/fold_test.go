package render

import (
	"strings"
	"testing"

	"kwire/codec"
	"kwire/schemas/sets"
	"kwire/tree"
)

func TestTreeView(t *testing.T) {
	set, err := sets.Load("trunk")
	if err != nil {
		t.Fatal(err)
	}
	api, _ := set.LookupAPI("JoinGroup")
	f, _ := codec.NewFrame(set, api, 9, codec.Request)
	b, _ := f.Encode()
	_, root, err := codec.Decode(b, codec.DecodeOptions{Set: set})
	if err != nil {
		t.Fatal(err)
	}
	l := NewLayout(root, len(b))
	var all, view strings.Builder
	Tree(&all, l)
	TreeView(&view, l, nil)
	if all.String() != view.String() {
		t.Errorf("TreeView(nil) differs from Tree")
	}
	// Fold Protocols: its 5 descendants are replaced by one line.
	prot := -1
	for i, n := range l.Nodes {
		if n.Name == "Protocols" {
			prot = i
		}
	}
	if got := l.SubtreeEnd(prot) - prot - 1; got != 5 {
		t.Fatalf("Protocols has %d descendants, want 5", got)
	}
	view.Reset()
	TreeView(&view, l, func(id int) bool { return id == prot })
	html := view.String()
	if strings.Contains(html, ">Name<") || !strings.Contains(html, ">Reason<") {
		t.Errorf("folded subtree still drawn, or the rest missing:\n%s", html)
	}
	if !strings.Contains(html, `class="tn fold" data-n="`) || !strings.Contains(html, "2 children, 5 nodes folded") {
		t.Errorf("no placeholder line:\n%s", html)
	}
	text := tags.ReplaceAllString(html, "")
	if !strings.Contains(text, "|   +-- … 2 children") {
		t.Errorf("placeholder guides wrong:\n%s", text)
	}
}

// naiveOwners paints every node's span in preorder, children over parents.
func naiveOwners(l *Layout) []int32 {
	owner := make([]int32, len(l.owner))
	for i := range owner {
		owner[i] = -1
	}
	for id, n := range l.Nodes {
		if n.Relative {
			continue
		}
		for i := max(n.Offset, 0); i < min(n.End(), len(owner)); i++ {
			owner[i] = int32(id)
		}
	}
	return owner
}

// The painting with skips gives every byte the same owner as painting
// every node, also for odd trees: overlapping siblings, spans outside the
// buffer, relative nodes, empty nodes.
func TestLayoutPaint(t *testing.T) {
	odd := &tree.Node{Offset: 0, Size: 40}
	odd.Add(
		&tree.Node{Offset: 2, Size: 10},
		&tree.Node{Offset: 8, Size: 10},  // overlaps the previous sibling
		&tree.Node{Offset: -5, Size: 8},  // starts before the buffer
		&tree.Node{Offset: 30, Size: 50}, // ends after it
		&tree.Node{Offset: 12, Size: 3, Relative: true},
		&tree.Node{Offset: 20, Size: 0},
	)
	odd.Children[0].Add(&tree.Node{Offset: 5, Size: 20}) // wider than its parent
	set, err := sets.Load("trunk")
	if err != nil {
		t.Fatal(err)
	}
	api, _ := set.LookupAPI("Fetch")
	f, _ := codec.NewFrame(set, api, api.Response.ValidVersions.Hi, codec.Response)
	b, _ := f.Encode()
	_, fetch, _ := codec.Decode(b, codec.DecodeOptions{Set: set, API: api, Version: f.Version, Dir: codec.Response})
	for name, tc := range map[string]struct {
		root *tree.Node
		size int
	}{"odd": {odd, 45}, "fetch": {fetch, len(b)}, "short buffer": {fetch, len(b) / 2}, "empty": {nil, 10}} {
		l := NewLayout(tc.root, tc.size)
		want := naiveOwners(l)
		for i := range want {
			if l.owner[i] != want[i] {
				t.Errorf("%s: byte %d owned by %d, want %d", name, i, l.owner[i], want[i])
				break
			}
		}
	}
}
