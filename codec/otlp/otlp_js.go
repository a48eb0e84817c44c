//go:build js

package otlp

import "kwire/tree"

// Decode leaves the OTLP bytes as bytes in the browser app: the protobuf
// reader would not fit its size budget. `kwire decode` shows them.
func Decode(a *tree.Alloc, node *tree.Node, b []byte, o Options) {
	node.Detail = a.Concat(node.Detail, " ", "OTLP not decoded in the browser (size budget); `kwire decode` shows it")
}
