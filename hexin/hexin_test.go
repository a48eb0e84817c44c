package hexin

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
)

func TestParse(t *testing.T) {
	want := []byte{0x00, 0x00, 0x00, 0x1d, 0x00, 0x0b, 0x00, 0x09, 0x41, 0x42, 0xff, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70}
	cases := map[string]string{
		"plain":   "0000001d000b00094142ff10203040506070",
		"spaced":  "00 00 00 1d 00 0b 00 09 41 42 ff 10 20 30 40 50 60 70",
		"0x":      "0x00, 0x00, 0x00, 0x1d, 0x00, 0x0b, 0x00, 0x09, 0x41, 0x42, 0xff, 0x10, 0x20, 0x30, 0x40, 0x50, 0x60, 0x70",
		"escapes": `\x00\x00\x00\x1d\x00\x0b\x00\x09\x41\x42\xff\x10\x20\x30\x40\x50\x60\x70`,
		"lines":   "0000001d000b0009\n4142ff1020304050\r\n6070\n",
		"xxd": "00000000: 0000 001d 000b 0009 4142 ff10 2030 4050  ........AB.. 0@P\n" +
			"00000010: 6070                                     `p\n",
		"hexdump -C": "00000000  00 00 00 1d 00 0b 00 09  41 42 ff 10 20 30 40 50  |........AB.. 0@P|\n" +
			"00000010  60 70                                             |`p|\n00000012\n",
		"wireshark": "0000   00 00 00 1d 00 0b 00 09 41 42 ff 10 20 30 40 50   ........AB.. 0@P\n0010   60 70                                             `p\n",
		"base64":    "AAAAHQALAAlBQv8QIDBAUGBw",
	}
	for name, in := range cases {
		got, err := Parse(in)
		if err != nil {
			t.Errorf("%s: %v", name, err)
			continue
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s: got %x\nwant %x", name, got, want)
		}
	}
}

func TestParseErrors(t *testing.T) {
	for in, want := range map[string]string{
		"":              "empty",
		"00 11 zz":      "line 1, column 7",
		"00 11\n22 3g!": "line 2, column 4",
	} {
		_, err := Parse(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%q) = %v, want an error with %q", in, err, want)
		}
	}
}

// TestParseCareless: text that is neither hex nor base64 says so, where,
// and quotes no more than an excerpt of it.
func TestParseCareless(t *testing.T) {
	long := "00" + strings.Repeat("q", 3<<20)
	for in, want := range map[string]string{
		"zz":              `not hex: "zz" ("z" is not a hex digit) at character 1 (line 1, column 1); not base64 either: 2 characters are too few`,
		"0x0x":            `no bytes: "0x0x" holds separators and prefixes but no hex digits`,
		", 0x ,":          "no bytes",
		"AAAAHQ":          "not base64 either: 6 characters are too few",
		"AAAAHQALA":       "its length, 9, is not a multiple of 4",
		"AAAAH!AL":        `not base64 either: "!" at character 6`,
		"  abc":           `not hex: "abc" has an odd number of hex digits at character 3`,
		"00\n1é":          `not hex: "1é" ("é" is not a hex digit) at character 4 (line 2, column 1)`,
		"00 \x1b]0;t\x07": `"\x1b]0;t\x07" ("\x1b" is not a hex digit)`,
		long:              `not hex: "00qqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqqq..." ("q" is not a hex digit) at character 1`,
	} {
		_, err := Parse(in)
		if err == nil || !strings.Contains(err.Error(), want) {
			t.Errorf("Parse(%.20q) = %v, want an error with %q", in, err, want)
		}
		if err != nil && len(err.Error()) > 300 {
			t.Errorf("Parse(%.20q): an error of %d bytes", in, len(err.Error()))
		}
	}
	// Base64 of the right shape is read, padded or not.
	for in, want := range map[string]string{"AAAAHQ==": "0000001d", "AAECAwQF": "000102030405", "_-_-_-_-": "ffeffeffeffe"} {
		if b, err := Parse(in); err != nil || fmt.Sprintf("%x", b) != want {
			t.Errorf("Parse(%q) = %x, %v; want %s", in, b, err, want)
		}
	}
}

// FuzzParse: any text either parses or says where it stopped; hex written
// back parses to the same bytes.
func FuzzParse(f *testing.F) {
	f.Add("00000000: 0000 001d  ....\n")
	f.Add("00000000  00 01 02  |...|\n00000003\n")
	f.Add("0x00, 0x1, 0xff")
	f.Add("AAAAHQ==")
	f.Fuzz(func(t *testing.T, s string) {
		b, err := Parse(s)
		if err != nil {
			return
		}
		again, err := Parse(fmt.Sprintf("%x", b))
		if len(b) > 0 && (err != nil || !bytes.Equal(again, b)) {
			t.Fatalf("%q -> %x -> %x, %v", s, b, again, err)
		}
	})
}
