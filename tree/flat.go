package tree

// Flat is an object tree kept as spans: one Span per node, in preorder,
// without pointers, so that a tree of a hundred thousand nodes is one
// allocation the garbage collector does not scan. A node's text (name,
// type, value, detail, description, path, error) is not kept: the
// Describer that made the span writes it when it is asked for (Node),
// from the bytes and the schema, so that a view formats only the rows it
// draws. Formats whose text is cheaper to keep add rows (Row), stored
// spans that keep their text.
type Flat struct {
	Spans  []Span
	who    []Describer
	stored []Node // the rows' text
	whoBuf [2]Describer
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
	// Shown: a secret that Reveal showed (Type Revealed): a describer
	// writes its value from its bytes, as Reveal does for a Node.
	Shown
	// Failed: an error node (Node.Err is set).
	Failed
)

// End is the offset just past the span.
func (s *Span) End() int { return int(s.Off) + int(s.Size) }

// A Describer writes the text of the spans it made: Describe fills n's
// Name, Type, Value, Detail, About and Err (n comes with the span's
// Offset, Size, Section and Relative), with strings from a when it is not
// nil; Path returns the node's field path, given its parent's (parent),
// so that a walk from the root makes each path once.
type Describer interface {
	Describe(f *Flat, i int, n *Node, a *Alloc)
	Path(f *Flat, i int, parent string, a *Alloc) string
}

// A Mover is a Describer that reads its spans' bytes from a copy of its
// own, placed by offset: Moved tells it that the bytes from at moved by
// delta, as the spans after an edit that changed a length do (codec's
// Patch).
type Mover interface {
	Moved(at, delta int)
}

// Describer registers d as a describer of the tree's spans and returns
// its number, for Span.Who. It returns false when the tree has as many as
// a Span can name.
func (f *Flat) Describer(d Describer) (uint16, bool) {
	if len(f.who) == 0 {
		f.who = append(f.whoBuf[:0], storedDescriber{}) // number 0: stored nodes
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

// Row appends one node under parent (-1: a root) whose text is n's, kept
// as it is (a stored span), and returns its index: the formats whose text
// is cheaper to keep than to write again when drawn (framing, SASL,
// OTLP) add their nodes with it, in preorder. Stored changes the text
// kept afterwards.
func (f *Flat) Row(parent int, n Node) int {
	return f.Add(parent, f.storedSpan(&n))
}

// Set makes node i a stored span whose text is n's, in its place: its
// parent and children stay. A format that changes the text of a node
// another describer made (records' control records and internal topics,
// which label what they decode) sets it so.
func (f *Flat) Set(i int, n Node) {
	s := &f.Spans[i]
	parent, next := s.Parent, s.Next
	*s = f.storedSpan(&n)
	s.Parent, s.Next = parent, next
}

// storedSpan keeps a copy of n's text and returns its span, not yet in
// the tree.
func (f *Flat) storedSpan(n *Node) Span {
	if len(f.who) == 0 {
		f.who = append(f.whoBuf[:0], storedDescriber{})
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
	if n.Err != nil {
		s.Flags |= Failed
	}
	if f.stored == nil {
		f.stored = make([]Node, 0, firstRows)
	}
	f.stored = append(f.stored, *n)
	return s
}

// firstRows is the room for rows that a tree's first row makes: a
// frame's framing (message, Frame, size, header, body) and a few more,
// in one allocation rather than four.
const firstRows = 8

// Done sets every span's Next once the tree is built (or changed in
// shape).
func (f *Flat) Done() {
	// One pass from the end: a node's descendants come after it, so each
	// has raised its Next before it is reached. A Next is at least the
	// index after its span (Add sets that; a span appended without one
	// gets it here); once linked, a second Done changes nothing.
	spans := f.Spans
	for i := len(spans) - 1; i >= 0; i-- {
		s := &spans[i]
		if s.Next <= int32(i) {
			s.Next = int32(i + 1)
		}
		if p := s.Parent; p >= 0 && s.Next > spans[p].Next {
			spans[p].Next = s.Next
		}
	}
}

// Node returns node i with its text, without children.
func (f *Flat) Node(i int, a *Alloc) *Node {
	n := a.Node()
	f.fill(n, i, a, f.Path(int(f.Spans[i].Parent)))
	return n
}

// fill sets n, a zero node, to node i, given the path of i's parent.
func (f *Flat) fill(n *Node, i int, a *Alloc, parent string) {
	s := &f.Spans[i]
	n.Offset, n.Size, n.Section, n.Relative = int(s.Off), int(s.Size), s.Section, s.Flags&InStream != 0
	d := f.who[s.Who]
	d.Describe(f, i, n, a)
	n.Path = d.Path(f, i, parent, a)
}

// Path returns the field path of node i ("" for -1).
func (f *Flat) Path(i int) string {
	if i < 0 {
		return ""
	}
	return f.who[f.Spans[i].Who].Path(f, i, f.Path(int(f.Spans[i].Parent)), nil)
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

// Stored returns the stored node of span i (a row: Row, Set), to
// change its text once it is known (a message's name, after its header
// is read; a summary of the rows below it), or nil when it is not one.
func (f *Flat) Stored(i int) *Node {
	if s := &f.Spans[i]; s.Who == 0 && len(f.stored) > int(s.Ref) {
		return &f.stored[s.Ref]
	}
	return nil
}

// Reveal shows the secrets of the tree, which was decoded from buf: each
// Masked span becomes Shown, and a stored one's node takes its bytes as
// an escaped, quoted string for Value and Revealed for Type. Spans in a
// decompressed stream (InStream, and their subtrees) or past buf's end
// stay masked. It reports whether it revealed any.
func (f *Flat) Reveal(buf []byte) bool {
	shown := false
	for i := 0; i < len(f.Spans); i++ {
		s := &f.Spans[i]
		if s.Flags&InStream != 0 {
			i = int(s.Next) - 1 // as Reveal, which does not look under a Relative node
			continue
		}
		if s.Flags&Masked == 0 || s.Off < 0 || s.Size < 0 || s.End() > len(buf) {
			continue
		}
		if n := f.Stored(i); n != nil {
			n.reveal(buf[s.Off:s.End()])
		}
		s.Flags = s.Flags&^Masked | Shown
		shown = true
	}
	return shown
}

// HasSecret reports whether a node of the tree is a secret, masked or
// shown (Secret or Revealed).
func (f *Flat) HasSecret() bool {
	for i := range f.Spans {
		if f.Spans[i].Flags&(Masked|Shown) != 0 {
			return true
		}
	}
	return false
}

// Cover grows each span under root, whose subtree ends at end (Next, or
// the number of spans while root is the last one open), to hold its
// children's spans (in the buffer), and root too when self is set, as an
// error tree's are: every byte of the input then has an innermost node.
func (f *Flat) Cover(root, end int, self bool) {
	for i := end - 1; i > root; i-- {
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

// Failed reports whether a span of root's subtree, which ends at end, is
// an error node.
func (f *Flat) Failed(root, end int) bool {
	for i := root; i < end; i++ {
		if f.Spans[i].Flags&Failed != 0 {
			return true
		}
	}
	return false
}

// storedDescriber describes stored spans: their nodes' own text.
type storedDescriber struct{}

func (storedDescriber) Describe(f *Flat, i int, n *Node, _ *Alloc) {
	s := &f.stored[f.Spans[i].Ref]
	n.Name, n.Type, n.Value, n.Detail, n.About, n.Err = s.Name, s.Type, s.Value, s.Detail, s.About, s.Err
}

func (storedDescriber) Path(f *Flat, i int, _ string, _ *Alloc) string {
	return f.stored[f.Spans[i].Ref].Path
}

// DescriberOf returns the describer of span i.
func (f *Flat) DescriberOf(i int) Describer { return f.who[f.Spans[i].Who] }

// Describers returns the tree's describers (number 0 describes stored
// nodes).
func (f *Flat) Describers() []Describer { return f.who }

// Grow makes room for n more spans.
func (f *Flat) Grow(n int) {
	if n > cap(f.Spans)-len(f.Spans) {
		s := make([]Span, len(f.Spans), max(len(f.Spans)+n, 2*cap(f.Spans)))
		copy(s, f.Spans)
		f.Spans = s
	}
}

// FirstError returns the index of the first error node (Failed) of the
// subtree of root, in preorder, and where it lies in the original buffer:
// its own offset, or for a node in a decompressed stream (InStream), that
// of the outermost node above it that is not. It returns -1 when no node holds an error.
func (f *Flat) FirstError(root int) (e, offset int) {
	for j := root; j < int(f.Spans[root].Next); j++ {
		if f.Spans[j].Flags&Failed == 0 {
			continue
		}
		off := int(f.Spans[j].Off)
		for c := j; c != root; {
			p := int(f.Spans[c].Parent)
			if p < 0 {
				break
			}
			if f.Spans[c].Flags&InStream != 0 && f.Spans[p].Flags&InStream == 0 {
				off = int(f.Spans[p].Off)
			}
			c = p
		}
		return j, off
	}
	return -1, 0
}
