//go:build js && wasm

// Package dom is the explorer's small typed layer over syscall/js: elements,
// their attributes, classes and contents, events, and the few browser
// services the page uses (location, history, clipboard, storage). Every
// callback it registers is released by Release.
package dom

import (
	"syscall/js"
	"time"

	"kwire/internal/textesc"
	"kwire/internal/xfmt"
)

var (
	global   = js.Global()
	document = global.Get("document")
)

// Element is a DOM element (or the null value when none was found).
type Element struct{ v js.Value }

// Valid reports whether e is an element.
func (e Element) Valid() bool { return e.v.Truthy() }

// ByID returns the element with that id.
func ByID(id string) Element { return Element{document.Call("getElementById", id)} }

// Body returns the document's body.
func Body() Element { return Element{document.Get("body")} }

// Root returns the document element (<html>).
func Root() Element { return Element{document.Get("documentElement")} }

// Active returns the focused element.
func Active() Element { return Element{document.Get("activeElement")} }

// SetHTML replaces the element's contents with HTML built by package
// render or app (which escape all text).
func (e Element) SetHTML(h string) {
	if e.Valid() {
		e.v.Set("innerHTML", h)
	}
}

// Child returns the element's i-th child element.
func (e Element) Child(i int) Elem {
	if !e.Valid() {
		return e
	}
	return Element{e.v.Get("children").Index(i)}
}

// SetOuterHTML replaces the element itself with HTML built by package
// render or app (which escape all text).
func (e Element) SetOuterHTML(h string) {
	if e.Valid() {
		e.v.Set("outerHTML", h)
	}
}

// SetText replaces the element's contents with text, escaped visibly by
// textesc.Escape (the text may quote a draft's names: a bidi override or a
// control must show as an escape, not act).
func (e Element) SetText(s string) {
	if e.Valid() {
		e.v.Set("textContent", textesc.Escape(s))
	}
}

// Attr returns an attribute ("" when absent).
func (e Element) Attr(name string) string {
	if !e.Valid() {
		return ""
	}
	v := e.v.Call("getAttribute", name)
	if v.IsNull() {
		return ""
	}
	return v.String()
}

// HasAttr reports whether the element has the attribute.
func (e Element) HasAttr(name string) bool {
	return e.Valid() && e.v.Call("hasAttribute", name).Bool()
}

// SetAttr sets an attribute.
func (e Element) SetAttr(name, value string) {
	if e.Valid() {
		e.v.Call("setAttribute", name, value)
	}
}

// RemoveAttr removes an attribute.
func (e Element) RemoveAttr(name string) {
	if e.Valid() {
		e.v.Call("removeAttribute", name)
	}
}

// Toggle adds or removes a class.
func (e Element) Toggle(class string, on bool) {
	if e.Valid() {
		e.v.Get("classList").Call("toggle", class, on)
	}
}

// Has reports whether the element has a class.
func (e Element) Has(class string) bool {
	return e.Valid() && e.v.Get("classList").Call("contains", class).Bool()
}

// Value is the value of an input, select or textarea.
func (e Element) Value() string {
	if !e.Valid() {
		return ""
	}
	return e.v.Get("value").String()
}

// SetValue sets the value of an input, select or textarea.
func (e Element) SetValue(s string) {
	if e.Valid() {
		e.v.Set("value", s)
	}
}

// Checked is the state of a checkbox.
func (e Element) Checked() bool { return e.Valid() && e.v.Get("checked").Bool() }

// SetChecked sets the state of a checkbox.
func (e Element) SetChecked(on bool) {
	if e.Valid() {
		e.v.Set("checked", on)
	}
}

// Prop reads a boolean property ("open" of a details element).
func (e Element) Prop(name string) bool { return e.Valid() && e.v.Get(name).Truthy() }

// SetProp sets a boolean property.
func (e Element) SetProp(name string, on bool) {
	if e.Valid() {
		e.v.Set(name, on)
	}
}

// Tag is the element's tag name, lower case.
func (e Element) Tag() string {
	if !e.Valid() || e.v.Get("tagName").IsUndefined() {
		return ""
	}
	return js.Global().Get("String").Invoke(e.v.Get("tagName")).Call("toLowerCase").String()
}

// ID is the element's id.
func (e Element) ID() string { return e.Attr("id") }

// Focus focuses the element.
func (e Element) Focus() {
	if e.Valid() {
		e.v.Call("focus")
	}
}

// Select selects the text of an input.
func (e Element) Select() {
	if e.Valid() && !e.v.Get("select").IsUndefined() {
		e.v.Call("select")
	}
}

// Closest returns the nearest ancestor (or e) matching a selector.
func (e Element) Closest(sel string) Elem {
	if !e.Valid() || e.v.Get("closest").IsUndefined() {
		return Element{js.Null()}
	}
	return Element{e.v.Call("closest", sel)}
}

// Query returns the first descendant matching a selector.
func (e Element) Query(sel string) Elem {
	if !e.Valid() {
		return Element{js.Null()}
	}
	return Element{e.v.Call("querySelector", sel)}
}

// QueryAll returns the descendants matching a selector.
func (e Element) QueryAll(sel string) []Elem {
	if !e.Valid() {
		return nil
	}
	list := e.v.Call("querySelectorAll", sel)
	out := make([]Elem, list.Length())
	for i := range out {
		out[i] = Element{list.Index(i)}
	}
	return out
}

// ScrollTop is the element's vertical scroll position.
func (e Element) ScrollTop() float64 {
	if !e.Valid() {
		return 0
	}
	return e.v.Get("scrollTop").Float()
}

// SetScrollTop scrolls the element.
func (e Element) SetScrollTop(y float64) {
	if e.Valid() {
		e.v.Set("scrollTop", y)
	}
}

// ClientHeight is the element's visible height.
func (e Element) ClientHeight() float64 {
	if !e.Valid() {
		return 0
	}
	return e.v.Get("clientHeight").Float()
}

// OffsetTop is the element's top edge below its offset parent's.
func (e Element) OffsetTop() float64 {
	if !e.Valid() {
		return 0
	}
	return e.v.Get("offsetTop").Float()
}

// SetStyle sets one CSS property.
func (e Element) SetStyle(prop, value string) {
	if e.Valid() {
		e.v.Get("style").Call("setProperty", prop, value)
	}
}

// ScrollIntoView scrolls the element into view if it is not.
func (e Element) ScrollIntoView() {
	if e.Valid() {
		e.v.Call("scrollIntoView", map[string]any{"block": "nearest"})
	}
}

// Event is a DOM event.
type Event struct{ v js.Value }

// Target is the element the event happened on.
func (ev Event) Target() Elem { return Element{ev.v.Get("target")} }

// Type is the event type.
func (ev Event) Type() string { return ev.v.Get("type").String() }

// Key is a keyboard event's key.
func (ev Event) Key() string {
	k := ev.v.Get("key")
	if k.IsUndefined() {
		return ""
	}
	return k.String()
}

// Mod reports whether Ctrl or Meta is held.
func (ev Event) Mod() bool { return ev.v.Get("ctrlKey").Truthy() || ev.v.Get("metaKey").Truthy() }

// PreventDefault stops the browser's default action.
func (ev Event) PreventDefault() { ev.v.Call("preventDefault") }

// ClipboardText is the text of a paste event.
func (ev Event) ClipboardText() string {
	cd := ev.v.Get("clipboardData")
	if !cd.Truthy() {
		return ""
	}
	return cd.Call("getData", "text").String()
}

// HasFiles reports whether a drag or drop event carries files.
func (ev Event) HasFiles() bool {
	dt := ev.v.Get("dataTransfer")
	return dt.Truthy() && dt.Get("files").Truthy() && dt.Get("files").Length() > 0
}

// ReadDroppedFile reads the first file of a drop event and calls done
// with its bytes (or an error message).
func (ev Event) ReadDroppedFile(done func(b []byte, err string)) {
	readFile(ev.v.Get("dataTransfer").Get("files").Index(0), done)
}

// ReadFile reads the first file chosen in a file input and calls done
// with its name and bytes (or an error message); false when none is
// chosen.
func (e Element) ReadFile(done func(name string, b []byte, err string)) bool {
	files := e.v.Get("files")
	if !files.Truthy() || files.Length() == 0 {
		return false
	}
	f := files.Index(0)
	name := f.Get("name").String()
	readFile(f, func(b []byte, err string) { done(name, b, err) })
	return true
}

func readFile(f js.Value, done func(b []byte, err string)) {
	var then, fail js.Func
	release := func() { then.Release(); fail.Release() }
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer release()
		u8 := global.Get("Uint8Array").New(args[0])
		b := make([]byte, u8.Length())
		js.CopyBytesToGo(b, u8)
		done(b, "")
		return nil
	})
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer release()
		done(nil, js.Global().Get("String").Invoke(args[0]).String())
		return nil
	})
	f.Call("arrayBuffer").Call("then", then, fail)
}

// ReadDroppedTree reads every file a drop event carries, the files of
// dropped folders included (by the page's kwireReadDrop), and calls done
// with them by path, whether a folder was among them, or an error
// message. It must be called while the event is dispatched.
func (ev Event) ReadDroppedTree(done func(files map[string][]byte, dirs bool, err string)) {
	p := global.Call("kwireReadDrop", ev.v.Get("dataTransfer"))
	var then, fail js.Func
	release := func() { then.Release(); fail.Release() }
	then = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer release()
		list := args[0].Get("files")
		files := make(map[string][]byte, list.Length())
		for i := range list.Length() {
			pair := list.Index(i)
			u8 := pair.Index(1)
			b := make([]byte, u8.Length())
			js.CopyBytesToGo(b, u8)
			files[pair.Index(0).String()] = b
		}
		done(files, args[0].Get("dirs").Bool(), "")
		return nil
	})
	fail = js.FuncOf(func(_ js.Value, args []js.Value) any {
		defer release()
		done(nil, false, js.Global().Get("String").Invoke(args[0]).String())
		return nil
	})
	p.Call("then", then, fail)
}

// Listeners holds registered callbacks until Release.
type Listeners struct{ funcs []js.Func }

// On listens for an event on target (an Element, or Window/Document).
func (l *Listeners) On(target Target, event string, f func(Event), passive bool) {
	fn := js.FuncOf(func(_ js.Value, args []js.Value) any {
		f(Event{args[0]})
		return nil
	})
	l.funcs = append(l.funcs, fn)
	target.value().Call("addEventListener", event, fn, map[string]any{"passive": passive})
}

// Frame calls f on the next animation frame, once.
func (l *Listeners) Frame(f func()) {
	var fn js.Func
	fn = js.FuncOf(func(js.Value, []js.Value) any {
		fn.Release()
		f()
		return nil
	})
	global.Call("requestAnimationFrame", fn)
}

// Later calls f once the browser has handled pending events (a
// setTimeout of 0), so that long work done in steps keeps the page
// responsive.
func (l *Listeners) Later(f func()) {
	var fn js.Func
	fn = js.FuncOf(func(js.Value, []js.Value) any {
		fn.Release()
		f()
		return nil
	})
	global.Call("setTimeout", fn, 0)
}

// Release releases every callback.
func (l *Listeners) Release() {
	for _, f := range l.funcs {
		f.Release()
	}
	l.funcs = nil
}

// Target is something events can be listened on.
type Target interface{ value() js.Value }

func (e Element) value() js.Value { return e.v }

type window struct{}

func (window) value() js.Value { return global }

// Window is the window, as an event target.
var Window Target = window{}

type doc struct{}

func (doc) value() js.Value { return document }

// Document is the document, as an event target.
var Document Target = doc{}

// Search is location.search ("?set=...").
func Search() string { return global.Get("location").Get("search").String() }

// Href is the page's address.
func Href() string { return global.Get("location").Get("href").String() }

// ReplaceQuery sets the page's query without reloading or adding history.
func ReplaceQuery(q string) {
	loc := global.Get("location")
	global.Get("history").Call("replaceState", nil, "", loc.Get("pathname").String()+"?"+q)
}

// CopyText puts text on the clipboard; it falls back to a hidden textarea
// where the clipboard API is not available (plain http).
func CopyText(s string) {
	nav := global.Get("navigator")
	if cb := nav.Get("clipboard"); cb.Truthy() && global.Get("isSecureContext").Truthy() {
		cb.Call("writeText", s)
		return
	}
	ta := document.Call("createElement", "textarea")
	ta.Set("value", s)
	document.Get("body").Call("appendChild", ta)
	ta.Call("select")
	document.Call("execCommand", "copy")
	ta.Call("remove")
}

// Stored reads localStorage ("" when absent or unavailable).
func Stored(key string) string {
	ls := global.Get("localStorage")
	if !ls.Truthy() {
		return ""
	}
	v := ls.Call("getItem", key)
	if v.IsNull() {
		return ""
	}
	return v.String()
}

// Store writes localStorage.
func Store(key, value string) {
	if ls := global.Get("localStorage"); ls.Truthy() {
		ls.Call("setItem", key, value)
	}
}

// PrefersDark reports the system's colour scheme.
func PrefersDark() bool {
	return global.Call("matchMedia", "(prefers-color-scheme: dark)").Get("matches").Bool()
}

// Now is performance.now() in milliseconds.
func Now() float64 { return global.Get("performance").Call("now").Float() }

// Publish sets window.kwire[name] = value, for tests and benchmarks.
func Publish(name string, value any) {
	k := global.Get("kwire")
	if !k.Truthy() {
		k = global.Get("Object").New()
		global.Set("kwire", k)
	}
	k.Set(name, value)
}

// PublishFunc sets window.kwire[name] to a function that returns f's
// text, for tests. The function lives as long as the page.
func PublishFunc(name string, f func() string) {
	Publish(name, js.FuncOf(func(js.Value, []js.Value) any { return f() }))
}

// SetSelection selects characters [start, end) of a text input or
// textarea.
func (e Element) SetSelection(start, end int) {
	if e.Valid() && !e.v.Get("setSelectionRange").IsUndefined() {
		e.v.Call("setSelectionRange", start, end)
	}
}

// Int reads a numeric attribute; ok is false when it is absent or bad.
func (e Element) Int(attr string) (int, bool) {
	s := e.Attr(attr)
	if s == "" {
		return 0, false
	}
	n := 0
	neg := false
	for i, c := range s {
		switch {
		case c == '-' && i == 0:
			neg = true
		case c >= '0' && c <= '9':
			n = n*10 + int(c-'0')
		default:
			return 0, false
		}
	}
	if neg {
		n = -n
	}
	return n, true
}

// Log writes to the browser console.
func Log(args ...any) { global.Get("console").Call("log", args...) }

// bytesOf copies an ArrayBuffer into Go.
func bytesOf(buf js.Value) []byte {
	arr := global.Get("Uint8Array").New(buf)
	b := make([]byte, arr.Get("length").Int())
	js.CopyBytesToGo(b, arr)
	return b
}

// Fetch gets a file of the site and returns its bytes; it blocks the
// calling goroutine (not the page) until the response has arrived. What
// the loader got early (window.kwirePrefetch[url]: the file's bytes, an
// ArrayBuffer, as app.js reads the schema bundle while kwire.wasm
// compiles, or a promise of the response) is taken, once, instead of a
// new fetch.
func Fetch(url string) ([]byte, error) {
	type result struct {
		b   []byte
		err error
	}
	done := make(chan result, 1)
	var onBody, onResponse, onError js.Func
	release := func() { onBody.Release(); onResponse.Release(); onError.Release() }
	onError = js.FuncOf(func(_ js.Value, args []js.Value) any {
		msg := "fetch failed"
		if len(args) > 0 {
			msg = args[0].Call("toString").String()
		}
		done <- result{err: xfmt.Errorf("%s: %s", url, msg)}
		return nil
	})
	onBody = js.FuncOf(func(_ js.Value, args []js.Value) any {
		done <- result{b: bytesOf(args[0])}
		return nil
	})
	onResponse = js.FuncOf(func(_ js.Value, args []js.Value) any {
		resp := args[0]
		if !resp.Get("ok").Bool() {
			done <- result{err: xfmt.Errorf("%s: HTTP %d", url, resp.Get("status").Int())}
			return nil
		}
		resp.Call("arrayBuffer").Call("then", onBody, onError)
		return nil
	})
	var resp js.Value
	if early := global.Get("kwirePrefetch"); early.Truthy() && early.Get(url).Truthy() {
		resp = early.Get(url)
		early.Delete(url)
		if resp.InstanceOf(global.Get("ArrayBuffer")) {
			// Read already: no turn of the event loop to wait for.
			release()
			return bytesOf(resp), nil
		}
	} else {
		resp = global.Call("fetch", url)
	}
	resp.Call("then", onResponse, onError)
	r := <-done
	release()
	return r.b, r.err
}

// Browser is the Page of the document this app runs in; its callbacks
// are released with its Listeners'.
type Browser struct{ On *Listeners }

// ByID returns the element with that id.
func (Browser) ByID(id string) Elem { return ByID(id) }

// Active returns the focused element.
func (Browser) Active() Elem { return Active() }

// Now is performance.now(), in milliseconds.
func (Browser) Now() float64 { return Now() }

// Publish sets kwire.name.
func (Browser) Publish(name string, value any) { Publish(name, value) }

// After calls f after ms milliseconds.
func (Browser) After(ms int, f func()) { time.AfterFunc(time.Duration(ms)*time.Millisecond, f) }

// Frame calls f before the next frame.
func (b Browser) Frame(f func()) { b.On.Frame(f) }

// Later calls f after the browser has drawn and handled its events.
func (b Browser) Later(f func()) { b.On.Later(f) }

// CopyText copies s to the clipboard.
func (Browser) CopyText(s string) { CopyText(s) }

// Href is the page's address.
func (Browser) Href() string { return Href() }

// ReplaceQuery writes q into the address.
func (Browser) ReplaceQuery(q string) { ReplaceQuery(q) }

var (
	_ Page = Browser{}
	_ Elem = Element{}
	_ Ev   = Event{}
)
