package codec

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"

	"kwire/codec/wire"
	"kwire/jsonv"
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

// TestJSONErrorPlaces: every error of the JSON form says where its value
// (or, for a key that is not known, the key) is in the text.
func TestJSONErrorPlaces(t *testing.T) {
	set := loadSet(t, "trunk")
	frame := func(api string, v int16) *Frame {
		a, _ := set.LookupAPI(api)
		f, err := NewFrame(set, a, v, Request)
		if err != nil {
			t.Fatal(err)
		}
		return f
	}
	produce := func(records string) string {
		return `{"TopicData": [{"Name": "t", "PartitionData": [{"Index": 0, "Records": ` + records + `}]}]}`
	}
	for _, c := range []struct {
		api  string
		in   string
		span string // what the error's span holds
		text string // the error (its start, when it ends with "...")
	}{
		{"JoinGroup", "{\n  \"GroupId\": 5\n}", "5", "JSON line 2, column 14 (byte 15): GroupId: want a string, got a number"},
		{"JoinGroup", `{"MemberId": "m", "SessionTimeoutMs": 1e99}`, "1e99", "JSON line 1, column 39 (byte 38): SessionTimeoutMs: int32: 1e99 is not an integer in [-2147483648, 2147483647]"},
		{"JoinGroup", `{"GroupId": "g", "Bogus": 1}`, `"Bogus"`, `JSON line 1, column 18 (byte 17): Bogus: JoinGroupRequest has no field "Bogus" (fields: ...`},
		{"JoinGroup", `{"a.b": 1}`, `"a.b"`, `JSON line 1, column 2 (byte 1): a.b: JoinGroupRequest has no field "a.b" ...`},
		{"JoinGroup", ` [1]`, "[1]", "JSON line 1, column 2 (byte 1): (top level): want an object for struct JoinGroupRequest, got a list"},
		{"JoinGroup", `{"Protocols": [{"Name": "a", "Metadata": ""}, {"Name": 7}]}`, "7", "JSON line 1, column 56 (byte 55): Protocols[1].Name: want a string, got a number"},
		{"JoinGroup", `{"Protocols": {}}`, "{}", "JSON line 1, column 15 (byte 14): Protocols: want a list for []JoinGroupRequestProtocol, got an object"},
		{"JoinGroup", `{"Protocols": [{"Name": "a", "Metadata": {"version": 3, "bogus": 1}}]}`, `"bogus"`, `JSON line 1, column 57 (byte 56): Protocols[0].Metadata.bogus: unknown key "bogus" ...`},
		{"JoinGroup", `{"_unknownTags": [{"tag": 1}]}`, `{"tag": 1}`, `JSON line 1, column 19 (byte 18): _unknownTags[0]: want {"tag": n, "data": "hex"}`},
		{"JoinGroup", `{"api_key": 11, "version": 9, "body": {"GroupId": 5}}`, "5", "JSON line 1, column 51 (byte 50): GroupId: want a string, got a number"},
		{"JoinGroup", `{"api_key": 11, "version": 9, "header": {"CorrelationId": "x"}, "body": {}}`, `"x"`, `JSON line 1, column 59 (byte 58): header.CorrelationId: int32: x is not an integer ...`},
		{"JoinGroup", `{"api_key": 11, "version": 9, "header": [], "body": {}}`, `[]`, `JSON line 1, column 41 (byte 40): header: want an object for struct RequestHeader, got a list`},
		{"JoinGroup", `{"api_key": 12, "body": {}}`, "12", "JSON line 1, column 13 (byte 12): api_key: the JSON is for api 12 v-1, not JoinGroup v9"},
		{"Produce", produce(`[{"magic": 3}]`), "3", "JSON line 1, column 83 (byte 82): TopicData[0].PartitionData[0].Records[0].magic: 3 is not an integer in [0, 2]"},
		{"Produce", produce(`[{"records": [{"headers": [{"key": "k", "extra": 1}]}]}]`), `"extra"`, `JSON ... TopicData[0].PartitionData[0].Records[0].records[0].headers[0].extra: unknown key "extra" ...`},
		{"Produce", produce(`"zz"`), `"zz"`, `JSON ... TopicData[0].PartitionData[0].Records: "zz" is not hex...`},
		{"Produce", produce(`[{"records": [{"key": {"type": 2, "GroupMetadataKey": {"group": 5}}}]}]`), "5", `JSON ... TopicData[0].PartitionData[0].Records[0].records[0].key.GroupMetadataKey.group: want a string, got a number`},
	} {
		v := int16(9)
		f := frame(c.api, v)
		err := f.SetJSON([]byte(c.in))
		var je *JSONError
		if !errors.As(err, &je) || je.Line == 0 {
			t.Errorf("%s: %v, want a placed JSONError", c.in, err)
			continue
		}
		if got := c.in[je.Offset:je.End]; got != c.span {
			t.Errorf("%s: %v: at %q, want %q", c.in, err, got, c.span)
		}
		if !textLike(err.Error(), c.text) {
			t.Errorf("%s:\n got %s\nwant %s", c.in, err, c.text)
		}
		// A value the codec cannot encode says so to errors.Is.
		if !strings.Contains(je.Path, "Records") && !errors.Is(err, wire.ErrValue) {
			t.Errorf("%s: %v is not a wire.ErrValue", c.in, err)
		}
	}
	// Plan.ParseJSON places its errors too.
	_, err := mustPlan(t, set, "JoinGroupRequest", 9).ParseJSON([]byte("{\"GroupId\": \"g\",\n\"Protocols\": [{\"Name\": true}]}"))
	if err == nil || err.Error() != "JSON line 2, column 24 (byte 40): Protocols[0].Name: want a string, got a boolean" {
		t.Errorf("ParseJSON: %v", err)
	}
}

// textLike: got is want, whose "..." stand for any text.
func textLike(got, want string) bool {
	parts := strings.Split(want, "...")
	if !strings.HasPrefix(got, parts[0]) || !strings.HasSuffix(got, parts[len(parts)-1]) {
		return false
	}
	for _, p := range parts {
		i := strings.Index(got, p)
		if i < 0 {
			return false
		}
		got = got[i+len(p):]
	}
	return true
}

// FuzzJSONErrorPlace: every error of reading the JSON form of a frame
// (JoinGroup's, with nested bytes; Produce's, with records) is placed,
// inside the text, at the value its path names (the key, for one that is
// not known; the object, for a member that is missing).
func FuzzJSONErrorPlace(f *testing.F) {
	for _, s := range []string{
		`{"GroupId": 5}`, `{"SessionTimeoutMs": 1e99}`, `{"a.b": {"c": 1}}`, `[1]`,
		`{"Protocols": [{"Name": "a", "Metadata": {"version": 3, "bogus": 1}}]}`,
		`{"Protocols": [{"Name": "a", "Metadata": {"version": 1, "ConsumerProtocolSubscription": {"Topics": [5]}}}]}`,
		`{"api_key": 11, "version": 9, "header": {"CorrelationId": "x"}, "body": {"_unknownTags": [{"tag": 1}]}}`,
		`{"api_key": 0, "version": 9, "body": {"TopicData": [{"Name": "t", "PartitionData": [{"Index": 0, "Records": [{"records": [{"headers": [{"key": "k", "extra": 1}]}]}]}]}]}}`,
		`{"TopicData": [{"Name": "t", "PartitionData": [{"Index": 0, "Records": [{"records": [{"key": {"type": 2, "GroupMetadataKey": {"group": 5}}}]}]}]}]}`,
	} {
		f.Add([]byte(s))
	}
	set := loadSet(f, "trunk")
	var frames []*Frame
	for _, api := range []string{"JoinGroup", "Produce"} {
		a, _ := set.LookupAPI(api)
		fr, err := NewFrame(set, a, 9, Request)
		if err != nil {
			f.Fatal(err)
		}
		frames = append(frames, fr)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		for _, fr := range frames {
			fr := *fr
			err := fr.SetJSON(data)
			var je *JSONError
			if !errors.As(err, &je) {
				continue
			}
			if je.Line == 0 || je.Offset < 0 || je.End < je.Offset || je.End > len(data) {
				t.Fatalf("%v: not placed in the text (%+v)", err, je)
			}
			if je.End == je.Offset { // a syntax error
				continue
			}
			path := je.Path
			if path == jsonv.TopLevel {
				path = ""
			}
			// The value (or key) the path names, or, for a member that
			// is missing, its object: where the error is.
			at := func(path string, key bool) bool {
				s, e, ok := jsonv.Find(data, path, key)
				if bs, be, isFrame := jsonv.Find(data, "body", false); isFrame && !ok {
					s, e, ok = jsonv.Find(data[bs:be], path, key)
					s, e = s+bs, e+bs
				}
				return ok && s == je.Offset && e == je.End
			}
			cut := strings.LastIndexAny(path, ".[")
			missing := cut > 0 && !je.Key && at(path[:cut], false)
			if !at(path, je.Key) && !missing && (path != "" || !je.Key) { // a key "" at the top has the path of the object
				t.Fatalf("%v: placed at %q, not at what its path names", err, data[je.Offset:je.End])
			}
		}
	})
}
