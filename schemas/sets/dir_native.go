//go:build !js

package sets

import (
	"fmt"
	"os"
	"path/filepath"
)

// UseDir replaces the sets with schemas read from a folder at run time:
// a folder of sets (each a folder with message/, as ../shared/kafka),
// one set (a folder with message/; named after the folder), or a folder
// of schema JSON itself (a Kafka checkout's
// clients/src/main/resources/common/message; named "custom"). Sets
// already loaded are forgotten.
func UseDir(dir string) error {
	m, err := readDir(os.DirFS(dir), filepath.Base(filepath.Clean(dir)), "custom")
	if err != nil {
		return fmt.Errorf("--schemas %s: %w", dir, err)
	}
	mu.Lock()
	defer mu.Unlock()
	use(m)
	return nil
}
