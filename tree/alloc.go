package tree

import (
	"strconv"
	"unsafe"
)

// Alloc hands out the nodes and strings of one tree from
// shared blocks, so that a tree of many thousand nodes costs a few dozen
// allocations rather than one or more per node. Blocks start small and
// grow with the tree up to a bound, so a small tree stays small. Strings are written
// once into a text block and never touched again, which is what makes
// unsafe.String safe. The zero Alloc is ready; a nil *Alloc allocates
// each node and string on its own. An Alloc is not safe for
// concurrent use.
type Alloc struct {
	nodes     []Node
	text      []byte
	nodeTotal int // sizes of the blocks so far
	textTotal int
}

// Block bounds, in nodes and bytes. Each block is a quarter of
// the size of those before it together, within the bounds: little of what
// a tree allocates goes unused (at most a fifth, past the first blocks),
// with few allocations.
const (
	minNodeBlock = 8
	maxNodeBlock = 512
	minTextBlock = 256
	maxTextBlock = 8 << 10
)

// grow returns the size of a new block for a request of n, given the total
// of the blocks before it, and adds it to the total.
func grow(total *int, n, lo, hi int) int {
	size := max(min(max(*total/4, lo), hi), n)
	*total += size
	return size
}

// Node returns a zero node.
func (a *Alloc) Node() *Node {
	if a == nil {
		return new(Node)
	}
	if len(a.nodes) == 0 {
		a.nodes = make([]Node, grow(&a.nodeTotal, 1, minNodeBlock, maxNodeBlock))
	}
	n := &a.nodes[0]
	a.nodes = a.nodes[1:]
	return n
}

// Nodes returns n zero nodes, side by side. A caller reading n from the
// wire checks it against the bytes left first.
func (a *Alloc) Nodes(n int) []Node {
	if a == nil || n > maxNodeBlock/2 {
		return make([]Node, n)
	}
	if len(a.nodes) < n {
		block := make([]Node, grow(&a.nodeTotal, n, minNodeBlock, maxNodeBlock))
		if len(block)-n <= len(a.nodes) { // the old block has more left
			return block[:n:n]
		}
		a.nodes = block
	}
	s := a.nodes[:n:n]
	a.nodes = a.nodes[n:]
	return s
}

// Text returns an empty slice with room for n bytes at the end of the
// text block: append at most n bytes to it and pass the result to String.
func (a *Alloc) Text(n int) []byte {
	if a == nil {
		return make([]byte, 0, n)
	}
	if cap(a.text)-len(a.text) < n {
		a.text = make([]byte, 0, grow(&a.textTotal, n, minTextBlock, maxTextBlock))
	}
	return a.text[len(a.text):len(a.text)]
}

// String returns b, a slice from Text with bytes appended, as a string,
// and keeps the bytes from being handed out again.
func (a *Alloc) String(b []byte) string {
	if len(b) == 0 {
		return ""
	}
	if a != nil && len(a.text) < cap(a.text) && &b[0] == &a.text[:len(a.text)+1][len(a.text)] {
		a.text = a.text[:len(a.text)+len(b)]
	}
	// b is either in the block, now past its end, or a slice of its own
	// that nothing else holds: no one writes to it again.
	return unsafe.String(&b[0], len(b))
}

// smallMax is the largest number whose decimal string is kept.
const smallMax = 1023

var small = func() (s [smallMax + 1]string) {
	for i := range s {
		s[i] = strconv.Itoa(i)
	}
	return s
}()

// Itoa is strconv.FormatInt(v, 10).
func (a *Alloc) Itoa(v int64) string {
	if v >= 0 && v <= smallMax {
		return small[v]
	}
	return a.String(strconv.AppendInt(a.Text(20), v, 10))
}

// Concat returns x + y + z.
func (a *Alloc) Concat(x, y, z string) string {
	switch {
	case x == "" && y == "":
		return z
	case y == "" && z == "":
		return x
	}
	b := a.Text(len(x) + len(y) + len(z))
	b = append(b, x...)
	b = append(b, y...)
	b = append(b, z...)
	return a.String(b)
}

// Indexed returns prefix + "[" + i + "]".
func (a *Alloc) Indexed(prefix string, i int) string {
	b := a.Text(len(prefix) + 22)
	b = append(b, prefix...)
	b = append(b, '[')
	b = strconv.AppendInt(b, int64(i), 10)
	b = append(b, ']')
	return a.String(b)
}

// Plural returns n and what, plural unless n is 1: "1 element", "3
// elements".
func (a *Alloc) Plural(n int, what string) string {
	if n == 1 {
		return a.Concat("1 ", what, "")
	}
	b := a.Text(len(what) + 22)
	b = strconv.AppendInt(b, int64(n), 10)
	b = append(b, ' ')
	b = append(b, what...)
	b = append(b, 's')
	return a.String(b)
}

// rewind hands out the text block's bytes again from its start, for a
// caller that holds none of the strings made so far (WriteText, from one
// row to the next).
func (a *Alloc) rewind() { a.text = a.text[:0] }
