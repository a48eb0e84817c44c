package site

import (
	"fmt"
	"strconv"

	"kwire/schemas/atlas"
)

// addressesPath is the address atlas's page.
const addressesPath = Root + "/addresses.html"

// addressesPage lists the fields of every release that carry a broker's
// host, port, node id, listener or rack (schemas/atlas), newest release
// first, each with its versions and the release that added it, and then
// what each release added.
func (b *builder) addressesPage() ([]byte, error) {
	at := atlas.Build(b.rels, b.sets)
	newest := b.newest()
	p := &page{b: b, set: newest, all: true, path: addressesPath}
	p.head("Address atlas")
	fs := at.Fields[newest.Name]
	fmt.Fprintf(p, "<h1>Address atlas</h1>\n<p class=\"lead\">Every field of release %s that carries a host, a port, a node id, "+
		"a listener or a rack (%d fields), found in the schemas by their entityType (brokerId), names and about texts, "+
		"tagged fields and common structs included: what a proxy must rewrite in responses (the hosts and ports), and what "+
		"names brokers. <code>kwire fields --addresses</code> prints it for any release; <code>kwire capture --advertised</code> "+
		"checks a capture's responses against it. The last column is the oldest release that has the field (%s: in %s or before).</p>\n",
		esc(newest.Name), len(fs), esc("≤"+b.sets[0].Name), esc(b.sets[0].Name))
	p.WriteString("<p>Fields per release: ")
	for i := len(at.Releases) - 1; i >= 0; i-- {
		r := at.Releases[i]
		sep := ", "
		if i == 0 {
			sep = ".</p>\n"
		}
		fmt.Fprintf(p, "%s %d (%d new)%s", esc(r.Name), len(at.Fields[r.Name]), len(at.New(r.Name)), sep)
	}
	p.WriteString("<table class=\"apis addresses\">\n<thead><tr><th>Key</th><th>API</th><th>Direction</th><th>Path</th>" +
		"<th>Kind</th><th>Type</th><th>Versions</th><th>Tag</th><th>About</th><th>Added</th></tr></thead>\n<tbody>\n")
	for _, f := range fs {
		tag, added := "", f.Added
		if f.Tag >= 0 {
			tag = strconv.Itoa(f.Tag)
		}
		if added == b.sets[0].Name {
			added = "≤" + added
		}
		path := f.Path
		if f.Common != "" {
			path += " (" + f.Common + ")"
		}
		fmt.Fprintf(p, "<tr><td>%d</td><td><a href=\"%s\">%s</a></td><td>%s</td><td><code>%s</code></td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>\n",
			f.Key, p.href(b.apiPath(f.Key, f.Versions.Hi)), esc(f.API), f.Dir, esc(path), f.Kind, esc(f.Type), f.Versions, tag, esc(f.About), esc(added))
	}
	p.WriteString("</tbody>\n</table>\n")
	for i := len(at.Releases) - 1; i > 0; i-- {
		r := at.Releases[i]
		fmt.Fprintf(p, "<h2 id=\"new-%s\">New in %s</h2>\n", esc(r.Name), esc(r.Name))
		nf := at.New(r.Name)
		if len(nf) == 0 {
			p.WriteString("<p>No new address field.</p>\n")
			continue
		}
		p.WriteString("<ul>\n")
		for _, f := range nf {
			fmt.Fprintf(p, "<li>%s %s <code>%s</code> (%s, v%s)</li>\n", esc(f.API), f.Dir, esc(f.Path), f.Kind, f.Versions)
		}
		p.WriteString("</ul>\n")
	}
	return p.foot(), nil
}
