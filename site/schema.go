package site

import (
	"html"
	"strings"
)

// StripLicense drops the comment block and blank lines before a schema's
// opening brace: the Apache license header every Kafka schema starts with.
func StripLicense(src string) string {
	rest := src
	for rest != "" {
		line, next, _ := strings.Cut(rest, "\n")
		t := strings.TrimSpace(line)
		if t != "" && !strings.HasPrefix(t, "//") {
			break
		}
		rest = next
	}
	return rest
}

// Highlight writes schema JSON (with comments) as escaped HTML, wrapping
// comments (jc), keys (jk), string values (js) and numbers and literals
// (jn) in spans. Every byte of src reaches the output, escaped.
func Highlight(b *strings.Builder, src string) {
	i := 0
	span := func(cls, text string) {
		b.WriteString(`<span class="` + cls + `">`)
		b.WriteString(html.EscapeString(text))
		b.WriteString(`</span>`)
	}
	for i < len(src) {
		c := src[i]
		switch {
		case strings.HasPrefix(src[i:], "//"):
			end := strings.IndexByte(src[i:], '\n')
			if end < 0 {
				end = len(src) - i
			}
			span("jc", src[i:i+end])
			i += end
		case strings.HasPrefix(src[i:], "/*"):
			end := strings.Index(src[i+2:], "*/")
			if end < 0 {
				end = len(src) - i
			} else {
				end += 4
			}
			span("jc", src[i:i+end])
			i += end
		case c == '"':
			j := i + 1
			for j < len(src) && src[j] != '"' && src[j] != '\n' {
				if src[j] == '\\' {
					j++
				}
				j++
			}
			j = min(j+1, len(src))
			k := j
			for k < len(src) && (src[k] == ' ' || src[k] == '\t') {
				k++
			}
			cls := "js"
			if k < len(src) && src[k] == ':' {
				cls = "jk"
			}
			span(cls, src[i:j])
			i = j
		case c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f' || c == 'n':
			j := i + 1
			for j < len(src) && (isWord(src[j])) {
				j++
			}
			span("jn", src[i:j])
			i = j
		default:
			j := i + 1
			for j < len(src) && !startsToken(src, j) {
				j++
			}
			b.WriteString(html.EscapeString(src[i:j]))
			i = j
		}
	}
}

func isWord(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c == '.' || c == '-' || c == '+'
}

func startsToken(s string, i int) bool {
	c := s[i]
	return c == '"' || c == '-' || c >= '0' && c <= '9' || c == 't' || c == 'f' || c == 'n' ||
		(c == '/' && i+1 < len(s) && (s[i+1] == '/' || s[i+1] == '*'))
}

// History splits a schema's top-level comments into paragraphs (blank
// comment lines separate them), the version history Kafka keeps there.
func History(comments []string) []string {
	var out []string
	var cur []string
	flush := func() {
		if len(cur) > 0 {
			out = append(out, strings.Join(cur, "\n"))
			cur = nil
		}
	}
	for _, c := range comments {
		if strings.TrimSpace(c) == "" {
			flush()
			continue
		}
		cur = append(cur, strings.TrimRight(c, " \t"))
	}
	flush()
	return out
}
