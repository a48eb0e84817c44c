//go:build js

package sets

import "io/fs"

// The browser app has no embedded sets: it fetches them (Provide).
func embedded() fs.FS { return memFS{} }
