package tree

import (
	"errors"
	"reflect"
	"testing"
)

func sampleTree() tn {
	return tn{Node{Name: "m", Type: "message", Size: 9, Section: Frame}, []tn{
		{n: Node{Name: "A", Type: "int32", Value: "1", Offset: 0, Size: 4, Section: RequestBody, Path: "A"}},
		{Node{Name: "B", Type: "[]X", Value: "1 element", Offset: 4, Size: 5, Path: "B"}, []tn{
			{Node{Name: "X[0]", Type: "X", Offset: 4, Size: 5, Path: "B[0]"}, []tn{
				{n: Node{Name: "pw", Type: Secret, Offset: 5, Size: 3, Path: "B[0].pw"}},
				{n: Node{Name: "e", Type: "error", Offset: 8, Size: 1, Section: Error, Err: errors.New("bad"), Relative: true}},
			}},
		}},
	}}
}

// checkNodes: the Flat's nodes are want's, in preorder.
func checkNodes(t *testing.T, f *Flat, want []Node) {
	t.Helper()
	if f.Len() != len(want) {
		t.Fatalf("%d spans, want %d", f.Len(), len(want))
	}
	for i := range want {
		if got := f.Node(i, nil); !reflect.DeepEqual(*got, want[i]) {
			t.Errorf("node %d = %+v, want %+v", i, *got, want[i])
		}
	}
}

func TestFlatRows(t *testing.T) {
	root := sampleTree()
	f := FlatOf(root)
	checkNodes(t, f, preorder(root))
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
	f := FlatOf(tn{Node{Name: "r", Offset: 0, Size: 2}, []tn{
		{Node{Name: "c", Offset: 2, Size: 1}, []tn{{n: Node{Name: "e", Offset: 3, Size: 5}}}},
	}})
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

// Flat.Reveal shows a secret in the buffer, not one in a decompressed
// stream (nor under one), past the buffer's end, or not a secret;
// HasSecret agrees.
func TestFlatReveal(t *testing.T) {
	buf := []byte("\x00alice\x00hunter2\x01")
	build := func(password Node) tn {
		return tn{Node{Name: "AuthBytes", Type: "bytes", Size: len(buf)}, []tn{
			{n: Node{Name: "user", Type: "string", Offset: 1, Size: 5}},
			{n: password},
			{n: Node{Name: "rel", Type: Secret, Offset: 1, Size: 2, Relative: true}},
			{n: Node{Name: "past", Type: Secret, Offset: 12, Size: 9}},
			{Node{Name: "stream", Offset: 14, Size: 1, Relative: true}, []tn{
				{n: Node{Name: "inner", Type: Secret, Offset: 1, Size: 3}}, // under a Relative node: Reveal does not look
			}},
		}}
	}
	f := FlatOf(build(Node{Name: "password", Type: Secret, Value: "7 bytes, masked", Offset: 7, Size: 7}))
	want := preorder(build(Node{Name: "password", Type: Revealed, Value: `"hunter2"`, Offset: 7, Size: 7}))
	if !f.HasSecret() {
		t.Fatal("no secret found")
	}
	if !f.Reveal(buf) {
		t.Fatal("Flat.Reveal revealed none")
	}
	checkNodes(t, f, want)
	for i, s := range f.Spans {
		n := f.Node(i, nil)
		if masked, shown := s.Flags&Masked != 0, s.Flags&Shown != 0; masked != (n.Type == Secret) || shown != (n.Type == Revealed) {
			t.Errorf("%s: flags %v, type %q", n.Name, s.Flags, n.Type)
		}
	}
	if !f.HasSecret() || f.Reveal(buf) {
		t.Errorf("after Reveal: HasSecret %v, revealed again", f.HasSecret())
	}
	plain := FlatOf(sampleTree().kids[0])
	if plain.HasSecret() || plain.Reveal(buf) {
		t.Errorf("a tree without secrets has one")
	}
}

func TestRow(t *testing.T) {
	var f Flat
	root := f.Row(-1, Node{Name: "message", Size: 6, Section: Frame})
	a := f.Row(root, Node{Name: "a", Type: "int32", Value: "1", Size: 4})
	f.Row(a, Node{Name: "b", Type: "error", Offset: 4, Size: 2, Err: errors.New("short")})
	f.Done()
	if f.Len() != 3 || f.ChildCount(root) != 1 || f.ChildCount(a) != 1 {
		t.Fatalf("len %d, children %d and %d; want 3, 1 and 1", f.Len(), f.ChildCount(root), f.ChildCount(a))
	}
	if e, off := f.FirstError(root); e != 2 || off != 4 {
		t.Errorf("FirstError = %d at %d, want 2 at 4", e, off)
	}
	if got := f.Node(a, nil).Line(); got != "a int32 = 1 [0x0000, 4B]" {
		t.Errorf("line %q", got)
	}
}

// TestSet: a node set in its place keeps its parent and children, and
// takes the new text, place and flags.
func TestSet(t *testing.T) {
	var f Flat
	root := f.Row(-1, Node{Name: "message", Size: 6, Section: Frame})
	a := f.Row(root, Node{Name: "a", Type: "int32", Value: "1", Size: 4})
	b := f.Row(a, Node{Name: "b", Offset: 2, Size: 2})
	f.Set(a, Node{Name: "a", Type: "int32", Value: "1, labelled", Size: 4, Relative: true, Err: errors.New("bad")})
	f.Done()
	if f.Len() != 3 || f.ChildCount(root) != 1 || f.ChildCount(a) != 1 || f.Spans[b].Parent != int32(a) {
		t.Fatalf("len %d, children %d and %d; want 3, 1 and 1", f.Len(), f.ChildCount(root), f.ChildCount(a))
	}
	if got := f.Node(a, nil); got.Value != "1, labelled" || got.Err == nil || got.Err.Error() != "bad" || !got.Relative || f.Spans[a].Flags&Failed == 0 {
		t.Errorf("set node %+v, flags %b", *got, f.Spans[a].Flags)
	}
	if e, _ := f.FirstError(root); e != a {
		t.Errorf("FirstError = %d, want %d", e, a)
	}
}
