package jsonv

import (
	"bytes"
	"encoding/json"
	"reflect"
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
		return nil, &SyntaxError{Msg: "more"}
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
		se, ok := err.(*SyntaxError)
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
			var compact bytes.Buffer
			json.Compact(&compact, data)
			var ind bytes.Buffer
			json.Indent(&ind, compact.Bytes(), "", "  ")
			if string(Indent(nil, compact.Bytes(), "  ")) != ind.String() {
				t.Fatalf("Indent differs")
			}
			return
		}
		se, ok := err.(*SyntaxError)
		if !ok || se.Offset < 0 || se.Offset > len(data) {
			t.Fatalf("error %v", err)
		}
		if werr == nil && utf8.Valid(data) && !strings.Contains(se.Msg, "twice") && !strings.Contains(se.Msg, "surrogate") && !strings.Contains(se.Msg, "deeply") {
			t.Fatalf("jsonv refuses what encoding/json reads: %v", err)
		}
	})
}
