package app

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A container patched with what Update says holds the new HTML's lines:
// through edits of one field of a real message's tree, a fold, another
// message, and HTML that lacks the wrapper.
func TestLinesUpdate(t *testing.T) {
	s, err := New("", "JoinGroup")
	if err != nil {
		t.Fatal(err)
	}
	const open, close = `<div class="tree">`, "</div>\n"
	var ls Lines
	var dom []string // the container's lines, as the page holds them
	draw := func(h string) (changed []int, whole bool) {
		changed, whole = ls.Update(h, open, close)
		if whole {
			body := strings.TrimSuffix(strings.TrimPrefix(h, open), close)
			dom = strings.Split(strings.TrimSuffix(body, "\n"), "\n")
		} else {
			for _, i := range changed {
				dom[i] = ls.Line(i)
			}
		}
		body := strings.TrimSuffix(strings.TrimPrefix(h, open), close)
		if want := strings.Split(strings.TrimSuffix(body, "\n"), "\n"); !slices.Equal(dom, want) {
			t.Fatalf("patched lines differ from the new HTML's:\n%q\nwant\n%q", dom, want)
		}
		return changed, whole
	}
	if _, whole := draw(s.Tree()); !whole {
		t.Error("first draw not whole")
	}
	if c, whole := draw(s.Tree()); whole || len(c) != 0 {
		t.Errorf("same tree: changed %v, whole %v", c, whole)
	}
	for i := range 3 {
		if err := s.SetField("b:SessionTimeoutMs", strconv.Itoa(1000+i)); err != nil {
			t.Fatal(err)
		}
		c, whole := draw(s.Tree())
		edited := slices.ContainsFunc(c, func(j int) bool { return strings.Contains(ls.Line(j), `data-path="SessionTimeoutMs"`) })
		// (The first edit changes one line more: the smallest message, as
		// encoded from the form, has a Protocols line of another length.)
		if whole || !edited || (i > 0 && len(c) != 1) {
			t.Errorf("edit %d: changed %v, whole %v", i, c, whole)
		}
	}
	// A longer string: the spans of the lines after it move.
	if err := s.SetField("b:GroupId", "a longer group id"); err != nil {
		t.Fatal(err)
	}
	if c, whole := draw(s.Tree()); !whole && len(c) < 3 {
		t.Errorf("longer GroupId: changed %v", c)
	}
	// Folding changes the number of lines.
	prot := -1
	for i, n := range s.Layout.Nodes {
		if n.Name == "Protocols" {
			prot = i
		}
	}
	s.ToggleFold(prot)
	if _, whole := draw(s.Tree()); !whole {
		t.Error("fold: not whole")
	}
	if _, whole := draw("<p>no wrapper</p>"); !whole {
		t.Error("no wrapper: not whole")
	}
	draw(s.Tree())
	ls.Reset()
	if _, whole := draw(s.Tree()); !whole {
		t.Error("after Reset: not whole")
	}
}

// TreeLineOf finds the line that stands for a node: its own, or its
// outermost folded ancestor's; TreeRows draws that line.
func TestTreeLineOf(t *testing.T) {
	s, err := New("", "JoinGroup")
	if err != nil {
		t.Fatal(err)
	}
	prot := -1
	for i, n := range s.Layout.Nodes {
		if n.Name == "Protocols" {
			prot = i
		}
	}
	s.ToggleFold(prot)
	lines := s.TreeLines()
	for id := range s.Layout.Nodes {
		i := s.TreeLineOf(lines, id)
		if i < 0 || int(lines[i].Node) != s.Shown(id) || lines[i].Fold {
			t.Fatalf("node %d: line %d", id, i)
		}
		if h := s.TreeRows(lines, i, i+1); !strings.Contains(h, `data-n="`+strconv.Itoa(s.Shown(id))+`"`) {
			t.Errorf("node %d: line %d is %s", id, i, h)
		}
	}
	if s.Shown(prot+1) != prot {
		t.Errorf("a node under the fold is shown as %d, want %d", s.Shown(prot+1), prot)
	}
}
