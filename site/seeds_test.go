package site

import (
	"html"
	"os"
	"regexp"
	"strings"
	"testing"

	"kwire/schemas"
	"kwire/schemas/sets"
)

var (
	tagRE   = regexp.MustCompile(`<[^>]*>`)
	spaceRE = regexp.MustCompile(`\s+`)
)

func flatten(s string) string { return strings.TrimSpace(spaceRE.ReplaceAllString(s, " ")) }

// pageText is the text of a page's <main> as a browser's text extraction
// gives it: tags dropped, entities decoded, one line per block.
func pageText(t *testing.T, page []byte) []string {
	t.Helper()
	s := string(page)
	i, j := strings.Index(s, "<main>"), strings.Index(s, "</main>")
	if i < 0 || j < i {
		t.Fatal("page has no <main>")
	}
	var out []string
	for _, l := range strings.Split(html.UnescapeString(tagRE.ReplaceAllString(s[i:j], "")), "\n") {
		if l = strings.TrimSpace(l); l != "" {
			out = append(out, l)
		}
	}
	return out
}

// seedPage is what a seed page says, read from its flattened text.
type seedPage struct {
	title, lead string
	facts       [][2]string // in order
	headings    []string    // "JoinGroupRequest v9, request header v2, 33 bytes on the wire"
	layouts     []string    // "byte layout (33 bytes, 16 bytes per row)"
	trees       []string    // flattened
	schemas     []string    // flattened
}

func readSeed(t *testing.T, file string) seedPage {
	t.Helper()
	b, err := os.ReadFile("../../shared/seeds/" + file)
	if err != nil {
		t.Fatalf("seed: %v", err)
	}
	lines := strings.Split(string(b), "\n")
	sp := seedPage{title: lines[0], lead: lines[1]}
	i := 2
	for ; i+1 < len(lines) && strings.HasPrefix(lines[i], "- "); i += 2 {
		sp.facts = append(sp.facts, [2]string{strings.TrimPrefix(lines[i], "- "), strings.TrimPrefix(lines[i+1], "- ")})
	}
	for ; i < len(lines); i++ {
		switch {
		case lines[i] == "Request" || lines[i] == "Response":
			sp.headings = append(sp.headings, lines[i+1])
		case strings.HasPrefix(lines[i], "byte layout ("):
			sp.layouts = append(sp.layouts, lines[i])
		case lines[i] == "object tree":
			sp.trees = append(sp.trees, flatten(lines[i+1]))
		case lines[i] == "kafka message schema (.json)":
			sp.schemas = append(sp.schemas, flatten(lines[i+1]))
		}
	}
	if len(sp.facts) != 8 || len(sp.trees) != 2 || len(sp.headings) != 2 || len(sp.schemas) != 2 {
		t.Fatalf("seed %s: %d facts, %d trees, %d headings", file, len(sp.facts), len(sp.trees), len(sp.headings))
	}
	return sp
}

// renderedPage is the same reading of a page kwire rendered.
func readPage(t *testing.T, page []byte) (seedPage, []string) {
	t.Helper()
	lines := pageText(t, page)
	var p seedPage
	p.title = lines[0]
	p.lead = lines[1]
	s := string(page)
	dl := s[strings.Index(s, `<dl class="facts">`):strings.Index(s, "</dl>")]
	facts := pageText(t, []byte("<main>"+dl+"</main>"))
	for i := 0; i+1 < len(facts); i += 2 {
		p.facts = append(p.facts, [2]string{facts[i], facts[i+1]})
	}
	for i, l := range lines {
		switch {
		case l == "Request" || l == "Response":
			p.headings = append(p.headings, lines[i+1])
		case strings.HasPrefix(l, "byte layout ("):
			p.layouts = append(p.layouts, l)
		case l == "object tree" || l == "kafka message schema (.json)":
			var block []string
			for _, m := range lines[i+1:] {
				if m == "kafka message schema (.json)" || m == "Response" || m == "Version history" || strings.HasPrefix(m, "Open ") {
					break
				}
				block = append(block, m)
			}
			if l == "object tree" {
				p.trees = append(p.trees, flatten(strings.Join(block, " ")))
			} else {
				p.schemas = append(p.schemas, flatten(strings.Join(block, " ")))
			}
		}
	}
	return p, lines
}

// The JoinGroup and ShareAcknowledge pages of the built site state the
// seeds' facts and sizes, headings and lead, and their trees match the
// seeds node for node. Each page is rendered from the release the site
// chooses (sets.ForVersion's rule, both directions), and its facts are that
// release's.
func TestSeedPages(t *testing.T) {
	out, _ := builtSite(t)
	cases := []struct {
		file, api string
		version   int16
	}{
		{file: "001_0440a39f43fe127e.txt", api: "JoinGroup", version: 9},
		{file: "002_b1884bbf64e56f7d.txt", api: "ShareAcknowledge", version: 0},
	}
	b := testBuilder(t, true)
	for _, c := range cases {
		t.Run(c.api, func(t *testing.T) {
			var e *apiEntry
			for _, x := range b.apis {
				if x.name == c.api {
					e = x
				}
			}
			if e == nil {
				t.Fatalf("no release has %s", c.api)
			}
			src := e.source(c.version)
			if src < 0 {
				t.Fatalf("no release has %s v%d", c.api, c.version)
			}
			set, api := b.sets[src], e.in[src]
			// The release chosen is the one codec's auto choice takes, in
			// both directions.
			for _, resp := range []bool{false, true} {
				if s, err := sets.ForVersion(e.key, c.version, resp); err != nil || s.Name != set.Name {
					t.Errorf("page from %s, sets.ForVersion(response %v) says %v (%v)", set.Name, resp, s, err)
				}
			}
			page := mustRead(t, out, b.apiPath(e.key, c.version))
			if !strings.Contains(string(page), `<p class="sets">Release <a href="../release/`+set.Name+`.html">`) {
				t.Errorf("page does not say it shows release %s", set.Name)
			}
			want := readSeed(t, c.file)
			got, _ := readPage(t, page)
			if got.title != want.title {
				t.Errorf("title %q, want %q", got.title, want.title)
			}
			if got.lead != want.lead {
				t.Errorf("lead:\n%s\nwant:\n%s", got.lead, want.lead)
			}
			// The seed's facts come first, in the seed's order; the page
			// adds deprecated and unstable versions and listeners after.
			// The version ranges are those of the page's release (the
			// JoinGroup seed was drawn from a release with v0-9).
			if len(got.facts) < len(want.facts) {
				t.Fatalf("%d facts, want at least %d", len(got.facts), len(want.facts))
			}
			ranges := map[string]string{"Request versions": api.Request.ValidVersions.String(), "Response versions": api.Response.ValidVersions.String()}
			for i, f := range want.facts {
				if v, ok := ranges[f[0]]; ok {
					f[1] = v
				}
				if got.facts[i] != f {
					t.Errorf("fact %d: %q, want %q", i, got.facts[i], f)
				}
			}
			var extra []string
			for _, f := range got.facts[len(want.facts):] {
				extra = append(extra, f[0])
			}
			if strings.Join(extra, ",") != "Deprecated versions,Unstable versions,Listeners" {
				t.Errorf("extra facts %v", extra)
			}
			eq := func(what string, got, want []string) {
				if len(got) != len(want) {
					t.Errorf("%s: %d, want %d", what, len(got), len(want))
					return
				}
				for i := range want {
					if got[i] != want[i] {
						t.Errorf("%s %d:\n got %s\nwant %s", what, i, got[i], want[i])
					}
				}
			}
			eq("heading", got.headings, want.headings)
			eq("layout", got.layouts, want.layouts)
			eq("tree", got.trees, want.trees)
			// The schemas are the release's files without their license header.
			for i, m := range []*schemas.Message{api.Request, api.Response} {
				if got.schemas[i] != flatten(StripLicense(string(m.Source))) {
					t.Errorf("schema %d is not %s's %s", i, set.Name, m.File)
				}
				if c.api == "ShareAcknowledge" && got.schemas[i] != want.schemas[i] {
					t.Errorf("schema %d:\n got %s\nwant %s", i, got.schemas[i], want.schemas[i])
				}
			}
		})
	}
}

// testBuilder is a builder over every release, as Build makes it.
func testBuilder(t testing.TB, explorer bool) *builder {
	t.Helper()
	var all []*schemas.Set
	for _, r := range sets.Releases() {
		s, err := sets.Load(r.Name)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, s)
	}
	b, err := newBuilder("", all)
	if err != nil {
		t.Fatal(err)
	}
	b.explorer, b.sharedCSS = explorer, explorer
	return b
}
