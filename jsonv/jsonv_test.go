package jsonv

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// std reads data as encoding/json does, numbers as Number.
func std(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if len(bytes.TrimLeft(data[dec.InputOffset():], " \t\r\n")) > 0 {
		return nil, &Error{Msg: "more"}
	}
	return convert(v), nil
}

// convert turns encoding/json's json.Number into Number.
func convert(v any) any {
	switch t := v.(type) {
	case json.Number:
		return Number(t)
	case []any:
		for i := range t {
			t[i] = convert(t[i])
		}
	case map[string]any:
		for k := range t {
			t[k] = convert(t[k])
		}
	}
	return v
}

var corpus = []string{
	`{}`, `[]`, `null`, `true`, ` false `, `0`, `-0`, `12.5e-3`, `1E+2`, `"a\"b\\c\/\b\f\n\r\t\u00e9\ud83d\ude00"`,
	`{"a":[1,2,{"b":null}],"c":"é😀","d":{}}`, `[[[[]]]]`, "\t[ 1 , 2 ]\n",
	`{"a":1,}`, `[1,]`, `01`, `1.`, `.5`, `-`, `1e`, `"`, `"\x"`, `"\u12"`, `{"a" 1}`, `{1:2}`, `[1 2]`, `nul`, `tru`,
	"\"a\tb\"", `{"a":1}{}`, `[`, `{"a":`, "",
}

// Where encoding/json accepts text that is UTF-8 with no key twice and no
// lone surrogate, Parse reads the same value; where it refuses, so does
// Parse.
func TestAgainstEncodingJSON(t *testing.T) {
	for _, c := range corpus {
		got, err := Parse([]byte(c))
		want, werr := std([]byte(c))
		if (err == nil) != (werr == nil) {
			t.Errorf("%q: jsonv %v, encoding/json %v", c, err, werr)
			continue
		}
		if err == nil && !reflect.DeepEqual(got, want) {
			t.Errorf("%q: %#v, want %#v", c, got, want)
		}
	}
}

// What encoding/json changes silently, Parse refuses, at its offset.
func TestRefusals(t *testing.T) {
	for _, c := range []struct {
		in   string
		off  int
		want string
	}{
		{`{"a":1,"a":2}`, 7, `key "a" is given twice`},
		{"\"a\xffb\"", 2, "not UTF-8"},
		{`"\ud800"`, 1, "lone UTF-16 surrogate"},
		{`"\udc00\ud800"`, 1, "lone UTF-16 surrogate"},
		{`"\ud800\u0041"`, 1, "lone UTF-16 surrogate"},
		{strings.Repeat("[", MaxDepth+1), MaxDepth, "nested too deeply"},
		{`[1] 2`, 4, "text after the JSON value"},
	} {
		_, err := Parse([]byte(c.in))
		se, ok := err.(*Error)
		if !ok || se.Offset != c.off || !strings.Contains(se.Msg, c.want) {
			t.Errorf("%q: %v, want %q at %d", c.in, err, c.want, c.off)
		}
	}
	if s, ok := Unquote(`a\u00e9\n`); !ok || s != "aé\n" {
		t.Errorf("Unquote: %q %v", s, ok)
	}
	if _, ok := Unquote(`a"b`); ok {
		t.Errorf("Unquote of a quote in the middle")
	}
}

// Indent writes what json.Indent writes for compact JSON.
func TestIndent(t *testing.T) {
	for _, c := range corpus {
		var compact bytes.Buffer
		if json.Compact(&compact, []byte(c)) != nil {
			continue
		}
		var want bytes.Buffer
		json.Indent(&want, compact.Bytes(), "", "  ")
		if got := Indent(nil, compact.Bytes(), "  "); string(got) != want.String() {
			t.Errorf("%q:\n%s\nwant\n%s", c, got, want.String())
		}
	}
}

func FuzzParse(f *testing.F) {
	for _, c := range corpus {
		f.Add([]byte(c))
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		got, err := Parse(data)
		want, werr := std(data)
		if err == nil {
			if werr != nil {
				t.Fatalf("jsonv accepts what encoding/json refuses: %v", werr)
			}
			if !reflect.DeepEqual(got, want) {
				t.Fatalf("%#v, want %#v", got, want)
			}
			checkFind(t, data, got)
			var compact bytes.Buffer
			json.Compact(&compact, data)
			var ind bytes.Buffer
			json.Indent(&ind, compact.Bytes(), "", "  ")
			if string(Indent(nil, compact.Bytes(), "  ")) != ind.String() {
				t.Fatalf("Indent differs")
			}
			return
		}
		se, ok := err.(*Error)
		if !ok || se.Offset < 0 || se.Offset > len(data) || se.End != se.Offset || se.Line < 1 || se.Path != "" {
			t.Fatalf("error %v", err)
		}
		if werr == nil && utf8.Valid(data) && !strings.Contains(se.Msg, "twice") && !strings.Contains(se.Msg, "surrogate") && !strings.Contains(se.Msg, "deeply") {
			t.Fatalf("jsonv refuses what encoding/json reads: %v", err)
		}
	})
}

func TestFind(t *testing.T) {
	data := []byte("{\"a\": [1, {\"b\": \"x\"}, [2, 3]],\n \"a.b\": {\"c[0]\": true}, \"e\\u0041\": null, \"f\": {}}")
	for _, c := range []struct {
		path string
		key  bool
		want string // "" when not found
	}{
		{"", false, string(data)},
		{"a", false, `[1, {"b": "x"}, [2, 3]]`},
		{"a", true, `"a"`},
		{"a[0]", false, "1"},
		{"a[1].b", false, `"x"`},
		{"a[1].b", true, `"b"`},
		{"a[2][1]", false, "3"},
		{"a.b", false, `{"c[0]": true}`},
		{"a.b.c[0]", false, "true"},
		{"a.b.c[0]", true, `"c[0]"`},
		{"eA", false, "null"},
		{"eA", true, `"e\u0041"`},
		{"a[3]", false, ""},
		{"a[-1]", false, ""},
		{"a[1].c", false, ""},
		{"f.g", false, ""},
		{"g", false, ""},
		{"a[0].x", false, ""},
		{"[0]", false, ""},
		{"", true, ""},
		{"a[1]", true, ""},
	} {
		s, e, ok := Find(data, c.path, c.key)
		got := ""
		if ok {
			got = string(data[s:e])
		}
		if got != c.want {
			t.Errorf("Find(%q, %v) = %q, want %q", c.path, c.key, got, c.want)
		}
	}
	// Keys that start with '.' or are "".
	odd := []byte(`{".a": {"": 1}, "a": 2}`)
	for _, c := range []struct {
		path, want string
		key        bool
	}{{".a.", "1", false}, {".a.", `""`, true}, {".a", `".a"`, true}, {"a", "2", false}} {
		if s, e, ok := Find(odd, c.path, c.key); !ok || string(odd[s:e]) != c.want {
			t.Errorf("Find(%q, %v) in %s = %v %q, want %q", c.path, c.key, odd, ok, odd[s:e], c.want)
		}
	}
}

func TestPlace(t *testing.T) {
	data := []byte("{\"body\": {\n  \"Topics\": [{\"Name\": 5}],\n  \"Bad\": 1}}")
	body := string(data[9 : len(data)-1])
	for _, c := range []struct {
		path, base string
		key        bool
		want       string
		line, col  int
		text       string
	}{
		{"Topics[0].Name", "body", false, "5", 2, 23, "JSON line 2, column 23 (byte 33): Topics[0].Name: m"},
		{"Bad", "body", true, `"Bad"`, 3, 3, "JSON line 3, column 3 (byte 40): Bad: m"},
		{TopLevel, "body", false, body, 1, 10, ""},
		{"", "body", false, body, 1, 10, ""},
		{"body", "", false, body, 1, 10, ""},
		{"Topics[0].Name.deeper", "body", false, "5", 2, 23, ""}, // the nearest value there is
		{"Topics[3]", "body", false, `[{"Name": 5}]`, 2, 13, ""},
		{"Nope", "body", true, body, 1, 10, ""},
	} {
		e := &Error{Path: c.path, Key: c.key, Msg: "m"}
		e.Place(data, c.base)
		if got := string(data[e.Offset:e.End]); got != c.want || e.Line != c.line || e.Col != c.col {
			t.Errorf("%s in %q: %q at %d:%d, want %q at %d:%d", c.path, c.base, got, e.Line, e.Col, c.want, c.line, c.col)
		}
		if c.text != "" && e.Error() != c.text {
			t.Errorf("%q, want %q", e.Error(), c.text)
		}
	}
	_, err := Parse([]byte("{\"a\":\n x}"))
	if e, ok := err.(*Error); !ok || e.Line != 2 || e.Col != 2 || e.Offset != 7 || e.End != 7 || e.Error() != "JSON line 2, column 2 (byte 7): invalid character 'x' looking for a value" {
		t.Errorf("a syntax error: %#v", err)
	}
	if e := (&Error{Path: "A[0]", Msg: "m"}); e.Error() != "JSON A[0]: m" || e.What() != "A[0]: m" {
		t.Errorf("unplaced: %q %q", e.Error(), e.What())
	}
}

// checkFind: every value of v (read from data), by its path, is found
// where it is written (up to 200 of them; keys that hold '.' or '['
// make paths that may name another value first and are not checked).
func checkFind(t *testing.T, data []byte, v any) {
	n := 0
	var walk func(v any, path string)
	walk = func(v any, path string) {
		if n++; n > 200 {
			return
		}
		s, e, ok := Find(data, path, false)
		if !ok {
			t.Fatalf("Find(%q) found nothing", path)
		}
		got, err := Parse(data[s:e])
		if err != nil || !reflect.DeepEqual(got, v) {
			t.Fatalf("Find(%q) = %q, want %#v", path, data[s:e], v)
		}
		switch x := v.(type) {
		case []any:
			for i, e := range x {
				walk(e, path+"["+strconv.Itoa(i)+"]")
			}
		case map[string]any:
			for k, e := range x {
				if k == "" || strings.ContainsAny(k, ".[]") {
					continue
				}
				if path != "" {
					k = "." + k
				}
				walk(e, path+k)
			}
		}
	}
	walk(v, "")
}
