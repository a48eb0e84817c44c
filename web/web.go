// Package web holds the explorer's static files: index.html, kwire.css
// (shared with the docs pages), the scripts that load the WebAssembly app
// and pick the theme, the offline service worker and the icon. `kwire
// site` copies them to the top of the site, next to kwire.wasm and
// wasm_exec.js.
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
