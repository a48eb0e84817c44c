package render

import (
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"

	"kwire/tree"
)

// counter is a Describer that counts the nodes it is asked to describe.
type counter struct{ calls map[int]int }

func (c *counter) Describe(f *tree.Flat, i int, n *tree.Node, _ *tree.Alloc) {
	c.calls[i]++
	n.Name, n.Type, n.Value = "N"+strconv.Itoa(i), "int8", strconv.Itoa(int(f.Spans[i].Ref))
}

func (c *counter) Path(f *tree.Flat, i int, _ string, _ *tree.Alloc) string {
	return "P" + strconv.Itoa(i)
}

// wide returns a Flat of a root with n children of one byte each, and
// their describer.
func wide(n int) (*tree.Flat, *counter) {
	f := &tree.Flat{}
	c := &counter{calls: map[int]int{}}
	who, _ := f.Describer(c)
	root := f.Add(-1, tree.Span{Size: int32(n), Who: who, Section: tree.Frame})
	for i := range n {
		f.Add(root, tree.Span{Off: int32(i), Size: 1, Who: who, Ref: int32(i), Section: tree.RecordBatch})
	}
	f.Done()
	return f, c
}

// A Layout of a large tree formats only the nodes drawn, each once until
// it forgets them, and takes far less than a node's 160 bytes a node.
func TestLayoutFormatsOnDemand(t *testing.T) {
	const n = 300_000
	f, c := wide(n)
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	l := NewLayout(f, n)
	runtime.ReadMemStats(&after)
	per := float64(after.TotalAlloc-before.TotalAlloc) / n
	t.Logf("%.1f bytes a node", per)
	if per > 32 {
		t.Errorf("the layout allocated %.1f bytes a node", per)
	}
	if len(c.calls) != 0 {
		t.Fatalf("the layout formatted %d nodes", len(c.calls))
	}
	var b strings.Builder
	HexRows(&b, make([]byte, n), l, 100, 140) // sections and owners need no text
	if len(c.calls) != 0 || !strings.Contains(b.String(), `class="hb s-RecordBatch" data-o="1600" data-n="1601"`) {
		t.Fatalf("the byte view formatted %d nodes:\n%.300s", len(c.calls), b.String())
	}
	lines := TreeLines(l, func(int) bool { return false })
	if len(lines) != n+1 || len(c.calls) != 0 {
		t.Fatalf("%d lines, %d nodes formatted to list them", len(lines), len(c.calls))
	}
	b.Reset()
	TreeRows(&b, l, lines, 1000, 1050)
	TreeRows(&b, l, lines, 1000, 1050) // drawn again: formatted once
	if len(c.calls) != 50 || c.calls[1000] != 1 || c.calls[1049] != 1 || c.calls[1050] != 0 {
		t.Fatalf("drawing 50 lines twice formatted %d nodes (%v)", len(c.calls), c.calls)
	}
	if !strings.Contains(b.String(), `data-path="P1049"`) || !strings.Contains(b.String(), `>N1049<`) {
		t.Errorf("lines:\n%.500s", b.String())
	}
	if got := l.Node(1049); got.Name != "N1049" || got.Value != "1048" || got.Offset != 1048 || got.Path != "P1049" || got.Section != tree.RecordBatch {
		t.Errorf("node %+v", got)
	}
	// The text changes in place (an edit): forgotten, it is formatted anew.
	f.Spans[1049].Ref = 7
	if l.Node(1049).Value != "1048" {
		t.Errorf("the node was formatted again without Forget")
	}
	l.Forget()
	if l.Node(1049).Value != "7" || c.calls[1049] != 2 {
		t.Errorf("after Forget: %q, formatted %d times", l.Node(1049).Value, c.calls[1049])
	}
	// Resized formats anew the node edited (the owner of its bytes) and
	// its ancestors, and keeps the others' text; Relayout starts afresh.
	l.Node(0)
	kept, calls := l.Node(1000), c.calls[1000]
	r, ok := l.Resized(f, 1048, 1, 1)
	if !ok || r.Flat() != f || r.Node(1049).Value != "7" || c.calls[1049] != 3 || r.Node(0) == nil || c.calls[0] != 2 {
		t.Errorf("Resized: %v, node 1049 formatted %d times, the root %d", ok, c.calls[1049], c.calls[0])
	}
	if r.Node(1000) != kept || c.calls[1000] != calls {
		t.Errorf("Resized to the same size formatted node 1000 again")
	}
	if &r.runs[0] != &l.runs[0] {
		t.Errorf("Resized to the same size painted the owners again")
	}
	// Another node of the same size: node 1000 is kept again; a new size
	// formats every node anew.
	r2, ok := r.Resized(f, 990, 1, 1)
	if !ok || r2.Node(1000) != kept {
		t.Errorf("an edit of another node formatted node 1000 again")
	}
	r3, ok := r2.Resized(f, 1048, 1, 2)
	if !ok || r3.Node(1000) == kept {
		t.Errorf("a new size kept node 1000's text")
	}
	last := r3.Node(1049)
	calls = c.calls[1049]
	if r := Relayout(r3, f, n); r.Node(1049) == last || c.calls[1049] != calls+1 {
		t.Errorf("Relayout kept the formatted node (%d calls)", c.calls[1049])
	}
	// Asking for every node keeps at most maxFormatted of them.
	for i := range l.Len() {
		l.Node(i)
	}
	if len(l.nodes) > maxFormatted {
		t.Errorf("%d nodes kept", len(l.nodes))
	}
}

// Resized moves the owners after a field that grew, with the new Flat.
func TestResizedFlat(t *testing.T) {
	f, _ := wide(10)
	l := NewLayout(f, 10)
	g, _ := wide(10)
	g.Spans[0].Size, g.Spans[4].Size = 12, 3
	for i := 5; i < g.Len(); i++ {
		g.Spans[i].Off += 2
	}
	r, ok := l.Resized(g, 3, 1, 3)
	if !ok || r.Flat() != g || r.Owner(5) != 4 || r.Owner(6) != 5 || r.Owner(11) != 10 || r.Owner(12) != -1 {
		t.Fatalf("resized: %v, owners %v", ok, owners(r))
	}
	if want := NewLayout(g, 12); !slices.Equal(owners(r), owners(want)) {
		t.Errorf("owners %v, want %v", owners(r), owners(want))
	}
	if other, _ := wide(5); func() bool { _, ok := l.Resized(other, 3, 1, 3); return ok }() {
		t.Errorf("resized to a Flat of another shape")
	}
}
