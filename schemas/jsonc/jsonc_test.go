package jsonc_test

import (
	"bytes"
	"fmt"
	"io/fs"
	"strings"
	"testing"

	"github.com/tailscale/hujson"

	"kwire/schemas/jsonc"
	"kwire/schemas/sets"
)

// dump writes jsonc's tree, one value a line: offsets, kind, literal and
// the extra before it.
func dump(b *strings.Builder, v jsonc.Value, depth int) {
	fmt.Fprintf(b, "%*s%d-%d %c %q before=%q\n", depth*2, "", v.Start, v.End, v.Kind, v.Lit, v.Before)
	for _, m := range v.Members {
		dump(b, m.Name, depth+1)
		dump(b, m.Value, depth+1)
	}
	for _, e := range v.Elems {
		dump(b, e, depth+1)
	}
}

// dumpHujson writes hujson's tree the same way.
func dumpHujson(b *strings.Builder, v hujson.Value, depth int) {
	var lit []byte
	kind := byte(v.Value.Kind())
	if l, ok := v.Value.(hujson.Literal); ok {
		lit = l
	}
	fmt.Fprintf(b, "%*s%d-%d %c %q before=%q\n", depth*2, "", v.StartOffset, v.EndOffset, kind, lit, []byte(v.BeforeExtra))
	switch t := v.Value.(type) {
	case *hujson.Object:
		for _, m := range t.Members {
			dumpHujson(b, m.Name, depth+1)
			dumpHujson(b, m.Value, depth+1)
		}
	case *hujson.Array:
		for _, e := range t.Elements {
			dumpHujson(b, e, depth+1)
		}
	}
}

// compare parses src with both and fails where they disagree: one
// refuses what the other reads, errors at other offsets, other trees.
func compare(t *testing.T, src []byte) {
	t.Helper()
	v, err := jsonc.Parse(src)
	hv, herr := hujson.Parse(src)
	if (err == nil) != (herr == nil) {
		t.Fatalf("%q: jsonc %v, hujson %v", src, err, herr)
	}
	if err != nil {
		se := err.(*jsonc.SyntaxError)
		line := 1 + bytes.Count(src[:se.Offset], []byte("\n"))
		col := 1 + se.Offset - (bytes.LastIndexByte(src[:se.Offset], '\n') + 1)
		if want := fmt.Sprintf("hujson: line %d, column %d: ", line, col); !strings.HasPrefix(herr.Error(), want) {
			t.Fatalf("%q: jsonc at %d (%s), hujson %v", src, se.Offset, se.Msg, herr)
		}
		return
	}
	var a, b strings.Builder
	dump(&a, v, 0)
	dumpHujson(&b, hv, 0)
	if a.String() != b.String() {
		t.Fatalf("%q: trees differ:\n%s\nhujson:\n%s", src, a.String(), b.String())
	}
}

var corpus = []string{
	`{}`, `[]`, `{"a": 1, "b": [true, false, null, "x\"y", -1.5e3], }`, "// c\n{ /* x */ \"a\" /* y */ : /* z */ 1 /* w */ , // t\n }\n",
	`[1, 2, ]`, `[1,,2]`, `{"a" 1}`, `{1: 2}`, `{"a": }`, `[}`, `{]`, `]`, `"\u00e9"`, "\"\xff\"", `"\x"`, `01`, `1.`, `tru`, `nulls`,
	"// no newline", "/* open", "1 // \u2028\n", "/* \xff */ 1", "{\"a\":1}\n// end\n", `{"a":1} 2`, ``, `  `, `"`, `"a\`,
	`{"a":{"b":[{"c":[]}]}}`, "[\n  // x\n  1,\n  // y\n]", `+1`, `-`, `1e5`, `"\ud800"`,
}

func TestAgainstHujson(t *testing.T) {
	for _, c := range corpus {
		compare(t, []byte(c))
	}
}

// Every schema file of every release reads the same with both.
func TestSchemaFiles(t *testing.T) {
	n := 0
	for _, name := range sets.Names() {
		fsys, _ := sets.FS(name)
		fs.WalkDir(fsys, ".", func(p string, d fs.DirEntry, err error) error {
			if err == nil && strings.HasSuffix(p, ".json") {
				src, _ := fs.ReadFile(fsys, p)
				compare(t, src)
				n++
			}
			return nil
		})
	}
	if n < 500 {
		t.Errorf("%d files", n)
	}
}

func FuzzAgainstHujson(f *testing.F) {
	for _, c := range corpus {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, src []byte) {
		compare(t, src)
	})
}
