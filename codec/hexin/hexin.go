// Package hexin reads bytes pasted as text: plain hex in any common shape
// (spaces, newlines, 0x prefixes, commas, \x escapes), xxd and hexdump -C
// dumps, Wireshark's hex dump, and base64.
package hexin

import (
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
)

var (
	separators = strings.NewReplacer("0x", " ", "0X", " ", `\x`, " ", ",", " ", ";", " ", "[", " ", "]", " ", "{", " ", "}", " ", `"`, " ", "'", " ")
)

// Parse returns the bytes text holds. Errors say where the text stopped
// being hex (line and column).
func Parse(text string) ([]byte, error) {
	text = strings.TrimSpace(text)
	if text == "" {
		return nil, fmt.Errorf("no bytes: the input is empty")
	}
	b, herr := parseHex(text)
	if herr == nil {
		return b, nil
	}
	// Base64 has no spaces inside a line; hex with a typo usually does.
	if !strings.ContainsAny(text, " \t") {
		if b, err := parseBase64(text); err == nil {
			return b, nil
		}
	}
	return nil, herr
}

func parseHex(text string) ([]byte, error) {
	var out []byte
	dump := false
	for ln, line := range strings.Split(text, "\n") {
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
				if len(f)%2 == 1 {
					return nil, fmt.Errorf("line %d, column %d: %q has an odd number of hex digits", ln+1, col0+tok.col+1, f)
				}
				b, err := hex.DecodeString(f)
				if err != nil {
					return nil, fmt.Errorf("line %d, column %d: %q is not hex", ln+1, col0+tok.col+1, f)
				}
				out = append(out, b...)
			}
		}
	}
	return out, nil
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
			if _, err := hex.DecodeString(f); err != nil || n >= maxBytes {
				break
			}
			n += len(f) / 2
		}
		out = append(out, token{f, i})
		i = j
	}
	return out
}

func parseBase64(text string) ([]byte, error) {
	s := strings.Join(strings.Fields(text), "")
	for _, enc := range []*base64.Encoding{base64.StdEncoding, base64.RawStdEncoding, base64.URLEncoding, base64.RawURLEncoding} {
		if b, err := enc.DecodeString(s); err == nil {
			return b, nil
		}
	}
	return nil, fmt.Errorf("not base64")
}
