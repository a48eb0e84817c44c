package site

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"unicode"

	"kwire/schemas"
	"kwire/schemas/sets"
)

// field is a field of a message as the comparisons between releases see
// it: at one version (what is on the wire), or across all versions.
type field struct {
	path     string // "Topics.Partitions.PartitionIndex"
	typ      string
	nullable bool   // at the version
	tag      int    // -1 when not tagged (at the version)
	def      string // the default as written
	about    string
	versions string // across all versions only
}

// fields lists a message's fields depth first: those on the wire at
// version v, or every field with its versions when v < 0.
func fields(m *schemas.Message, v int16) []field {
	var out []field
	var walk func(prefix string, fs []*schemas.Field)
	walk = func(prefix string, fs []*schemas.Field) {
		for _, f := range fs {
			if v >= 0 && !f.Versions.Contains(v) {
				continue
			}
			w := field{path: prefix + f.Name, typ: f.Type.Name, tag: -1, def: f.Default, about: f.About}
			if v >= 0 {
				w.nullable = f.NullableVersions.Contains(v)
				if f.Tagged() && f.TaggedVersions.Contains(v) {
					w.tag = f.Tag
				}
			} else {
				w.versions = f.Versions.String()
				w.tag = f.Tag
			}
			out = append(out, w)
			if f.Struct != nil {
				walk(w.path+".", f.Struct.Fields)
			}
		}
	}
	walk("", m.Fields)
	return out
}

// words is a text's letters and digits: two texts with the same words
// differ only in punctuation or spacing.
func words(s string) string {
	return strings.Map(func(r rune) rune {
		if unicode.IsLetter(r) || unicode.IsDigit(r) {
			return r
		}
		return -1
	}, s)
}

// shape is a field's type and its wire attributes: "int32", "nullable
// string, tag 0, default null".
func (f field) shape() string {
	s := f.typ
	if f.nullable {
		s = "nullable " + s
	}
	if f.versions != "" {
		s += ", versions " + f.versions
	}
	if f.tag >= 0 {
		s += ", tag " + strconv.Itoa(f.tag)
	}
	if f.def != "" {
		s += ", default " + f.def
	}
	return s
}

// compare lists how the fields there differ from the fields here, by
// path: fields added (there only), removed (here only; either without
// their subfields, which come and go with them), changed (another shape)
// and, when abouts, fields whose about text differs (those that
// differ only in punctuation or spacing together, by path).
func compare(msg string, here, there []field, abouts bool) []string {
	var out []string
	at := map[string]field{}
	for _, f := range here {
		at[f.path] = f
	}
	seen := map[string]bool{}
	var minor []string
	var whole []string // the paths of fields added or removed with their subfields
	within := func(path string) bool {
		for _, w := range whole {
			if strings.HasPrefix(path, w+".") {
				return true
			}
		}
		return false
	}
	for _, f := range there {
		seen[f.path] = true
		h, ok := at[f.path]
		switch {
		case !ok && within(f.path):
		case !ok:
			whole = append(whole, f.path)
			out = append(out, fmt.Sprintf("added %s.%s (%s)", msg, f.path, f.shape()))
		case h.shape() != f.shape():
			out = append(out, fmt.Sprintf("changed %s.%s: %s", msg, f.path, changes(h, f)))
		}
		switch {
		case !ok || !abouts || h.about == f.about:
		case words(h.about) == words(f.about):
			minor = append(minor, msg+"."+f.path)
		default:
			out = append(out, fmt.Sprintf("about %s.%s: %s → %s", msg, f.path, quote(h.about), quote(f.about)))
		}
	}
	if len(minor) > 0 {
		out = append(out, "about texts that differ only in punctuation or spacing: "+strings.Join(minor, ", "))
	}
	for _, f := range here {
		if !seen[f.path] && !within(f.path) {
			whole = append(whole, f.path)
			out = append(out, fmt.Sprintf("removed %s.%s (%s)", msg, f.path, f.shape()))
		}
	}
	return out
}

// changes says how field b differs from field a, attribute by attribute:
// "versions 0+ → 0-12; default -1 → 0".
func changes(a, b field) string {
	var out []string
	attr := func(name, x, y string) {
		if x != y {
			if x == "" {
				x = "none"
			}
			if y == "" {
				y = "none"
			}
			out = append(out, name+" "+x+" → "+y)
		}
	}
	attr("type", a.typ, b.typ)
	attr("nullable", strconv.FormatBool(a.nullable), strconv.FormatBool(b.nullable))
	attr("versions", a.versions, b.versions)
	tag := func(t int) string {
		if t < 0 {
			return ""
		}
		return strconv.Itoa(t)
	}
	attr("tag", tag(a.tag), tag(b.tag))
	attr("default", a.def, b.def)
	return strings.Join(out, "; ")
}

// quote is a text in quotation marks, or "(none)".
func quote(s string) string {
	if s == "" {
		return "(none)"
	}
	return "“" + s + "”"
}

// versionAt is what a page compares between releases at version v: the
// message's flexibility and fields on the wire.
func versionAt(m *schemas.Message, v int16) (flexible bool, fs []field) {
	return m.Flexible(v), fields(m, v)
}

// versionKey tells apart releases whose schemas of an API version differ:
// on the wire (wire) or in their about texts too (all).
func versionKey(api *schemas.API, v int16) (wire, all string) {
	var w, a strings.Builder
	for _, m := range []*schemas.Message{api.Request, api.Response} {
		flex, fs := versionAt(m, v)
		fmt.Fprintf(&w, "%s %v\n", m.Name, flex)
		for _, f := range fs {
			fmt.Fprintf(&w, "%s %s\n", f.path, f.shape())
			fmt.Fprintf(&a, "%s %s\n", f.path, f.about)
		}
	}
	return w.String(), w.String() + a.String()
}

// status is what a release has of an API version: "stable", "unstable",
// "deprecated", or why it lacks it.
func status(a *schemas.API, v int16) string {
	switch {
	case a == nil:
		return "—"
	case a.Removed():
		return "removed"
	case !hasVersion(a, v):
		return "— (has v" + a.Request.ValidVersions.String() + ")"
	case sets.Unstable(a, v):
		return "unstable"
	case a.Request.DeprecatedVersions.Contains(v):
		return "deprecated"
	}
	return "stable"
}

// releases writes the section of an API page that says which releases
// have the version, and how its schema differs between them.
func (p *page) releases(api *schemas.API, v int16, req, resp *message) error {
	b := p.b
	e := b.byKey[api.Key]
	here := slices.Index(b.sets, p.set)
	with := e.with(v)
	var names []string
	for _, i := range with {
		names = append(names, b.sets[i].Name)
	}
	p.WriteString("<section id=\"releases\">\n<h2>Releases</h2>\n")
	fmt.Fprintf(p, "<p>v%d is in %d of %d releases (%s). This page shows the schema of %s, the newest release that has it "+
		"(one where it is stable before one where it is not).</p>\n", v, len(with), len(b.sets), esc(strings.Join(names, ", ")), esc(p.set.Name))
	fmt.Fprintf(p, "<table class=\"rels\">\n<thead><tr><th>Release</th><th>Kafka</th><th>Date</th><th>v%d</th></tr></thead>\n<tbody>\n", v)
	for i, r := range b.rels {
		st := status(e.in[i], v)
		cls := ""
		if i == here {
			st += " (this page)"
			cls = " class=\"here\""
		}
		fmt.Fprintf(p, "<tr%s><td><a href=\"%s\">%s</a></td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
			cls, p.href(releasePath(r.Name)), esc(r.Name), esc(r.Version), esc(r.Date), esc(st))
	}
	p.WriteString("</tbody>\n</table>\n<h3>Differences between releases</h3>\n")
	// Group the other releases by their schema of the version.
	type group struct {
		rels []int
		wire string // versionKey's wire
	}
	mineWire, mine := versionKey(api, v)
	var groups []*group
	keys := map[string]*group{}
	for _, i := range with {
		w, k := versionKey(e.in[i], v)
		if k == mine {
			continue
		}
		if g, ok := keys[k]; ok {
			g.rels = append(g.rels, i)
			continue
		}
		keys[k] = &group{rels: []int{i}, wire: w}
		groups = append(groups, keys[k])
	}
	switch {
	case len(with) == 1:
		fmt.Fprintf(p, "<p>Only %s has v%d: there is no other release to compare with.</p>\n", esc(p.set.Name), v)
	case len(groups) == 0:
		fmt.Fprintf(p, "<p>Every release that has v%d has the same fields, types, tags, defaults and about texts at v%d.</p>\n", v, v)
	}
	if len(groups) == 0 {
		p.WriteString("</section>\n")
		return nil
	}
	fmt.Fprintf(p, "<p>Compared with %s's schema at v%d (the fields on the wire at v%d: path, type, nullability, tag, default; and their about texts):</p>\n",
		esc(p.set.Name), v, v)
	for _, g := range groups {
		other := e.in[g.rels[0]]
		var gn []string
		for _, i := range g.rels {
			gn = append(gn, b.sets[i].Name)
		}
		fmt.Fprintf(p, "<h4>%s</h4>\n<ul class=\"diff\">\n", esc(strings.Join(gn, ", ")))
		for _, pair := range [][2]*schemas.Message{{api.Request, other.Request}, {api.Response, other.Response}} {
			hf, hfs := versionAt(pair[0], v)
			of, ofs := versionAt(pair[1], v)
			if hf != of {
				fmt.Fprintf(p, "<li>%s v%d flexible: %v → %v</li>\n", esc(pair[1].Name), v, hf, of)
			}
			for _, line := range compare(pair[1].Name, hfs, ofs, true) {
				fmt.Fprintf(p, "<li>%s</li>\n", esc(line))
			}
		}
		if g.wire != mineWire {
			same := true
			for _, m := range []*message{req, resp} {
				o, err := smallest(b.sets[g.rels[0]], other, v, m.dir)
				if err != nil {
					return err
				}
				if len(o) != len(m.bytes) {
					same = false
					fmt.Fprintf(p, "<li>smallest %s: %s</li>\n", m.dir, esc(sizeChange(len(m.bytes), len(o))))
				}
			}
			if same {
				p.WriteString("<li>the smallest request and response have the same sizes</li>\n")
			}
		}
		p.WriteString("</ul>\n")
	}
	p.WriteString("</section>\n")
	return nil
}

// sizeChange says how a size compares with this page's.
func sizeChange(here, there int) string {
	if there > here {
		return fmt.Sprintf("%d bytes, %d more", there, there-here)
	}
	return fmt.Sprintf("%d bytes, %d fewer", there, here-there)
}

// rangeCell is a release's request versions of an API as the matrix shows
// them: "0-9", "0-10*" when the latest is unstable, "removed", or "—".
func rangeCell(a *schemas.API) string {
	switch {
	case a == nil:
		return "—"
	case a.Removed():
		return "removed"
	case a.Request.LatestVersionUnstable:
		return a.Request.ValidVersions.String() + "*"
	}
	return a.Request.ValidVersions.String()
}

// matrixPage is every API against every release.
func (b *builder) matrixPage() ([]byte, error) {
	p := &page{b: b, set: b.newest(), all: true, path: matrixPath}
	p.head("Releases")
	fmt.Fprintf(p, "<h1>APIs by release</h1>\n<p class=\"lead\">The request versions of every API in each of the %d releases kwire "+
		"knows, oldest first; * marks a latest version that is unstable (latestVersionUnstable), — a release without the API, "+
		"and a highlighted cell a change from the release before. A column head leads to what changed in that release.</p>\n", len(b.sets))
	p.WriteString("<div class=\"wide\">\n<table class=\"matrix\">\n<thead><tr><th>Key</th><th>API</th>")
	for _, r := range b.rels {
		fmt.Fprintf(p, "<th><a href=\"%s\">%s</a><br/><span class=\"mark\">%s<br/>%s</span></th>",
			p.href(releasePath(r.Name)), esc(r.Name), esc(r.Version), esc(r.Date))
	}
	p.WriteString("</tr></thead>\n<tbody>\n")
	for _, e := range b.apis {
		fmt.Fprintf(p, "<tr id=\"k%d\"><td>%d</td><td><a href=\"%s\">%s</a></td>", e.key, e.key, p.href(b.apiPath(e.key, e.top())), esc(e.name))
		prev := ""
		for i, a := range e.in {
			cell := rangeCell(a)
			var cls []string
			if i > 0 && cell != prev {
				cls = append(cls, "chg")
			}
			if a != nil && !a.Removed() && a.Request.LatestVersionUnstable {
				cls = append(cls, "unst")
			}
			attr := ""
			if len(cls) > 0 {
				attr = " class=\"" + strings.Join(cls, " ") + "\""
			}
			if a != nil && !a.Removed() {
				fmt.Fprintf(p, "<td%s><a href=\"%s\">%s</a></td>", attr, p.href(b.apiPath(e.key, latest(a))), esc(cell))
			} else {
				fmt.Fprintf(p, "<td%s>%s</td>", attr, esc(cell))
			}
			prev = cell
		}
		p.WriteString("</tr>\n")
	}
	p.WriteString("</tbody>\n</table>\n</div>\n")
	return p.foot(), nil
}

// versionsOf lists the versions an API has in both directions (none when
// it is nil or removed).
func versionsOf(a *schemas.API) []int16 {
	var out []int16
	if a == nil || a.Removed() {
		return nil
	}
	vs := a.Request.ValidVersions
	for v := vs.Lo; v <= vs.Hi; v++ {
		if hasVersion(a, v) {
			out = append(out, v)
		}
	}
	return out
}

// present is an API that a release has and has not removed.
func present(a *schemas.API) bool { return a != nil && !a.Removed() }

// releasePage says what changed in release i since the release before it.
func (b *builder) releasePage(i int) ([]byte, error) {
	s, r := b.sets[i], b.rels[i]
	p := &page{b: b, set: s, path: releasePath(s.Name)}
	p.head("Release " + s.Name)
	fmt.Fprintf(p, "<h1>Release %s</h1>\n", esc(s.Name))
	if i == 0 {
		fmt.Fprintf(p, "<p class=\"lead\">%s%s is the oldest release kwire knows: there is no release before it to compare with. "+
			"It has %d APIs; <a href=\"%s\">the matrix</a> shows their versions.</p>\n",
			esc(s.Name), esc(releaseLabel(r)), len(presentIn(b, i)), p.href(matrixPath))
		p.nextRelease(i)
		return p.foot(), nil
	}
	prev := b.sets[i-1]
	fmt.Fprintf(p, "<p class=\"lead\">What changed in %s%s since %s%s, computed from the two releases' schemas: "+
		"APIs added and removed, versions added and removed, and fields added, removed and retyped in each message "+
		"(by path, across all versions).</p>\n", esc(s.Name), esc(releaseLabel(r)), esc(prev.Name), esc(releaseLabel(b.rels[i-1])))
	p.nextRelease(i)

	var added, removed, renamed []string
	for _, e := range b.apis {
		was, is := e.in[i-1], e.in[i]
		switch {
		case present(is) && !present(was):
			added = append(added, fmt.Sprintf("<li>%d <a href=\"%s\">%s</a> <span class=\"mark\">v%s</span></li>\n",
				e.key, p.href(b.apiPath(e.key, latest(is))), esc(is.Name), is.Request.ValidVersions))
		case present(was) && !present(is):
			removed = append(removed, fmt.Sprintf("<li>%d <a href=\"%s\">%s</a> <span class=\"mark\">v%s in %s</span></li>\n",
				e.key, p.href(b.apiPath(e.key, latest(was))), esc(was.Name), was.Request.ValidVersions, esc(prev.Name)))
		case present(was) && present(is) && was.Name != is.Name:
			renamed = append(renamed, fmt.Sprintf("<li>%d %s → <a href=\"%s\">%s</a></li>\n",
				e.key, esc(was.Name), p.href(b.apiPath(e.key, latest(is))), esc(is.Name)))
		}
	}
	for _, l := range []struct {
		id, title string
		items     []string
	}{{"added", "APIs added", added}, {"removed", "APIs removed", removed}, {"renamed", "APIs renamed", renamed}} {
		fmt.Fprintf(p, "<section id=\"%s\">\n<h2>%s</h2>\n", l.id, l.title)
		if len(l.items) == 0 {
			p.WriteString("<p>None.</p>\n")
		} else {
			p.WriteString("<ul>\n" + strings.Join(l.items, "") + "</ul>\n")
		}
		p.WriteString("</section>\n")
	}

	p.WriteString("<section id=\"versions\">\n<h2>Versions</h2>\n")
	var rows strings.Builder
	for _, e := range b.apis {
		was, is := e.in[i-1], e.in[i]
		if !present(was) || !present(is) {
			continue
		}
		vw, vi := versionsOf(was), versionsOf(is)
		var plus, minus []int16
		for _, v := range vi {
			if !slices.Contains(vw, v) {
				plus = append(plus, v)
			}
		}
		for _, v := range vw {
			if !slices.Contains(vi, v) {
				minus = append(minus, v)
			}
		}
		var stab []string
		if v := latest(was); sets.Unstable(was, v) && hasVersion(is, v) && !sets.Unstable(is, v) {
			stab = append(stab, fmt.Sprintf("v%d now stable", v))
		}
		if v := latest(is); sets.Unstable(is, v) && !(sets.Unstable(was, v) && latest(was) == v) {
			stab = append(stab, fmt.Sprintf("v%d unstable", v))
		}
		if len(plus)+len(minus)+len(stab) == 0 {
			continue
		}
		fmt.Fprintf(&rows, "<tr id=\"versions-%d\"><td>%d</td><td><a href=\"%s\">%s</a></td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
			e.key, e.key, p.href(b.apiPath(e.key, e.top())), esc(is.Name), b.versionLinks(p, e, plus), b.versionLinks(p, e, minus), esc(strings.Join(stab, ", ")))
	}
	if rows.Len() == 0 {
		p.WriteString("<p>No API that both releases have gained or lost a version.</p>\n")
	} else {
		p.WriteString("<table class=\"apis\">\n<thead><tr><th>Key</th><th>API</th><th>Versions added</th><th>Versions removed</th><th>Stability</th></tr></thead>\n<tbody>\n")
		p.WriteString(rows.String())
		p.WriteString("</tbody>\n</table>\n")
	}
	p.WriteString("</section>\n")

	p.WriteString("<section id=\"fields\">\n<h2>Fields</h2>\n")
	pairs := [][2]*schemas.Message{{prev.RequestHeader, s.RequestHeader}, {prev.ResponseHeader, s.ResponseHeader}}
	for _, e := range b.apis {
		if was, is := e.in[i-1], e.in[i]; present(was) && present(is) {
			pairs = append(pairs, [2]*schemas.Message{was.Request, is.Request}, [2]*schemas.Message{was.Response, is.Response})
		}
	}
	any := false
	for _, pair := range pairs {
		if pair[0] == nil || pair[1] == nil {
			continue
		}
		lines := compare(pair[1].Name, fields(pair[0], -1), fields(pair[1], -1), false)
		if len(lines) == 0 {
			continue
		}
		any = true
		fmt.Fprintf(p, "<h3 id=\"fields-%s\">%s</h3>\n<ul class=\"diff\">\n", esc(pair[1].Name), esc(pair[1].Name))
		for _, l := range lines {
			fmt.Fprintf(p, "<li>%s</li>\n", esc(l))
		}
		p.WriteString("</ul>\n")
	}
	if !any {
		p.WriteString("<p>No message of an API that both releases have gained, lost or retyped a field.</p>\n")
	}
	p.WriteString("</section>\n")
	return p.foot(), nil
}

// presentIn lists the APIs release i has and has not removed.
func presentIn(b *builder, i int) []*apiEntry {
	var out []*apiEntry
	for _, e := range b.apis {
		if present(e.in[i]) {
			out = append(out, e)
		}
	}
	return out
}

// versionLinks links each version's page, as versionList groups them.
func (b *builder) versionLinks(p *page, e *apiEntry, vs []int16) string {
	var parts []string
	for _, v := range vs {
		parts = append(parts, fmt.Sprintf("<a href=\"%s\">v%d</a>", p.href(b.apiPath(e.key, v)), v))
	}
	return strings.Join(parts, ", ")
}

// nextRelease links the releases before and after release i.
func (p *page) nextRelease(i int) {
	b := p.b
	p.WriteString("<p class=\"sibs\">")
	if i > 0 {
		fmt.Fprintf(p, "Previous: <a href=\"%s\">%s</a>", p.href(releasePath(b.sets[i-1].Name)), esc(b.sets[i-1].Name))
	}
	if i+1 < len(b.sets) {
		if i > 0 {
			p.WriteString(" · ")
		}
		fmt.Fprintf(p, "Next: <a href=\"%s\">%s</a>", p.href(releasePath(b.sets[i+1].Name)), esc(b.sets[i+1].Name))
	}
	fmt.Fprintf(p, " · <a href=\"%s\">All releases</a></p>\n", p.href(matrixPath))
}
