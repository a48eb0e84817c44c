// The interface of the page that the explorer's controller (wasm/app's
// UI) draws through: Element, Event and Browser implement it in the
// browser, package domtest on the host, where it records the calls.

package dom

// Elem is an element of the page (or none: Valid is false).
type Elem interface {
	Valid() bool
	SetHTML(h string)
	Child(i int) Elem
	SetOuterHTML(h string)
	SetText(s string)
	Attr(name string) string
	SetAttr(name, value string)
	RemoveAttr(name string)
	Toggle(class string, on bool)
	Has(class string) bool
	Value() string
	SetValue(s string)
	Checked() bool
	Prop(name string) bool
	SetProp(name string, on bool)
	Tag() string
	ID() string
	Focus()
	Closest(sel string) Elem
	Query(sel string) Elem
	QueryAll(sel string) []Elem
	ScrollTop() float64
	SetScrollTop(y float64)
	ClientHeight() float64
	OffsetTop() float64
	SetStyle(prop, value string)
	ScrollIntoView()
	SetSelection(start, end int)
	Int(attr string) (int, bool)
	// ReadFile reads the file chosen in a file input and calls done.
	ReadFile(done func(name string, b []byte, err string)) bool
}

// Ev is an event: its target, the key pressed, what was pasted or dropped.
type Ev interface {
	Target() Elem
	Key() string
	Mod() bool
	PreventDefault()
	ClipboardText() string
	HasFiles() bool
	ReadDroppedTree(done func(files map[string][]byte, dirs bool, err string))
}

// Page is the document and the browser's services the controller uses:
// elements by id, the focused one, the clock, timers, the clipboard, the
// address.
type Page interface {
	ByID(id string) Elem
	Active() Elem
	Now() float64
	// Publish sets kwire.name for the tests and benchmarks.
	Publish(name string, value any)
	// After calls f after ms milliseconds.
	After(ms int, f func())
	// Frame calls f before the next frame is drawn.
	Frame(f func())
	// Later calls f after the browser has drawn and handled its events.
	Later(f func())
	CopyText(s string)
	Href() string
	ReplaceQuery(q string)
}
