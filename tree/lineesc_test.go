package tree

import (
	"strings"
	"testing"
	"unicode"
)

// A node's line escapes what its names and texts carry (textesc.Escape).
func TestLineEscapes(t *testing.T) {
	n := &Node{Name: "A\u202eB", Type: "int8", Value: "1", About: "x\x1b]0;pwned\x07y"}
	line := n.Line()
	for _, r := range line {
		if r < 0x20 || r == 0x7f || !unicode.IsPrint(r) {
			t.Fatalf("raw %U in %q", r, line)
		}
	}
	if !strings.Contains(line, `A\u202eB`) || !strings.Contains(line, `x\x1b]0;pwned\x07y`) {
		t.Errorf("Line = %q", line)
	}
}

// liar is a describer whose AppendLine declines every row but says plain:
// what it says of a row it did not write must not skip the escaping.
type liar struct{ storedDescriber }

func (liar) AppendLine(b []byte, _ *Flat, _ int) ([]byte, bool, bool) { return b, false, true }

// TestWriteTextEscapesDeclined: a row a LineAppender leaves to Describe is
// escaped whatever plain it returned with it.
func TestWriteTextEscapesDeclined(t *testing.T) {
	var f Flat
	root := f.Row(-1, Node{Name: "root"})
	f.Row(root, Node{Name: "Evil\x1b]0;pwned\x07", Type: "error", Err: errString("bad \u202e")})
	f.Done()
	f.who[0] = liar{}
	var b strings.Builder
	if err := f.WriteText(&b, 0, nil); err != nil {
		t.Fatal(err)
	}
	for _, r := range b.String() {
		if r != '\n' && (r < 0x20 || r == 0x7f || !unicode.IsPrint(r)) {
			t.Fatalf("raw %U in %q", r, b.String())
		}
	}
	if !strings.Contains(b.String(), `Evil\x1b]0;pwned\x07`) {
		t.Errorf("text = %q", b.String())
	}
}

type errString string

func (e errString) Error() string { return string(e) }
