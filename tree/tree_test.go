package tree

import (
	"errors"
	"strings"
	"testing"
)

func sample() tn {
	leaf := func(name string, off, size int) tn {
		return tn{n: Node{Name: name, Type: "int8", Value: "0", Offset: off, Size: size}}
	}
	return tn{Node{Name: "root", Type: "message v1", Size: 4}, []tn{
		{Node{Name: "A", Offset: 0, Size: 2}, []tn{leaf("a1", 0, 1), leaf("a2", 1, 1)}},
		{Node{Name: "B", Offset: 2, Size: 2, About: strings.Repeat("x", 80)}, []tn{
			leaf("b1", 2, 1), {n: Node{Name: "b2", Offset: 3, Size: 1, Err: errors.New("bad")}},
		}},
	}}
}

func TestText(t *testing.T) {
	want := `root message v1 [0x0000, 4B]
+-- A [0x0000, 2B]
|   +-- a1 int8 = 0 [0x0000, 1B]
|   +-- a2 int8 = 0 [0x0001, 1B]
+-- B [0x0002, 2B] ` + strings.Repeat("x", 75) + `...
    +-- b1 int8 = 0 [0x0002, 1B]
    +-- b2 [0x0003, 1B] ERROR: bad
`
	if got := text(FlatOf(sample())); got != want {
		t.Errorf("got\n%s\nwant\n%s", got, want)
	}
}

func TestShorten(t *testing.T) {
	if got := Shorten("a  b\n c", 75); got != "a b c" {
		t.Errorf("%q", got)
	}
	if got := Shorten(strings.Repeat("é", 76), 75); got != strings.Repeat("é", 75)+"..." {
		t.Errorf("%q", got)
	}
}

// Shorten's way without allocating gives what its slow way gives.
func TestShortenFast(t *testing.T) {
	slow := func(s string, max int) string {
		s = strings.Join(strings.Fields(s), " ")
		r := []rune(s)
		if len(r) <= max {
			return s
		}
		return string(r[:max]) + "..."
	}
	for _, s := range []string{"", " ", "a", "a b", " a", "a ", "a  b", "a\tb", "a\nb", "é b", "a\u00a0b", "a\u2003b", "abc def ghi", "x\x7fy"} {
		for _, max := range []int{0, 1, 2, 3, 5, 20} {
			if got, want := Shorten(s, max), slow(s, max); got != want {
				t.Errorf("Shorten(%q, %d) = %q, want %q", s, max, got, want)
			}
		}
	}
	if n := testing.AllocsPerRun(100, func() { Shorten("the schema's description of a field", MaxAbout) }); n != 0 {
		t.Errorf("%v allocations for a short description", n)
	}
}
