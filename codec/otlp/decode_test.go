package otlp

import (
	"strings"
	"testing"

	"kwire/tree"
	"kwire/tree/treetest"
)

// decodeFlat decodes b into a Flat under a root of its own and returns
// the Flat, its rows written as text.
func decodeFlat(t *testing.T, b []byte, o Options) (*tree.Flat, string) {
	t.Helper()
	f := &tree.Flat{}
	root := f.Row(-1, tree.Node{Name: "decompressed"})
	Decode(new(tree.Alloc), f, root, b, o)
	f.Done()
	var text strings.Builder
	if err := f.WriteText(&text, root, nil); err != nil {
		t.Fatal(err)
	}
	return f, text.String()
}

// One metric named "m" in a scope in a resource, written by hand: the
// decoder reads it on the command line and in the browser app alike (this
// test runs in node too, with build.sh's js/wasm tests), and a cut leaves
// an error node where the bytes stop.
func TestDecodeBothBuilds(t *testing.T) {
	b := []byte{0x0a, 0x07, 0x12, 0x05, 0x12, 0x03, 0x0a, 0x01, 'm'}
	f, text := decodeFlat(t, b, Options{Base: 100, Path: "Metrics"})
	if !strings.Contains(text, `name string = "m"`) || strings.Contains(text, "ERROR") {
		t.Fatalf("tree:\n%s", text)
	}
	var name *tree.Node
	for i := range f.Len() {
		if n := f.Node(i, nil); n.Name == "name" {
			name = n
			break
		}
	}
	if name == nil || name.Offset != 100+6 || name.Size != 3 || name.Path != "Metrics.MetricsData.resource_metrics[0].scope_metrics[0].metrics[0].name" {
		t.Errorf("name node %+v", name)
	}
	// The metric's node shows its name (the summary of its fields); the
	// messages around it, which have none, show nothing.
	for i, want := range []string{"", "9 bytes", "", "", `"m"`, `"m"`} {
		if n := f.Node(i, nil); n.Value != want {
			t.Errorf("node %d %s = %q, want %q", i, n.Name, n.Value, want)
		}
	}
	f, text = decodeFlat(t, b[:7], Options{Base: 100, Path: "Metrics"})
	if e, _ := f.FirstError(0); e < 0 || !strings.Contains(treetest.ErrText(f.Node(e, nil)), "unexpected EOF") {
		t.Errorf("cut short:\n%s", text)
	}
}
