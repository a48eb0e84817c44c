// Package web holds the explorer's static files: index.html, kwire.css
// (shared with the docs pages), the scripts that load the WebAssembly app
// and pick the theme, the offline service worker and the icon. `kwire
// site` copies them to the top of the site, next to kwire.wasm and
// wasm_exec.js.
//
// The explorer's static files (page, styles shared with the docs, service
// worker), embedded for kwire site. The service worker is network first, but
// answers with its cached copy when the network's has the same ETag: that
// copy is stored decoded, and reading it spares inflating kwire.wasm's 6.4
// MB from the HTTP cache's gzip (its body in about 50 ms rather than 115 on
// a busy machine). Chromium 156 keeps no compiled code for kwire.wasm either
// way (its trace shows no v8.wasm.cachedModule even after seconds on the
// page): V8 compiles its functions lazily, on their first call, about 1,000
// of them (1.2 MB of code) before the first render. app.js runs first
// (async): it starts compiling kwire.wasm and reading the schema bundle at
// once, instantiates it when the page is parsed (wasm_exec.js deferred),
// hands dom.Fetch the bundle's bytes, and registers the service worker once
// the page is drawn (its install fetched kwire.wasm again while a first
// visit started).
package web

import (
	"embed"
	"io/fs"
)

//go:embed static
var static embed.FS

// Files returns the explorer's static files, at the top of the FS.
func Files() fs.FS {
	sub, err := fs.Sub(static, "static")
	if err != nil {
		panic(err) // the embedded tree always has static/
	}
	return sub
}
