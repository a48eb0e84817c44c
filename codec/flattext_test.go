//go:build !js

package codec

import (
	"bytes"
	"strconv"
	"testing"
	"time"

	"kwire/tree"
)

// textCheck compares, for each decode of TestTreeDump's cases, the text
// tree written from the Flat (tree.Flat.WriteText, whose describers
// append most rows themselves: tree.LineAppender) with the one made of
// each node's own line (tree.Node.Line of Flat.Node, the node Describe
// writes) under the `+--` and `|` guides, which kwire decode printed
// before: byte for byte, and again with the secrets revealed. It checks
// Flat.FirstError against the first node, in preorder, that has an
// error.
type textCheck struct {
	decodes, lines, revealed int
	old, now                 bytes.Buffer
	a                        tree.Alloc
}

// compare checks fl's text against its nodes' lines, rooted at 0; buf is
// what fl was decoded from.
func (c *textCheck) compare(t *testing.T, what string, fl *tree.Flat, buf []byte) {
	t.Helper()
	if fl.Len() == 0 {
		return
	}
	c.decodes++
	c.a = tree.Alloc{}
	e, off := firstError(fl, &c.a)
	switch j, at := fl.FirstError(0); {
	case e < 0 && j >= 0:
		t.Fatalf("%s: the Flat has an error at span %d, its nodes none", what, j)
	case e >= 0 && j < 0:
		t.Fatalf("%s: a node has an error (%s), the Flat none", what, fl.Node(e, nil).Err)
	case e >= 0 && (at != off || j != e):
		t.Fatalf("%s: the Flat's first error is %+v at %d, its nodes' %+v at %d", what, *fl.Node(j, nil), at, *fl.Node(e, nil), off)
	}
	for reveal := range 2 {
		if reveal == 1 {
			if !fl.HasSecret() {
				return
			}
			fl.Reveal(buf)
			c.revealed++
		}
		c.old.Reset()
		c.now.Reset()
		c.a = tree.Alloc{}
		lineText(&c.old, fl, 0, "", &c.a)
		if err := fl.WriteText(&c.now, 0, nil); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(c.old.Bytes(), c.now.Bytes()) {
			t.Fatalf("%s (reveal %d): the Flat's text differs from its nodes' lines:\n%s", what, reveal, firstLineDiff(c.old.Bytes(), c.now.Bytes()))
		}
		c.lines += bytes.Count(c.now.Bytes(), []byte{'\n'})
	}
}

// lineText writes the text tree of node i of fl, a line a node, from its
// nodes' lines (Node.Line); prefix is the guides of i's children.
func lineText(b *bytes.Buffer, fl *tree.Flat, i int, prefix string, a *tree.Alloc) {
	if prefix == "" && fl.Spans[i].Parent < 0 {
		b.WriteString(fl.Node(i, a).Line())
		b.WriteByte('\n')
	}
	last := fl.ChildCount(i) - 1
	k := 0
	fl.Children(i, func(c int) {
		b.WriteString(prefix + "+-- " + fl.Node(c, a).Line() + "\n")
		next := prefix + "|   "
		if k == last {
			next = prefix + "    "
		}
		lineText(b, fl, c, next, a)
		k++
	})
}

// firstError is the first node of fl, in preorder, whose Err is set, and
// where it lies in the buffer: its own offset, or for a node in a
// decompressed stream, that of the outermost node above it whose child
// on the way is Relative and which is not; -1 for none.
func firstError(fl *tree.Flat, a *tree.Alloc) (e, offset int) {
	for i := range fl.Len() {
		n := fl.Node(i, a)
		if n.Err == nil {
			continue
		}
		off := n.Offset
		for c, p := i, int(fl.Spans[i].Parent); p >= 0; c, p = p, int(fl.Spans[p].Parent) {
			if fl.Node(c, a).Relative && !fl.Node(p, a).Relative {
				off = fl.Node(p, a).Offset
			}
		}
		return i, off
	}
	return -1, 0
}

// firstLineDiff shows the first line where a and b differ.
func firstLineDiff(a, b []byte) string {
	la, lb := bytes.Split(a, []byte{'\n'}), bytes.Split(b, []byte{'\n'})
	for i := 0; i < min(len(la), len(lb)); i++ {
		if !bytes.Equal(la[i], lb[i]) {
			return "line " + strconv.Itoa(i+1) + ":\n  Lines: " + string(la[i]) + "\n  Flat: " + string(lb[i])
		}
	}
	return "lengths " + strconv.Itoa(len(la)) + " and " + strconv.Itoa(len(lb)) + " lines"
}

// frame checks the frame's decode, then its truncations and corruptions,
// as frameCase dumps them.
func (c *textCheck) frame(t *testing.T, name string, frame []byte, o DecodeOptions) {
	t.Helper()
	one := func(what string, b []byte) {
		b = bytes.Clone(b) // Reveal reads it; the Flat keeps it
		_, fl, _ := Decode(b, o)
		c.compare(t, name+": "+what, fl, b)
	}
	one("frame", frame)
	for _, n := range damageCuts(len(frame)) {
		one("cut at "+strconv.Itoa(n), frame[:n])
	}
	for _, at := range damageSpots(name, len(frame)) {
		bad := bytes.Clone(frame)
		bad[at] = 0xff
		one("0xff at "+strconv.Itoa(at), bad)
	}
}

// body checks a bare body's decode (Plan.DecodeTree).
func (c *textCheck) body(t *testing.T, name string, bp *Plan, body []byte, o TreeOptions) {
	t.Helper()
	_, fl, _, _ := bp.DecodeTree(body, tree.Node{}, o)
	c.compare(t, name+": body", fl, body)
}

// TestFlatText: the text tree written from the Flat is its nodes' lines
// under the guides, byte for byte, for every input of TestTreeDump (its 12,576 cases, each
// decoded whole, cut short and corrupted, and the versions' bodies).
func TestFlatText(t *testing.T) {
	start := time.Now()
	c := &textCheck{}
	td := &treeDumper{t: t, names: map[string]bool{}, text: c}
	counts := td.run()
	t.Logf("%d cases (%v): %d decodes, %d with secrets revealed too, %d lines, identical, in %v",
		td.cases, counts, c.decodes, c.revealed, c.lines, time.Since(start).Round(time.Millisecond))
}

// TestBenchText: what BenchmarkCodec's nodes rows write, for each of its
// messages, is its nodes' lines under the guides with the root's line
// changed as kwire decode changes it: every row, in full.
func TestBenchText(t *testing.T) {
	for _, c := range benchCases() {
		in, p, _ := benchInput(t, c)
		_, fl, _, err := p.DecodeTree(in, tree.Node{}, TreeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		root := fl.Node(0, nil)
		benchTop(root)
		var lines, old, now bytes.Buffer
		lineText(&lines, fl, 0, "", nil)
		_, rest, _ := bytes.Cut(lines.Bytes(), []byte{'\n'})
		old.WriteString(root.Line() + "\n")
		old.Write(rest)
		if err := fl.WriteText(&now, 0, benchTop); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(old.Bytes(), now.Bytes()) || bytes.Count(now.Bytes(), []byte{'\n'}) != fl.Len() {
			t.Fatalf("%s: the nodes row's text differs from the Node tree's:\n%s", c.name, firstLineDiff(old.Bytes(), now.Bytes()))
		}
		if !bytes.Contains(now.Bytes(), []byte("read with the schemas of trunk\n")) {
			t.Errorf("%s: the root's line is not changed", c.name)
		}
	}
}
