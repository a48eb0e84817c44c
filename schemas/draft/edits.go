package draft

import (
	"sort"
	"unicode/utf8"
)

// edit replaces the original bytes [off, end) with text (an insertion when
// end == off).
type edit struct {
	off, end int
	text     string
	seq      int // creation order, to keep insertions at one offset in order
	owner    int // the offset of the string token whose repair it is, or -1
}

// region is one JSON object of the paste (a schema, or an object that
// turned out not to be one): its span, the repairs that make it valid
// JSON, what they reported, and its top-level members.
type region struct {
	start, end int
	edits      []edit
	diags      []Diagnostic
	top        map[string]topMember
	spaces     []int   // offsets of the odd spaces replaced
	curlies    []int   // offsets of the curly quotes replaced
	owner      int     // the string token being read, for its edits
	seq        int     // the next edit's seq
	slots      []int   // the seqs of the key slots
	keyWords   []token // apiKey values that are no JSON (TBD, 007)

	// Set by the key pass.
	name, typ, api string
	key            int16
	keySrc         KeySource
	dup            bool // a second request (or response) of its API
}

// topMember is a member of the region's top-level object.
type topMember struct {
	keyOff int
	val    token
	text   string // a string value unquoted, a word as written
}

func newRegion(start int) *region {
	return &region{start: start, top: map[string]topMember{}, owner: -1}
}

func (r *region) replace(off, end int, text string) {
	r.edits = append(r.edits, edit{off: off, end: end, text: text, seq: r.seq, owner: r.owner})
	r.seq++
}

// keySlot makes an empty insertion for the key pass to fill: the value of
// an apiKey that has none.
func (r *region) keySlot(off int) {
	r.slots = append(r.slots, r.seq)
	r.insert(off, "")
}

// writeKey writes the key into the slots and over every apiKey value
// that is no JSON, so that the repaired text is.
func (r *region) writeKey(text string) {
	r.fillSlot(text)
	for _, w := range r.keyWords {
		done := false
		for _, e := range r.edits {
			done = done || e.off == w.off && e.end == w.end
		}
		if !done {
			r.replaceToken(w, text)
		}
	}
}

// fillSlot writes the key into the slots (an apiKey given twice, both
// without a value, has two).
func (r *region) fillSlot(text string) {
	for i := range r.edits {
		for _, s := range r.slots {
			if r.edits[i].seq == s {
				r.edits[i].text = text
			}
		}
	}
}

// replaceToken replaces a whole token, and drops the repairs made inside it.
func (r *region) replaceToken(t token, text string) {
	kept := r.edits[:0]
	for _, e := range r.edits {
		if e.owner != t.off {
			kept = append(kept, e)
		}
	}
	r.edits = kept
	r.owner = -1
	r.replace(t.off, t.end, text)
}

func (r *region) insert(off int, text string) { r.replace(off, off, text) }

func (r *region) remove(t token) { r.replace(t.off, t.end, "") }

func (r *region) warnf(off int, msg, suggestion string) {
	r.diags = append(r.diags, Diagnostic{Severity: Warning, Offset: off, Message: msg, Suggestion: suggestion})
}

func (r *region) errorf(off int, msg, suggestion string) {
	r.diags = append(r.diags, Diagnostic{Severity: Error, Offset: off, Message: msg, Suggestion: suggestion})
}

func (r *region) oddSpace(off, n int) {
	r.spaces = append(r.spaces, off)
	r.replace(off, off+n, " ")
}

func (r *region) curly(off int) { r.curlies = append(r.curlies, off) }

// perLine reports offsets (in order) once per line: the first of the
// line, with how many the line has.
func (r *region) perLine(idx lineIndex, offs []int, report func(off, n int)) {
	for i := 0; i < len(offs); {
		line := idx.line(offs[i])
		j := i + 1
		for j < len(offs) && idx.line(offs[j]) == line {
			j++
		}
		report(offs[i], j-i)
		i = j
	}
}

// segment maps repaired bytes [r, r+n) to the original: byte for byte
// from o when copied, all to o when inserted.
type segment struct {
	r, o, n  int
	inserted bool
}

// offsetMap maps offsets in a repaired text back to the original paste.
type offsetMap struct {
	segs []segment
	end  int // the original offset of the end of the repaired text
}

// orig returns the original offset of repaired offset off.
func (m *offsetMap) orig(off int) int {
	i := sort.Search(len(m.segs), func(i int) bool { return m.segs[i].r > off }) - 1
	if i < 0 {
		if len(m.segs) == 0 {
			return m.end
		}
		return m.segs[0].o
	}
	s := m.segs[i]
	if off >= s.r+s.n {
		if i+1 < len(m.segs) {
			return m.segs[i+1].o
		}
		return m.end
	}
	if s.inserted {
		return s.o
	}
	return s.o + off - s.r
}

// apply returns the region's text with its edits made, and the map back.
// Edits are applied in offset order; one that overlaps an earlier edit
// (inside text already replaced) is dropped.
func (r *region) apply(src []byte) ([]byte, *offsetMap) {
	es := append([]edit(nil), r.edits...)
	sort.SliceStable(es, func(i, j int) bool {
		if es[i].off != es[j].off {
			return es[i].off < es[j].off
		}
		if (es[i].end == es[i].off) != (es[j].end == es[j].off) {
			return es[i].end == es[i].off // insertions first
		}
		return es[i].seq < es[j].seq
	})
	out := make([]byte, 0, r.end-r.start+64)
	m := &offsetMap{end: r.end}
	cur := r.start
	copyTo := func(to int) {
		if to > cur {
			m.segs = append(m.segs, segment{r: len(out), o: cur, n: to - cur})
			out = append(out, src[cur:to]...)
			cur = to
		}
	}
	for _, e := range es {
		if e.off < cur || e.off > r.end || e.end > r.end && e.end != e.off {
			continue
		}
		copyTo(e.off)
		if e.text != "" {
			m.segs = append(m.segs, segment{r: len(out), o: e.off, n: len(e.text), inserted: true})
			out = append(out, e.text...)
		}
		cur = max(cur, e.end)
	}
	copyTo(r.end)
	return out, m
}

// lineIndex turns byte offsets of the paste into 1-based lines and columns.
type lineIndex []int // offsets of line starts

func newLineIndex(src []byte) lineIndex {
	idx := lineIndex{0}
	for i, c := range src {
		if c == '\n' {
			idx = append(idx, i+1)
		}
	}
	return idx
}

// pos returns the line and column (counted in bytes, as schemas.Pos does)
// of off.
func (idx lineIndex) pos(off int) (line, col int) {
	l := sort.SearchInts(idx, off+1) - 1
	if l < 0 {
		l = 0
	}
	return l + 1, off - idx[l] + 1
}

func (idx lineIndex) line(off int) int {
	l, _ := idx.pos(off)
	return l
}

// jsonQuote quotes s as a JSON string; invalid UTF-8 becomes U+FFFD.
func jsonQuote(s string) string {
	const hex = "0123456789abcdef"
	b := make([]byte, 0, len(s)+2)
	b = append(b, '"')
	for i := 0; i < len(s); {
		c := s[i]
		switch {
		case c == '"' || c == '\\':
			b = append(b, '\\', c)
			i++
		case c < 0x20:
			b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&15])
			i++
		case c < utf8.RuneSelf:
			b = append(b, c)
			i++
		default:
			r, n := utf8.DecodeRuneInString(s[i:])
			if r == utf8.RuneError && n == 1 {
				b = append(b, "\ufffd"...)
			} else {
				b = append(b, s[i:i+n]...)
			}
			i += n
		}
	}
	return string(append(b, '"'))
}
