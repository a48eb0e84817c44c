// Package domtest is a dom.Page for host tests of the explorer's
// controller: it keeps the few elements a test adds (the page's ids, and
// children it places under them) and records every call that changes the
// page, one line each, as a transcript to compare with a golden file.
// It does not parse HTML: what SetHTML writes is recorded (its length, a
// hash and its start), and the element's children are gone.
package domtest

import (
	"fmt"
	"hash/fnv"
	"regexp"
	"strconv"
	"strings"

	"kwire/wasm/dom"
)

// Page is a recording dom.Page.
type Page struct {
	log    []string
	ids    map[string]*Elem
	body   *Elem
	active *Elem
	queue  []func()
}

// IDs returns the ids of the elements of a page's HTML, in order.
func IDs(html string) []string {
	var ids []string
	for _, m := range regexp.MustCompile(`\sid="([^"]+)"`).FindAllStringSubmatch(html, -1) {
		ids = append(ids, m[1])
	}
	return ids
}

// New returns a page with an element (a div) for each id.
func New(ids ...string) *Page {
	p := &Page{ids: map[string]*Elem{}}
	p.body = &Elem{p: p, tag: "body", valid: true, name: "body"}
	p.active = p.body
	for _, id := range ids {
		e := p.Add(p.body, "div", "id", id)
		p.ids[id] = e
	}
	return p
}

// Add places a new element with attributes (name, value pairs; "class"
// sets its classes) under parent, and returns it.
func (p *Page) Add(parent *Elem, tag string, attrs ...string) *Elem {
	e := &Elem{p: p, tag: tag, valid: true, parent: parent, attrs: map[string]string{}, classes: map[string]bool{}, props: map[string]bool{}}
	for i := 0; i+1 < len(attrs); i += 2 {
		if attrs[i] == "class" {
			for _, c := range strings.Fields(attrs[i+1]) {
				e.classes[c] = true
			}
			continue
		}
		e.attrs[attrs[i]] = attrs[i+1]
	}
	if id := e.attrs["id"]; id != "" {
		e.name = "#" + id
		p.ids[id] = e
	} else {
		e.name = parent.name + " > " + tag + e.describe()
	}
	parent.kids = append(parent.kids, e)
	return e
}

// El returns the element with that id (nil when there is none).
func (p *Page) El(id string) *Elem { return p.ids[id] }

// Transcript returns the calls recorded since the last Transcript, one a
// line, and forgets them.
func (p *Page) Transcript() string {
	s := strings.Join(p.log, "\n")
	if s != "" {
		s += "\n"
	}
	p.log = nil
	return s
}

// Note adds a line to the transcript (a test's event, say).
func (p *Page) Note(s string) { p.log = append(p.log, s) }

// Run calls the timers, frames and yields asked for, in order, and those
// they ask for, at most n in all; it returns how many it called.
func (p *Page) Run(n int) int {
	i := 0
	for ; i < n && len(p.queue) > 0; i++ {
		f := p.queue[0]
		p.queue = p.queue[1:]
		f()
	}
	return i
}

func (p *Page) record(format string, args ...any) {
	p.log = append(p.log, fmt.Sprintf(format, args...))
}

// ByID returns the element with that id, or none.
func (p *Page) ByID(id string) dom.Elem {
	if e := p.ids[id]; e != nil {
		return e
	}
	return none
}

// Active returns the focused element (the body when none is).
func (p *Page) Active() dom.Elem { return p.active }

// Now is always 0: the transcripts hold no times.
func (p *Page) Now() float64 { return 0 }

// Publish records the name, and the value unless it is a time (a name
// that ends in "Ms" or "At").
func (p *Page) Publish(name string, value any) {
	if strings.HasSuffix(name, "Ms") || strings.HasSuffix(name, "At") {
		p.record("publish %s", name)
		return
	}
	p.record("publish %s = %v", name, value)
}

// After records the delay (ms) and queues f for Run.
func (p *Page) After(ms int, f func()) {
	p.record("after %dms", ms)
	p.queue = append(p.queue, f)
}

// Frame queues f for Run.
func (p *Page) Frame(f func()) {
	p.record("frame")
	p.queue = append(p.queue, f)
}

// Later queues f for Run.
func (p *Page) Later(f func()) {
	p.record("later")
	p.queue = append(p.queue, f)
}

// CopyText records what was copied.
func (p *Page) CopyText(s string) { p.record("copy %s", short(s)) }

// Href is a fixed address.
func (p *Page) Href() string { return "http://127.0.0.1/explorer/" }

// ReplaceQuery records the query.
func (p *Page) ReplaceQuery(q string) { p.record("address ?%s", short(q)) }

// short quotes s, or for a long s (over 2,000 bytes: a tree, a form) its
// length, hash and start.
func short(s string) string {
	if len(s) <= 2000 {
		return strconv.Quote(s)
	}
	h := fnv.New32a()
	h.Write([]byte(s))
	return fmt.Sprintf("%d bytes %08x %q…", len(s), h.Sum32(), s[:80])
}

// Event is a dom.Ev that a test makes.
type Event struct {
	T         *Elem
	K         string // the key pressed
	Ctrl      bool   // with Ctrl (or ⌘)
	Clipboard string // the text pasted
	// Files dropped (nil: none), whether they came in folders, and the
	// error of reading them.
	Files     map[string][]byte
	Dirs      bool
	ReadErr   string
	Prevented bool
}

// Target is T.
func (ev *Event) Target() dom.Elem { return ev.T }

// Key is K.
func (ev *Event) Key() string { return ev.K }

// Mod is Ctrl.
func (ev *Event) Mod() bool { return ev.Ctrl }

// PreventDefault records that the default was prevented.
func (ev *Event) PreventDefault() {
	ev.Prevented = true
	ev.T.p.record("prevent default")
}

// ClipboardText is Clipboard.
func (ev *Event) ClipboardText() string { return ev.Clipboard }

// HasFiles reports whether files were dropped.
func (ev *Event) HasFiles() bool { return ev.Files != nil }

// ReadDroppedTree calls done with the files at once.
func (ev *Event) ReadDroppedTree(done func(files map[string][]byte, dirs bool, err string)) {
	done(ev.Files, ev.Dirs, ev.ReadErr)
}

var (
	_ dom.Page = (*Page)(nil)
	_ dom.Elem = (*Elem)(nil)
	_ dom.Ev   = (*Event)(nil)
)
