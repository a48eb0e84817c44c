package app

import (
	"sort"
	"strconv"
	"strings"

	"kwire/codec"
	"kwire/render"
	"kwire/tree"
)

// HexRows returns rows [from, to) of the byte view.
func (s *State) HexRows(from, to int) string {
	var b strings.Builder
	// Sized once (a row is about 2 KB of HTML): growing by doubling
	// allocated twice what an edit's redraw writes.
	b.Grow(max(min(to, s.Layout.Rows())-max(from, 0), 0) * 2200)
	render.HexRows(&b, s.Bytes, s.Layout, from, to)
	return b.String()
}

// Rows is the number of rows of the byte view.
func (s *State) Rows() int { return s.Layout.Rows() }

// HexHead returns the byte view's column header.
func HexHead() string {
	var b strings.Builder
	render.HexHead(&b)
	return b.String()
}

// Legend returns the colour legend for the selected direction: the
// sections the decoded tree has, or all of them before there is one.
func (s *State) Legend() string {
	var b strings.Builder
	var shown func(tree.Section) bool
	if s.Flat != nil && s.Flat.Len() > 0 {
		var has [256]bool
		for i := range s.Flat.Spans {
			has[s.Flat.Spans[i].Section] = true
		}
		shown = func(sec tree.Section) bool { return has[sec] }
	}
	render.Legend(&b, s.Dir.String(), shown)
	return b.String()
}

// Tree returns the object tree's HTML, with big nodes folded: every line
// (the page draws only those in view: TreeLines, TreeRows).
func (s *State) Tree() string {
	var b strings.Builder
	render.TreeView(&b, s.Layout, s.Folded)
	return b.String()
}

// TreeLines returns the tree's lines as drawn, with big nodes folded.
func (s *State) TreeLines() []render.TreeLine { return render.TreeLines(s.Layout, s.Folded) }

// TreeRows returns the HTML of lines [from, to) of lines (TreeLines).
func (s *State) TreeRows(lines []render.TreeLine, from, to int) string {
	var b strings.Builder
	b.Grow(max(min(to, len(lines))-max(from, 0), 0) * 400) // a line is about 300 bytes of HTML
	render.TreeRows(&b, s.Layout, lines, from, to)
	return b.String()
}

// TreeLineOf returns the index in lines of node id's line, or of the line
// that stands for it (Shown), or -1.
func (s *State) TreeLineOf(lines []render.TreeLine, id int) int {
	shown := s.Shown(id)
	// Lines are in node order (a fold's placeholder after its node's).
	i := sort.Search(len(lines), func(i int) bool { return int(lines[i].Node) >= shown })
	if i < len(lines) && int(lines[i].Node) == shown {
		return i
	}
	return -1
}

// Len is the number of nodes of the tree shown.
func (s *State) Len() int { return s.Layout.Len() }

// Node returns tree node id with its text (without children), or nil:
// formatted when first asked for (render.Layout.Node).
func (s *State) Node(id int) *tree.Node {
	if id < 0 || id >= s.Layout.Len() {
		return nil
	}
	return s.Layout.Node(id)
}

// ErrorNode returns the last node that holds an error, or -1.
func (s *State) ErrorNode() int {
	spans := s.Layout.Flat().Spans
	for i := len(spans) - 1; i >= 0; i-- {
		if spans[i].Flags&tree.Failed != 0 {
			return i
		}
	}
	return -1
}

func (s *State) nodeKey(id int) string {
	n := s.Layout.Node(id)
	return strconv.Itoa(s.Layout.Depth(id)) + "|" + n.Name + "|" + n.Path
}

// Folded reports whether tree node id is drawn folded.
func (s *State) Folded(id int) bool {
	if id < 0 || id >= s.Layout.Len() {
		return false
	}
	if len(s.fold) > 0 { // the key needs the node's text
		if f, ok := s.fold[s.nodeKey(id)]; ok {
			return f
		}
	}
	return s.moreChildren(id, FoldChildren)
}

// moreChildren says whether node id has more than k children, counting
// no further.
func (s *State) moreChildren(id, k int) bool {
	spans := s.Layout.Flat().Spans
	for c, end := id+1, int(spans[id].Next); c < end; c = int(spans[c].Next) {
		if k--; k < 0 {
			return true
		}
	}
	return false
}

// ToggleFold folds or unfolds tree node id.
func (s *State) ToggleFold(id int) {
	if id < 0 || id >= s.Layout.Len() || !s.Layout.HasChildren(id) {
		return
	}
	if s.fold == nil {
		s.fold = map[string]bool{}
	}
	s.fold[s.nodeKey(id)] = !s.Folded(id)
}

// Shown returns the node whose tree line stands for node id: id itself,
// or its outermost folded ancestor.
func (s *State) Shown(id int) int {
	if id < 0 || id >= s.Layout.Len() {
		return -1
	}
	shown := id
	for p := s.Layout.Parent(id); p >= 0; p = s.Layout.Parent(p) {
		if s.Folded(p) {
			shown = p
		}
	}
	return shown
}

// Span returns the bytes [lo, hi) of node id in the buffer (empty for
// nodes in a decompressed stream).
func (s *State) Span(id int) (lo, hi int) {
	if id < 0 || id >= s.Layout.Len() {
		return 0, 0
	}
	sp := &s.Layout.Flat().Spans[id]
	if sp.Flags&tree.InStream != 0 {
		return 0, 0
	}
	return int(sp.Off), sp.End()
}

// Owner returns the innermost node of byte off, or -1.
func (s *State) Owner(off int) int { return s.Layout.Owner(off) }

// FieldKey returns the form key of node id ("b:Protocols[0].Name"), or ""
// for nodes that are not a field's value.
func (s *State) FieldKey(id int) string {
	if s.Frame == nil || id < 0 || id >= s.Layout.Len() {
		return ""
	}
	// The path and section, without formatting the node: asked on every
	// hover.
	path, section := s.Layout.Flat().Path(id), s.Layout.Flat().Spans[id].Section
	if path == "" {
		return ""
	}
	// A node of bytes decoded in place: a field of a version-prefixed
	// format (a consumer subscription, ...) has its own input under the
	// bytes field, when the bytes can be edited so (the form has the
	// key); other formats (the version, SASL, a carried request) are
	// edited as the bytes field, or in the JSON form.
	if owner, ok := codec.NestedOwner(path); ok {
		rest := path[len(owner)+1:]
		schema, field, _ := strings.Cut(rest, ".")
		if codec.NestedSchema(schema) && field != "" && field != "version" && field != "unreadHex" {
			if _, err := s.find("b:" + path); err == nil {
				return "b:" + path
			}
		}
		return "b:" + owner
	}
	if section == tree.Header {
		return "h:" + path
	}
	return "b:" + path
}
