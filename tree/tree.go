// Package tree is the object tree of a decoded message: every node knows
// its half-open byte span in the original buffer, its type, its displayed
// value, the section of the frame it belongs to and the schema's
// description. Codecs build trees; renderers draw them.
//
// The object tree is a Flat: pointer-free spans in preorder whose text a
// Describer writes when asked, or rows whose text is kept (Flat.Row,
// Flat.Set); a Node is the text of one row. Flat.WriteText writes the
// seed-format text tree a row at a time into one buffer, without a Node
// per row (kwire decode, capture --frame); Flat.Reveal, Flat.HasSecret
// and Flat.FirstError look at its spans. Text shown on a terminal or a
// page is escaped by internal/textesc (controls, bidi characters, bytes
// that are not UTF-8).
package tree

import (
	"strconv"

	"kwire/internal/textesc"
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

// reveal makes n, a Secret, show its bytes b: escaped and quoted, as a
// Revealed node.
func (n *Node) reveal(b []byte) {
	n.Value = string(textesc.AppendEscaped(nil, string(b), true))
	n.Type = Revealed
}

// Node is the text of one row of the object tree (a Flat's node: Flat.Node
// fills one, Flat.Row and Flat.Set keep one): it has no children, the
// Flat holds the tree's shape. 136 bytes: trees of a hundred thousand
// nodes are common, so fields are ordered to pack.
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
	// Err is set on error nodes: what went wrong here, without where (the
	// row says that), a cause errors.Is finds wire's sentinels in
	// (wire.ErrCRC, ErrDecompress, ErrBudget, ...).
	Err error
}

// End is the offset just past the node.
func (n *Node) End() int { return n.Offset + n.Size }

// MaxAbout is how much of a description the text tree shows.
const MaxAbout = 75

// Line is the node's one-line text: `GroupId string = "" (compact,
// len+1=1) [0x000f, 1B] The group identifier.`, escaped (textesc.Escape): names
// and descriptions may come from a draft schema.
func (n *Node) Line() string {
	return textesc.Escape(string(appendRaw(nil, n)))
}

// Shorten cuts s to max characters followed by "...".
func Shorten(s string, max int) string {
	if len(s) <= max && spaced(s) {
		return s // the common case, without allocating: drawn on every redraw
	}
	return string(appendShortened(nil, s, max))
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
