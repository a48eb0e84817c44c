package draft

import (
	"bytes"
	"unicode"
	"unicode/utf8"
)

type tokKind uint8

const (
	tEOF tokKind = iota
	tLBrace
	tRBrace
	tLBrack
	tRBrack
	tColon
	tComma
	tString // a quoted string, repaired into valid JSON by edits
	tWord   // a bare run: a number, true, false, null or a word such as TBD
)

var tokNames = [...]string{tEOF: "the end", tLBrace: "{", tRBrace: "}", tLBrack: "[", tRBrack: "]", tColon: ":", tComma: ",", tString: "a string", tWord: "a word"}

// token is one token of the original text, [off, end).
type token struct {
	kind     tokKind
	off, end int
}

// Bounds of the look-ahead a broken string may use to find its end.
const (
	brokenMaxBytes = 4096
	brokenMaxLines = 40
)

// lexer reads tokens from the original text; repairs inside tokens
// (strings, comments, odd spaces) go to the region as edits.
type lexer struct {
	src []byte
	pos int
	r   *region
}

// curly quotes, which wiki pages put around strings.
var (
	leftCurly  = []byte("\u201c")
	rightCurly = []byte("\u201d")
)

func isCurly(b []byte) bool { return bytes.HasPrefix(b, leftCurly) || bytes.HasPrefix(b, rightCurly) }

// oddSpace returns the length of a non-ASCII space (no-break space, byte
// order mark, zero-width space, ...) at b, or 0.
func oddSpace(b []byte) int {
	if len(b) == 0 || b[0] < utf8.RuneSelf {
		return 0
	}
	r, n := utf8.DecodeRune(b)
	if r == '\ufeff' || r == '\u200b' || (r != utf8.RuneError && unicode.IsSpace(r)) {
		return n
	}
	return 0
}

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

// next skips whitespace and comments and returns the next token.
func (lx *lexer) next() token {
	for lx.pos < len(lx.src) {
		b := lx.src[lx.pos:]
		c := b[0]
		switch {
		case isSpace(c):
			lx.pos++
			continue
		case c == '/' && len(b) > 1 && b[1] == '/':
			end := bytes.IndexByte(b, '\n')
			if end < 0 {
				end = len(b)
			}
			lx.comment(lx.pos, lx.pos+end, true)
			lx.pos += end
			continue
		case c == '/' && len(b) > 1 && b[1] == '*':
			end := bytes.Index(b[2:], []byte("*/"))
			if end < 0 {
				lx.r.errorf(lx.pos, "unclosed /* comment: it runs to the end of the text", `close it with "*/"`)
				lx.comment(lx.pos, len(lx.src), false)
				lx.r.insert(len(lx.src), "*/")
				lx.pos = len(lx.src)
				continue
			}
			lx.comment(lx.pos, lx.pos+end+4, false)
			lx.pos += end + 4
			continue
		}
		if n := oddSpace(b); n > 0 {
			lx.r.oddSpace(lx.pos, n)
			lx.pos += n
			continue
		}
		start := lx.pos
		switch c {
		case '{', '}', '[', ']', ':', ',':
			lx.pos++
			return token{kind: map[byte]tokKind{'{': tLBrace, '}': tRBrace, '[': tLBrack, ']': tRBrack, ':': tColon, ',': tComma}[c], off: start, end: lx.pos}
		case '"':
			lx.str(false)
			return token{kind: tString, off: start, end: lx.pos}
		}
		if isCurly(b) {
			lx.str(true)
			return token{kind: tString, off: start, end: lx.pos}
		}
		lx.pos = wordEnd(lx.src, start)
		return token{kind: tWord, off: start, end: lx.pos}
	}
	return token{kind: tEOF, off: len(lx.src), end: len(lx.src)}
}

// wordEnd is the end of the bare word starting at i (at least i+1).
func wordEnd(src []byte, i int) int {
	start := i
	for i < len(src) {
		b := src[i:]
		c := b[0]
		if isSpace(c) || bytes.IndexByte([]byte(`{}[]:,"`), c) >= 0 ||
			(c == '/' && len(b) > 1 && (b[1] == '/' || b[1] == '*')) || oddSpace(b) > 0 || isCurly(b) {
			break
		}
		if c < utf8.RuneSelf {
			i++
		} else {
			_, n := utf8.DecodeRune(b)
			i += n
		}
	}
	if i == start {
		i++
	}
	return i
}

// comment checks a comment for what hujson refuses: invalid UTF-8, and
// line or paragraph separators in a line comment; each becomes a space.
func (lx *lexer) comment(start, end int, line bool) {
	for i := start; i < end; {
		r, n := utf8.DecodeRune(lx.src[i:end])
		if (r == utf8.RuneError && n == 1) || (line && (r == '\u2028' || r == '\u2029')) {
			lx.r.replace(i, i+n, " ")
		}
		i += n
	}
}

// str reads a string from lx.pos (at its opening quote) and leaves lx.pos
// after it. It repairs, as edits: a string broken over lines (joined with
// one space), tabs and other control characters (escaped), bad escapes
// (the backslash escaped), curly quotes (made straight), and a string
// left open (closed at the end of its line).
func (lx *lexer) str(curly bool) {
	src := lx.src
	open := lx.pos
	lx.r.owner = open
	defer func() { lx.r.owner = -1 }()
	i := open + 1
	if curly {
		i = open + len(leftCurly)
		lx.r.replace(open, i, `"`)
		lx.r.curly(open)
	}
	broken, breaks, ctl := -1, 0, false
	for i < len(src) {
		c := src[i]
		switch {
		case c == '"':
			lx.pos = i + 1
			lx.brokenDiag(open, broken, breaks)
			return
		case curly && isCurly(src[i:]):
			lx.r.replace(i, i+len(leftCurly), `"`)
			lx.pos = i + len(leftCurly)
			lx.brokenDiag(open, broken, breaks)
			return
		case c == '\\':
			if i+1 < len(src) && validEscape(src[i+1:]) {
				i += 2
				continue
			}
			lx.r.warnf(i, `invalid escape in a string`, `write "\\\\" for a backslash`)
			lx.r.replace(i, i+1, `\\`)
			i++
		case isSpace(c):
			j := i
			for j < len(src) && (src[j] == ' ' || src[j] == '\t') {
				j++
			}
			if j == len(src) || (src[j] != '\n' && src[j] != '\r') {
				for ; i < j; i++ { // spaces within the line; tabs escaped
					if src[i] == '\t' {
						lx.ctl(i, &ctl)
					}
				}
				continue
			}
			if broken < 0 && !closesLater(src, j) {
				// A string left open: close it before the line break.
				lx.r.errorf(i, "string not closed on its line", `add the closing '"'`)
				lx.r.insert(i, `"`)
				lx.pos = j
				return
			}
			// A string broken over lines: the breaks and the spaces
			// around them become one space.
			if broken < 0 {
				broken = j
			}
			k := j
			for k < len(src) && isSpace(src[k]) {
				if src[k] == '\n' || (src[k] == '\r' && (k+1 == len(src) || src[k+1] != '\n')) {
					breaks++
				}
				k++
			}
			lx.r.replace(i, k, " ")
			i = k
		case c < 0x20:
			lx.ctl(i, &ctl)
			i++
		default:
			i++
		}
	}
	// The end of the text inside a string.
	lx.r.errorf(open, "string not closed before the end of the text", `add the closing '"'`)
	lx.r.insert(len(src), `"`)
	lx.pos = len(src)
}

// ctl escapes the control character at i; the first of a string is
// reported.
func (lx *lexer) ctl(i int, reported *bool) {
	if !*reported {
		lx.r.warnf(i, "tab or control character inside a string", `write it escaped ("\t") or as a space`)
		*reported = true
	}
	lx.r.replace(i, i+1, controlEscape(lx.src[i]))
}

func (lx *lexer) brokenDiag(open, broken, breaks int) {
	if broken >= 0 {
		lx.r.warnf(broken, "string broken over "+plural(breaks+1, "line"), "join it into one line: JSON strings cannot hold line breaks")
	}
}

func plural(n int, what string) string {
	if n == 1 {
		return "1 " + what
	}
	return itoa(n) + " " + what + "s"
}

func itoa(n int) string {
	if n < 0 {
		return "-" + itoa(-n)
	}
	if n < 10 {
		return string(rune('0' + n))
	}
	return itoa(n/10) + string(rune('0'+n%10))
}

func validEscape(b []byte) bool {
	switch b[0] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return true
	case 'u':
		if len(b) < 5 {
			return false
		}
		for _, h := range b[1:5] {
			if !('0' <= h && h <= '9' || 'a' <= h && h <= 'f' || 'A' <= h && h <= 'F') {
				return false
			}
		}
		return true
	}
	return false
}

func controlEscape(c byte) string {
	switch c {
	case '\t':
		return `\t`
	case '\b':
		return `\b`
	case '\f':
		return `\f`
	}
	const hex = "0123456789abcdef"
	return `\u00` + string(hex[c>>4]) + string(hex[c&15])
}

// closesLater reports whether the string broken at the line break at i
// closes on a later line: a quote followed by what may follow a string
// (a comma, a closing bracket, the end of the line or of the text, a
// comment), within a few lines.
func closesLater(src []byte, i int) bool {
	lines := 0
	for k := i; k < len(src) && k-i < brokenMaxBytes; k++ {
		switch src[k] {
		case '\n':
			lines++
			if lines > brokenMaxLines {
				return false
			}
		case '\\':
			k++
		case '"':
			j := k + 1
			for j < len(src) && (src[j] == ' ' || src[j] == '\t' || src[j] == '\r') {
				j++
			}
			return j == len(src) || bytes.IndexByte([]byte(",}]\n/"), src[j]) >= 0
		}
	}
	return false
}
