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

// The JoinGroup and ShareAcknowledge pages state the seeds' facts and
// sizes, headings and lead, and their trees match the seeds node for node.
func TestSeedPages(t *testing.T) {
	cases := []struct {
		set, file, api string
		version        int16
		// differences between the seed and this set, each explained
		facts map[string]string
		tree  func(string) string
	}{
		// The seed lists JoinGroup's request versions as 3.9 does; trunk
		// dropped v0-1 (KIP-896). 3.9's JoinGroupResponse has no
		// description for Members; the seed was drawn from trunk's.
		{set: "3.9", file: "001_0440a39f43fe127e.txt", api: "JoinGroup", version: 9,
			tree: func(s string) string { return strings.Replace(s, " The group members.", "", 1) }},
		{set: "trunk", file: "001_0440a39f43fe127e.txt", api: "JoinGroup", version: 9,
			facts: map[string]string{"Request versions": "2-9", "Response versions": "2-9"}},
		{set: "trunk", file: "002_b1884bbf64e56f7d.txt", api: "ShareAcknowledge", version: 0},
	}
	for _, c := range cases {
		t.Run(c.set+"/"+c.api, func(t *testing.T) {
			set, err := sets.Load(c.set)
			if err != nil {
				t.Fatal(err)
			}
			api, err := set.LookupAPI(c.api)
			if err != nil {
				t.Fatal(err)
			}
			if latest(api) != c.version {
				t.Fatalf("latest version %d, want %d (the seed is the latest page)", latest(api), c.version)
			}
			b := testBuilder(t, true)
			page, err := b.apiPage(set, api, c.version)
			if err != nil {
				t.Fatal(err)
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
			if len(got.facts) < len(want.facts) {
				t.Fatalf("%d facts, want at least %d", len(got.facts), len(want.facts))
			}
			for i, f := range want.facts {
				if v, ok := c.facts[f[0]]; ok {
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
			eq := func(what string, got, want []string, fix func(string) string) {
				if len(got) != len(want) {
					t.Errorf("%s: %d, want %d", what, len(got), len(want))
					return
				}
				for i := range want {
					w := want[i]
					if fix != nil {
						w = fix(w)
					}
					if got[i] != w {
						t.Errorf("%s %d:\n got %s\nwant %s", what, i, got[i], w)
					}
				}
			}
			eq("heading", got.headings, want.headings, nil)
			eq("layout", got.layouts, want.layouts, nil)
			eq("tree", got.trees, want.trees, c.tree)
			// The schemas are the set's files without their license header.
			for i, m := range []*schemas.Message{api.Request, api.Response} {
				if got.schemas[i] != flatten(StripLicense(string(m.Source))) {
					t.Errorf("schema %d is not the set's %s", i, m.File)
				}
				if c.api == "ShareAcknowledge" && got.schemas[i] != want.schemas[i] {
					t.Errorf("schema %d:\n got %s\nwant %s", i, got.schemas[i], want.schemas[i])
				}
			}
		})
	}
}

// testBuilder is a builder over both sets, as Build makes it.
func testBuilder(t testing.TB, explorer bool) *builder {
	t.Helper()
	var all []*schemas.Set
	for _, n := range sets.Names() {
		s, err := sets.Load(n)
		if err != nil {
			t.Fatal(err)
		}
		all = append(all, s)
	}
	return &builder{def: sets.Default, sets: all, explorer: explorer, sharedCSS: explorer}
}
