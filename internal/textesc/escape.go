// Package textesc writes text that comes from input so that it shows as
// itself on a terminal or a page (Escape, AppendEscaped).
package textesc

import (
	"unicode"
	"unicode/utf8"
)

// Every text kwire shows, on a terminal or in the page, that comes from
// input (decoded strings, draft schema names and about texts, the
// diagnostics that quote them) goes through AppendEscaped, so that no
// input can move the cursor, change colours, set a terminal's title,
// reverse the text around it or fake a line of output.

// Hidden reports whether a rune would not show as itself on a terminal or
// a page: a C0 control (tab and newline included), DEL, or a rune that
// unicode.IsPrint refuses (C1 controls, the bidi overrides, isolates and
// marks, other format and separator characters).
func Hidden(r rune) bool {
	return r < 0x20 || r == 0x7f || r >= utf8.RuneSelf && !unicode.IsPrint(r)
}

// AppendEscaped appends s with every character that would not show as
// itself written as a Go escape: C0 controls (tab and newline included)
// and DEL as \x1b, bytes that are not UTF-8 as \xff, and runes that
// unicode.IsPrint refuses (C1 controls, the bidi overrides, isolates and
// marks such as U+202E, other format and separator characters) as
// \u202e or \U000e0001. With quote, s is wrapped in double quotes and '"'
// and '\' are escaped too, with \t, \n and \r for their controls: a Go
// string literal, as strconv.Quote writes it but for \a, \b, \f and \v,
// which are written \x07, \x08, \x0c, \x0b.
func AppendEscaped(dst []byte, s string, quote bool) []byte {
	dst, _ = AppendEscapedPlain(dst, s, quote)
	return dst
}

// AppendEscapedPlain is AppendEscaped, and reports whether what it
// appended is all printable ASCII (s had no printable rune past ASCII,
// which AppendEscaped writes as it is), so that a caller need not look at
// it again.
func AppendEscapedPlain(dst []byte, s string, quote bool) ([]byte, bool) {
	plain := true
	if quote {
		dst = append(dst, '"')
	}
	for i := 0; i < len(s); {
		if n := shown(s[i:], quote); n > 0 { // most text: a run copied as it is
			dst = append(dst, s[i:i+n]...)
			if i += n; i == len(s) {
				break
			}
		}
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case quote && (c == '"' || c == '\\'):
				dst = append(dst, '\\', c)
			case quote && c == '\t':
				dst = append(dst, `\t`...)
			case quote && c == '\n':
				dst = append(dst, `\n`...)
			case quote && c == '\r':
				dst = append(dst, `\r`...)
			case c < 0x20 || c == 0x7f:
				dst = append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
			default:
				dst = append(dst, c)
			}
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, '\\', 'x', hexDigits[c>>4], hexDigits[c&15])
		case !Hidden(r):
			dst = append(dst, s[i:i+size]...)
			plain = false
		case r > 0xffff:
			dst = append(dst, '\\', 'U')
			for sh := 28; sh >= 0; sh -= 4 {
				dst = append(dst, hexDigits[(r>>sh)&15])
			}
		default:
			dst = append(dst, '\\', 'u')
			for sh := 12; sh >= 0; sh -= 4 {
				dst = append(dst, hexDigits[(r>>sh)&15])
			}
		}
		i += size
	}
	if quote {
		dst = append(dst, '"')
	}
	return dst, plain
}

// shown returns how many bytes s starts with that AppendEscaped writes as
// they are: printable ASCII, but for '"' and '\\' with quote. It looks at
// eight bytes at a time: a byte below 0x20 borrows into its top bit when
// 0x20 is taken from it, one of 0x7f or more has it set or carries into
// it when 1 is added, and a byte equal to '"' or '\\' is a zero byte of the
// word xor'ed with them, which borrows when 1 is taken from it (a carry
// or borrow across bytes starts only at a byte that is itself one of
// them, so a word that has none is never taken for one that has).
func shown(s string, quote bool) int {
	const ones, highs = 0x0101010101010101, 0x8080808080808080
	i := 0
	for ; i+8 <= len(s); i += 8 {
		t := s[i : i+8] // one bounds check, not eight
		w := uint64(t[0]) | uint64(t[1])<<8 | uint64(t[2])<<16 | uint64(t[3])<<24 |
			uint64(t[4])<<32 | uint64(t[5])<<40 | uint64(t[6])<<48 | uint64(t[7])<<56
		bad := (w-0x20*ones)&^w | w | (w + ones)
		if quote {
			q, b := w^('"'*ones), w^('\\'*ones)
			bad |= (q-ones)&^q | (b-ones)&^b
		}
		if bad&highs != 0 {
			break
		}
	}
	for ; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f || quote && (c == '"' || c == '\\') {
			break
		}
	}
	return i
}

// Escape is s with AppendEscaped's escapes (no quotes), and s itself when
// it needs none.
func Escape(s string) string {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c >= 0x7f {
			return escapeSlow(s, i)
		}
	}
	return s
}

func escapeSlow(s string, i int) string {
	// Printable non-ASCII text needs no escape either.
	for j := i; j < len(s); {
		r, size := utf8.DecodeRuneInString(s[j:])
		if Hidden(r) || r == utf8.RuneError && size == 1 {
			return string(AppendEscaped(append(make([]byte, 0, len(s)+16), s[:j]...), s[j:], false))
		}
		j += size
	}
	return s
}

const hexDigits = "0123456789abcdef"
