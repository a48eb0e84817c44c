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
// tree written from the Flat (tree.Flat.WriteText) with that of its Node
// tree (tree.Node.WriteText of Flat.Tree), which kwire decode printed
// before: byte for byte, and again with the secrets revealed.
type textCheck struct {
	decodes, lines, revealed int
	old, now                 bytes.Buffer
}

// compare checks fl's text against its Node tree's, rooted at 0; buf is
// what fl was decoded from.
func (c *textCheck) compare(t *testing.T, what string, fl *tree.Flat, buf []byte) {
	t.Helper()
	if fl.Len() == 0 {
		return
	}
	c.decodes++
	root := fl.Tree(0, nil)
	e, off := root.FirstError()
	switch j, at := fl.FirstError(0); {
	case e == nil && j >= 0:
		t.Fatalf("%s: the Flat has an error at span %d, the Node tree none", what, j)
	case e != nil && j < 0:
		t.Fatalf("%s: the Node tree has an error (%s), the Flat none", what, e.Err)
	case e != nil && (at != off || !sameNode(fl.Node(j, nil), e)):
		t.Fatalf("%s: the Flat's first error is %+v at %d, the Node tree's %+v at %d", what, *fl.Node(j, nil), at, *e, off)
	}
	for reveal := range 2 {
		root := fl.Tree(0, nil)
		if reveal == 1 {
			if !fl.HasSecret() {
				return
			}
			tree.Reveal(root, buf)
			fl.Reveal(buf)
			c.revealed++
		}
		c.old.Reset()
		c.now.Reset()
		if err := root.WriteText(&c.old); err != nil {
			t.Fatal(err)
		}
		if err := fl.WriteText(&c.now, 0, nil); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(c.old.Bytes(), c.now.Bytes()) {
			t.Fatalf("%s (reveal %d): the Flat's text differs from its Node tree's:\n%s", what, reveal, firstLineDiff(c.old.Bytes(), c.now.Bytes()))
		}
		c.lines += bytes.Count(c.now.Bytes(), []byte{'\n'})
	}
}

// sameNode says whether a and b have the same fields, children aside.
func sameNode(a, b *tree.Node) bool {
	return a.Name == b.Name && a.Type == b.Type && a.Value == b.Value && a.Detail == b.Detail && a.About == b.About &&
		a.Offset == b.Offset && a.Size == b.Size && a.Section == b.Section && a.Relative == b.Relative && a.Path == b.Path && a.Err == b.Err
}

// firstLineDiff shows the first line where a and b differ.
func firstLineDiff(a, b []byte) string {
	la, lb := bytes.Split(a, []byte{'\n'}), bytes.Split(b, []byte{'\n'})
	for i := 0; i < min(len(la), len(lb)); i++ {
		if !bytes.Equal(la[i], lb[i]) {
			return "line " + strconv.Itoa(i+1) + ":\n  Node: " + string(la[i]) + "\n  Flat: " + string(lb[i])
		}
	}
	return "lengths " + strconv.Itoa(len(la)) + " and " + strconv.Itoa(len(lb)) + " lines"
}

// frame checks the frame's decode, then its truncations and corruptions,
// as frameCase dumps them.
func (c *textCheck) frame(t *testing.T, name string, frame []byte, o DecodeOptions) {
	t.Helper()
	one := func(what string, b []byte) {
		b = bytes.Clone(b) // Reveal on both trees reads it; the Flat keeps it
		_, fl, _ := DecodeFlat(b, o)
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

// body checks a bare body's decode (Plan.DecodeFlat).
func (c *textCheck) body(t *testing.T, name string, bp *Plan, body []byte, o TreeOptions) {
	t.Helper()
	_, fl, _, _ := bp.DecodeFlat(body, tree.Node{}, o)
	c.compare(t, name+": body", fl, body)
}

// TestFlatText: the text tree written from the Flat is the Node tree's,
// byte for byte, for every input of TestTreeDump (its 12,576 cases, each
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
// messages, is the text of their Node tree with the root's line changed
// as kwire decode changes it: every row, in full.
func TestBenchText(t *testing.T) {
	for _, c := range benchCases() {
		in, p, _ := benchInput(t, c)
		_, fl, _, err := p.DecodeFlat(in, tree.Node{}, TreeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		root := fl.Tree(0, nil)
		benchTop(root)
		var old, now bytes.Buffer
		if err := root.WriteText(&old); err != nil {
			t.Fatal(err)
		}
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
