// Package tree is the object tree of a decoded message: every node knows
// its half-open byte span in the original buffer, its type, its displayed
// value, the section of the frame it belongs to and the schema's
// description. Codecs build trees; renderers draw them.
//
// The object tree: nodes with half-open byte spans into the original buffer,
// section, type, value, description; the seed-format text rendering
// (Node.WriteText, and Flat.WriteText, the same text written from the spans
// a row at a time into one buffer, without a Node per row: kwire decode,
// capture --frame; stored spans print their stored nodes' text); Flat, the
// tree as pointer-free spans in preorder whose text a Describer writes when
// asked (Store keeps Node trees as stored spans; Flat.Reveal,
// Flat.HasSecret and Flat.FirstError as for Node trees). Text shown on a
// terminal or a page is escaped by internal/textesc (controls, bidi
// characters, bytes that are not UTF-8).
package tree

import (
	"bufio"
	"io"
	"strconv"
	"strings"

	"kwire/internal/textesc"
	"kwire/internal/xfmt"
)

// Section colours a span of bytes by the part of the frame it belongs to.
// It is a small number (so that a node stays small); String is its name,
// the CSS class suffix. The zero Section is none, named "".
type Section uint8

// The sections.
const (
	Frame Section = iota + 1
	Header
	RequestBody
	ResponseBody
	RecordBatch
	Record
	Tagged
	Error
)

var sectionNames = [...]string{"", "frame", "header", "request", "response", "RecordBatch", "Record", "tagged_fields", "error"}

// Sections lists every section in legend order.
var Sections = []Section{Frame, Header, RequestBody, RecordBatch, Record, ResponseBody, Tagged, Error}

// String is the section's name: "frame", "request", "tagged_fields"; ""
// for none.
func (s Section) String() string {
	if int(s) < len(sectionNames) {
		return sectionNames[s]
	}
	return "Section(" + strconv.Itoa(int(s)) + ")"
}

// Label is the legend text of a section.
func (s Section) Label() string {
	switch s {
	case Header:
		return "rpc header"
	case RequestBody:
		return "request body"
	case ResponseBody:
		return "response body"
	}
	return s.String()
}

// Secret is the Type of a node whose bytes are a secret (a SASL
// password, a bearer token's signature): its Value says so without them,
// and the byte view's text column masks them. Reveal shows them.
const Secret = "secret"

// Revealed is the Type of a Secret node that Reveal showed.
const Revealed = "secret, revealed"

// Reveal shows the secrets under root, which was decoded from buf: each
// Secret node's Value becomes its bytes as an escaped, quoted string and
// its Type Revealed, so that the byte view stops masking them too. Nodes
// whose spans are not in buf (Relative, or past its end) stay masked. It
// reports whether it revealed any.
func Reveal(root *Node, buf []byte) bool {
	if root.Relative {
		return false
	}
	shown := false
	if root.Type == Secret && root.Offset >= 0 && root.Size >= 0 && root.End() <= len(buf) {
		root.reveal(buf[root.Offset:root.End()])
		shown = true
	}
	for _, c := range root.Children {
		shown = Reveal(c, buf) || shown
	}
	return shown
}

// reveal makes n, a Secret, show its bytes b: escaped and quoted, as a
// Revealed node.
func (n *Node) reveal(b []byte) {
	n.Value = string(textesc.AppendEscaped(nil, string(b), true))
	n.Type = Revealed
}

// HasSecret reports whether a node under root is a secret, masked
// (Secret) or revealed (Revealed).
func HasSecret(root *Node) bool {
	if root.Type == Secret || root.Type == Revealed {
		return true
	}
	for _, c := range root.Children {
		if HasSecret(c) {
			return true
		}
	}
	return false
}

// Node is one node of the object tree (160 bytes: trees of a hundred
// thousand nodes are common, so fields are ordered to pack).
type Node struct {
	Name    string  // "GroupId", "Protocols", "JoinGroupRequestProtocol[0]"
	Type    string  // "string", "[]JoinGroupRequestProtocol", "int32"
	Value   string  // displayed value: `""`, "11 (JoinGroup)", "1 element"
	Detail  string  // encoding detail: "(compact, len+1=1)"
	About   string  // the schema's description
	Offset  int     // first byte, in the original buffer
	Size    int     // bytes covered
	Section Section // colour of the node's own bytes
	// Relative is set on nodes whose offsets count from the start of a
	// decompressed stream rather than the original buffer.
	Relative bool
	Path     string // field path in the value ("Protocols[0].Name"), "" for framing
	Err      string // set on error nodes: what went wrong here
	Children []*Node
}

// End is the offset just past the node.
func (n *Node) End() int { return n.Offset + n.Size }

// Add appends children and returns n.
func (n *Node) Add(children ...*Node) *Node {
	n.Children = append(n.Children, children...)
	return n
}

// Walk calls f for n and every descendant, depth first, with the depth.
func (n *Node) Walk(f func(n *Node, depth int) bool) {
	n.walk(f, 0)
}

func (n *Node) walk(f func(*Node, int) bool, depth int) bool {
	if !f(n, depth) {
		return false
	}
	for _, c := range n.Children {
		if !c.walk(f, depth+1) {
			return false
		}
	}
	return true
}

// Innermost returns the deepest node whose span holds offset off (among
// nodes in the original buffer), or nil.
func (n *Node) Innermost(off int) *Node {
	if n.Relative || off < n.Offset || off >= n.End() {
		return nil
	}
	for _, c := range n.Children {
		if in := c.Innermost(off); in != nil {
			return in
		}
	}
	return n
}

// FirstError returns the first node, depth first, that holds an error,
// and where it lies in the original buffer: its own offset, or for a node
// in a decompressed stream (Relative), that of the nearest node above it
// that is not. It returns nil when no node holds an error.
func (n *Node) FirstError() (e *Node, offset int) {
	if n.Err != "" {
		return n, n.Offset
	}
	for _, c := range n.Children {
		if e, off := c.FirstError(); e != nil {
			if c.Relative && !n.Relative {
				off = n.Offset
			}
			return e, off
		}
	}
	return nil, 0
}

// MaxAbout is how much of a description the text tree shows.
const MaxAbout = 75

// Line is the node's one-line text: `GroupId string = "" (compact,
// len+1=1) [0x000f, 1B] The group identifier.`, escaped (textesc.Escape): names
// and descriptions may come from a draft schema.
func (n *Node) Line() string {
	var b strings.Builder
	b.WriteString(n.Name)
	if n.Type != "" {
		b.WriteString(" " + n.Type)
	}
	if n.Value != "" {
		b.WriteString(" = " + n.Value)
	}
	if n.Detail != "" {
		b.WriteString(" " + n.Detail)
	}
	rel := ""
	if n.Relative {
		rel = "+"
	}
	xfmt.Fprintf(&b, " [%s0x%04x, %dB]", rel, n.Offset, n.Size)
	if n.Err != "" {
		b.WriteString(" ERROR: " + n.Err)
	} else if n.About != "" {
		b.WriteString(" " + Shorten(n.About, MaxAbout))
	}
	return textesc.Escape(b.String())
}

// Shorten cuts s to max characters followed by "...".
func Shorten(s string, max int) string {
	if len(s) <= max && spaced(s) {
		return s // the common case, without allocating: drawn on every redraw
	}
	s = strings.Join(strings.Fields(s), " ")
	r := []rune(s)
	if len(r) <= max {
		return s
	}
	return string(r[:max]) + "..."
}

// spaced says whether s is ASCII with its words apart by single spaces and
// none at its ends, as strings.Join(strings.Fields(s), " ") writes them.
func spaced(s string) bool {
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == ' ':
			if i == 0 || i == len(s)-1 || s[i+1] == ' ' {
				return false
			}
		case c < ' ' || c >= 0x80:
			return false // controls, and any non-ASCII (unicode's spaces): the slow way
		}
	}
	return true
}

// Text renders the tree with `+--` and `|` guides, one node a line.
func (n *Node) Text() string {
	var b strings.Builder
	n.WriteText(&b)
	return b.String()
}

// WriteText writes Text to w a line at a time, so that a large tree is
// not held as one string as well.
func (n *Node) WriteText(w io.Writer) error {
	bw := bufio.NewWriter(w)
	bw.WriteString(n.Line())
	bw.WriteByte('\n')
	writeChildren(bw, n, "")
	return bw.Flush()
}

func writeChildren(b *bufio.Writer, n *Node, prefix string) {
	for i, c := range n.Children {
		last := i == len(n.Children)-1
		b.WriteString(prefix)
		b.WriteString("+-- ")
		b.WriteString(c.Line())
		b.WriteByte('\n')
		next := prefix + "|   "
		if last {
			next = prefix + "    "
		}
		writeChildren(b, c, next)
	}
}
