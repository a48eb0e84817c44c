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

	"kwire/codec"
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
	// One page per API version that some release has (in both
	// directions), one per release, plus index, matrix, errors and types.
	type kv struct{ key, v int16 }
	versions := map[kv]bool{}
	rels := sets.Releases()
	for _, r := range rels {
		s, _ := sets.Load(r.Name)
		for _, api := range s.APIs() {
			for v := api.Request.ValidVersions.Lo; v <= api.Request.ValidVersions.Hi && !api.Removed(); v++ {
				if hasVersion(api, v) {
					versions[kv{api.Key, v}] = true
				}
			}
		}
	}
	if want := len(versions) + len(rels) + 5; st.Pages != want { // and index, errors, types, the matrix, the address atlas
		t.Errorf("%d pages, want %d", st.Pages, want)
	}
	if len(rels) < 6 || len(versions) < 350 {
		t.Errorf("only %d releases, %d API versions: are the releases embedded?", len(rels), len(versions))
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
	jgSet, err := sets.ForVersion(11, 9, false)
	if err != nil {
		t.Fatal(err)
	}
	jg := string(mustRead(t, out, "apis/JoinGroup/index.html"))
	for _, s := range []string{
		`href="../../index.html?set=` + jgSet.Name + `&amp;api=JoinGroup&amp;v=9&amp;dir=request"`,
		`href="../../index.html?set=` + jgSet.Name + `&amp;api=JoinGroup&amp;v=9&amp;dir=response"`,
		`href="v8.html"`, `href="../../kwire.css"`, `href="../docs.css"`, `src="../docs.js"`, `src="../../theme.js"`,
		`href="../releases.html"`, `href="../release/` + jgSet.Name + `.html"`,
	} {
		if !strings.Contains(jg, s) {
			t.Errorf("JoinGroup page lacks %s", s)
		}
	}
	if idx := string(mustRead(t, out, "apis/index.html")); !strings.Contains(idx, `href="releases.html"`) {
		t.Error("the index does not link the release matrix")
	}
}

// Every API of every release is on the index; a removed one says which
// release removed it and which was the last to have it, and its pages are
// rendered from that last release.
func TestRemovedAPIs(t *testing.T) {
	out, _ := builtSite(t)
	idx := string(mustRead(t, out, "apis/index.html"))
	newest, _ := sets.Load(sets.Newest())
	seen := map[int16]bool{}
	removedAPIs := 0
	for _, r := range sets.Releases() {
		s, _ := sets.Load(r.Name)
		for _, api := range s.APIs() {
			if seen[api.Key] {
				continue
			}
			seen[api.Key] = true
			row := regexp.MustCompile(`<tr[^>]*><td>` + fmt.Sprint(api.Key) + `</td>.*</tr>`).FindString(idx)
			if row == "" {
				t.Errorf("the index lacks key %d (%s of %s)", api.Key, api.Name, r.Name)
				continue
			}
			removed, last, ok := sets.Removal(api.Key)
			if na := newest.APIByKey(api.Key); na != nil && !na.Removed() {
				if ok {
					t.Errorf("key %d: in %s, yet sets.Removal says removed in %s", api.Key, newest.Name, removed.Name)
				}
				continue
			}
			removedAPIs++
			if want := fmt.Sprintf("removed in %s (last in %s)", removed.Name, last.Name); !ok || !strings.Contains(row, want) {
				t.Errorf("key %d: index row %s lacks %q", api.Key, row, want)
			}
			la, _ := sets.Load(last.Name)
			a := la.APIByKey(api.Key)
			for v := a.Request.ValidVersions.Lo; v <= a.Request.ValidVersions.Hi; v++ {
				if !hasVersion(a, v) {
					continue
				}
				name := fmt.Sprintf("apis/%s/v%d.html", a.Name, v)
				if v == a.Request.ValidVersions.Hi {
					name = "apis/" + a.Name + "/index.html"
				}
				page := string(mustRead(t, out, name))
				if !strings.Contains(page, `<p class="sets">Release <a href="../release/`+last.Name+`.html">`) {
					t.Errorf("%s is not rendered from %s", name, last.Name)
				}
				if want := fmt.Sprintf("was removed in %s (last in %s)", removed.Name, last.Name); !strings.Contains(page, want) {
					t.Errorf("%s does not say it %s", name, want)
				}
			}
		}
	}
	if removedAPIs == 0 {
		t.Error("no release removed an API: the test checks nothing")
	}
}

// cells reads the text of every cell of a table row, tags dropped.
func cells(row string) []string {
	var out []string
	for _, m := range cellRE.FindAllStringSubmatch(row, -1) {
		out = append(out, html.UnescapeString(tagRE.ReplaceAllString(m[1], "")))
	}
	return out
}

var cellRE = regexp.MustCompile(`<t[dh][^>]*>(.*?)</t[dh]>`)

// rowWithID is the <tr> with an id on a page, or "".
func rowWithID(page, id string) string {
	return regexp.MustCompile(`<tr id="` + regexp.QuoteMeta(id) + `"[^>]*>.*?</tr>`).FindString(page)
}

// The matrix has a column per release (version and date in its head) and
// a row per API key; every cell is that release's request versions.
func TestMatrixPage(t *testing.T) {
	out, _ := builtSite(t)
	page := string(mustRead(t, out, "apis/releases.html"))
	rels := sets.Releases()
	head := cells(regexp.MustCompile(`<thead>.*?</thead>`).FindString(page))
	if len(head) != 2+len(rels) {
		t.Fatalf("head %q", head)
	}
	for i, r := range rels {
		if h := head[2+i]; h != r.Name+r.Version+r.Date {
			t.Errorf("column %d: %q, want %s, %s, %s", i, h, r.Name, r.Version, r.Date)
		}
		if !strings.Contains(page, `href="release/`+r.Name+`.html"`) {
			t.Errorf("the matrix does not link release %s", r.Name)
		}
	}
	keys := map[int16]bool{}
	for _, r := range rels {
		s, _ := sets.Load(r.Name)
		for _, a := range s.APIs() {
			keys[a.Key] = true
		}
	}
	unstable := 0
	for key := range keys {
		row := cells(rowWithID(page, fmt.Sprintf("k%d", key)))
		if len(row) != 2+len(rels) {
			t.Errorf("key %d: row %q", key, row)
			continue
		}
		for i, r := range rels {
			s, _ := sets.Load(r.Name)
			want := "—"
			if a := s.APIByKey(key); a != nil && a.Removed() {
				want = "removed"
			} else if a != nil {
				want = a.Request.ValidVersions.String()
				if sets.Unstable(a, a.Request.ValidVersions.Hi) {
					want += "*"
					unstable++
				}
			}
			if row[2+i] != want {
				t.Errorf("key %d in %s: %q, want %q", key, r.Name, row[2+i], want)
			}
		}
	}
	if unstable == 0 {
		t.Error("no unstable version marked")
	}
}

// Each release's page lists the APIs added and removed since the release
// before, and for every API both have the versions added and removed: all
// derived here by comparing the two sets.
func TestReleasePages(t *testing.T) {
	out, _ := builtSite(t)
	rels := sets.Releases()
	versionsOf := func(a *schemas.API) map[int16]bool {
		m := map[int16]bool{}
		for v := a.Request.ValidVersions.Lo; v <= a.Request.ValidVersions.Hi && !a.Removed(); v++ {
			if hasVersion(a, v) {
				m[v] = true
			}
		}
		return m
	}
	links := func(cell string) map[int16]bool {
		m := map[int16]bool{}
		for _, f := range strings.Split(cell, ", ") {
			var v int16
			if _, err := fmt.Sscanf(f, "v%d", &v); err == nil {
				m[v] = true
			}
		}
		return m
	}
	same := func(a, b map[int16]bool) bool { return fmt.Sprint(a) == fmt.Sprint(b) }
	removedVersions := 0
	for i := 1; i < len(rels); i++ {
		prev, _ := sets.Load(rels[i-1].Name)
		cur, _ := sets.Load(rels[i].Name)
		page := string(mustRead(t, out, "apis/release/"+cur.Name+".html"))
		section := func(id string) string {
			return regexp.MustCompile(`(?s)<section id="` + id + `">.*?</section>`).FindString(page)
		}
		added, removed := section("added"), section("removed")
		keys := map[int16]bool{}
		for _, a := range append(append([]*schemas.API{}, prev.APIs()...), cur.APIs()...) {
			keys[a.Key] = true
		}
		for key := range keys {
			was, is := prev.APIByKey(key), cur.APIByKey(key)
			inWas, inIs := was != nil && !was.Removed(), is != nil && !is.Removed()
			switch {
			case inIs && !inWas:
				if !strings.Contains(added, ">"+is.Name+"</a>") {
					t.Errorf("%s: %s not listed as added", cur.Name, is.Name)
				}
			case inWas && !inIs:
				if !strings.Contains(removed, ">"+was.Name+"</a>") {
					t.Errorf("%s: %s not listed as removed", cur.Name, was.Name)
				}
			case inWas && inIs:
				vw, vi := versionsOf(was), versionsOf(is)
				plus, minus := map[int16]bool{}, map[int16]bool{}
				for v := range vi {
					if !vw[v] {
						plus[v] = true
					}
				}
				for v := range vw {
					if !vi[v] {
						minus[v] = true
					}
				}
				row := cells(rowWithID(page, fmt.Sprintf("versions-%d", key)))
				if len(plus)+len(minus) == 0 {
					if len(row) > 0 && (row[2] != "" || row[3] != "") {
						t.Errorf("%s: %s has versions changed %q", cur.Name, is.Name, row)
					}
					continue
				}
				removedVersions += len(minus)
				if len(row) != 5 || !same(links(row[2]), plus) || !same(links(row[3]), minus) {
					t.Errorf("%s: %s row %q, want added %v removed %v", cur.Name, is.Name, row, plus, minus)
				}
			}
		}
	}
	if removedVersions == 0 {
		t.Error("no release removed a version: the test checks nothing")
	}
}

// JoinGroup v9's page lists every release, each with its version and
// date and whether it has v9 and how.
func TestVersionReleases(t *testing.T) {
	out, _ := builtSite(t)
	page := string(mustRead(t, out, "apis/JoinGroup/index.html"))
	table := regexp.MustCompile(`(?s)<table class="rels">.*?</table>`).FindString(page)
	rows := regexp.MustCompile(`<tr[^>]*><td>.*?</tr>`).FindAllString(table, -1)
	rels := sets.Releases()
	if len(rows) != len(rels) {
		t.Fatalf("%d rows, want %d", len(rows), len(rels))
	}
	with := 0
	for i, r := range rels {
		s, _ := sets.Load(r.Name)
		a := s.APIByKey(11)
		c := cells(rows[i])
		if c[0] != r.Name || c[1] != r.Version || c[2] != r.Date {
			t.Errorf("row %d: %q, want %s", i, c, r)
		}
		has := a != nil && hasVersion(a, 9)
		if has {
			with++
		}
		if status := strings.TrimSuffix(c[3], " (this page)"); has != (status == "stable" || status == "unstable" || status == "deprecated") ||
			has && (status == "unstable") != sets.Unstable(a, 9) {
			t.Errorf("%s: v9 %q (has it: %v)", r.Name, c[3], has)
		}
	}
	if with != len(rels) {
		t.Errorf("JoinGroup v9 in %d of %d releases", with, len(rels))
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
	s := b.newest()
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

// evilSet is a release with one API whose texts try to break out of the
// page; about is the about text of its request's field Name, extra an
// extra request field.
func evilSet(t *testing.T, name, about, extra string) *schemas.Set {
	t.Helper()
	newest, err := sets.Load(sets.Newest())
	if err != nil {
		t.Fatal(err)
	}
	req, err := schemas.Parse("message/EvilRequest.json", []byte(`// license
{
  "apiKey": 11, "type": "request", "listeners": ["<b>broker</b>"], "name": "EvilRequest",
  // </code></pre><script>alert("history")</script>
  "validVersions": "0", "flexibleVersions": "0+",
  "fields": [
    // </span><script>alert("field")</script>
    { "name": "Name", "type": "string", "versions": "0+", "about": "`+about+`" }`+extra+`
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
	s, err := schemas.NewSet(name, []*schemas.Message{req, resp, newest.RequestHeader, newest.ResponseHeader})
	if err != nil {
		t.Fatal(err)
	}
	s.Source = "<script>source</script>"
	s.Errors = []schemas.ErrorCode{{Code: 1, Name: "E<b>", Message: about}}
	return s
}

// Every schema text and decoded string reaches the page escaped, the
// differences between releases included.
func TestEscapes(t *testing.T) {
	const evil = `<img src=x onerror=alert(1)>`
	old := evilSet(t, "old<i>", `<script>alert(2)</script>`, `, { "name": "Gone", "type": "int32", "versions": "0+", "about": "<b>gone</b>" }`)
	s := evilSet(t, "evil<i>", evil, "")
	b, err := newBuilder("", []*schemas.Set{old, s})
	if err != nil {
		t.Fatal(err)
	}
	b.explorer = true
	api, _ := s.LookupAPI("Evil")
	for name, render := range map[string]func() ([]byte, error){
		"api":     func() ([]byte, error) { return b.apiPage(s, api, 0) },
		"index":   b.indexPage,
		"errors":  func() ([]byte, error) { return b.errorsPage(s) },
		"matrix":  b.matrixPage,
		"release": func() ([]byte, error) { return b.releasePage(1) },
		"first":   func() ([]byte, error) { return b.releasePage(0) },
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
	for _, want := range []string{"&lt;img src=x onerror=alert(1)&gt;", "&lt;/code&gt;&lt;/pre&gt;&lt;script&gt;",
		"about EvilRequest.Name: “&lt;img src=x onerror=alert(1)&gt;” → “&lt;script&gt;alert(2)&lt;/script&gt;”", "added EvilRequest.Gone (int32)",
		"smallest request: 21 bytes, 4 more"} {
		if !bytes.Contains(page, []byte(want)) {
			t.Errorf("api page lacks %s", want)
		}
	}
}

// Highlight keeps every byte of every schema of every release, escaped.
func TestHighlight(t *testing.T) {
	for _, n := range sets.Names() {
		s, _ := sets.Load(n)
		for _, m := range s.Messages() {
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
		{"apis/release/4.1.html", "apis/JoinGroup/v2.html", "../JoinGroup/v2.html"},
		{"apis/index.html", "apis/release/4.1.html", "release/4.1.html"},
		{"index.html", "apis/index.html", "apis/index.html"},
	} {
		if got := rel(c[0], c[1]); got != c[2] {
			t.Errorf("rel(%s, %s) = %s, want %s", c[0], c[1], got, c[2])
		}
	}
}

// BenchmarkBuild builds the whole site (every release, with gzip); compare
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

// BenchmarkAPIPage renders the largest page of the newest release (Fetch at its
// latest version) against a small one (ApiVersions v0) as the baseline.
func BenchmarkAPIPage(b *testing.B) {
	bl := testBuilder(b, true)
	s := bl.newest()
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

// Every version page groups the other releases that have the version by
// their schema: a release whose request and response files are the page
// release's is in no group, and one whose smallest request or response
// (encoded here by the codec) has another size is in a group that says so.
func TestDifferences(t *testing.T) {
	out, _ := builtSite(t)
	b := testBuilder(t, true)
	groupRE := regexp.MustCompile(`(?s)<h4>([^<]*)</h4>\n<ul class="diff">(.*?)</ul>`)
	sized := 0
	for _, e := range b.apis {
		for _, v := range e.versions {
			here := e.in[e.source(v)]
			page := string(mustRead(t, out, b.apiPath(e.key, v)))
			groups := map[string]string{}
			for _, m := range groupRE.FindAllStringSubmatch(page, -1) {
				for _, n := range strings.Split(m[1], ", ") {
					groups[n] = html.UnescapeString(m[2])
				}
			}
			for i, a := range e.in {
				if a == nil || a == here || !hasVersion(a, v) {
					continue
				}
				name := b.sets[i].Name
				diff, listed := groups[name]
				if bytes.Equal(a.Request.Source, here.Request.Source) && bytes.Equal(a.Response.Source, here.Response.Source) {
					if listed {
						t.Errorf("%s v%d: %s has the same files, yet is listed as different", e.name, v, name)
					}
					continue
				}
				for _, dir := range []codec.Direction{codec.Request, codec.Response} {
					x, err1 := smallest(b.sets[i], a, v, dir)
					y, err2 := smallest(b.sets[e.source(v)], here, v, dir)
					if err1 != nil || err2 != nil {
						t.Fatal(err1, err2)
					}
					if len(x) == len(y) {
						continue
					}
					sized++
					if want := fmt.Sprintf("smallest %s: %d bytes", dir, len(x)); !strings.Contains(diff, want) {
						t.Errorf("%s v%d: %s's group lacks %q", e.name, v, name, want)
					}
				}
			}
		}
	}
	if sized == 0 {
		t.Error("no version's smallest size differs between releases: the test checks little")
	}
}

// Every version page is rendered from the release that sets.ForVersion
// chooses for its request and its response (when the two agree, as they
// do wherever both directions have the same versions).
func TestPageRelease(t *testing.T) {
	b := testBuilder(t, false)
	checked := 0
	for _, e := range b.apis {
		for _, v := range e.versions {
			rq, err1 := sets.ForVersion(e.key, v, false)
			rs, err2 := sets.ForVersion(e.key, v, true)
			if err1 != nil || err2 != nil || rq != rs {
				continue
			}
			checked++
			if got := b.sets[e.source(v)]; got != rq {
				t.Errorf("%s v%d: rendered from %s, sets.ForVersion says %s", e.name, v, got.Name, rq.Name)
			}
		}
	}
	if checked < 300 {
		t.Errorf("only %d versions checked", checked)
	}
}
