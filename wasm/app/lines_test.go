package app

import (
	"slices"
	"strconv"
	"strings"
	"testing"
)

// A container patched with what Update says holds the new HTML's lines:
// through edits of one field of a real message's tree, a fold, and a
// Reset.
func TestLinesUpdate(t *testing.T) {
	s, err := New("", "JoinGroup")
	if err != nil {
		t.Fatal(err)
	}
	var ls Lines
	var dom []string // the container's lines, as the page holds them
	lines := func() string { l := s.TreeLines(); return s.TreeRows(l, 0, len(l)) }
	draw := func(h string) (changed []int, whole bool) {
		changed, whole = ls.Update(h)
		if whole {
			dom = strings.Split(strings.TrimSuffix(h, "\n"), "\n")
		} else {
			for _, i := range changed {
				dom[i] = ls.Line(i)
			}
		}
		if want := strings.Split(strings.TrimSuffix(h, "\n"), "\n"); !slices.Equal(dom, want) {
			t.Fatalf("patched lines differ from the new HTML's:\n%q\nwant\n%q", dom, want)
		}
		return changed, whole
	}
	if _, whole := draw(lines()); !whole {
		t.Error("first draw not whole")
	}
	if c, whole := draw(lines()); whole || len(c) != 0 {
		t.Errorf("same tree: changed %v, whole %v", c, whole)
	}
	for i := range 3 {
		if err := s.SetField("b:SessionTimeoutMs", strconv.Itoa(1000+i)); err != nil {
			t.Fatal(err)
		}
		c, whole := draw(lines())
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
	if c, whole := draw(lines()); !whole && len(c) < 3 {
		t.Errorf("longer GroupId: changed %v", c)
	}
	// Folding changes the number of lines.
	prot := -1
	for i := range s.Layout.Len() {
		n := s.Layout.Node(i)
		if n.Name == "Protocols" {
			prot = i
		}
	}
	s.ToggleFold(prot)
	if _, whole := draw(lines()); !whole {
		t.Error("fold: not whole")
	}
	ls.Reset()
	if _, whole := draw(lines()); !whole {
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
	for i := range s.Layout.Len() {
		n := s.Layout.Node(i)
		if n.Name == "Protocols" {
			prot = i
		}
	}
	s.ToggleFold(prot)
	lines := s.TreeLines()
	for id := range s.Layout.Len() {
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
