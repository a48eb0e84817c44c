package site

import (
	"bytes"
	"compress/gzip"
	"encoding/xml"
	"errors"
	"fmt"
	"html"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"testing/fstest"

	"kwire/schemas"
	"kwire/schemas/sets"
	"kwire/web"
)

// fakeExplorer stands in for package web's files.
var fakeExplorer = fstest.MapFS{
	"index.html": {Data: []byte("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"/><title>kwire</title>" +
		"<link rel=\"stylesheet\" href=\"kwire.css\"/></head><body><p>explorer</p></body></html>\n")},
	"kwire.css": {Data: []byte(".s-frame{background:#eee}\n")},
}

// voidElements are the HTML elements that have no end tag; the pages write
// them self-closed (<meta .../>), and no other element may be.
var voidElements = map[string]bool{"area": true, "base": true, "br": true, "col": true, "embed": true, "hr": true,
	"img": true, "input": true, "link": true, "meta": true, "source": true, "track": true, "wbr": true}

// blockElements may not appear inside a <p>.
var blockElements = map[string]bool{"address": true, "article": true, "aside": true, "blockquote": true, "details": true,
	"div": true, "dl": true, "fieldset": true, "figure": true, "footer": true, "form": true, "h1": true, "h2": true,
	"h3": true, "h4": true, "h5": true, "h6": true, "header": true, "hr": true, "main": true, "nav": true, "ol": true,
	"p": true, "pre": true, "section": true, "table": true, "ul": true}

var selfClosed = regexp.MustCompile(`^<([a-zA-Z][a-zA-Z0-9]*)\b[^<>]*/>$`)

// parsed is what the checker keeps of a page.
type parsed struct {
	ids  map[string]bool
	refs []string // href and src values
}

// checkPage checks that a page is well-formed HTML and returns its ids and
// references. The pages are written XHTML-compatible (void elements
// self-closed, attributes quoted, only XML's entities), so encoding/xml in
// strict mode is the tag-balance checker: it rejects an unclosed or
// mismatched tag, an unquoted attribute, a bare '&' or '<', and a
// duplicated attribute, and it is a complete tokenizer rather than a
// hand-written one. What XML allows and HTML does not (<div/>, a void
// element with an end tag) is checked on top.
func checkPage(data []byte) (parsed, error) {
	p := parsed{ids: map[string]bool{}}
	if !bytes.HasPrefix(data, []byte("<!DOCTYPE html>\n")) {
		return p, errors.New("no <!DOCTYPE html>")
	}
	for rest := data; ; {
		i := bytes.Index(rest, []byte("/>"))
		if i < 0 {
			break
		}
		if lt := bytes.LastIndexByte(rest[:i], '<'); lt >= 0 {
			if m := selfClosed.FindSubmatch(rest[lt : i+2]); m != nil && !voidElements[strings.ToLower(string(m[1]))] {
				return p, fmt.Errorf("<%s/> is not a void element", m[1])
			}
		}
		rest = rest[i+2:]
	}
	d := xml.NewDecoder(bytes.NewReader(data))
	d.Strict = true
	var stack []string
	roots := 0
	for {
		tok, err := d.Token()
		if err == io.EOF {
			break
		}
		if err != nil {
			return p, err
		}
		switch tok := tok.(type) {
		case xml.StartElement:
			name := tok.Name.Local
			if len(stack) == 0 {
				roots++
				if name != "html" {
					return p, fmt.Errorf("root element <%s>", name)
				}
			}
			// What an HTML parser would reshape: a block inside a <p> (it
			// closes the paragraph) and a link inside a link.
			for _, anc := range stack {
				if anc == "p" && blockElements[name] {
					return p, fmt.Errorf("<%s> inside <p>", name)
				}
				if anc == "a" && name == "a" {
					return p, errors.New("<a> inside <a>")
				}
			}
			stack = append(stack, name)
			for _, a := range tok.Attr {
				switch a.Name.Local {
				case "id":
					if p.ids[a.Value] {
						return p, fmt.Errorf("duplicate id %q", a.Value)
					}
					p.ids[a.Value] = true
				case "href", "src":
					p.refs = append(p.refs, a.Value)
				case "style":
					return p, fmt.Errorf("inline style on <%s> (the CSP forbids it)", name)
				}
				if strings.HasPrefix(a.Name.Local, "on") {
					return p, fmt.Errorf("inline handler %s on <%s> (the CSP forbids it)", a.Name.Local, name)
				}
			}
			if name == "script" && !hasAttr(tok, "src") {
				return p, errors.New("inline <script> (the CSP forbids it)")
			}
		case xml.EndElement:
			stack = stack[:len(stack)-1]
		case xml.CharData:
			if len(stack) == 0 && len(bytes.TrimSpace(tok)) > 0 {
				return p, errors.New("text outside <html>")
			}
		}
	}
	if roots != 1 {
		return p, fmt.Errorf("%d root elements", roots)
	}
	return p, nil
}

func hasAttr(e xml.StartElement, name string) bool {
	for _, a := range e.Attr {
		if a.Name.Local == name {
			return true
		}
	}
	return false
}

var shared struct {
	once sync.Once
	dir  string
	st   Stats
	err  error
}

// builtSite builds the whole site once for the package's tests, as
// build.sh does: the explorer's files from package web, with stand-ins for
// the WebAssembly build and Go's loader that build.sh puts there first.
func builtSite(t *testing.T) (string, Stats) {
	t.Helper()
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "kwire-site-")
		if shared.err != nil {
			return
		}
		for _, f := range []string{"kwire.wasm", "wasm_exec.js"} {
			if shared.err = os.WriteFile(filepath.Join(shared.dir, f), bytes.Repeat([]byte("/* build.sh */\n"), 100), 0o644); shared.err != nil {
				return
			}
		}
		shared.st, shared.err = Build(Options{Out: shared.dir, Explorer: web.Files()})
	})
	if shared.err != nil {
		t.Fatal(shared.err)
	}
	return shared.dir, shared.st
}

func TestMain(m *testing.M) {
	code := m.Run()
	if shared.dir != "" {
		os.RemoveAll(shared.dir)
	}
	os.Exit(code)
}

// The whole site builds, every page is well-formed and every link and
// asset resolves, anchors included, through relative URLs only.
func TestBuildSite(t *testing.T) {
	out, st := builtSite(t)
	// One page per version of every API, plus index, errors and types, in
	// every set.
	want := 0
	for _, n := range sets.Names() {
		s, _ := sets.Load(n)
		want += 3
		for _, api := range s.APIs {
			for v := api.Request.ValidVersions.Lo; v <= api.Request.ValidVersions.Hi; v++ {
				if hasVersion(api, v) {
					want++
				}
			}
		}
	}
	if st.Pages != want {
		t.Errorf("%d pages, want %d", st.Pages, want)
	}
	if want < 600 {
		t.Errorf("only %d pages: are both schema sets embedded?", want)
	}
	var all []job
	err := filepath.WalkDir(out, func(p string, d fs.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			all = append(all, job{path: p})
		}
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	files := len(all)
	var (
		mu    sync.Mutex
		pages = map[string]parsed{}
		gz    atomic.Int64
	)
	// Checked in parallel: encoding/xml reads about 10 MB/s.
	err = run(all, func(j job) error {
		p := j.path
		name := filepath.ToSlash(strings.TrimPrefix(p, out+string(filepath.Separator)))
		data, err := os.ReadFile(p)
		if err != nil {
			return err
		}
		if strings.HasSuffix(name, ".gz") {
			gz.Add(1)
			orig, err := os.ReadFile(strings.TrimSuffix(p, ".gz"))
			if err != nil {
				t.Errorf("%s has no original", name)
				return nil
			}
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				return err
			}
			plain, err := io.ReadAll(zr)
			if err != nil || !bytes.Equal(plain, orig) {
				t.Errorf("%s does not decompress to its original (%v)", name, err)
			}
			return nil
		}
		if strings.HasSuffix(name, ".html") {
			var pp parsed
			if strings.HasPrefix(name, Root+"/") {
				if pp, err = checkPage(data); err != nil {
					t.Errorf("%s: %v", name, err)
				}
			} else {
				// The explorer's own pages (package web) are HTML, not
				// XHTML: only their links are checked.
				pp = looseRefs(data)
			}
			mu.Lock()
			pages[name] = pp
			mu.Unlock()
		}
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	if files != st.Files || gz.Load() == 0 {
		t.Errorf("walked %d files (%d .gz), stats say %d", files, gz.Load(), st.Files)
	}
	links := 0
	for name, pp := range pages {
		for _, ref := range pp.refs {
			links++
			if err := resolve(out, name, ref, pages); err != nil {
				t.Errorf("%s: link %q: %v", name, ref, err)
			}
		}
	}
	t.Logf("%d pages, %d links checked, %d files, %.1f MB + %.1f MB gzip", len(pages), links, files, float64(st.Bytes)/1e6, float64(st.GzipBytes)/1e6)
	// Spot checks of the layout and the links that matter.
	jg := string(mustRead(t, out, "apis/JoinGroup/index.html"))
	for _, s := range []string{
		`href="../3.9/JoinGroup/index.html"`,
		`href="../../index.html?set=trunk&amp;api=JoinGroup&amp;v=9&amp;dir=request"`,
		`href="../../index.html?set=trunk&amp;api=JoinGroup&amp;v=9&amp;dir=response"`,
		`href="v8.html"`, `href="../../kwire.css"`, `href="../docs.css"`, `src="../docs.js"`, `src="../../theme.js"`,
	} {
		if !strings.Contains(jg, s) {
			t.Errorf("JoinGroup page lacks %s", s)
		}
	}
	if old := string(mustRead(t, out, "apis/3.9/JoinGroup/v0.html")); !strings.Contains(old, "not in set trunk") ||
		!strings.Contains(old, `href="../../../index.html?set=3.9&amp;api=JoinGroup&amp;v=0&amp;dir=request"`) {
		t.Errorf("3.9 JoinGroup v0 does not say trunk lacks it, or its explorer link is wrong")
	}
}

var (
	refRE = regexp.MustCompile(`\b(?:href|src)="([^"]*)"`)
	idRE  = regexp.MustCompile(`\bid="([^"]*)"`)
)

// looseRefs reads the ids and links of a page that is not XHTML.
func looseRefs(data []byte) parsed {
	p := parsed{ids: map[string]bool{}}
	for _, m := range idRE.FindAllSubmatch(data, -1) {
		p.ids[string(m[1])] = true
	}
	for _, m := range refRE.FindAllSubmatch(data, -1) {
		p.refs = append(p.refs, string(m[1]))
	}
	return p
}

func mustRead(t *testing.T, dir, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(name)))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// resolve checks that ref, found on page from, names a file of the site
// (and, with a fragment, an element of that page).
func resolve(out, from, ref string, pages map[string]parsed) error {
	if ref == "" {
		return errors.New("empty")
	}
	if strings.Contains(ref, ":") || strings.HasPrefix(ref, "/") {
		return errors.New("not a relative URL (the site must work under any path, with nothing external)")
	}
	ref = html.UnescapeString(ref)
	target, frag, _ := strings.Cut(ref, "#")
	target, _, _ = strings.Cut(target, "?")
	name := from
	if target != "" {
		name = path.Join(path.Dir(from), target)
		if name == ".." || strings.HasPrefix(name, "../") {
			return errors.New("leaves the site")
		}
		st, err := os.Stat(filepath.Join(out, filepath.FromSlash(name)))
		if err != nil {
			return err
		}
		if st.IsDir() {
			return errors.New("names a directory (link index.html, for file:// and plain hosts)")
		}
	}
	if frag != "" {
		pp, ok := pages[name]
		if !ok {
			return fmt.Errorf("fragment into %s, which is not a page", name)
		}
		if !pp.ids[frag] {
			return fmt.Errorf("%s has no id %q", name, frag)
		}
	}
	return nil
}

// The checker itself rejects what it must.
func TestCheckPage(t *testing.T) {
	ok := "<!DOCTYPE html>\n<html><head><meta charset=\"utf-8\"/></head><body><p id=\"a\">x &amp; y</p></body></html>\n"
	if _, err := checkPage([]byte(ok)); err != nil {
		t.Fatalf("good page: %v", err)
	}
	bad := map[string]string{
		"unclosed":     "<p>x",
		"mismatched":   "<p><b>x</p></b>",
		"div/":         "<div/>",
		"bare amp":     "<p>a & b</p>",
		"unquoted":     "<p class=x>y</p>",
		"duplicate id": "<p id=\"a\">x</p><p id=\"a\">y</p>",
		"inline js":    "<script>alert(1)</script>",
		"onclick":      "<p onclick=\"f()\">x</p>",
		"style":        "<p style=\"color:red\">x</p>",
		"void open":    "<br>",
		"div in p":     "<p>a<span><div>b</div></span></p>",
		"a in a":       "<a href=\"x\"><a href=\"y\">z</a></a>",
	}
	for name, body := range bad {
		page := "<!DOCTYPE html>\n<html><head></head><body>" + body + "</body></html>\n"
		if _, err := checkPage([]byte(page)); err == nil {
			t.Errorf("%s: accepted", name)
		}
	}
	pages := map[string]parsed{"docs/a.html": {ids: map[string]bool{"x": true}}}
	out := t.TempDir()
	os.MkdirAll(filepath.Join(out, "docs"), 0o755)
	os.WriteFile(filepath.Join(out, "docs/a.html"), nil, 0o644)
	for ref, good := range map[string]bool{"a.html": true, "a.html#x": true, "#x": true, "a.html?q=1#x": true, "a.html#y": false,
		"b.html": false, "/docs/a.html": false, "https://kafka.apache.org/": false, "../../etc/passwd": false, ".": false} {
		if err := resolve(out, "docs/a.html", ref, pages); (err == nil) != good {
			t.Errorf("resolve %q: %v", ref, err)
		}
	}
}

// Without the explorer, pages link neither to it nor to its stylesheet,
// and docs.css carries the section colours.
func TestNoExplorer(t *testing.T) {
	b := testBuilder(t, false)
	s := b.sets[0]
	api, _ := s.LookupAPI("Produce")
	page, err := b.apiPage(s, api, latest(api))
	if err != nil {
		t.Fatal(err)
	}
	if bytes.Contains(page, []byte("index.html?")) || bytes.Contains(page, []byte("kwire.css")) {
		t.Error("page links the missing explorer")
	}
	if !bytes.Contains(b.css(), []byte(".s-request")) {
		t.Error("docs.css lacks the fallback section colours")
	}
	b.sharedCSS = true
	if bytes.Contains(b.css(), []byte(".s-request")) {
		t.Error("docs.css repeats kwire.css's section colours")
	}
}

// Every schema text and decoded string reaches the page escaped.
func TestEscapes(t *testing.T) {
	trunk, err := sets.Load("trunk")
	if err != nil {
		t.Fatal(err)
	}
	const evil = `<img src=x onerror=alert(1)>`
	req, err := schemas.Parse("message/EvilRequest.json", []byte(`// license
{
  "apiKey": 11, "type": "request", "listeners": ["<b>broker</b>"], "name": "EvilRequest",
  // </code></pre><script>alert("history")</script>
  "validVersions": "0", "flexibleVersions": "0+",
  "fields": [
    // </span><script>alert("field")</script>
    { "name": "Name", "type": "string", "versions": "0+", "about": "`+evil+`" }
  ]
}`))
	if err != nil {
		t.Fatal(err)
	}
	resp, err := schemas.Parse("message/EvilResponse.json", []byte(`{ "apiKey": 11, "type": "response", "name": "EvilResponse",
  "validVersions": "0", "flexibleVersions": "0+", "fields": [] }`))
	if err != nil {
		t.Fatal(err)
	}
	s, err := schemas.NewSet("evil<i>", []*schemas.Message{req, resp, trunk.RequestHeader, trunk.ResponseHeader})
	if err != nil {
		t.Fatal(err)
	}
	s.Source = "<script>source</script>"
	s.Errors = []schemas.ErrorCode{{Code: 1, Name: "E<b>", Message: evil}}
	b := &builder{def: s.Name, sets: []*schemas.Set{s}, explorer: true}
	api, _ := s.LookupAPI("Evil")
	for name, render := range map[string]func() ([]byte, error){
		"api":    func() ([]byte, error) { return b.apiPage(s, api, 0) },
		"index":  func() ([]byte, error) { return b.indexPage(s) },
		"errors": func() ([]byte, error) { return b.errorsPage(s) },
	} {
		page, err := render()
		if err != nil {
			t.Fatal(err)
		}
		for _, bad := range []string{"<img", "<script>alert", "<script>source", "<b>", "<i>"} {
			if bytes.Contains(page, []byte(bad)) {
				t.Errorf("%s page: unescaped %s", name, bad)
			}
		}
		if _, err := checkPage(page); err != nil {
			t.Errorf("%s page: %v", name, err)
		}
	}
	page, _ := b.apiPage(s, api, 0)
	for _, want := range []string{"&lt;img src=x onerror=alert(1)&gt;", "&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("api page lacks escaped %s", want)
		}
	}
}

// Highlight keeps every byte of every schema of both sets, escaped.
func TestHighlight(t *testing.T) {
	for _, n := range sets.Names() {
		s, _ := sets.Load(n)
		for _, m := range s.Messages {
			src := StripLicense(string(m.Source))
			if strings.Contains(src, "Licensed to the Apache") {
				t.Errorf("%s: license left in", m.File)
			}
			if !strings.HasPrefix(strings.TrimSpace(src), "{") {
				t.Errorf("%s: stripped too much: %.40q", m.File, src)
			}
			var b strings.Builder
			Highlight(&b, src)
			if got := html.UnescapeString(tagRE.ReplaceAllString(b.String(), "")); got != src {
				t.Fatalf("%s: highlighted text differs from the source", m.File)
			}
		}
	}
	var b strings.Builder
	Highlight(&b, `{ "a": "x<y", // c&d
  "n": -1, "t": true /* z */ }`)
	want := `{ <span class="jk">&#34;a&#34;</span>: <span class="js">&#34;x&lt;y&#34;</span>, <span class="jc">// c&amp;d</span>
  <span class="jk">&#34;n&#34;</span>: <span class="jn">-1</span>, <span class="jk">&#34;t&#34;</span>: <span class="jn">true</span> <span class="jc">/* z */</span> }`
	if b.String() != want {
		t.Errorf("Highlight:\n%s\nwant\n%s", b.String(), want)
	}
}

func TestHistory(t *testing.T) {
	got := History([]string{"Version 1 adds X.", "", "Version 2:", "- Y", "", ""})
	if len(got) != 2 || got[0] != "Version 1 adds X." || got[1] != "Version 2:\n- Y" {
		t.Errorf("History: %q", got)
	}
}

func TestRel(t *testing.T) {
	for _, c := range [][3]string{
		{"apis/JoinGroup/index.html", "apis/JoinGroup/v8.html", "v8.html"},
		{"apis/JoinGroup/index.html", "apis/docs.css", "../docs.css"},
		{"apis/JoinGroup/index.html", "index.html", "../../index.html"},
		{"apis/3.9/JoinGroup/v0.html", "apis/JoinGroup/v2.html", "../../JoinGroup/v2.html"},
		{"apis/index.html", "apis/3.9/index.html", "3.9/index.html"},
		{"index.html", "apis/index.html", "apis/index.html"},
	} {
		if got := rel(c[0], c[1]); got != c[2] {
			t.Errorf("rel(%s, %s) = %s, want %s", c[0], c[1], got, c[2])
		}
	}
}

// BenchmarkBuild builds the whole site (both sets, with gzip); compare
// with BenchmarkBuildNoGzip to see the cost of compression.
func BenchmarkBuild(b *testing.B) {
	for b.Loop() {
		if _, err := Build(Options{Out: b.TempDir(), Explorer: fakeExplorer}); err != nil {
			b.Fatal(err)
		}
	}
}

func BenchmarkBuildNoGzip(b *testing.B) {
	for b.Loop() {
		if _, err := Build(Options{Out: b.TempDir(), Explorer: fakeExplorer, NoGzip: true}); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkAPIPage renders the largest page of the trunk set (Fetch at its
// latest version) against a small one (ApiVersions v0) as the baseline.
func BenchmarkAPIPage(b *testing.B) {
	bl := testBuilder(b, true)
	s, _ := sets.Load("trunk")
	for _, name := range []string{"ApiVersions", "Fetch"} {
		api, _ := s.LookupAPI(name)
		v := latest(api)
		if name == "ApiVersions" {
			v = 0
		}
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				page, err := bl.apiPage(s, api, v)
				if err != nil {
					b.Fatal(err)
				}
				b.SetBytes(int64(len(page)))
			}
		})
	}
}

func TestRunReportsPanics(t *testing.T) {
	jobs := []job{{path: "a"}, {path: "b"}, {path: "c"}}
	err := run(jobs, func(j job) error {
		if j.path == "b" {
			panic("codec bug")
		}
		return nil
	})
	if err == nil || !strings.Contains(err.Error(), "b: panic") {
		t.Errorf("run: %v", err)
	}
}

// gzipTree compresses what is worth it, replaces stale .gz files, and
// removes them all when asked not to compress.
func TestGzipTree(t *testing.T) {
	dir := t.TempDir()
	big := strings.Repeat("<p>kwire</p>\n", 100)
	files := map[string]string{"a.html": big, "s.css": "b{}", "x.bin": big, "d/k.wasm": big}
	for name, data := range files {
		os.MkdirAll(filepath.Join(dir, filepath.Dir(name)), 0o755)
		os.WriteFile(filepath.Join(dir, name), []byte(data), 0o644)
	}
	os.WriteFile(filepath.Join(dir, "s.css.gz"), []byte("stale"), 0o644)
	if err := gzipTree(dir, true); err != nil {
		t.Fatal(err)
	}
	for name, want := range map[string]bool{"a.html.gz": true, "d/k.wasm.gz": true, "s.css.gz": false, "x.bin.gz": false} {
		data, err := os.ReadFile(filepath.Join(dir, name))
		if (err == nil) != want {
			t.Errorf("%s exists: %v, want %v", name, err == nil, want)
			continue
		}
		if want {
			zr, err := gzip.NewReader(bytes.NewReader(data))
			if err != nil {
				t.Fatal(err)
			}
			if plain, _ := io.ReadAll(zr); string(plain) != big {
				t.Errorf("%s does not hold its original", name)
			}
		}
	}
	if err := gzipTree(dir, false); err != nil {
		t.Fatal(err)
	}
	for _, name := range []string{"a.html.gz", "d/k.wasm.gz"} {
		if _, err := os.Stat(filepath.Join(dir, name)); err == nil {
			t.Errorf("%s left behind by a build without gzip", name)
		}
	}
}
