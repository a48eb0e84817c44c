//go:build js && wasm

// Command wasm is the explorer page's WebAssembly app: it loads the schema
// sets, builds the state and the controller of package app, and wires the
// page's events to the controller, which draws through package dom. All
// decisions live in app (tested on the host with dom/domtest).
package main

import (
	"runtime/debug"

	"kwire/schemas/sets"
	"kwire/wasm/app"
	"kwire/wasm/dom"
)

func main() {
	start := dom.Now()
	// Parsing the schema set allocates a lot and keeps little: collect
	// less often while starting, then return to the default.
	gc := debug.SetGCPercent(400)
	t0 := dom.Now()
	// The schema sets are not in the binary (it would be 145 KB larger):
	// they come from the site, as one bundle (sets.Bundle).
	bundle, err := dom.Fetch(sets.BundleName)
	dom.Publish("fetchMs", dom.Now()-t0)
	t1 := dom.Now()
	if err == nil {
		err = sets.Provide(bundle)
	}
	if err != nil {
		dom.ByID("status").SetText("kwire could not load the Kafka schemas: " + err.Error())
		return
	}
	dom.Publish("provideMs", dom.Now()-t1)
	t1 = dom.Now()
	sets.Load("")
	dom.Publish("openMs", dom.Now()-t1)
	dom.Publish("loadMs", dom.Now()-t0)
	t0 = dom.Now()
	s, err := app.New("", "JoinGroup")
	dom.Publish("newMs", dom.Now()-t0)
	if err != nil {
		dom.ByID("status").SetText(err.Error())
		return
	}
	var on dom.Listeners
	u := app.NewUI(s, dom.Browser{On: &on})
	listen(&on, u)
	u.Start(dom.Search())
	debug.SetGCPercent(gc)
	dom.Publish("mainAt", start)
	// The whole tree's HTML, for the tests: the page draws the lines in
	// view.
	dom.PublishFunc("treeHTML", s.Tree)
	// And the bytes shown, as hex: the byte view draws the rows in view.
	dom.PublishFunc("hexString", s.HexString)
	dom.Body().SetAttr("data-ready", "1")
	dom.Publish("readyMs", dom.Now())
	dom.Publish("startMs", dom.Now()-start)
	done := make(chan struct{})
	on.On(dom.Window, "pagehide", func(dom.Event) {
		u.FlushQuery()
		select {
		case <-done:
		default:
			close(done)
		}
	}, true)
	<-done
	on.Release()
}

// listen sends the page's events to u.
func listen(on *dom.Listeners, u *app.UI) {
	d := dom.Document
	on.On(d, "input", func(ev dom.Event) { u.Input(ev) }, false)
	on.On(d, "change", func(ev dom.Event) { u.Change(ev) }, false)
	on.On(d, "click", func(ev dom.Event) { u.Click(ev) }, false)
	on.On(d, "keydown", func(ev dom.Event) { u.Key(ev) }, false)
	on.On(d, "paste", func(ev dom.Event) { u.Paste(ev) }, false)
	on.On(d, "dragover", func(ev dom.Event) { ev.PreventDefault() }, false)
	on.On(d, "drop", func(ev dom.Event) { u.Drop(ev) }, false)
	on.On(dom.ByID("hexview"), "scroll", func(dom.Event) { u.ScrollHex() }, true)
	on.On(dom.ByID("tree"), "scroll", func(dom.Event) { u.ScrollTree() }, true)
	on.On(dom.ByID("caplist"), "scroll", func(dom.Event) { u.ScrollCap() }, true)
	on.On(dom.ByID("hexrows"), "mouseover", func(ev dom.Event) { u.HoverByte(ev.Target()) }, true)
	on.On(dom.ByID("tree"), "mouseover", func(ev dom.Event) { u.HoverLine(ev.Target()) }, true)
	// The comparison is filled when opened (and when another API is
	// picked while open).
	on.On(dom.ByID("comparepanel"), "toggle", func(dom.Event) { u.CompareToggled() }, true)
	// The JSON view is filled when opened (and kept up to date while open).
	on.On(dom.ByID("jsonpanel"), "toggle", func(dom.Event) { u.JSONToggled() }, true)
	for _, id := range []string{"hexrows", "tree"} {
		on.On(dom.ByID(id), "mouseleave", func(dom.Event) { u.Leave() }, true)
	}
}
