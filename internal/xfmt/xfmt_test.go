package xfmt

import (
	"errors"
	"fmt"
	"io/fs"
	"math"
	"strings"
	"testing"
)

type kind int16

type named string

type stringer struct{ n int }

func (s stringer) String() string { return fmt.Sprint("s", s.n) }

type nilStringer struct{ s string }

func (s *nilStringer) String() string { return s.s }

type panicker struct{}

func (panicker) String() string { panic("boom") }

type pair struct {
	A int
	b string
}

var cases = []struct {
	format string
	args   []any
}{
	{"plain", nil},
	{"%d %d %d %d %d", []any{0, -7, int8(-128), uint16(65535), uint64(math.MaxUint64)}},
	{"%x %X %08x %04X %#x %#04x %02X %+d % d", []any{255, 255, 0xbeef, 0xab, 16, 5, 7, 3, 4}},
	{"%-5d| %5d| %05d| %-05d| %.3d| %5.2d| %.0d|", []any{12, -12, -12, 12, 7, 7, 0}},
	{"%o %O %b %#o %#b", []any{8, 8, 5, 8, 5}},
	{"%c %q %U %#U %+q", []any{'é', 'x', 'x', 0x1F600, 'é'}},
	{"%s|%q|%v|%x|%X|% x|%#x|% #x|%10s|%-10s|%.2s|%010s|%8x", []any{"héllo", "a\"b\n\x00", "v", "hi", "hi", "abc", "abc", "abc", "r", "l", "truncate", "z", "ab"}},
	{"%s %v %d %q %x", []any{[]byte("ab"), []byte{1, 2}, []byte{3, 4}, []byte("q"), []byte{0xde, 0xad}}},
	{"%v %t %5v %s", []any{true, false, true, true}},
	{"%v %f %.3f %.6f %e %g %8.2f %-8.2f| %+.1f %08.3f %v %v %v", []any{1.5, 2.25, 1.0 / 3, 2e-7, 123456.789, 1e21, 3.14159, 2.5, 1.0, -1.5, math.Inf(1), math.NaN(), float32(0.1)}},
	{"%v %s %d %x %q", []any{kind(7), named("n"), kind(-2), kind(31), named("q")}},
	{"%v %s %d %q %x %10v|%-6s|", []any{stringer{3}, stringer{4}, stringer{5}, stringer{6}, stringer{7}, stringer{8}, stringer{9}}},
	{"%v %s", []any{(*nilStringer)(nil), &nilStringer{"p"}}},
	{"%v", []any{panicker{}}},
	{"%v %s %q", []any{errors.New("e1"), errors.New("e2"), errors.New("e3")}},
	{"%v %s %d %T %T %T", []any{nil, nil, nil, nil, 3, stringer{}}},
	{"%v %v %v %d %d", []any{[]int{1, 2}, []string{"a", "b"}, [2]kind{1, 2}, []stringer{{1}, {2}}, []int{3}}},
	{"%x|%d", []any{[]kind{1, 2}, []any{1, "a"}}},
	{"%v %v %+v", []any{pair{1, "x"}, &pair{2, "y"}, stringer{1}}},
	{"%z %!", []any{3}},
	{"%d %s", []any{"str", 4}},
	{"%d %d", []any{1}},
	{"%d", []any{1, "extra", nil, 2}},
	{"%", nil},
	{"100%% %d%%", []any{5}},
	{"%w", []any{errors.New("not errorf")}},
	{"%s", []any{fs.ErrNotExist}},
	{"%v|%v", []any{[]any{1, "a", nil}, struct{ X, Y any }{}}},
	{"%x %X", []any{-255, int64(-1)}},
	{"%6.2f|%-8q|%8q", []any{math.Copysign(0, -1), "a", 'b'}},
}

func TestSprintfIsFmt(t *testing.T) {
	for _, c := range cases {
		want := fmt.Sprintf(c.format, c.args...)
		p := printer{}
		p.doPrintf(c.format, c.args)
		if got := string(p.buf); got != want {
			t.Errorf("Sprintf(%q, %v): got %q, fmt %q", c.format, c.args, got, want)
		}
		if got := string(Appendf([]byte("pre:"), c.format, c.args...)); got != "pre:"+want {
			t.Errorf("Appendf(%q): got %q, fmt %q", c.format, got, "pre:"+want)
		}
		var b strings.Builder
		if n, err := Fprintf(&b, c.format, c.args...); err != nil || n != len(want) || b.String() != want {
			t.Errorf("Fprintf(%q): %d, %v, %q; fmt %q", c.format, n, err, b.String(), want)
		}
	}
}

func TestSprintIsFmt(t *testing.T) {
	for _, args := range [][]any{{1}, {1, 2}, {"a", 1, 2, "b", "c"}, {kind(3)}, {nil, nil}, {stringer{1}, 2}} {
		if got, want := Sprint(args...), fmt.Sprint(args...); got != want {
			t.Errorf("Sprint(%v): got %q, fmt %q", args, got, want)
		}
	}
}

func TestErrorfWraps(t *testing.T) {
	base := errors.New("base")
	other := errors.New("other")
	for _, c := range []struct {
		format string
		args   []any
		wraps  []error
	}{
		{"no wrap %d", []any{1}, nil},
		{"at %d: %w", []any{3, base}, []error{base}},
		{"%w and %w", []any{base, other}, []error{base, other}},
		{"%w", []any{nil}, nil},
		{"%w", []any{"not an error"}, nil},
	} {
		got := Errorf(c.format, c.args...)
		want := fmt.Errorf(c.format, c.args...)
		if got.Error() != want.Error() {
			t.Errorf("Errorf(%q): %q, fmt %q", c.format, got, want)
		}
		for _, w := range c.wraps {
			if !errors.Is(got, w) {
				t.Errorf("Errorf(%q) does not wrap %v", c.format, w)
			}
		}
		if errors.Unwrap(got) == nil != (errors.Unwrap(want) == nil) {
			t.Errorf("Errorf(%q): Unwrap %v, fmt's %v", c.format, errors.Unwrap(got), errors.Unwrap(want))
		}
	}
}

// An element with a String or Error method is not printed with it (fmt
// does): xfmt says so rather than print something else.
func TestElementMethodsUnsupported(t *testing.T) {
	for _, c := range []struct {
		format string
		arg    any
		want   string
	}{
		{"%v", []stringer{{1}}, "[%!v(xfmt: xfmt.stringer)]"},
		{"%s", []error{errors.New("e")}, "[%!s(xfmt: *errors.errorString)]"},
		{"%v", []any{stringer{2}, 3}, "[%!v(xfmt: xfmt.stringer) 3]"},
	} {
		p := printer{} // not Sprintf, which panics under test where it differs from fmt
		p.doPrintf(c.format, []any{c.arg})
		if got := string(p.buf); got != c.want {
			t.Errorf("Sprintf(%q, %v) = %q, want %q", c.format, c.arg, got, c.want)
		}
	}
}
