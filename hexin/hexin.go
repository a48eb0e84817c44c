// Package hexin reads bytes pasted as text: plain hex in any common shape
// (spaces, newlines, 0x prefixes, commas, \x escapes), xxd and hexdump -C
// dumps, Wireshark's hex dump, and base64.
package hexin

import (
	"encoding/base64"
	"errors"
	"strings"
	"unicode/utf8"

	"kwire/internal/textesc"
	"kwire/internal/xfmt"
	"kwire/internal/xhex"
	"kwire/tree"
)

var (
	separators = strings.NewReplacer("0x", " ", "0X", " ", `\x`, " ", ",", " ", ";", " ", "[", " ", "]", " ", "{", " ", "}", " ", `"`, " ", "'", " ")
)

// Parse returns the bytes text holds. Errors say where the text stopped
// being hex (character, line and column) and quote at most an excerpt of
// it. Text that is not hex is read as base64 only when it has base64's
// shape (see parseBase64).
func Parse(text string) ([]byte, error) {
	lead := len(text) - len(strings.TrimLeft(text, " \t\r\n"))
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, xfmt.Errorf("no bytes: the input is empty")
	}
	b, herr := parseHex(text)
	if herr == nil {
		if len(b) == 0 {
			return nil, xfmt.Errorf("no bytes: %s holds separators and prefixes but no hex digits", excerpt(text))
		}
		return b, nil
	}
	herr.char += lead
	// Base64 has no spaces inside a line; hex with a typo usually does.
	if !strings.ContainsAny(text, " \t") {
		b, err := parseBase64(text)
		if err == nil {
			return b, nil
		}
		herr.base64 = err.Error()
	}
	return nil, herr
}

// HexError is text that is neither hex nor base64: where it stopped being
// hex, and why it is not base64 either when it could have been.
type HexError struct {
	Line, Col int    // from 1, in characters
	char      int    // in the whole text, from 1
	Msg       string // what is wrong there, with an excerpt
	base64    string
}

func (e *HexError) Error() string {
	s := xfmt.Sprintf("not hex: %s at character %d (line %d, column %d)", e.Msg, e.char, e.Line, e.Col)
	if e.base64 != "" {
		s += "; not base64 either: " + e.base64
	}
	return s
}

// charAt is the character at byte i of s, or "" at its end.
func charAt(s string, i int) string {
	if i >= len(s) {
		return ""
	}
	_, n := utf8.DecodeRuneInString(s[i:])
	return s[i : i+n]
}

// maxExcerpt is how much of a bad token an error quotes.
const maxExcerpt = 40

// excerpt quotes at most maxExcerpt characters of s, escaped.
func excerpt(s string) string {
	return string(textesc.AppendEscaped(nil, tree.Shorten(s, maxExcerpt), true))
}

func parseHex(text string) ([]byte, *HexError) {
	var out []byte
	dump := false
	lineStart := 0
	for _, line := range strings.Split(text, "\n") {
		start := lineStart
		lineStart += len(line) + 1
		line = strings.TrimRight(line, "\r")
		if _, _, ok := dumpOffset(line); ok {
			dump = true
		} else if dump && onlyOffset(line) {
			continue // hexdump's closing line holds the length alone
		}
		toks, col0 := hexPart(line)
		for _, tok := range toks {
			digits := separators.Replace(tok.text)
			for _, f := range strings.Fields(digits) {
				if len(f)%2 == 1 && len(toks) > 1 && len(f) <= 2 {
					f = "0" + f // "0x1" in a list of bytes
				}
				b, err := xhex.DecodeString(f)
				if err != nil && strings.ContainsFunc(f, func(r rune) bool { return r >= utf8.RuneSelf || !isHex(byte(r)) }) {
					bad := charAt(line, col0+tok.col+badIndex(tok.text))
					return nil, hexError(text, start, col0+tok.col, xfmt.Sprintf("%s (%s is not a hex digit)", excerpt(tok.text), excerpt(bad)))
				}
				if err != nil {
					return nil, hexError(text, start, col0+tok.col, excerpt(f)+" has an odd number of hex digits")
				}
				out = append(out, b...)
			}
		}
	}
	return out, nil
}

// hexError is an error at byte at of the line that starts at byte start
// of text.
func hexError(text string, start, at int, msg string) *HexError {
	line := 1 + strings.Count(text[:start], "\n")
	return &HexError{Line: line, Col: 1 + utf8.RuneCountInString(text[start:start+at]),
		char: 1 + utf8.RuneCountInString(text[:start+at]), Msg: msg}
}

// badIndex is the index in a token of its first character that is neither
// a hex digit nor a separator or prefix that Parse drops (0 when none).
func badIndex(tok string) int {
	for i := 0; i < len(tok); {
		switch {
		case strings.HasPrefix(tok[i:], "0x"), strings.HasPrefix(tok[i:], "0X"), strings.HasPrefix(tok[i:], `\x`):
			i += 2
		case isHex(tok[i]) || strings.IndexByte(",;[]{}\"'", tok[i]) >= 0:
			i++
		default:
			return i
		}
	}
	return 0
}

type token struct {
	text string
	col  int
}

// hexPart returns the tokens of a line that hold bytes: for a dump line
// (offset first) the hex columns without the offset and the ASCII column.
func hexPart(line string) ([]token, int) {
	end, colon, ok := dumpOffset(line)
	if !ok {
		return splitTokens(line, -1), 0
	}
	rest := line[end:]
	col := end
	if i := strings.IndexByte(rest, '|'); i >= 0 { // hexdump -C
		rest = rest[:i]
	}
	if colon { // xxd: the ASCII column follows two spaces
		if i := strings.Index(strings.TrimLeft(rest, " "), "  "); i >= 0 {
			lead := len(rest) - len(strings.TrimLeft(rest, " "))
			rest = rest[:lead+i]
		}
	}
	toks := splitTokens(rest, 16)
	for i := range toks {
		toks[i].col += col
	}
	return toks, 0
}

// dumpOffset reports whether line starts as a dump line does: optional
// blanks, 4 to 8 hex digits, then a colon (xxd) or two blanks (hexdump -C,
// Wireshark). end is where the bytes start.
func dumpOffset(line string) (end int, colon, ok bool) {
	i := len(line) - len(strings.TrimLeft(line, " \t"))
	j := i
	for j < len(line) && isHex(line[j]) {
		j++
	}
	if n := j - i; n < 4 || n > 8 {
		return 0, false, false
	}
	switch {
	case j < len(line) && line[j] == ':':
		return j + 1, true, true
	case j+1 < len(line) && isBlank(line[j]) && isBlank(line[j+1]):
		return j + 2, false, true
	}
	return 0, false, false
}

// onlyOffset reports whether line holds 4 to 8 hex digits alone (the
// closing line of hexdump).
func onlyOffset(line string) bool {
	t := strings.TrimSpace(line)
	if len(t) < 4 || len(t) > 8 {
		return false
	}
	for i := 0; i < len(t); i++ {
		if !isHex(t[i]) {
			return false
		}
	}
	return true
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

func isBlank(c byte) bool { return c == ' ' || c == '\t' }

// splitTokens splits s into whitespace-separated fields with their columns;
// with maxBytes >= 0 it stops at the first field that is not hex or once
// that many bytes are read (the ASCII column of a dump).
func splitTokens(s string, maxBytes int) []token {
	var out []token
	n := 0
	i := 0
	for i < len(s) {
		for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
			i++
		}
		j := i
		for j < len(s) && s[j] != ' ' && s[j] != '\t' {
			j++
		}
		if i == j {
			break
		}
		f := s[i:j]
		if maxBytes >= 0 {
			if _, err := xhex.DecodeString(f); err != nil || n >= maxBytes {
				break
			}
			n += len(f) / 2
		}
		out = append(out, token{f, i})
		i = j
	}
	return out
}

// parseBase64 reads text as base64 (standard or URL alphabet, lines
// joined) when it has base64's shape: at least 8 characters (6 bytes) and a
// length that is a multiple of 4, padded with "=" when it must be. Shorter
// or unpadded text ("zz", a mistyped word) is far more often a typo in hex
// than base64.
func parseBase64(text string) ([]byte, error) {
	s := strings.Join(strings.Fields(text), "")
	switch {
	case len(s) < 8:
		return nil, xfmt.Errorf("%d characters are too few", len(s))
	case len(s)%4 != 0:
		return nil, xfmt.Errorf("its length, %d, is not a multiple of 4", len(s))
	}
	var err error
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.URLEncoding} {
		var b []byte
		if b, err = enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	var ce base64.CorruptInputError
	if errors.As(err, &ce) {
		return nil, xfmt.Errorf("%s at character %d", excerpt(charAt(s, int(ce))), ce+1)
	}
	return nil, err
}
