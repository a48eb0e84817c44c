// Package jsonc reads JSON with comments and trailing commas (the JWCC
// format of Kafka's schema files) into a syntax tree that keeps every
// value's byte offsets and the comments before it. It accepts what
// github.com/tailscale/hujson accepts and builds the same tree (its
// tests check both ways), without encoding/json, which costs the browser
// app about 180 KB of gzip.
package jsonc

import (
	"bytes"
	"strconv"
	"sync"
	"unicode"
	"unicode/utf8"

	"kwire/jsonv"
)

// Kind is a value's kind: '{', '[', '"', '0' (a number), 't', 'f', 'n'.
type Kind byte

// Value is one value with the white space and comments before it.
type Value struct {
	Before     []byte // white space and comments before the value
	Start, End int    // the value's bytes, without Before
	Kind       Kind
	Lit        []byte   // the literal of a string, number, true, false or null
	Members    []Member // of an object
	Elems      []Value  // of an array
}

// Member is an object's name and value.
type Member struct {
	Name, Value Value
}

// SyntaxError is where the text stops being JWCC, and why.
type SyntaxError struct {
	Offset int
	Msg    string
}

func (e *SyntaxError) Error() string { return e.Msg }

// Parse reads one value, with only white space and comments after it.
func Parse(b []byte) (Value, error) {
	p, _ := stacks.Get().(*parser)
	if p == nil {
		p = &parser{}
	}
	p.b, p.n = b, 0
	defer func() {
		p.b = nil
		stacks.Put(p)
	}()
	v, err := p.next()
	if _, ok := err.(closer); ok {
		err = p.invalid("at start of value")
	}
	if err == nil {
		if err = p.extra(); err == nil && p.n < len(b) {
			err = p.invalid("after top-level value")
		}
	}
	return v, err
}

type parser struct {
	b []byte
	n int
	// The members and elements of the objects and arrays being read, a
	// stack: each gets a slice of its own length when it ends, instead of
	// one grown by append (less garbage: the explorer parses a schema set
	// at start, and allocating is slow in WebAssembly).
	members []Member
	elems   []Value
}

// stacks keeps parsers for their stacks, from one Parse to the next.
var stacks sync.Pool

// closer marks the '}' or ']' found where a value should start.
type closer struct{ c byte }

func (closer) Error() string { return "" }

func (p *parser) fail(at int, msg string) error { return &SyntaxError{Offset: at, Msg: msg} }

// invalid says what character was found at p.n, and where.
func (p *parser) invalid(where string) error {
	var what string
	r, size := utf8.DecodeRune(p.b[p.n:])
	switch {
	case r == utf8.RuneError && size == 1:
		what = `'\x` + hex2(p.b[p.n]) + `'`
	case unicode.IsPrint(r):
		what = strconv.QuoteRune(r)
	default:
		what = strconv.QuoteRuneToASCII(r)
	}
	return p.fail(p.n, "invalid character "+what+" "+where)
}

func hex2(c byte) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[c>>4], digits[c&15]})
}

// next reads the extra before a value and the value.
func (p *parser) next() (Value, error) {
	var v Value
	start := p.n
	if err := p.extra(); err != nil {
		return v, err
	}
	if p.n > start {
		v.Before = p.b[start:p.n:p.n]
	}
	v.Start = p.n
	err := p.value(&v)
	v.End = p.n
	return v, err
}

func (p *parser) value(v *Value) error {
	mm, me := len(p.members), len(p.elems)
	err := p.read(v)
	if n := len(p.members) - mm; n > 0 {
		v.Members = append([]Member(nil), p.members[mm:]...)
		clear(p.members[mm:])
		p.members = p.members[:mm]
	}
	if n := len(p.elems) - me; n > 0 {
		v.Elems = append([]Value(nil), p.elems[me:]...)
		clear(p.elems[me:])
		p.elems = p.elems[:me]
	}
	return err
}

// read reads a value at p.n, its members and elements onto the stacks.
func (p *parser) read(v *Value) error {
	b := p.b
	if p.n == len(b) {
		return p.fail(p.n, "unexpected end of input: want a value")
	}
	switch c := b[p.n]; c {
	case '{':
		v.Kind = '{'
		p.n++
		for {
			name, err := p.next()
			if cl, ok := err.(closer); ok {
				if cl.c == '}' {
					p.n++
					return nil
				}
				return p.invalid("at start of value")
			}
			if err != nil {
				return err
			}
			if err := p.extra(); err != nil {
				return err
			}
			if name.Kind != '"' {
				p.n = name.Start
				return p.invalid("at start of object name")
			}
			switch {
			case p.n == len(b):
				return p.fail(p.n, "unexpected end of input after an object name")
			case b[p.n] != ':':
				return p.invalid("after object name")
			}
			p.n++
			val, err := p.next()
			if _, ok := err.(closer); ok {
				p.n = val.Start
				return p.invalid("at start of value")
			}
			if err != nil {
				return err
			}
			p.members = append(p.members, Member{name, val})
			if err := p.extra(); err != nil {
				return err
			}
			switch {
			case p.n == len(b):
				return p.fail(p.n, "unexpected end of input after an object value")
			case b[p.n] == ',':
				p.n++
			case b[p.n] == '}':
				p.n++
				return nil
			default:
				return p.invalid("after object value (expecting ',' or '}')")
			}
		}
	case '[':
		v.Kind = '['
		p.n++
		for {
			e, err := p.next()
			if cl, ok := err.(closer); ok {
				if cl.c == ']' {
					p.n++
					return nil
				}
				return p.invalid("at start of value")
			}
			if err != nil {
				return err
			}
			p.elems = append(p.elems, e)
			if err := p.extra(); err != nil {
				return err
			}
			switch {
			case p.n == len(b):
				return p.fail(p.n, "unexpected end of input after an array value")
			case b[p.n] == ',':
				p.n++
			case b[p.n] == ']':
				p.n++
				return nil
			default:
				return p.invalid("after array value (expecting ',' or ']')")
			}
		}
	case '}', ']':
		return closer{c}
	case '"':
		start := p.n
		for p.n++; ; p.n++ {
			if p.n == len(b) {
				return p.fail(p.n, "unexpected end of input in a string")
			}
			if b[p.n] == '\\' {
				p.n++
				if p.n == len(b) {
					return p.fail(p.n, "unexpected end of input in a string")
				}
				continue
			}
			if b[p.n] == '"' {
				break
			}
		}
		p.n++
		return p.literal(v, start)
	default:
		start := p.n
		for p.n < len(b) && (b[p.n] == '-' || b[p.n] == '+' || b[p.n] == '.' ||
			'a' <= b[p.n] && b[p.n] <= 'z' || 'A' <= b[p.n] && b[p.n] <= 'Z' || '0' <= b[p.n] && b[p.n] <= '9') {
			p.n++
		}
		if p.n == start {
			return p.invalid("at start of value")
		}
		return p.literal(v, start)
	}
}

// literal checks the literal b[start:p.n] (syntax only, as
// encoding/json's Valid: a string may hold bytes that are not UTF-8).
func (p *parser) literal(v *Value, start int) error {
	lit := p.b[start:p.n:p.n]
	if !jsonv.ValidLiteral(lit) {
		return p.fail(start, "invalid literal: "+string(lit))
	}
	v.Lit = lit
	switch c := lit[0]; c {
	case '"', 't', 'f', 'n':
		v.Kind = Kind(c)
	default:
		v.Kind = '0'
	}
	return nil
}

// extra skips white space and comments: // to the end of the line, /* to
// */, UTF-8 only, no U+2028 or U+2029 in a line comment.
func (p *parser) extra() error {
	b := p.b
	for p.n < len(b) {
		switch b[p.n] {
		case ' ', '\t', '\r', '\n':
			p.n++
			continue
		case '/':
		default:
			return nil
		}
		var end []byte
		switch {
		case bytes.HasPrefix(b[p.n:], []byte("//")):
			end = []byte("\n")
		case bytes.HasPrefix(b[p.n:], []byte("/*")):
			end = []byte("*/")
		default:
			return nil
		}
		line := end[0] == '\n'
		i := bytes.Index(b[p.n+2:], end)
		if i < 0 {
			if line {
				if j := lineSeparator(b[p.n:]); j >= 0 {
					p.n += j
					return p.invalid("in line comment")
				}
			}
			return p.fail(p.n, "unexpected end of input in a comment")
		}
		c := b[p.n : p.n+2+i+len(end)]
		if !utf8.Valid(c) {
			return p.fail(p.n, "invalid UTF-8 in comment")
		}
		if line {
			if j := lineSeparator(c); j >= 0 {
				p.n += j
				return p.invalid("in line comment")
			}
		}
		p.n += len(c)
	}
	return nil
}

// lineSeparator is the offset of the first U+2028 or U+2029 in b, or -1.
func lineSeparator(b []byte) int {
	i, j := bytes.IndexRune(b, '\u2028'), bytes.IndexRune(b, '\u2029')
	if i < 0 || (j >= 0 && j < i) {
		return j
	}
	return i
}
