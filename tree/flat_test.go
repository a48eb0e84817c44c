package tree

import (
	"reflect"
	"testing"
)

func sampleTree() *Node {
	root := &Node{Name: "m", Type: "message", Size: 9, Section: Frame}
	a := &Node{Name: "A", Type: "int32", Value: "1", Offset: 0, Size: 4, Section: RequestBody, Path: "A"}
	b := &Node{Name: "B", Type: "[]X", Value: "1 element", Offset: 4, Size: 5, Path: "B"}
	b.Add(&Node{Name: "X[0]", Type: "X", Offset: 4, Size: 5, Path: "B[0]"})
	b.Children[0].Add(&Node{Name: "pw", Type: Secret, Offset: 5, Size: 3, Err: "", Path: "B[0].pw"},
		&Node{Name: "e", Type: "error", Offset: 8, Size: 1, Section: Error, Err: "bad", Relative: true})
	return root.Add(a, b)
}

func TestFlatStoreTree(t *testing.T) {
	root := sampleTree()
	f := FlatOf(root)
	if f.Len() != 6 {
		t.Fatalf("%d spans, want 6", f.Len())
	}
	if got := f.Tree(0, nil); !reflect.DeepEqual(got, root) {
		t.Errorf("tree of the flat differs:\n%s\nwant\n%s", got.Text(), root.Text())
	}
	if n := f.ChildCount(0); n != 2 {
		t.Errorf("root has %d children, want 2", n)
	}
	if f.Spans[4].Flags&Masked == 0 || f.Spans[5].Flags&(Failed|InStream) != Failed|InStream {
		t.Errorf("flags %v %v", f.Spans[4].Flags, f.Spans[5].Flags)
	}
	if got := f.Path(4); got != "B[0].pw" {
		t.Errorf("path %q", got)
	}
	if f.Spans[2].Next != 6 || f.Spans[3].Next != 6 || f.Spans[1].Next != 2 {
		t.Errorf("next: %+v", f.Spans)
	}
}

func TestFlatCover(t *testing.T) {
	root := &Node{Name: "r", Offset: 0, Size: 2}
	c := &Node{Name: "c", Offset: 2, Size: 1}
	c.Add(&Node{Name: "e", Offset: 3, Size: 5})
	root.Add(c)
	f := FlatOf(root)
	f.Cover(0, f.Len(), false)
	if s := f.Spans[1]; s.Off != 2 || s.Size != 6 {
		t.Errorf("child %+v, want 2+6", s)
	}
	if s := f.Spans[0]; s.Size != 2 {
		t.Errorf("root grew without self: %+v", s)
	}
	f.Cover(0, f.Len(), true)
	if s := f.Spans[0]; s.Size != 8 {
		t.Errorf("root %+v, want size 8", s)
	}
}
