//go:build js

package records

import "kwire/tree"

// The browser app decodes no internal topic's records (codec/topics_js.go):
// the hooks are left out of its binary (see hooks_native.go).

func (d *decoder) inner([]byte, span, *tree.Node, *tree.Node, recordView, string) {}

func (d *decoder) legacyInner([]byte, int, int, int, span, *tree.Node, *tree.Node, string) {}

func appendPartJSON(dst []byte, name string, b, _ []byte) []byte {
	return appendBytesJSON(dst, name, b)
}

func (r *reader) readObject(any, string) ([]byte, bool) { return nil, false }
