package render

import (
	"fmt"
	"html"
	"strings"
	"testing"

	"kwire/codec"
	"kwire/schemas/sets"
	"kwire/tree"
	"kwire/tree/treetest"
)

func TestTreeView(t *testing.T) {
	set, err := sets.Load("trunk")
	if err != nil {
		t.Fatal(err)
	}
	api, _ := set.LookupAPI("JoinGroup")
	f, _ := codec.NewFrame(set, api, 9, codec.Request)
	b, _ := f.Encode()
	_, fl, err := codec.Decode(b, codec.DecodeOptions{Set: set})
	if err != nil {
		t.Fatal(err)
	}
	l := NewLayout(fl, len(b))
	var all, view strings.Builder
	Tree(&all, l)
	TreeView(&view, l, nil)
	if all.String() != view.String() {
		t.Errorf("TreeView(nil) differs from Tree")
	}
	// Fold Protocols: its 5 descendants are replaced by one line.
	prot := -1
	for i := range l.Len() {
		if l.Node(i).Name == "Protocols" {
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
	owner := make([]int32, l.size)
	for i := range owner {
		owner[i] = -1
	}
	for id, n := range l.flat.Spans {
		if n.Flags&tree.InStream != 0 {
			continue
		}
		for i := max(int(n.Off), 0); i < min(n.End(), len(owner)); i++ {
			owner[i] = int32(id)
		}
	}
	return owner
}

// owners lists the owner of every byte (Layout.Owner), checking that the
// runs start at 0, in order, each with another owner than the last.
func owners(l *Layout) []int32 {
	o := make([]int32, l.size)
	for i := range o {
		o[i] = int32(l.Owner(i))
	}
	for i, r := range l.runs {
		if i == 0 && r.start != 0 || i > 0 && (r.start <= l.runs[i-1].start || r.id == l.runs[i-1].id) || int(r.start) >= l.size {
			panic("runs out of order or not merged")
		}
	}
	return o
}

// The painting with skips gives every byte the same owner as painting
// every node, also for odd trees: overlapping siblings, spans outside the
// buffer, relative nodes, empty nodes.
func TestLayoutPaint(t *testing.T) {
	odd := &tree.Flat{}
	r := odd.Row(-1, tree.Node{Offset: 0, Size: 40})
	odd.Row(odd.Row(r, tree.Node{Offset: 2, Size: 10}), tree.Node{Offset: 5, Size: 20}) // wider than its parent
	odd.Row(r, tree.Node{Offset: 8, Size: 10})                                          // overlaps the previous sibling
	odd.Row(r, tree.Node{Offset: -5, Size: 8})                                          // starts before the buffer
	odd.Row(r, tree.Node{Offset: 30, Size: 50})                                         // ends after it
	odd.Row(r, tree.Node{Offset: 12, Size: 3, Relative: true})
	odd.Row(r, tree.Node{Offset: 20, Size: 0})
	odd.Done()
	set, err := sets.Load("trunk")
	if err != nil {
		t.Fatal(err)
	}
	api, _ := set.LookupAPI("Fetch")
	f, _ := codec.NewFrame(set, api, api.Response.ValidVersions.Hi, codec.Response)
	b, _ := f.Encode()
	_, fetch, _ := codec.Decode(b, codec.DecodeOptions{Set: set, API: api, Version: f.Version, Dir: codec.Response})
	for name, tc := range map[string]struct {
		root *tree.Flat
		size int
	}{"odd": {odd, 45}, "fetch": {fetch, len(b)}, "short buffer": {fetch, len(b) / 2}, "empty": {&tree.Flat{}, 10}} {
		l := NewLayout(tc.root, tc.size)
		want, got := naiveOwners(l), owners(l)
		for i := range want {
			if got[i] != want[i] {
				t.Errorf("%s: byte %d owned by %d, want %d", name, i, got[i], want[i])
				break
			}
		}
	}
}

// hexRowsFmt is HexRows as first written, with fmt: the reference.
func hexRowsFmt(b *strings.Builder, buf []byte, l *Layout, from, to int) {
	to = min(to, l.Rows())
	for r := max(from, 0); r < to; r++ {
		start := r * RowBytes
		fmt.Fprintf(b, `<div class="hrow" data-row="%d"><span class="off">%04x</span>`, r, start)
		end := min(start+RowBytes, len(buf))
		for i := start; i < start+RowBytes; i++ {
			if i >= end {
				b.WriteString(`<span class="hb pad"></span>`)
				continue
			}
			fmt.Fprintf(b, `<span class="hb s-%s" data-o="%d" data-n="%d">%02x</span>`, l.Section(i), i, l.Owner(i), buf[i])
		}
		b.WriteString(`<span class="asc">`)
		for i := start; i < end; i++ {
			c := buf[i]
			ch := "."
			if c >= 0x20 && c < 0x7f {
				ch = html.EscapeString(string(rune(c)))
			}
			fmt.Fprintf(b, `<span class="ab s-%s" data-o="%d" data-n="%d">%s</span>`, l.Section(i), i, l.Owner(i), ch)
		}
		b.WriteString("</span></div>\n")
	}
}

// HexRows writes what the fmt version wrote, for every byte value and for
// rows past 0xffff.
func TestHexRowsSame(t *testing.T) {
	buf := make([]byte, 0x10000+300)
	for i := range buf {
		buf[i] = byte(i * 7)
	}
	root := &tree.Flat{}
	r := root.Row(-1, tree.Node{Size: len(buf), Section: tree.Frame})
	root.Row(r, tree.Node{Offset: 3, Size: 500, Section: tree.Record})
	root.Row(r, tree.Node{Offset: 0x10010, Size: 20, Section: tree.Error})
	root.Done()
	l := NewLayout(root, len(buf)-5) // a node past the end of the buffer
	for _, r := range [][2]int{{0, 40}, {4090, 5000}, {-3, 2}} {
		var got, want strings.Builder
		HexRows(&got, buf[:len(buf)-5], l, r[0], r[1])
		hexRowsFmt(&want, buf[:len(buf)-5], l, r[0], r[1])
		if got.String() != want.String() {
			t.Fatalf("rows %v differ:\n%.600s\nwant\n%.600s", r, got.String(), want.String())
		}
	}
}

// BenchmarkHexRows draws the 60 rows of a scroll step; BenchmarkHexRowsFmt
// is the fmt version, the baseline.
func BenchmarkHexRows(b *testing.B)    { benchRows(b, HexRows) }
func BenchmarkHexRowsFmt(b *testing.B) { benchRows(b, hexRowsFmt) }

func benchRows(b *testing.B, rows func(*strings.Builder, []byte, *Layout, int, int)) {
	buf := make([]byte, 1<<20)
	l := NewLayout(treetest.Chain(tree.Node{Size: len(buf), Section: tree.Frame}), len(buf))
	var sb strings.Builder
	for b.Loop() {
		sb.Reset()
		rows(&sb, buf, l, 1000, 1060)
	}
}
