//go:build !js

package sets

import (
	"embed"
	"io/fs"
)

//go:embed all:data
var files embed.FS

func embedded() fs.FS { return files }
