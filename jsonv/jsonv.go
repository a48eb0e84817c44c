// Package jsonv reads JSON text into plain Go values (map[string]any,
// []any, Number, string, bool, nil) and re-indents JSON that kwire wrote,
// without encoding/json: the browser app is smaller without it, and the
// reader refuses what encoding/json would change silently (bytes that are
// not UTF-8, escapes of lone UTF-16 surrogates, a key given twice in one
// object; RFC 8259 sections 8.1 and 4). Errors (Error) carry the byte
// offset, line and column.
//
// Reads JSON text into plain values (refusing what encoding/json would
// change silently: bytes that are not UTF-8, lone surrogates, a key twice)
// with byte offsets in errors, and re-indents JSON kwire wrote; checked
// against encoding/json and fuzzed. Error is the one error of the JSON form
// (codec.JSONError and records.JSONError are it): the path of the value at
// fault (Topics[0].Name, the key itself for an unknown one) and what, placed
// afterwards (Error.Place: its span, line and column) by Find, which walks
// the text to the value a path names, so that reading keeps no positions and
// costs nothing until an error; kwire encode --json prints it as
// FILE:LINE:COL: path: what, the explorer selects its span
// (app.JSONErrorSpan). The JSON form's reader; no encoding/json in the
// browser.
package jsonv

import (
	"bytes"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"
)

// Number is a JSON number as written.
type Number string

// Int64 reads the number as an integer.
func (n Number) Int64() (int64, error) { return strconv.ParseInt(string(n), 10, 64) }

// Float64 reads the number as a float.
func (n Number) Float64() (float64, error) { return strconv.ParseFloat(string(n), 64) }

// String is the number as written.
func (n Number) String() string { return string(n) }

// MaxDepth is how deeply arrays and objects may nest.
const MaxDepth = 1000

// Parse reads one JSON value, with nothing but white space after it.
func Parse(data []byte) (any, error) {
	p := parser{data: data}
	p.space()
	v, err := p.value(0)
	if err == nil {
		if p.space(); p.off < len(data) {
			err = p.fail("text after the JSON value (more than one value?)")
		}
	}
	if e, ok := err.(*Error); ok {
		e.at(data, e.Offset, e.Offset)
		return nil, e
	}
	return v, err
}

type parser struct {
	data []byte
	off  int
}

// fail is a syntax error at p.off: an Error with no path, its End its
// Offset; Parse sets its line and column (once, not at every call).
func (p *parser) fail(msg string) error { return p.failAt(p.off, msg) }

func (p *parser) failAt(off int, msg string) error { return &Error{Offset: off, End: off, Msg: msg} }

func (p *parser) space() {
	for p.off < len(p.data) {
		switch p.data[p.off] {
		case ' ', '\t', '\r', '\n':
			p.off++
		default:
			return
		}
	}
}

func (p *parser) value(depth int) (any, error) {
	if p.off >= len(p.data) {
		return nil, p.fail("unexpected end of JSON input")
	}
	switch c := p.data[p.off]; {
	case c == '{':
		return p.object(depth + 1)
	case c == '[':
		return p.array(depth + 1)
	case c == '"':
		return p.str()
	case c == '-' || (c >= '0' && c <= '9'):
		return p.number()
	case p.word("true"):
		return true, nil
	case p.word("false"):
		return false, nil
	case p.word("null"):
		return nil, nil
	default:
		return nil, p.fail("invalid character " + quoteByte(c) + " looking for a value")
	}
}

func (p *parser) word(w string) bool {
	if bytes.HasPrefix(p.data[p.off:], []byte(w)) {
		p.off += len(w)
		return true
	}
	return false
}

func quoteByte(c byte) string {
	if c < utf8.RuneSelf && strconv.IsPrint(rune(c)) {
		return strconv.QuoteRune(rune(c))
	}
	return "0x" + strconv.FormatUint(uint64(c), 16)
}

func (p *parser) object(depth int) (any, error) {
	if depth > MaxDepth {
		return nil, p.fail("JSON nested too deeply")
	}
	p.off++ // {
	obj := map[string]any{}
	p.space()
	if p.off < len(p.data) && p.data[p.off] == '}' {
		p.off++
		return obj, nil
	}
	for {
		p.space()
		if p.off >= len(p.data) || p.data[p.off] != '"' {
			if p.off >= len(p.data) {
				return nil, p.fail("unexpected end of JSON input")
			}
			return nil, p.fail("invalid character " + quoteByte(p.data[p.off]) + " looking for an object key")
		}
		at := p.off
		k, err := p.str()
		if err != nil {
			return nil, err
		}
		if _, dup := obj[k]; dup {
			return nil, p.failAt(at, "key "+strconv.Quote(k)+" is given twice in one object")
		}
		p.space()
		if p.off >= len(p.data) || p.data[p.off] != ':' {
			return nil, p.fail("want ':' after an object key")
		}
		p.off++
		p.space()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		obj[k] = v
		p.space()
		if p.off >= len(p.data) {
			return nil, p.fail("unexpected end of JSON input")
		}
		switch p.data[p.off] {
		case ',':
			p.off++
		case '}':
			p.off++
			return obj, nil
		default:
			return nil, p.fail("invalid character " + quoteByte(p.data[p.off]) + " after an object value")
		}
	}
}

func (p *parser) array(depth int) (any, error) {
	if depth > MaxDepth {
		return nil, p.fail("JSON nested too deeply")
	}
	p.off++ // [
	list := []any{}
	p.space()
	if p.off < len(p.data) && p.data[p.off] == ']' {
		p.off++
		return list, nil
	}
	for {
		p.space()
		v, err := p.value(depth)
		if err != nil {
			return nil, err
		}
		list = append(list, v)
		p.space()
		if p.off >= len(p.data) {
			return nil, p.fail("unexpected end of JSON input")
		}
		switch p.data[p.off] {
		case ',':
			p.off++
		case ']':
			p.off++
			return list, nil
		default:
			return nil, p.fail("invalid character " + quoteByte(p.data[p.off]) + " after an array element")
		}
	}
}

// number reads -?(0|[1-9][0-9]*)(\.[0-9]+)?([eE][+-]?[0-9]+)? (RFC 8259
// section 6).
func (p *parser) number() (any, error) {
	start := p.off
	d := p.data
	digits := func() int {
		n := 0
		for p.off < len(d) && d[p.off] >= '0' && d[p.off] <= '9' {
			p.off++
			n++
		}
		return n
	}
	if d[p.off] == '-' {
		p.off++
	}
	switch {
	case p.off < len(d) && d[p.off] == '0':
		p.off++
	case digits() == 0:
		return nil, p.fail("a number needs digits")
	}
	if p.off < len(d) && d[p.off] == '.' {
		p.off++
		if digits() == 0 {
			return nil, p.fail("a number needs digits after its '.'")
		}
	}
	if p.off < len(d) && (d[p.off] == 'e' || d[p.off] == 'E') {
		p.off++
		if p.off < len(d) && (d[p.off] == '+' || d[p.off] == '-') {
			p.off++
		}
		if digits() == 0 {
			return nil, p.fail("a number needs digits in its exponent")
		}
	}
	return Number(d[start:p.off]), nil
}

// str reads a string literal: UTF-8 only, escapes of RFC 8259 section 7,
// surrogates only in pairs.
func (p *parser) str() (string, error) {
	p.off++ // "
	d := p.data
	start := p.off
	for p.off < len(d) && d[p.off] != '"' && d[p.off] != '\\' && d[p.off] >= 0x20 && d[p.off] < utf8.RuneSelf {
		p.off++
	}
	if p.off < len(d) && d[p.off] == '"' {
		p.off++
		return string(d[start : p.off-1]), nil
	}
	b := append([]byte(nil), d[start:p.off]...)
	for p.off < len(d) {
		c := d[p.off]
		switch {
		case c == '"':
			p.off++
			return string(b), nil
		case c < 0x20:
			return "", p.fail("control character " + quoteByte(c) + " in a string (write it as a \\u escape)")
		case c == '\\':
			r, err := p.escape()
			if err != nil {
				return "", err
			}
			b = utf8.AppendRune(b, r)
		case c < utf8.RuneSelf:
			b = append(b, c)
			p.off++
		default:
			r, n := utf8.DecodeRune(d[p.off:])
			if r == utf8.RuneError && n <= 1 {
				return "", p.fail("byte " + quoteByte(c) + " is not UTF-8 (JSON text must be UTF-8)")
			}
			b = append(b, d[p.off:p.off+n]...)
			p.off += n
		}
	}
	return "", p.fail("unexpected end of JSON input in a string")
}

// escape reads one escape at p.off, a pair of \u escapes for a character
// outside the Basic Multilingual Plane.
func (p *parser) escape() (rune, error) {
	d := p.data
	if p.off+1 >= len(d) {
		return 0, p.fail("unexpected end of JSON input in an escape")
	}
	at := p.off
	c := d[p.off+1]
	p.off += 2
	switch c {
	case '"', '\\', '/':
		return rune(c), nil
	case 'b':
		return '\b', nil
	case 'f':
		return '\f', nil
	case 'n':
		return '\n', nil
	case 'r':
		return '\r', nil
	case 't':
		return '\t', nil
	case 'u':
	default:
		return 0, p.failAt(at, "invalid escape \\"+string(rune(c)))
	}
	hi, ok := p.hex4()
	if !ok {
		return 0, p.failAt(at, "a \\u escape needs four hex digits")
	}
	switch {
	case hi >= 0xDC00 && hi <= 0xDFFF:
		return 0, p.failAt(at, "\\u escape of a lone UTF-16 surrogate, which is no character")
	case hi < 0xD800 || hi > 0xDBFF:
		return rune(hi), nil
	}
	if p.off+1 < len(d) && d[p.off] == '\\' && d[p.off+1] == 'u' {
		p.off += 2
		if lo, ok := p.hex4(); ok && lo >= 0xDC00 && lo <= 0xDFFF {
			return utf16.DecodeRune(rune(hi), rune(lo)), nil
		}
	}
	return 0, p.failAt(at, "\\u escape of a lone UTF-16 surrogate, which is no character")
}

func (p *parser) hex4() (int, bool) {
	if p.off+4 > len(p.data) {
		return 0, false
	}
	n, err := strconv.ParseUint(string(p.data[p.off:p.off+4]), 16, 16)
	if err != nil {
		return 0, false
	}
	p.off += 4
	return int(n), true
}

// ValidLiteral reports whether b is a JSON string, number, true, false or
// null, syntax only, as encoding/json's Valid checks it: a string may hold
// bytes that are not UTF-8 and escapes of lone surrogates.
func ValidLiteral(b []byte) bool {
	switch {
	case len(b) == 0:
		return false
	case b[0] == '"':
		for i := 1; i < len(b); i++ {
			switch c := b[i]; {
			case c == '"':
				return i == len(b)-1
			case c < 0x20:
				return false
			case c == '\\':
				p := parser{data: b, off: i}
				if i+1 < len(b) && b[i+1] == 'u' {
					p.off = i + 2
					if _, ok := p.hex4(); !ok {
						return false
					}
					i = p.off - 1
					continue
				}
				if i+1 >= len(b) || !strings.ContainsRune(`"\/bfnrt`, rune(b[i+1])) {
					return false
				}
				i++
			}
		}
		return false
	case b[0] == '-' || (b[0] >= '0' && b[0] <= '9'):
		p := parser{data: b}
		_, err := p.number()
		return err == nil && p.off == len(b)
	}
	s := string(b)
	return s == "true" || s == "false" || s == "null"
}

// Unquote reads the inside of a JSON string literal (without its quotes);
// ok is false when it is not one.
func Unquote(inner string) (s string, ok bool) {
	p := parser{data: []byte(`"` + inner + `"`)}
	s, err := p.str()
	return s, err == nil && p.off == len(p.data)
}

// Indent appends src, JSON text without insignificant white space (as
// kwire writes it), to dst with one element or member a line, each level
// indented by indent. It does not check src.
func Indent(dst, src []byte, indent string) []byte {
	depth := 0
	newline := func() {
		dst = append(dst, '\n')
		for range depth {
			dst = append(dst, indent...)
		}
	}
	inStr := false
	for i := 0; i < len(src); i++ {
		c := src[i]
		if inStr {
			dst = append(dst, c)
			switch c {
			case '\\':
				if i+1 < len(src) {
					i++
					dst = append(dst, src[i])
				}
			case '"':
				inStr = false
			}
			continue
		}
		switch c {
		case '"':
			inStr = true
			dst = append(dst, c)
		case '{', '[':
			dst = append(dst, c)
			if i+1 < len(src) && (src[i+1] == '}' || src[i+1] == ']') {
				i++
				dst = append(dst, src[i])
				continue
			}
			depth++
			newline()
		case '}', ']':
			depth--
			newline()
			dst = append(dst, c)
		case ',':
			dst = append(dst, c)
			newline()
		case ':':
			dst = append(dst, ':', ' ')
		case ' ', '\t', '\r', '\n':
		default:
			dst = append(dst, c)
		}
	}
	return dst
}

// Error is an error in a JSON value, found by a reader of the values that
// Parse returned (or by Parse itself): the path of the value, what is
// wrong, and, once Place has found the value in the text, where. One type
// for the JSON form of every kwire value (codec's fields, records, the
// frame), so that every such error can be shown at its place.
type Error struct {
	// Path is the value's path: keys joined by '.', list indexes in
	// brackets ("Topics[0].Name"); "(top level)" or "" for the whole
	// value.
	Path string
	// Key: the error is about the last key of Path (a key that is not
	// known), not about its value.
	Key bool
	Msg string
	// Err is the cause, when another error is (a value that does not
	// encode: a wire error, a bad hex string), for errors.Is and As; Msg
	// holds its text.
	Err error
	// Offset and End are the span of the value (or key) in the text, once
	// placed; a syntax error has End == Offset.
	Offset, End int
	// Line and Col (1-based, columns in bytes) are those of Offset, once
	// placed; 0 before.
	Line, Col int
}

func (e *Error) Error() string {
	s := "JSON"
	if e.Line > 0 {
		s += " line " + strconv.Itoa(e.Line) + ", column " + strconv.Itoa(e.Col) + " (byte " + strconv.Itoa(e.Offset) + ")"
		if e.Path != "" {
			s += ":"
		}
	}
	if e.Path != "" {
		s += " " + e.Path
	}
	return s + ": " + e.Msg
}

// Unwrap returns the cause, if any.
func (e *Error) Unwrap() error { return e.Err }

// What is the error without its place: "path: what", or "what" alone.
func (e *Error) What() string {
	if e.Path == "" {
		return e.Msg
	}
	return e.Path + ": " + e.Msg
}

// TopLevel is the path of the whole value in an Error.
const TopLevel = "(top level)"

// Place finds the value of the error's path in data, the text its value
// was read from (base is the path there of the value that the error's
// path starts from, "" for the whole text), and sets Offset, End, Line and Col. When
// the path is not in the text, the place is that of the nearest enclosing
// value that is.
func (e *Error) Place(data []byte, base string) {
	from, to := 0, len(data)
	if s, end, ok := Find(data, base, false); ok {
		from, to = s, end
	}
	path, key := e.Path, e.Key
	if path == TopLevel {
		path = ""
	}
	for {
		if s, end, ok := Find(data[from:to], path, key); ok {
			e.at(data, from+s, from+end)
			return
		}
		switch {
		case key:
			key = false // the value, or the object (a key "" at the top)
		case path == "":
			e.at(data, from, to)
			return
		default:
			path = path[:max(strings.LastIndexByte(path, '.'), strings.LastIndexByte(path, '['), 0)]
		}
	}
}

// at places e at data[off:end].
func (e *Error) at(data []byte, off, end int) {
	off = min(max(off, 0), len(data))
	e.Offset, e.End = off, min(max(end, off), len(data))
	e.Line = 1 + bytes.Count(data[:off], []byte("\n"))
	e.Col = off - bytes.LastIndexByte(data[:off], '\n')
}

// Find returns the span in data, JSON text that Parse reads, of the value
// at path (as in Error.Path; "" is the whole value), or with key that of
// the key of its last segment, which must then be an object's key. ok is
// false when the text has no such value.
func Find(data []byte, path string, key bool) (start, end int, ok bool) {
	p := parser{data: data}
	p.space()
	if path != "" && p.off < len(data) && data[p.off] == '{' {
		path = "." + path // a key at the top, written without its '.'
	}
	return p.find(path, key, -1, -1)
}

// find is Find from the value at p.off, whose key (when it is a member of
// an object) is at data[keyAt:keyEnd].
func (p *parser) find(path string, key bool, keyAt, keyEnd int) (int, int, bool) {
	if path == "" {
		if key {
			return keyAt, keyEnd, keyAt >= 0
		}
		start := p.off
		if _, err := p.value(0); err != nil {
			return 0, 0, false
		}
		return start, p.off, true
	}
	if p.off >= len(p.data) || (p.data[p.off] != '[' && p.data[p.off] != '{') {
		return 0, 0, false
	}
	c := p.data[p.off]
	p.off++
	for i := 0; ; i++ {
		p.space()
		if p.off >= len(p.data) || p.data[p.off] == ']' || p.data[p.off] == '}' {
			return 0, 0, false
		}
		// The member's path segment: "[i]", or "." and its key.
		seg, kAt, kEnd := "["+strconv.Itoa(i)+"]", -1, -1
		if c == '{' {
			kAt = p.off
			k, err := p.str()
			if err != nil {
				return 0, 0, false
			}
			kEnd = p.off
			p.space()
			p.off++ // :
			p.space()
			seg = "." + k
		}
		// A key may hold '.' or '[': try every member the path starts
		// with.
		if rest, ok := strings.CutPrefix(path, seg); ok && (rest == "" || rest[0] == '.' || rest[0] == '[') {
			at := p.off
			if s, e, ok := p.find(rest, key, kAt, kEnd); ok {
				return s, e, true
			}
			p.off = at
		}
		if !p.skip() {
			return 0, 0, false
		}
	}
}

// skip reads past a value and the ',' after it.
func (p *parser) skip() bool {
	if _, err := p.value(0); err != nil {
		return false
	}
	p.space()
	if p.off < len(p.data) && p.data[p.off] == ',' {
		p.off++
	}
	return true
}
