package main

import "io/fs"

// explorerFiles are the explorer's static files that `kwire site` copies to
// the top of the site; nil until package web provides them.
func explorerFiles() fs.FS { return nil }
