package tree

// Flat is an object tree kept as spans: one Span per node, in preorder,
// without pointers, so that a tree of a hundred thousand nodes is one
// allocation the garbage collector does not scan. A node's text (name,
// type, value, detail, description, path, error) is not kept: the
// Describer that made the span writes it when it is asked for (Node),
// from the bytes and the schema, so that a view formats only the rows it
// draws. Nodes made elsewhere as Node trees join a Flat as stored spans
// (Store), which keep their text.
type Flat struct {
	Spans  []Span
	who    []Describer
	stored []Node // the stored nodes' own fields (Children nil)
}

// Span is one node of a Flat: its bytes and where its text comes from
// (32 bytes, no pointers).
type Span struct {
	Off, Size int32 // first byte and bytes covered (Node.Offset, Node.Size)
	// Next is the index just past the node's subtree: its children are
	// the spans from the one after it, each child's subtree before the
	// next child. Done sets it.
	Next   int32
	Parent int32 // index of the parent, -1 for a root
	// Ref and Arg are the describer's: which field of which plan, an
	// element's index, ...
	Ref, Arg int32
	Who      uint16 // the describer (Flat.Describer)
	Kind     uint8  // the describer's kind of node
	Section  Section
	Flags    Flags
}

// Flags are a span's properties that views need without its text.
type Flags uint8

// The flags.
const (
	// InStream: the offsets count from the start of a decompressed
	// stream, not the buffer (Node.Relative).
	InStream Flags = 1 << iota
	// Masked: a secret (Type Secret), whose bytes a view masks.
	Masked
	// Shown: a secret that Reveal showed (Type Revealed).
	Shown
	// Failed: an error node (Node.Err is set).
	Failed
)

// End is the offset just past the span.
func (s *Span) End() int { return int(s.Off) + int(s.Size) }

// A Describer writes the text of the spans it made: Describe fills n's
// Name, Type, Value, Detail, About and Err (n comes with the span's
// Offset, Size, Section and Relative), with strings from a when it is not
// nil; Path returns the node's field path.
type Describer interface {
	Describe(f *Flat, i int, n *Node, a *Alloc)
	Path(f *Flat, i int) string
}

// Describer registers d as a describer of the tree's spans and returns
// its number, for Span.Who. It returns false when the tree has as many as
// a Span can name.
func (f *Flat) Describer(d Describer) (uint16, bool) {
	if len(f.who) == 0 {
		f.who = append(f.who, storedDescriber{}) // number 0: stored nodes
	}
	if len(f.who) > 0xffff {
		return 0, false
	}
	f.who = append(f.who, d)
	return uint16(len(f.who) - 1), true
}

// Len is the number of nodes.
func (f *Flat) Len() int { return len(f.Spans) }

// Add appends s as the last child of parent (-1: a root) and returns its
// index. Children must be added in preorder: a node's subtree before the
// next sibling's.
func (f *Flat) Add(parent int, s Span) int {
	i := len(f.Spans)
	s.Parent, s.Next = int32(parent), int32(i+1)
	f.Spans = append(f.Spans, s)
	return i
}

// Store appends n and its descendants as stored spans under parent (-1:
// a root) and returns n's index. The nodes are copied; their text is
// theirs.
func (f *Flat) Store(parent int, n *Node) int {
	if len(f.who) == 0 {
		f.who = append(f.who, storedDescriber{})
	}
	s := Span{Off: int32(n.Offset), Size: int32(n.Size), Ref: int32(len(f.stored)), Section: n.Section}
	if n.Relative {
		s.Flags |= InStream
	}
	switch n.Type {
	case Secret:
		s.Flags |= Masked
	case Revealed:
		s.Flags |= Shown
	}
	if n.Err != "" {
		s.Flags |= Failed
	}
	c := *n
	c.Children = nil
	f.stored = append(f.stored, c)
	i := f.Add(parent, s)
	for _, k := range n.Children {
		f.Store(i, k)
	}
	return i
}

// Done sets every span's Next once the tree is built (or changed in
// shape).
func (f *Flat) Done() {
	for i := range f.Spans {
		f.Spans[i].Next = int32(i + 1)
	}
	for i := len(f.Spans) - 1; i >= 0; i-- {
		if p := f.Spans[i].Parent; p >= 0 && f.Spans[i].Next > f.Spans[p].Next {
			f.Spans[p].Next = f.Spans[i].Next
		}
	}
}

// Node returns node i with its text, without children.
func (f *Flat) Node(i int, a *Alloc) Node {
	var n Node
	f.describe(i, &n, a)
	return n
}

// describe writes node i into n, which is zero.
func (f *Flat) describe(i int, n *Node, a *Alloc) {
	s := &f.Spans[i]
	n.Offset, n.Size, n.Section, n.Relative = int(s.Off), int(s.Size), s.Section, s.Flags&InStream != 0
	d := f.who[s.Who]
	d.Describe(f, i, n, a)
	n.Path = d.Path(f, i)
}

// Path returns the field path of node i.
func (f *Flat) Path(i int) string {
	if i < 0 {
		return ""
	}
	return f.who[f.Spans[i].Who].Path(f, i)
}

// Children calls fn with the index of each child of node i, in order.
func (f *Flat) Children(i int, fn func(c int)) {
	for c, end := i+1, int(f.Spans[i].Next); c < end; c = int(f.Spans[c].Next) {
		fn(c)
	}
}

// ChildCount returns the number of children of node i.
func (f *Flat) ChildCount(i int) int {
	n := 0
	for c, end := i+1, int(f.Spans[i].Next); c < end; c = int(f.Spans[c].Next) {
		n++
	}
	return n
}

// Tree returns the Node tree of the root at index i, every node with its
// text, strings and nodes from a (nil: a new one).
func (f *Flat) Tree(i int, a *Alloc) *Node {
	if a == nil {
		a = new(Alloc)
	}
	n := a.Node()
	f.describe(i, n, a) // into n: a Node of its own would be on the heap
	if k := f.ChildCount(i); k > 0 {
		a.Room(n, k)
		f.Children(i, func(c int) { n.Add(f.Tree(c, a)) })
	}
	return n
}

// Stored returns the stored node of span i (Store), to change its text,
// or nil when it is not one.
func (f *Flat) Stored(i int) *Node {
	if s := &f.Spans[i]; s.Who == 0 && len(f.stored) > int(s.Ref) {
		return &f.stored[s.Ref]
	}
	return nil
}

// Cover grows each span under root to hold its children's spans (in the
// buffer), and root too when self is set, as an error tree's are
// (codec's coverSpans): every byte of the input then has an innermost
// node.
func (f *Flat) Cover(root int, self bool) {
	for i := int(f.Spans[root].Next) - 1; i > root; i-- {
		c := &f.Spans[i]
		if c.Flags&InStream != 0 || c.Parent < 0 || (int(c.Parent) == root && !self) {
			continue
		}
		p := &f.Spans[c.Parent]
		if c.Off < p.Off {
			p.Size += p.Off - c.Off
			p.Off = c.Off
		}
		if c.End() > p.End() {
			p.Size = int32(c.End()) - p.Off
		}
	}
}

// FlatOf returns the Flat of a Node tree: every node stored.
func FlatOf(root *Node) *Flat {
	f := &Flat{}
	if root != nil {
		f.Store(-1, root)
		f.Done()
	}
	return f
}

// storedDescriber describes stored spans: their nodes' own text.
type storedDescriber struct{}

func (storedDescriber) Describe(f *Flat, i int, n *Node, _ *Alloc) {
	s := &f.stored[f.Spans[i].Ref]
	n.Name, n.Type, n.Value, n.Detail, n.About, n.Err = s.Name, s.Type, s.Value, s.Detail, s.About, s.Err
}

func (storedDescriber) Path(f *Flat, i int) string { return f.stored[f.Spans[i].Ref].Path }
