package draft

import (
	"kwire/internal/xfmt"
	"kwire/jsonv"
	"strings"
	"unicode/utf8"
)

// maxDepth bounds the nesting the reader follows (Kafka's schemas nest
// about eight deep); deeper values are dropped.
const maxDepth = 48

// repairer reads one JSON object tolerantly: it records, as edits of the
// original text, what makes it valid JSON (with comments, as hujson reads
// it), and reports each repair.
type repairer struct {
	lx    *lexer
	tok   token
	prev  token // the token consumed last
	r     *region
	idx   lineIndex
	stack []tokKind // open containers: tLBrace or tLBrack
}

// repairObject reads the object whose '{' is at start and returns its
// region; region.end is just past its '}' (or the end of the text).
func repairObject(src []byte, start int, idx lineIndex) *region {
	r := newRegion(start)
	p := &repairer{lx: &lexer{src: src, pos: start, r: r}, r: r, idx: idx}
	p.tok = p.lx.next()
	p.object(1)
	r.end = p.prev.end
	if p.tok.kind == tEOF || r.end < start { // left open: it runs to the end
		r.end = len(src)
	}
	r.perLine(idx, r.spaces, func(off, n int) {
		rn, _ := utf8.DecodeRune(src[off:])
		what := xfmt.Sprintf("U+%04X space", rn)
		if rn == '\u00a0' {
			what = "no-break space"
		}
		msg := xfmt.Sprintf("%s (U+%04X) read as a plain space", what, rn)
		if rn != '\u00a0' {
			msg = xfmt.Sprintf("%s read as a plain space", what)
		}
		if n > 1 {
			msg = xfmt.Sprintf("%d %ss (U+%04X) read as plain spaces", n, what, rn)
			if rn != '\u00a0' {
				msg = xfmt.Sprintf("%d %ss read as plain spaces", n, what)
			}
		}
		fix := "replace it with a plain space: JSON allows no other"
		if n > 1 {
			fix = "replace them with plain spaces: JSON allows no other"
		}
		r.warnf(off, msg, fix)
	})
	r.perLine(idx, r.curlies, func(off, _ int) {
		r.warnf(off, "curly quotes read as straight quotes", `use straight quotes (")`)
	})
	return r
}

func (p *repairer) advance() {
	p.prev = p.tok
	p.tok = p.lx.next()
}

func (p *repairer) text(t token) string { return string(p.lx.src[t.off:t.end]) }

// where describes the place just after token t, for a suggestion: "at
// the end of line 58" or "after \"A\" on line 3".
func (p *repairer) where(t token) string {
	src := p.lx.src
	j := t.end
	for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\r') {
		j++
	}
	if j == len(src) || src[j] == '\n' {
		return xfmt.Sprintf("at the end of line %d", p.idx.line(t.end))
	}
	return xfmt.Sprintf("after %s on line %d", p.disp(t), p.idx.line(t.end))
}

// disp shows a token in a message: punctuation and short strings as
// written, long strings by their kind.
func (p *repairer) disp(t token) string {
	switch {
	case t.kind == tString && t.end-t.off <= 32:
		return p.text(t)
	case t.kind == tString:
		return "the string"
	case t.kind == tWord:
		return jsonQuote(p.text(t))
	}
	return xfmt.Sprintf("%q", tokNames[t.kind])
}

func (p *repairer) inside(k tokKind) bool {
	for _, s := range p.stack {
		if s == k {
			return true
		}
	}
	return false
}

// seps tracks the commas of one object or array: a comma is needed
// between two members or elements, and none may come before the first or
// after the last (Kafka's reader takes neither).
type seps struct {
	p       *repairer
	between string // for messages: "between two fields"
	need    bool   // a member was read and no comma has followed it
	last    token  // the last token of that member
	pending *token // a comma after the last member, not yet followed by one
}

// comma reads a comma: the separator, or an extra one that is dropped.
func (s *seps) comma() {
	p := s.p
	if !s.need {
		p.extra()
		return
	}
	t := p.tok
	s.pending, s.need = &t, false
	p.advance()
}

// member is called before a member or element: it adds a missing comma.
func (s *seps) member() {
	p := s.p
	if s.need {
		p.r.warnf(s.last.end, `missing "," `+s.between, `add "," `+p.where(s.last))
		p.r.insert(s.last.end, ",")
	}
	s.pending = nil
}

// read is called after a member or element.
func (s *seps) read() { s.need, s.last = true, s.p.prev }

// close is called when the object or array ends: a comma after the last
// member is dropped.
func (s *seps) close(closer string) {
	if c := s.pending; c != nil {
		s.p.r.warnf(c.off, xfmt.Sprintf("trailing comma before %q", closer), `remove the ","`)
		s.p.r.remove(*c)
	}
}

// object reads an object; p.tok is its '{'.
func (p *repairer) object(depth int) {
	open := p.tok
	p.advance()
	p.stack = append(p.stack, tLBrace)
	var nullDefault *token // a bare null default, judged once the object is read
	tagged := false
	defer func() {
		p.stack = p.stack[:len(p.stack)-1]
		// Kafka reads a bare null as no default (FieldSpec); its own
		// files write one on a tagged field only, where the default says
		// when the field is left out, and kwire reads it as null there.
		if nullDefault != nil && !tagged {
			p.r.warnf(nullDefault.off, `"default": null is not quoted; read as "null"`,
				`write "default": "null"; Kafka reads a bare null as no default`)
			p.r.replace(nullDefault.off, nullDefault.end, `"null"`)
		}
	}()
	sep := &seps{p: p}
	for {
		switch p.tok.kind {
		case tRBrace:
			sep.close("}")
			if depth == 1 {
				p.prev = p.tok // the end: what follows is not read here
				return
			}
			p.advance()
			return
		case tEOF:
			sep.close("}")
			line, col := p.idx.pos(open.off)
			p.r.errorf(open.off, xfmt.Sprintf("{ opened here (%d:%d) is never closed", line, col), `add the missing "}"`)
			p.r.insert(len(p.lx.src), "\n}")
			return
		case tRBrack:
			if p.inside(tLBrack) {
				sep.close("}")
				p.r.warnf(p.tok.off, `missing "}" before "]"`, `add "}" `+p.where(p.prev))
				p.r.insert(p.tok.off, "}")
				return
			}
			p.stray()
			continue
		case tComma:
			sep.comma()
			continue
		case tColon:
			p.extra()
			continue
		case tLBrace, tLBrack:
			p.r.errorf(p.tok.off, "a value without a member name: dropped", `give it a name ("name": ...) or remove it`)
			p.skipValue("")
			continue
		}
		// The member name.
		sep.member()
		key := p.tok
		name := p.text(key)
		if key.kind == tString {
			name = unquote(p.lx.src, key)
		} else {
			p.r.warnf(key.off, xfmt.Sprintf("member name %s is not quoted", name), xfmt.Sprintf("write %s", jsonQuote(name)))
			p.r.replace(key.off, key.end, jsonQuote(name))
		}
		p.advance()
		var val token // the value's span; kind tEOF when it is missing
		switch p.tok.kind {
		case tColon:
			p.advance()
			val = p.value(name, depth)
		case tString, tWord, tLBrace, tLBrack:
			p.r.warnf(p.prev.end, xfmt.Sprintf(`missing ":" after %s`, jsonQuote(name)), `add ":" `+p.where(p.prev))
			p.r.insert(p.prev.end, ":")
			val = p.value(name, depth)
		default:
			p.r.errorf(p.prev.end, xfmt.Sprintf("member %s has no value", jsonQuote(name)), "give it a value or remove it")
			val = token{kind: tEOF, off: p.prev.end, end: p.prev.end}
			if depth == 1 && name == "apiKey" {
				p.r.insert(p.prev.end, ":")
				p.r.keySlot(p.prev.end) // the key pass writes the key
			} else {
				p.r.insert(p.prev.end, ": null")
			}
		}
		if depth == 1 {
			p.r.top[name] = topMember{keyOff: key.off, val: val, text: p.valueText(val)}
		}
		switch {
		case name == "tag" || name == "taggedVersions":
			tagged = true
		case name == "default" && val.kind == tWord && p.text(val) == "null":
			nullDefault = &val
		}
		sep.read()
		sep.between = xfmt.Sprintf("after the %s member", jsonQuote(name))
	}
}

// array reads an array; p.tok is its '['. key names the member it is the
// value of.
func (p *repairer) array(key string, depth int) {
	open := p.tok
	p.advance()
	p.stack = append(p.stack, tLBrack)
	defer func() { p.stack = p.stack[:len(p.stack)-1] }()
	sep := &seps{p: p, between: xfmt.Sprintf("between two elements of %s", jsonQuote(key))}
	switch key {
	case "fields":
		sep.between = "between two fields"
	case "commonStructs":
		sep.between = "between two common structs"
	}
	for {
		switch p.tok.kind {
		case tRBrack:
			sep.close("]")
			p.advance()
			return
		case tEOF:
			sep.close("]")
			line, col := p.idx.pos(open.off)
			p.r.errorf(open.off, xfmt.Sprintf("[ opened here (%d:%d) is never closed", line, col), `add the missing "]"`)
			p.r.insert(len(p.lx.src), "\n]")
			return
		case tRBrace:
			if p.inside(tLBrace) {
				sep.close("]")
				p.r.warnf(p.tok.off, `missing "]" before "}"`, `add "]" `+p.where(p.prev))
				p.r.insert(p.tok.off, "]")
				return
			}
			p.stray()
			continue
		case tComma:
			sep.comma()
			continue
		case tColon:
			p.extra()
			continue
		}
		sep.member()
		p.value(key+"[]", depth)
		sep.read()
	}
}

// stray drops a closing bracket that closes nothing.
func (p *repairer) stray() {
	p.r.warnf(p.tok.off, xfmt.Sprintf("%q closes nothing: dropped", tokNames[p.tok.kind]), "remove it")
	p.r.remove(p.tok)
	p.advance()
}

// extra drops a comma or colon where a member or element should start.
func (p *repairer) extra() {
	what := "extra comma"
	if p.tok.kind == tColon {
		what = `unexpected ":"`
	}
	p.r.warnf(p.tok.off, what, "remove it")
	p.r.remove(p.tok)
	p.advance()
}

// value reads the value of member key at object depth depth.
func (p *repairer) value(key string, depth int) token {
	for p.tok.kind == tColon {
		p.extra()
	}
	t := p.tok
	switch p.tok.kind {
	case tLBrace:
		if depth >= maxDepth {
			p.tooDeep()
			break
		}
		p.object(depth + 1)
	case tLBrack:
		if depth >= maxDepth {
			p.tooDeep()
			break
		}
		p.array(key, depth+1)
	case tString:
		p.advance()
	case tWord:
		p.word(key, depth)
		p.advance()
	default:
		p.r.errorf(p.prev.end, xfmt.Sprintf("member %s has no value", jsonQuote(key)), "give it a value or remove it")
		t = token{kind: tEOF, off: p.prev.end, end: p.prev.end}
		if key == "apiKey" && depth == 1 {
			p.r.keySlot(p.prev.end) // the key pass writes the key
		} else {
			p.r.insert(p.prev.end, " null")
		}
		return t
	}
	t.end = max(t.end, p.prev.end)
	return t
}

// number matches a JSON number, -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?,
// written out rather than as a regexp: regexp alone would add about 116
// KB gzip to the browser app, which reads drafts too.
var number jsonNumber

type jsonNumber struct{}

// MatchString reports whether s is a whole JSON number.
func (jsonNumber) MatchString(s string) bool {
	i := 0
	digits := func() int {
		n := 0
		for i < len(s) && s[i] >= '0' && s[i] <= '9' {
			i, n = i+1, n+1
		}
		return n
	}
	if i < len(s) && s[i] == '-' {
		i++
	}
	switch {
	case i < len(s) && s[i] == '0':
		i++
	case i < len(s) && s[i] >= '1' && s[i] <= '9':
		digits()
	default:
		return false
	}
	if i < len(s) && s[i] == '.' {
		i++
		if digits() == 0 {
			return false
		}
	}
	if i < len(s) && (s[i] == 'e' || s[i] == 'E') {
		i++
		if i < len(s) && (s[i] == '+' || s[i] == '-') {
			i++
		}
		if digits() == 0 {
			return false
		}
	}
	return i == len(s)
}

// word checks a bare word used as a value: JSON's literals and numbers
// stand (object judges "default": null); the top-level apiKey is left for
// the key pass (TBD); any other word is quoted.
func (p *repairer) word(key string, depth int) {
	w := p.text(p.tok)
	switch {
	case w == "true" || w == "false" || w == "null" || number.MatchString(w):
	case key == "apiKey" && depth == 1:
		p.r.keyWords = append(p.r.keyWords, p.tok) // the key pass writes a number
	default:
		p.r.warnf(p.tok.off, xfmt.Sprintf("value %s is not quoted", w), xfmt.Sprintf("write %s", jsonQuote(w)))
		p.r.replace(p.tok.off, p.tok.end, jsonQuote(w))
	}
}

// tooDeep drops a value nested deeper than maxDepth.
func (p *repairer) tooDeep() {
	p.r.errorf(p.tok.off, xfmt.Sprintf("nested more than %d deep: dropped", maxDepth), "flatten it")
	p.skipValue("null")
}

// skipValue drops the value at p.tok (with what it holds) and puts with in
// its place; repairs made inside it go with it.
func (p *repairer) skipValue(with string) {
	start := p.tok.off
	firstEdit, firstDiag := len(p.r.edits), len(p.r.diags) // what the skip adds
	depth := 0
	for p.tok.kind != tEOF {
		switch p.tok.kind {
		case tLBrace, tLBrack:
			depth++
		case tRBrace, tRBrack:
			depth--
		}
		p.advance()
		if depth <= 0 {
			break
		}
	}
	end := p.prev.end
	if p.tok.kind == tEOF {
		end = len(p.lx.src)
	}
	kept := p.r.edits[:firstEdit]
	for _, e := range p.r.edits[firstEdit:] {
		if e.off >= end && !(e.off == end && end == len(p.lx.src)) {
			kept = append(kept, e) // the next token's
		}
	}
	p.r.edits = kept
	diags := p.r.diags[:firstDiag]
	for _, d := range p.r.diags[firstDiag:] {
		if d.Offset >= end {
			diags = append(diags, d)
		}
	}
	p.r.diags = diags
	p.r.replace(start, end, with)
}

// valueText is a value as the key pass reads it: a string unquoted, else
// the text as written.
func (p *repairer) valueText(t token) string {
	if t.kind == tString {
		return unquote(p.lx.src, t)
	}
	if t.kind == tWord {
		return p.text(t)
	}
	return ""
}

// unquote reads a string token as JSON would after repair: escapes
// decoded, line breaks joined. It is used for names and types, which hold
// neither; a string that does not decode is returned as written.
func unquote(src []byte, t token) string {
	raw := string(src[t.off:t.end])
	raw = strings.TrimPrefix(strings.TrimPrefix(raw, "\u201c"), "\u201d")
	raw = strings.TrimSuffix(strings.TrimSuffix(raw, "\u201c"), "\u201d")
	raw = strings.Trim(raw, `"`)
	if s, ok := jsonv.Unquote(raw); ok {
		return s
	}
	return raw
}
