package render

import (
	"html"
	"regexp"
	"strings"
	"testing"

	"kwire/codec"
	"kwire/schemas/sets"
	"kwire/tree"
	"kwire/tree/treetest"
)

var tags = regexp.MustCompile(`<[^>]*>`)

// The tree's HTML, stripped of tags and unescaped, reads as the text tree.
func TestTreeReadsAsText(t *testing.T) {
	set, err := sets.ForVersion(79, 0, true) // ShareAcknowledge v0, as seed 002
	if err != nil {
		t.Fatal(err)
	}
	api, _ := set.LookupAPI("ShareAcknowledge")
	f, _ := codec.NewFrame(set, api, 0, codec.Response)
	b, _ := f.Encode()
	_, fl, err := codec.Decode(b, codec.DecodeOptions{Set: set, API: api, Dir: codec.Response})
	if err != nil {
		t.Fatal(err)
	}
	l := NewLayout(fl, len(b))
	var sb strings.Builder
	Tree(&sb, l)
	text := tags.ReplaceAllString(sb.String(), "")
	text = strings.NewReplacer("&#34;", `"`, "&#39;", "'", "&lt;", "<", "&gt;", ">", "&amp;", "&").Replace(text)
	if want := treetest.Text(fl); strings.TrimSpace(text) != strings.TrimSpace(want) {
		t.Errorf("tree HTML as text:\n%s\nwant:\n%s", text, want)
	}
	// Every byte belongs to a node, and the innermost owner of the first
	// body byte is the body's first field.
	for i := range b {
		if l.Owner(i) < 0 {
			t.Fatalf("byte %d has no node", i)
		}
	}
	if n := l.Node(l.Owner(9)); n.Name != "ThrottleTimeMs" {
		t.Errorf("byte 9 belongs to %s, want ThrottleTimeMs", n.Name)
	}
}

func TestEscapes(t *testing.T) {
	set, _ := sets.Load("trunk")
	api, _ := set.LookupAPI("JoinGroup")
	f, _ := codec.NewFrame(set, api, 9, codec.Request)
	_, bp, _ := f.Plans()
	v, err := bp.ParseJSON([]byte(`{"GroupId": "<img src=x onerror=alert(1)>"}`))
	if err != nil {
		t.Fatal(err)
	}
	f.Body = v
	b, _ := f.Encode()
	_, fl, _ := codec.Decode(b, codec.DecodeOptions{Set: set})
	var sb strings.Builder
	l := NewLayout(fl, len(b))
	Tree(&sb, l)
	Hex(&sb, b, l)
	if strings.Contains(sb.String(), "<img") {
		t.Errorf("unescaped markup in output")
	}
	if !strings.Contains(sb.String(), "&lt;img src=x onerror=alert(1)&gt;") {
		t.Errorf("escaped string missing")
	}
}

func TestText(t *testing.T) {
	for in, want := range map[string]string{
		"Group<b>&\"'":             "Group&lt;b&gt;&amp;&#34;&#39;",
		"a\u202eb\u2066c\u200fd":   `a\u202eb\u2066c\u200fd`,
		"\x1b]0;t\x07\x00\u0085 é": `\x1b]0;t\x07\x00\u0085 é`,
	} {
		if got := Text(in); got != want {
			t.Errorf("Text(%q) = %s, want %s", in, got, want)
		}
	}
}

func TestHexRowsMasksSecrets(t *testing.T) {
	buf := []byte("\x00alice\x00hunter2")
	root := &tree.Flat{}
	r := root.Row(-1, tree.Node{Name: "AuthBytes", Type: "bytes", Size: len(buf), Section: tree.RequestBody})
	root.Row(r, tree.Node{Name: "user", Type: "string", Offset: 1, Size: 5, Section: tree.RequestBody})
	root.Row(r, tree.Node{Name: "password", Type: tree.Secret, Offset: 7, Size: 7, Section: tree.RequestBody})
	root.Done()
	var b strings.Builder
	HexRows(&b, buf, NewLayout(root, len(buf)), 0, 1)
	out := b.String()
	if strings.Contains(out, ">h<") || strings.Count(out, ">•<") != 7 || !strings.Contains(out, ">a<") {
		t.Errorf("text column:\n%s", out)
	}
	// Revealed, the secret's bytes show.
	root.Reveal(buf)
	b.Reset()
	HexRows(&b, buf, NewLayout(root, len(buf)), 0, 1)
	if out := b.String(); !strings.Contains(out, ">h<") || strings.Contains(out, ">•<") {
		t.Errorf("text column, revealed:\n%s", out)
	}
}

// EscapeHTML escapes as html.EscapeString, which it stands in for.
func TestEscapeHTMLAsHTMLPackage(t *testing.T) {
	for _, s := range []string{"", "plain", `<a href="x">'&'</a>`, "&amp;&&lt;", "é\u202e<\x00>", `"'"'`, "a>b<c"} {
		if got, want := EscapeHTML(s), html.EscapeString(s); got != want {
			t.Errorf("EscapeHTML(%q) = %q, html.EscapeString %q", s, got, want)
		}
	}
}
