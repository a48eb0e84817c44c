package render

import (
	"strings"
	"testing"

	"kwire/codec"
	"kwire/schemas/sets"
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
