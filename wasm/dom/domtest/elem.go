package domtest

import (
	"strconv"
	"strings"

	"kwire/wasm/dom"
)

// Elem is an element of a Page (or none: Valid is false, and every call
// on it does nothing, as on a missing element in the browser).
type Elem struct {
	p       *Page
	name    string // how the transcript names it
	tag     string
	valid   bool
	parent  *Elem
	kids    []*Elem
	attrs   map[string]string
	classes map[string]bool
	props   map[string]bool
	value   string
	checked bool

	// Scroll is the scroll position, Height the visible height, Top the
	// top edge below the offset parent's: set them to lay the page out.
	Scroll, Height, Top float64
	// File is the file chosen in a file input, read by ReadFile.
	File     []byte
	FileName string
}

var none = &Elem{name: "(none)"}

func (e *Elem) describe() string {
	var b strings.Builder
	for _, k := range sortedKeys(e.classes) {
		b.WriteString("." + k)
	}
	for _, k := range sortedKeys(e.attrs) {
		b.WriteString("[" + k + "=" + strconv.Quote(e.attrs[k]) + "]")
	}
	return b.String()
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ {
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	return keys
}

func (e *Elem) record(op string, args ...any) {
	if e.valid {
		e.p.record("%s "+op, append([]any{e.name}, args...)...)
	}
}

// Valid reports whether e is an element.
func (e *Elem) Valid() bool { return e.valid }

// SetHTML records the HTML; e's children are gone.
func (e *Elem) SetHTML(h string) {
	e.record("html %s", short(h))
	e.kids = nil
}

// Child returns the i-th child added.
func (e *Elem) Child(i int) dom.Elem {
	if i < 0 || i >= len(e.kids) {
		return none
	}
	return e.kids[i]
}

// SetOuterHTML records the HTML.
func (e *Elem) SetOuterHTML(h string) { e.record("outer html %s", short(h)) }

// SetText records the text.
func (e *Elem) SetText(s string) { e.record("text %s", short(s)) }

// Attr returns an attribute ("" when absent).
func (e *Elem) Attr(name string) string {
	if name == "id" && e.valid {
		return e.attrs["id"]
	}
	return e.attrs[name]
}

// SetAttr sets and records an attribute.
func (e *Elem) SetAttr(name, value string) {
	if e.valid {
		e.attrs[name] = value
	}
	e.record("%s=%q", name, value)
}

// RemoveAttr removes and records an attribute.
func (e *Elem) RemoveAttr(name string) {
	if e.valid {
		delete(e.attrs, name)
	}
	e.record("remove %s", name)
}

// Toggle adds or removes a class, recorded when it changes.
func (e *Elem) Toggle(class string, on bool) {
	if !e.valid || e.classes[class] == on {
		return
	}
	e.classes[class] = on
	if !on {
		delete(e.classes, class)
	}
	e.record("class %s %v", class, on)
}

// Has reports whether e has a class.
func (e *Elem) Has(class string) bool { return e.classes[class] }

// Value is the value of an input.
func (e *Elem) Value() string { return e.value }

// SetValue sets and records the value.
func (e *Elem) SetValue(s string) {
	if e.valid {
		e.value = s
	}
	e.record("value %s", short(s))
}

// Checked is a checkbox's state.
func (e *Elem) Checked() bool { return e.checked }

// SetChecked sets a checkbox's state (for the test, not recorded).
func (e *Elem) SetChecked(on bool) { e.checked = on }

// Prop reads a boolean property.
func (e *Elem) Prop(name string) bool { return e.props[name] }

// SetProp sets a boolean property, recorded when it changes.
func (e *Elem) SetProp(name string, on bool) {
	if !e.valid || e.props[name] == on {
		return
	}
	e.props[name] = on
	e.record("%s %v", name, on)
}

// Tag is the tag name.
func (e *Elem) Tag() string { return e.tag }

// ID is the id.
func (e *Elem) ID() string { return e.Attr("id") }

// Focus focuses e.
func (e *Elem) Focus() {
	if e.valid {
		e.p.active = e
	}
	e.record("focus")
}

// Closest returns e or its nearest ancestor that matches sel.
func (e *Elem) Closest(sel string) dom.Elem {
	for a := e; a != nil && a.valid; a = a.parent {
		if a.matches(sel) {
			return a
		}
	}
	return none
}

// Query returns the first descendant that matches sel; a miss is
// recorded (what the page would have found had it been drawn).
func (e *Elem) Query(sel string) dom.Elem {
	if all := e.queryAll(sel, true); len(all) > 0 {
		return all[0]
	}
	e.record("query %s: none", sel)
	return none
}

// QueryAll returns the descendants that match sel.
func (e *Elem) QueryAll(sel string) []dom.Elem { return e.queryAll(sel, false) }

func (e *Elem) queryAll(sel string, first bool) []dom.Elem {
	var out []dom.Elem
	var walk func(*Elem) bool
	walk = func(n *Elem) bool {
		for _, k := range n.kids {
			if k.matches(sel) {
				out = append(out, k)
				if first {
					return true
				}
			}
			if walk(k) {
				return true
			}
		}
		return false
	}
	walk(e)
	return out
}

// ScrollTop is Scroll.
func (e *Elem) ScrollTop() float64 { return e.Scroll }

// SetScrollTop sets and records Scroll.
func (e *Elem) SetScrollTop(y float64) {
	e.Scroll = y
	e.record("scroll %v", y)
}

// ClientHeight is Height.
func (e *Elem) ClientHeight() float64 { return e.Height }

// OffsetTop is Top.
func (e *Elem) OffsetTop() float64 { return e.Top }

// SetStyle records a CSS property.
func (e *Elem) SetStyle(prop, value string) { e.record("style %s: %s", prop, value) }

// ScrollIntoView records the scroll.
func (e *Elem) ScrollIntoView() { e.record("scroll into view") }

// SetSelection records the selection.
func (e *Elem) SetSelection(start, end int) { e.record("select %d-%d", start, end) }

// Int reads an integer attribute.
func (e *Elem) Int(attr string) (int, bool) {
	n, err := strconv.Atoi(e.attrs[attr])
	return n, err == nil
}

// ReadFile calls done with File.
func (e *Elem) ReadFile(done func(name string, b []byte, err string)) bool {
	if !e.valid || e.File == nil {
		return false
	}
	done(e.FileName, e.File, "")
	return true
}

// matches reports whether e matches a compound selector: a tag, #id,
// .class, [attr], [attr="value"] and :not(...) of one of these, in a
// sequence without combinators.
func (e *Elem) matches(sel string) bool {
	for sel != "" {
		var ok bool
		switch {
		case strings.HasPrefix(sel, ":not("):
			end := strings.IndexByte(sel, ')')
			if end < 0 {
				return false
			}
			ok = !e.matches(sel[5:end])
			sel = sel[end+1:]
		case sel[0] == '[':
			end := strings.IndexByte(sel, ']')
			if end < 0 {
				return false
			}
			name, val, hasVal := strings.Cut(sel[1:end], "=")
			v, has := e.attrs[name]
			if hasVal {
				uq, err := strconv.Unquote(val)
				if err != nil {
					uq = val
				}
				ok = has && v == uq
			} else {
				ok = has
			}
			sel = sel[end+1:]
		default:
			n := 1
			for n < len(sel) && !strings.ContainsRune("#.[:", rune(sel[n])) {
				n++
			}
			word := sel[:n]
			switch word[0] {
			case '#':
				ok = e.attrs["id"] == word[1:]
			case '.':
				ok = e.classes[word[1:]]
			default:
				ok = e.tag == word
			}
			sel = sel[n:]
		}
		if !ok {
			return false
		}
	}
	return true
}

// Type sets e's value as a person typing would, noted in the transcript
// as an input rather than as the page's call.
func (e *Elem) Type(s string) {
	e.value = s
	if e.valid {
		e.p.Note("(typed into " + e.name + ": " + short(s) + ")")
	}
}
