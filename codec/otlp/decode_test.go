package otlp

import (
	"strings"
	"testing"

	"kwire/tree"
)

// One metric named "m" in a scope in a resource, written by hand: the
// decoder reads it on the command line and in the browser app alike (this
// test runs in node too, with build.sh's js/wasm tests), and a cut leaves
// an error node where the bytes stop.
func TestDecodeBothBuilds(t *testing.T) {
	b := []byte{0x0a, 0x07, 0x12, 0x05, 0x12, 0x03, 0x0a, 0x01, 'm'}
	n := &tree.Node{Name: "decompressed"}
	Decode(new(tree.Alloc), n, b, Options{Base: 100, Path: "Metrics"})
	text := n.Text()
	if !strings.Contains(text, `name string = "m"`) || strings.Contains(text, "ERROR") {
		t.Fatalf("tree:\n%s", text)
	}
	var name *tree.Node
	n.Walk(func(x *tree.Node, _ int) bool {
		if x.Name == "name" {
			name = x
		}
		return name == nil
	})
	if name == nil || name.Offset != 100+6 || name.Size != 3 {
		t.Errorf("name node %+v", name)
	}
	n = &tree.Node{Name: "decompressed"}
	Decode(new(tree.Alloc), n, b[:7], Options{Base: 100, Path: "Metrics"})
	if e, _ := n.FirstError(); e == nil || !strings.Contains(e.Err, "unexpected EOF") {
		t.Errorf("cut short:\n%s", n.Text())
	}
}
