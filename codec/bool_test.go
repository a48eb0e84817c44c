package codec

import (
	"bytes"
	"strings"
	"testing"

	"kwire/tree"
	"kwire/tree/treetest"
)

// TestBoolNotCanonical: Kafka reads any byte but 0 as true. A bool byte of
// 2 decodes as true, the tree says it is not canonical, and the value
// keeps the byte, so that it encodes back as it was.
func TestBoolNotCanonical(t *testing.T) {
	p := mustPlan(t, loadSet(t, "4.0"), "MetadataRequest", 4)
	b := []byte{0xff, 0xff, 0xff, 0xff, 0x02} // Topics null, AllowAutoTopicCreation 2
	v, fl, n, err := p.DecodeTree(b, tree.Node{}, TreeOptions{})
	if err != nil || n != len(b) {
		t.Fatalf("decode: %v after %d bytes", err, n)
	}
	f := p.Root.Field("AllowAutoTopicCreation")
	if !v.List()[f.Index].Bool() {
		t.Error("a bool byte of 2 is not true")
	}
	_, node := treetest.Named(fl, "AllowAutoTopicCreation")
	if node == nil || node.Value != "true" || !strings.Contains(node.Detail, "0x02: not canonical") || node.Err != nil {
		t.Fatalf("node %+v", node)
	}
	back, err := p.Encode(v)
	if err != nil || !bytes.Equal(back, b) {
		t.Errorf("encode: %v: %x, want %x", err, back, b)
	}
	if j := p.AppendJSON(nil, v); !bytes.Contains(j, []byte(`"AllowAutoTopicCreation":true`)) {
		t.Errorf("JSON %s", j)
	}
	// A value set to true is written as 1.
	v.List()[f.Index] = Bool(true)
	if got, err := p.Encode(v); err != nil || got[4] != 1 {
		t.Errorf("true: %x %v", got, err)
	}
}
