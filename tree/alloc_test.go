package tree

import (
	"fmt"
	"strconv"
	"strings"
	"testing"
	"unsafe"
)

// TestAlloc: strings handed out keep their text while more are written,
// nodes come zeroed and apart, and a
// nil Alloc does the same with plain allocations.
func TestAlloc(t *testing.T) {
	for _, a := range []*Alloc{nil, new(Alloc)} {
		var got, want []string
		for i := range 5000 {
			switch i % 5 {
			case 0:
				got, want = append(got, a.Itoa(int64(i*1000-7))), append(want, strconv.Itoa(i*1000-7))
			case 1:
				got, want = append(got, a.Indexed("Topics", i)), append(want, "Topics["+strconv.Itoa(i)+"]")
			case 2:
				got, want = append(got, a.Concat("a.b", ".", strings.Repeat("x", i%300))), append(want, "a.b."+strings.Repeat("x", i%300))
			case 3:
				got, want = append(got, a.Plural(i%3, "element")), append(want, fmt.Sprintf("%d element%s", i%3, map[bool]string{true: "", false: "s"}[i%3 == 1]))
			case 4: // written past the room asked for: still a string of its own
				b := append(a.Text(2), "longer than asked"...)
				got, want = append(got, a.String(b)), append(want, "longer than asked")
			}
		}
		for i := range got {
			if got[i] != want[i] {
				t.Fatalf("string %d = %q, want %q", i, got[i], want[i])
			}
		}
		seen := map[*Node]bool{}
		for _, n := range []int{1, 3, 700, 2000, 5} {
			nodes := a.Nodes(n)
			if len(nodes) != n || cap(nodes) != n {
				t.Fatalf("Nodes(%d): len %d cap %d", n, len(nodes), cap(nodes))
			}
			for i := range nodes {
				if nodes[i].Name != "" || seen[&nodes[i]] {
					t.Fatalf("Nodes(%d): node %d is not a fresh zero node", n, i)
				}
				seen[&nodes[i]] = true
				nodes[i].Name = "used"
			}
			if n := a.Node(); n.Name != "" || seen[n] {
				t.Fatal("Node: not a fresh zero node")
			}
		}
	}
}

func ExampleAlloc() {
	var a Alloc
	elems := a.Nodes(2) // side by side, one allocation
	for i := range elems {
		elems[i] = Node{Name: a.Indexed("Topic", i), Type: "Topic", Path: a.Indexed("Topics", i)}
		fmt.Println(elems[i].Line())
	}
	fmt.Println(a.Plural(len(elems), "element"))
	// Output:
	// Topic[0] Topic [0x0000, 0B]
	// Topic[1] Topic [0x0000, 0B]
	// 2 elements
}

// TestNodeSize: a node is 17 words (136 bytes on 64-bit machines and in
// wasm); a field added or moved out of its packing shows here.
func TestNodeSize(t *testing.T) {
	if got, want := unsafe.Sizeof(Node{}), 17*unsafe.Sizeof(uintptr(0)); got != want {
		t.Errorf("tree.Node is %d bytes, want %d", got, want)
	}
}

// TestSectionNames: each section's name is its CSS class suffix and the
// zero Section is named "".
func TestSectionNames(t *testing.T) {
	want := map[Section]string{0: "", Frame: "frame", Header: "header", RequestBody: "request", ResponseBody: "response",
		RecordBatch: "RecordBatch", Record: "Record", Tagged: "tagged_fields", Error: "error"}
	for s, name := range want {
		if s.String() != name {
			t.Errorf("Section %d is %q, want %q", s, s.String(), name)
		}
	}
	if got := fmt.Sprintf("s-%s", Header); got != "s-header" {
		t.Errorf("formatted %q", got)
	}
}
