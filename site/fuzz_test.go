package site

import (
	"html"
	"strings"
	"testing"
)

// Highlight keeps every byte of any text, escaped, and leaves no markup of
// its own input: whatever a schema holds, the page shows it as text.
func FuzzHighlight(f *testing.F) {
	for _, s := range []string{`{ "a": "b" }`, "// c\n{}", `/* x`, `"unterminated`, `"a\`, `-1e5 true null`, "<script>", `"\"": 1`} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, src string) {
		var b strings.Builder
		Highlight(&b, src)
		out := b.String()
		if got := html.UnescapeString(tagRE.ReplaceAllString(out, "")); got != src {
			t.Fatalf("text changed: %q -> %q", src, got)
		}
		// Every '<' of the output opens or closes one of Highlight's spans.
		rest := out
		for {
			i := strings.IndexByte(rest, '<')
			if i < 0 {
				break
			}
			rest = rest[i:]
			if !strings.HasPrefix(rest, `<span class="j`) && !strings.HasPrefix(rest, `</span>`) {
				t.Fatalf("markup from the input: %q", rest[:min(len(rest), 20)])
			}
			rest = rest[1:]
		}
	})
}
