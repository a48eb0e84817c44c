package textesc

import (
	"strconv"
	"strings"
	"testing"
	"unicode"
	"unicode/utf8"
)

// hostile holds what a draft or a frame can carry to a terminal or page:
// C0 controls, an OSC title sequence, BEL, NUL, DEL, C1 controls, every
// bidi override, isolate and mark, and a byte that is not UTF-8.
const hostile = "a\x1b[31mred\x1b]0;title\x07\x00\x7f\u0085\u009b" +
	"\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069\u200e\u200f\u061c" +
	"\t\n\r\xff é 世 🙂 \"q\" \\"

// unsafeRune reports a character that must not reach a terminal or a page raw.
func unsafeRune(r rune) bool {
	return r < 0x20 || r == 0x7f || !unicode.IsPrint(r)
}

func TestEscape(t *testing.T) {
	got := Escape(hostile)
	if !utf8.ValidString(got) {
		t.Fatalf("not UTF-8: %q", got)
	}
	for _, r := range got {
		if unsafeRune(r) {
			t.Errorf("raw %U in %q", r, got)
		}
	}
	for _, want := range []string{`a\x1b[31mred\x1b]0;title\x07\x00\x7f\u0085\u009b`, `\u202e`, `\u2066`, `\u2069`, `\u200e`, `\u200f`, `\u061c`, `\x09\x0a\x0d\xff é 世 🙂 "q" \`} {
		if !strings.Contains(got, want) {
			t.Errorf("Escape lacks %s:\n%s", want, got)
		}
	}
	for _, clean := range []string{"", "JoinGroup", "é 世 🙂 \"q\" \\"} {
		if Escape(clean) != clean {
			t.Errorf("Escape(%q) = %q", clean, Escape(clean))
		}
	}
}

func TestAppendEscapedQuote(t *testing.T) {
	// Quoted, it is a Go string literal that reads back as the input.
	for _, s := range []string{hostile, "", "plain", "\U000e0001 tag"} {
		q := string(AppendEscaped(nil, s, true))
		back, err := strconv.Unquote(q)
		if err != nil || back != s {
			t.Errorf("%q: Unquote(%s) = %q, %v", s, q, back, err)
		}
	}
}

func TestAppendEscapedAllocs(t *testing.T) {
	dst := make([]byte, 0, 1024)
	s := "héllo wörld \u202e 🙂 \xff"
	if n := testing.AllocsPerRun(100, func() { AppendEscaped(dst[:0], s, true); AppendEscaped(dst[:0], s[:5], false) }); n > 0 {
		t.Errorf("%v allocations", n)
	}
}

// TestShown: the run AppendEscaped copies as it is ends at the first
// byte that is not printable ASCII (or, quoted, is '"' or '\'), wherever
// it lies in or across the eight-byte words shown reads, for each byte.
func TestShown(t *testing.T) {
	for c := 0; c < 256; c++ {
		for _, quote := range []bool{false, true} {
			want := c >= 0x20 && c < 0x7f && !(quote && (c == '"' || c == '\\'))
			for n := 1; n <= 20; n++ {
				for at := 0; at < n; at++ {
					b := []byte(strings.Repeat("a~ ", 7)[:n])
					b[at] = byte(c)
					got, end := shown(string(b), quote), at
					if want {
						end = n
					}
					if got != end {
						t.Fatalf("shown(%q, %v) = %d, want %d", b, quote, got, end)
					}
				}
			}
		}
	}
}

// TestAppendEscapedPlain: AppendEscapedPlain appends what AppendEscaped
// does, and says plain exactly when that is all printable ASCII, for every
// byte and rune of hostile alone and beside plain text, quoted or not.
func TestAppendEscapedPlain(t *testing.T) {
	var cases []string
	for _, r := range hostile {
		cases = append(cases, string(r), "ab"+string(r)+"cdefghij")
	}
	for c := 0; c < 256; c++ {
		cases = append(cases, string([]byte{'x', byte(c)}))
	}
	cases = append(cases, "", "plain text, eight bytes and more", hostile)
	for _, s := range cases {
		for _, quote := range []bool{false, true} {
			got, plain := AppendEscapedPlain([]byte("pre "), s, quote)
			want := AppendEscaped([]byte("pre "), s, quote)
			ascii := true
			for _, c := range want {
				ascii = ascii && c >= 0x20 && c < 0x7f
			}
			if string(got) != string(want) || plain != ascii {
				t.Errorf("AppendEscapedPlain(%q, %v) = %q, %v; AppendEscaped %q, printable ASCII %v", s, quote, got, plain, want, ascii)
			}
		}
	}
}
