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
