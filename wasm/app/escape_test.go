package app

import (
	"regexp"
	"strconv"
	"strings"
	"testing"

	"kwire/codec"
	"kwire/internal/textesc"
)

// cssUnquote reads back the CSS string that AttrSelector writes: a
// backslash and a character, or a backslash, hex digits and one space.
func cssUnquote(t *testing.T, s string) string {
	t.Helper()
	if len(s) < 2 || s[0] != '"' || s[len(s)-1] != '"' {
		t.Fatalf("not a CSS string: %s", s)
	}
	s = s[1 : len(s)-1]
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case c == '"' || c == '\n':
			t.Fatalf("raw %q inside a CSS string: %s", c, s)
		case c != '\\':
			b.WriteByte(c)
		default:
			j := i + 1
			for j < len(s) && j < i+7 && strings.IndexByte("0123456789abcdefABCDEF", s[j]) >= 0 {
				j++
			}
			if j == i+1 {
				b.WriteByte(s[j])
				i = j
				continue
			}
			n, _ := strconv.ParseUint(s[i+1:j], 16, 32)
			b.WriteRune(rune(n))
			if j < len(s) && s[j] == ' ' {
				j++
			}
			i = j - 1
		}
	}
	return b.String()
}

func TestAttrSelector(t *testing.T) {
	for _, key := range []string{`b:A`, `b:A"`, `b:A"]`, `b:"],*[x="`, `b:A\`, `b:A\"`, "b:A\nB", "b:\x1b]0;t\x07", "b:\u202eA[0]", "b:A 1"} {
		sel := AttrSelector("data-key", key)
		if !strings.HasPrefix(sel, `[data-key=`) || !strings.HasSuffix(sel, `]`) {
			t.Fatalf("%q: %s", key, sel)
		}
		if got := cssUnquote(t, sel[len(`[data-key=`):len(sel)-1]); got != key {
			t.Errorf("%q: the selector %s matches %q", key, sel, got)
		}
	}
	if got := AttrSelector("data-key", "a\x00b"); got != "[data-key=\"a\uFFFDb\"]" {
		t.Errorf("NUL: %s", got)
	}
}

// hostile is what a draft can hold that must show escaped in the page.
const hostile = "\x1b]0;t\x07\x00\u0085\u202aa\u202bb\u202c\u202dc\u202eevil\u2066\u2067\u2068\u2069\u200e\u200f\u061c"

var tags = regexp.MustCompile(`<[^>]*>`)

// TestHostileDraftShownEscaped: the names, about texts and diagnostics of
// a hostile draft reach the page's text escaped visibly, and a field name
// with a quote (which once broke the page's selectors) is drawn.
func TestHostileDraftShownEscaped(t *testing.T) {
	s := newState(t)
	draft := `{"name": "Zz` + hostile + `Request", "type": "request", "apiKey": 500, "validVersions": "0", "flexibleVersions": "0+", "fields": [
  {"name": "A\"` + hostile + `", "type": "int32", "versions": "0+", "about": "About ` + hostile + `"},
  {"name": "L` + hostile + `", "type": "[]S", "versions": "0+", "about": "x", "fields": [
    {"name": "B` + hostile + `", "type": "string", "versions": "0+", "about": "` + hostile + `"}]},
  {"name": "Bad` + hostile + `", "type": "nope` + hostile + `", "versions": "0+"}]}`
	if err := s.LoadDraft(draft); err != nil {
		t.Fatal(err)
	}
	if apis := s.DraftAPIs(); len(apis) != 1 {
		t.Fatalf("the draft did not load: %s", s.DiagnosticsHTML())
	} else if err := s.SelectDraft(apis[0].Name, -1, codec.Request); err != nil {
		t.Fatal(err)
	}
	for name, h := range map[string]string{
		"form":        s.Form(nil),
		"tree":        s.Tree(),
		"diagnostics": s.DiagnosticsHTML(),
		"source":      s.SourceHTML(),
	} {
		text := tags.ReplaceAllString(h, "")
		for _, r := range text {
			if r != '\n' && r != '\t' && textesc.Hidden(r) {
				t.Errorf("%s: raw %U in the text:\n%s", name, r, text)
				break
			}
		}
		if !strings.Contains(text, `\u202e`) {
			t.Errorf("%s: the escaped draft text is not shown:\n%s", name, text)
		}
	}
	// The form's keys stay exact: they are read back to find the field.
	if f := s.Form(nil); !strings.Contains(f, `data-key="b:A&#34;`+hostile) {
		t.Errorf("form: no exact data-key for the field with a quote:\n%s", f)
	}
}
