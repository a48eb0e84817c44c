package tree

import (
	"fmt"
	"strings"
	"testing"
)

// TestAppendShortened: Shorten and appendShortened write the words of a
// text apart by one space, cut at max runes with "...", for
// short and long texts, runs of spaces and newlines, non-ASCII spaces and
// letters, and bytes that are not UTF-8, before and after the cut.
func TestAppendShortened(t *testing.T) {
	long := strings.Repeat("word ", 30)
	for _, s := range []string{
		"", "a", " a ", "The group identifier.", long, strings.TrimSpace(long),
		"two  spaces\nand\ta newline " + long, "\u00a0nbsp\u2003em space\u0085" + long,
		"é" + strings.Repeat("ü", 80), "bad \xff byte " + long, long + "\xff late", strings.Repeat("x", 74) + "\xfe\xfd tail",
		strings.Repeat("x", 76), strings.Repeat("x", 75), strings.Repeat(" ", 100), "\u202e" + long,
	} {
		for _, max := range []int{0, 5, MaxAbout} {
			want := strings.Join(strings.Fields(s), " ") // words apart by one space, cut at max runes
			if r := []rune(want); len(r) > max {
				want = string(r[:max]) + "..."
			}
			if got := Shorten(s, max); got != want {
				t.Errorf("Shorten(%q, %d) = %q, want %q", s, max, got, want)
			}
			want = "pre" + want
			if got := string(appendShortened([]byte("pre"), s, max)); got != want {
				t.Errorf("appendShortened(%q, %d) = %q, want %q", s, max, got, want)
			}
		}
	}
}

// TestNeedsEscape: the eight-bytes-at-a-time needsEscape agrees with a
// byte at a time, for every byte value at each position of lines of 1 to
// 24 bytes among printable ASCII (the edges ' ', '~' and the rest).
func TestNeedsEscape(t *testing.T) {
	for size := 1; size <= 24; size++ {
		for _, fill := range []byte{' ', '~', 'a'} {
			line := []byte(strings.Repeat(string(fill), size))
			if needsEscape(line) {
				t.Fatalf("needsEscape(%q) = true", line)
			}
			for at := range size {
				for c := range 256 {
					line[at] = byte(c)
					if got, want := needsEscape(line), c < 0x20 || c >= 0x7f; got != want {
						t.Fatalf("needsEscape(%q) = %v, want %v", line, got, want)
					}
				}
				line[at] = fill
			}
		}
	}
}

// TestAppendPlace: AppendPlace writes what Line writes of where a node
// lies, for offsets of up to four hex digits and more, negative ones, and
// sizes of one, two and more digits, in the buffer and in a stream.
func TestAppendPlace(t *testing.T) {
	for _, off := range []int{0, 1, 0xf, 0x10, 0xfff, 0x1000, 0xabcd, 0xffff, 0x10000, 0x12345, 1 << 40, -1, -0x10000} {
		for _, size := range []int{0, 1, 9, 10, 42, 99, 100, 12345, -1, -10} {
			for _, rel := range []bool{false, true} {
				plus := ""
				if rel {
					plus = "+"
				}
				want := fmt.Sprintf(" [%s0x%04x, %dB]", plus, off, size)
				if got := string(AppendPlace(nil, off, size, rel)); got != want {
					t.Errorf("AppendPlace(%d, %d, %v) = %q, fmt says %q", off, size, rel, got, want)
				}
			}
		}
	}
}
