package main

import (
	"io/fs"

	"kwire/web"
)

// explorerFiles are the explorer's static files that `kwire site` copies to
// the top of the site, next to kwire.wasm and wasm_exec.js.
func explorerFiles() fs.FS { return web.Files() }
