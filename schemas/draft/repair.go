package draft

import (
	"encoding/json"
	"fmt"
	"regexp"
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
	if p.prev.kind == tEOF || r.end < start {
		r.end = len(src)
	}
	r.perLine(idx, r.spaces, func(off, n int) {
		rn, _ := utf8.DecodeRune(src[off:])
		what := fmt.Sprintf("U+%04X space", rn)
		if rn == '\u00a0' {
			what = "no-break space"
		}
		msg := fmt.Sprintf("%s (U+%04X) read as a plain space", what, rn)
		if rn != '\u00a0' {
			msg = fmt.Sprintf("%s read as a plain space", what)
		}
		if n > 1 {
			msg = fmt.Sprintf("%d %ss (U+%04X) read as plain spaces", n, what, rn)
			if rn != '\u00a0' {
				msg = fmt.Sprintf("%d %ss read as plain spaces", n, what)
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

// where describes the place just after the previous token, for a
// suggestion: "at the end of line 58" or "before \"{\" on line 60".
func (p *repairer) where(off int) string {
	src := p.lx.src
	j := off
	for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\r') {
		j++
	}
	if j == len(src) || src[j] == '\n' {
		return fmt.Sprintf("at the end of line %d", p.idx.line(off))
	}
	return fmt.Sprintf("after %s on line %d", p.disp(p.prev), p.idx.line(off))
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
	return fmt.Sprintf("%q", tokNames[t.kind])
}

func (p *repairer) inside(k tokKind) bool {
	for _, s := range p.stack {
		if s == k {
			return true
		}
	}
	return false
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
	last := "" // the name of the last member
	for {
		switch p.tok.kind {
		case tRBrace:
			if depth == 1 {
				p.prev = p.tok // the end: what follows is not read here
				return
			}
			p.advance()
			return
		case tEOF:
			line, col := p.idx.pos(open.off)
			p.r.errorf(open.off, fmt.Sprintf("{ opened here (%d:%d) is never closed", line, col), `add the missing "}"`)
			p.r.insert(len(p.lx.src), "\n}")
			return
		case tRBrack:
			if p.inside(tLBrack) {
				p.r.warnf(p.tok.off, `missing "}" before "]"`, `add "}" `+p.where(p.prev.end))
				p.r.insert(p.tok.off, "}")
				return
			}
			p.stray()
			continue
		case tComma, tColon:
			p.extra()
			continue
		case tLBrace, tLBrack:
			p.r.errorf(p.tok.off, "a value without a member name: dropped", `give it a name ("name": ...) or remove it`)
			p.skipValue()
			continue
		}
		// The member name.
		key := p.tok
		name := p.text(key)
		if key.kind == tString {
			name = unquote(p.lx.src, key)
		} else {
			p.r.warnf(key.off, fmt.Sprintf("member name %s is not quoted", name), fmt.Sprintf("write %s", jsonQuote(name)))
			p.r.replace(key.off, key.end, jsonQuote(name))
		}
		p.advance()
		val := token{kind: tEOF, off: p.prev.end, end: p.prev.end}
		switch p.tok.kind {
		case tColon:
			p.advance()
			val = p.tok
			p.value(name, depth)
		case tString, tWord, tLBrace, tLBrack:
			p.r.warnf(p.prev.end, fmt.Sprintf(`missing ":" after %s`, jsonQuote(name)), `add ":" `+p.where(p.prev.end))
			p.r.insert(p.prev.end, ":")
			val = p.tok
			p.value(name, depth)
		default:
			p.r.errorf(p.prev.end, fmt.Sprintf("member %s has no value", jsonQuote(name)), "give it a value or remove it")
			p.r.insert(p.prev.end, ": null")
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
		last = name
		p.separator(fmt.Sprintf("after the %s member", jsonQuote(last)), tRBrace)
	}
}

// array reads an array; p.tok is its '['. key names the member it is the
// value of.
func (p *repairer) array(key string, depth int) {
	open := p.tok
	p.advance()
	p.stack = append(p.stack, tLBrack)
	defer func() { p.stack = p.stack[:len(p.stack)-1] }()
	between := fmt.Sprintf("between two elements of %s", jsonQuote(key))
	switch key {
	case "fields":
		between = "between two fields"
	case "commonStructs":
		between = "between two common structs"
	}
	for {
		switch p.tok.kind {
		case tRBrack:
			p.advance()
			return
		case tEOF:
			line, col := p.idx.pos(open.off)
			p.r.errorf(open.off, fmt.Sprintf("[ opened here (%d:%d) is never closed", line, col), `add the missing "]"`)
			p.r.insert(len(p.lx.src), "\n]")
			return
		case tRBrace:
			if p.inside(tLBrace) {
				p.r.warnf(p.tok.off, `missing "]" before "}"`, `add "]" `+p.where(p.prev.end))
				p.r.insert(p.tok.off, "]")
				return
			}
			p.stray()
			continue
		case tComma, tColon:
			p.extra()
			continue
		}
		p.value(key+"[]", depth)
		p.separator(between, tRBrack)
	}
}

// separator reads what follows a member or an element: a comma, the
// closing bracket, or something that needs a comma before it.
func (p *repairer) separator(between string, closer tokKind) {
	switch p.tok.kind {
	case tComma:
		comma := p.tok
		p.advance()
		if p.tok.kind == closer {
			p.r.warnf(comma.off, fmt.Sprintf("trailing comma before %q", tokNames[closer]), `remove the ","`)
			p.r.remove(comma)
		}
	case tRBrace, tRBrack, tEOF, tColon:
		// the loop deals with them
	default:
		p.r.warnf(p.prev.end, `missing "," `+between, `add "," `+p.where(p.prev.end))
		p.r.insert(p.prev.end, ",")
	}
}

// stray drops a closing bracket that closes nothing.
func (p *repairer) stray() {
	p.r.warnf(p.tok.off, fmt.Sprintf("%q closes nothing: dropped", tokNames[p.tok.kind]), "remove it")
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
func (p *repairer) value(key string, depth int) {
	for p.tok.kind == tColon {
		p.extra()
	}
	switch p.tok.kind {
	case tLBrace:
		if depth >= maxDepth {
			p.tooDeep()
			return
		}
		p.object(depth + 1)
	case tLBrack:
		if depth >= maxDepth {
			p.tooDeep()
			return
		}
		p.array(key, depth+1)
	case tString:
		p.advance()
	case tWord:
		p.word(key, depth)
		p.advance()
	default:
		p.r.errorf(p.prev.end, fmt.Sprintf("member %s has no value", jsonQuote(key)), "give it a value or remove it")
		p.r.insert(p.prev.end, " null")
	}
}

var number = regexp.MustCompile(`^-?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][-+]?[0-9]+)?$`)

// word checks a bare word used as a value: JSON's literals and numbers
// stand (object judges "default": null); the top-level apiKey is left for
// the key pass (TBD); any other word is quoted.
func (p *repairer) word(key string, depth int) {
	w := p.text(p.tok)
	switch {
	case w == "true" || w == "false" || w == "null" || number.MatchString(w):
	case key == "apiKey" && depth == 1:
	default:
		p.r.warnf(p.tok.off, fmt.Sprintf("value %s is not quoted", w), fmt.Sprintf("write %s", jsonQuote(w)))
		p.r.replace(p.tok.off, p.tok.end, jsonQuote(w))
	}
}

// tooDeep drops a value nested deeper than maxDepth.
func (p *repairer) tooDeep() {
	p.r.errorf(p.tok.off, fmt.Sprintf("nested more than %d deep: dropped", maxDepth), "flatten it")
	p.skipValue()
}

// skipValue drops the value at p.tok (with what it holds) and puts null in
// its place; repairs made inside it go with it.
func (p *repairer) skipValue() {
	start := p.tok.off
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
	kept := p.r.edits[:0]
	for _, e := range p.r.edits {
		if e.off < start || e.off >= end && !(e.off == end && end == len(p.lx.src)) {
			kept = append(kept, e)
		}
	}
	p.r.edits = kept
	diags := p.r.diags[:0]
	for _, d := range p.r.diags {
		if d.Offset < start || d.Offset >= end || d.Offset == start {
			diags = append(diags, d)
		}
	}
	p.r.diags = diags
	p.r.replace(start, end, "null")
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
	var s string
	if json.Unmarshal([]byte(`"`+raw+`"`), &s) == nil {
		return s
	}
	return raw
}
