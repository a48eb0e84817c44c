package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// manyKeys is an object with more keys than checkJSON keeps in a list.
var manyKeys = func() string {
	var b strings.Builder
	b.WriteString(`{"k0": 0`)
	for i := 1; i < 40; i++ {
		fmt.Fprintf(&b, `, "k%d": %d`, i, i)
	}
	return b.String()
}()

// TestParseJSONRefuses: what encoding/json would change without a word is
// an error that says where and what.
func TestParseJSONRefuses(t *testing.T) {
	p := mustPlan(t, loadSet(t, "trunk"), "JoinGroupRequest", 9)
	for _, c := range []struct{ in, want string }{
		{"{\"GroupId\": \"a\xffb\"}", "line 1, column 15 (byte 14): byte 0xff is not UTF-8"},
		{"{\"GroupId\": \"a\",\n \"GroupId\": \"b\"}", `line 2, column 2 (byte 18): key "GroupId" is given twice`},
		{`{"Protocols": [{"Name": "x", "Name": "y", "Metadata": ""}]}`, `(byte 29): key "Name" is given twice`},
		{`{"GroupId": "\ud800"}`, `(byte 13): \u escape of a lone UTF-16 surrogate`},
		{`{"GroupId": "a\udc00"}`, `(byte 14): \u escape of a lone UTF-16 surrogate`},
		{`{"GroupId": "a"`, "JSON line 1"},
		{`{"GroupId": "a"} {}`, "(byte 17): text after the JSON value"},
		{`{"GroupId": "a"}}`, "(byte 16): text after the JSON value"},
		{`{"GroupId": "a", "Gro\u0075pId": "b"}`, `(byte 17): key "GroupId" is given twice`},
		{`{"Protocols": [{"Name": "x"}, {"Name": "y", "Metadata": "", "Name": "z"}]}`, `(byte 60): key "Name" is given twice`},
		{manyKeys + `, "k3": 0}`, `key "k3" is given twice`},
	} {
		_, err := p.ParseJSON([]byte(c.in))
		var je *JSONError
		if err == nil || !errors.As(err, &je) || !strings.Contains(err.Error(), c.want) {
			t.Errorf("ParseJSON(%q) = %v, want an error with %q", c.in, err, c.want)
		}
	}
	// What reads back as written is taken.
	for _, in := range []string{`{"GroupId": "\ud83d\ude00 \u00e9 \\ud800 \ufffd"}`, "{\"GroupId\": \"\ufffd\"}", `{"Protocols": [{"Name": "a", "Metadata": ""}, {"Name": "a", "Metadata": ""}]}`, `{"GroupId": "a", "Protocols": [{"Name": "GroupId"}], "MemberId": "GroupId"}`} {
		if _, err := p.ParseJSON([]byte(in)); err != nil {
			t.Errorf("ParseJSON(%s): %v", in, err)
		}
	}
}

func TestSetJSONRefusesDuplicates(t *testing.T) {
	set := loadSet(t, "trunk")
	api, _ := set.LookupAPI("JoinGroup")
	f, err := NewFrame(set, api, 9, Request)
	if err != nil {
		t.Fatal(err)
	}
	for _, in := range []string{
		`{"api_key": 11, "version": 9, "body": {}, "body": {}}`,
		`{"api_key": 11, "version": 9, "header": {"CorrelationId": 1, "CorrelationId": 2}, "body": {}}`,
	} {
		if err := f.SetJSON([]byte(in)); err == nil || !strings.Contains(err.Error(), "given twice") {
			t.Errorf("SetJSON(%s) = %v", in, err)
		}
	}
	if err := f.SetJSON([]byte(`{"api_key": 11, "version": 9, "header": {"CorrelationId": 7}, "body": {"GroupId": "g"}}`)); err != nil {
		t.Fatal(err)
	}
	if err := f.SetJSON([]byte(`{"api_key": 12, "body": {}}`)); err == nil || !strings.Contains(err.Error(), "for api 12 v-1") {
		t.Errorf("another API: %v", err)
	}
}

// FuzzParseJSON: parseJSON never panics, and what it accepts
// encoding/json reads too.
func FuzzParseJSON(f *testing.F) {
	f.Add([]byte(`{"a": [1, {"b": "\u0062", "c": null}], "d": "\ud83d\ude00"}`))
	f.Add([]byte(`{"a": 1, "a": 2}`))
	f.Add([]byte(`[{"a": 1}, {"a": 2}] }`))
	f.Add([]byte(manyKeys + `}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if _, err := parseJSON(data); err == nil && !json.Valid(bytes.TrimSpace(data)) {
			t.Fatalf("accepted %q, which encoding/json refuses", data)
		}
	})
}
