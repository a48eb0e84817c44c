//go:build js

package otlp

import (
	"strings"
	"testing"

	"kwire/tree"
)

// In the browser the metrics stay bytes, with a note saying where to
// read them.
func TestDecodeBrowser(t *testing.T) {
	n := &tree.Node{Name: "decompressed"}
	Decode(new(tree.Alloc), n, []byte{0x0a, 0x00}, Options{})
	if len(n.Children) != 0 || !strings.Contains(n.Detail, "OTLP not decoded in the browser") {
		t.Errorf("node: %+v", n)
	}
}
