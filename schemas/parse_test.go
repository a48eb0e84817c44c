package schemas

import (
	"errors"
	"strings"
	"testing"

	"github.com/tailscale/hujson"
)

const goodSchema = `// a comment before
{
  "apiKey": 99,
  "type": "request",
  "name": "TestRequest",
  // Version 1 adds Extra.
  "validVersions": "0-2",
  "flexibleVersions": "2+",
  "fields": [
    { "name": "Name", "type": "string", "versions": "0+", "about": "A name." },
    // The items.
    { "name": "Items", "type": "[]Item", "versions": "0+", "fields": [
      { "name": "Id", "type": "int32", "versions": "0+", "mapKey": true }
    ]},
    { "name": "Extra", "type": "Shared", "versions": "1+", "nullableVersions": "1+", "default": "null" },
    { "name": "T", "type": "int64", "versions": "2+", "taggedVersions": "2+", "tag": 0, "default": "-1" }
  ],
  "commonStructs": [
    { "name": "Shared", "versions": "0+", "fields": [
      { "name": "X", "type": "uint16", "versions": "0+", "default": "0x7fff" }
    ]}
  ]
}`

func TestParseGood(t *testing.T) {
	m, err := Parse("Test.json", []byte(goodSchema))
	if err != nil {
		t.Fatal(err)
	}
	if m.APIKey != 99 || m.Name != "TestRequest" || m.APIName() != "Test" || m.ValidVersions.String() != "0-2" || m.FlexibleVersions.String() != "2+" {
		t.Errorf("header fields: %+v", m)
	}
	if got := strings.Join(m.Comments, "|"); got != "Version 1 adds Extra." {
		t.Errorf("comments %q", got)
	}
	if len(m.Fields) != 4 || m.Fields[1].Struct == nil || m.Fields[1].Struct.Name != "Item" || m.Fields[2].Struct != m.Structs["Shared"] {
		t.Errorf("structs not resolved: %+v", m.Fields)
	}
	if m.Fields[1].Comments[0] != "The items." {
		t.Errorf("field comments %q", m.Fields[1].Comments)
	}
	if f := m.Fields[3]; !f.Tagged() || f.Tag != 0 || f.Default != "-1" {
		t.Errorf("tagged field %+v", f)
	}
	if p := m.Fields[0].Pos; p.Line != 10 || p.Col != 5 {
		t.Errorf("Name at %v, want 10:5", p)
	}
}

// Each bad schema is goodSchema with one edit; the error must name the
// line and column and say what is wrong.
func TestParseErrors(t *testing.T) {
	cases := []struct {
		name, old, new, want string
	}{
		{"missing comma", `"about": "A name." },`, `"about": "A name." }`, "Test.json:12:5: invalid character '{' after array value"},
		{"unknown type", `"type": "[]Item"`, `"type": "[]int32int16"`, `Test.json:12:32: field "Items": unknown type "[]int32int16"`},
		{"tag without taggedVersions", `"taggedVersions": "2+", `, ``, `Test.json:16:5: field "T" has a tag but no "taggedVersions"`},
		{"taggedVersions without tag", `"tag": 0, `, ``, `has "taggedVersions" but no "tag"`},
		{"nullable int", `"type": "int64", "versions": "2+"`, `"type": "int64", "nullableVersions": "2+", "versions": "2+"`, `field "T": type int64 cannot be nullable`},
		{"bad range", `"validVersions": "0-2"`, `"validVersions": "3-1"`, `Test.json:7:20: "validVersions": bad version range "3-1": 1 is below 3`},
		// Kafka's generator accepts a field outside the message's
		// versions (trunk's ShareFetchRequest has one).
		{"outside valid", `"name": "Extra", "type": "Shared", "versions": "1+"`, `"name": "Extra", "type": "Shared", "versions": "7+"`, ``},
		{"tag gap", `"taggedVersions": "2+", "tag": 0`, `"taggedVersions": "2+", "tag": 1`, `field "T": tag 1 is used but tag 0 is not`},
		{"tag not flexible", `"taggedVersions": "2+", "tag": 0`, `"taggedVersions": "1+", "tag": 0`, `tagged versions 1+ must be flexible versions (2+)`},
		{"bad default", `"default": "0x7fff"`, `"default": "0x10000"`, `field "X": default "0x10000" is not an integer of the field's width`},
		{"null default not nullable", `"default": "null"`, `"default": "null", "ignorable": true`, ``},
		{"unknown key", `"mapKey": true`, `"mapkey": true`, `field "Id": unknown key "mapkey"`},
		{"no struct", `"type": "Shared"`, `"type": "Missing"`, `field "Extra": unknown type "Missing" (no struct of that name)`},
		{"key twice, same value", `"about": "A name." }`, `"about": "A name.", "versions": "0+" }`, ``},
		{"key twice, another value", `"about": "A name." }`, `"about": "A name.", "versions": "1+" }`, `Test.json:10:79: key "versions" is given twice with different values`},
		{"duplicate tag", `{ "name": "Name", "type": "string", "versions": "0+", "about": "A name." },`,
			`{ "name": "Name", "type": "string", "versions": "2+", "taggedVersions": "2+", "tag": 0 },`, `field "T": tag 0 is already used by "Name"`},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			if !strings.Contains(goodSchema, c.old) {
				t.Fatalf("test edit %q not found", c.old)
			}
			src := strings.Replace(goodSchema, c.old, c.new, 1)
			_, err := Parse("Test.json", []byte(src))
			if c.want == "" {
				if err != nil {
					t.Fatalf("unexpected error: %v", err)
				}
				return
			}
			var list ErrorList
			if !errors.As(err, &list) {
				t.Fatalf("got %v, want an ErrorList", err)
			}
			if !strings.Contains(err.Error(), c.want) {
				t.Errorf("got %q\nwant it to contain %q", err, c.want)
			}
		})
	}
}

func TestVersions(t *testing.T) {
	for in, want := range map[string]string{"0+": "0+", "3": "3", "1-4": "1-4", "none": "none", " 2+ ": "2+"} {
		v, err := ParseVersions(in)
		if err != nil || v.String() != want {
			t.Errorf("ParseVersions(%q) = %v, %v; want %s", in, v, err, want)
		}
	}
	for _, bad := range []string{"", "-1", "a+", "4-2", "1-", "99999"} {
		if _, err := ParseVersions(bad); err == nil {
			t.Errorf("ParseVersions(%q) succeeded", bad)
		}
	}
	v, _ := ParseVersions("2-5")
	if !v.Contains(2) || !v.Contains(5) || v.Contains(6) || v.Contains(1) || NoVersions.Contains(0) {
		t.Errorf("Contains")
	}
	if got := v.Intersect(Versions{Lo: 4, Hi: 9}).String(); got != "4-5" {
		t.Errorf("Intersect = %s", got)
	}
}

func TestParseIntDefault(t *testing.T) {
	for _, c := range []struct {
		s    string
		k    Kind
		want int64
		ok   bool
	}{
		{"-1", KindInt32, -1, true}, {"0x7fffffff", KindInt32, 1<<31 - 1, true}, {"-2147483648", KindInt32, -1 << 31, true},
		{"2147483648", KindInt32, 0, false}, {"65535", KindUint16, 65535, true}, {"-1", KindUint16, 0, false},
		{"127", KindInt8, 127, true}, {"128", KindInt8, 0, false}, {"", KindInt64, 0, true}, {"x", KindInt64, 0, false},
	} {
		n, err := ParseIntDefault(c.s, c.k)
		if (err == nil) != c.ok || (c.ok && n != c.want) {
			t.Errorf("ParseIntDefault(%q, %s) = %d, %v", c.s, c.k, n, err)
		}
	}
}

// text, the fast unquote, reads every literal as hujson's Literal.String
// does.
func TestText(t *testing.T) {
	for _, lit := range []string{`""`, `"JoinGroupRequest"`, `"0+"`, `"a \"quoted\" word"`, `"tab\there"`, `"\u00e9t\u00e9"`, `"été"`, "\"bad \xff utf-8\"", `12`, `-1`, `true`, `null`} {
		if got, want := text(hujson.Literal(lit)), hujson.Literal(lit).String(); got != want {
			t.Errorf("text(%s) = %q, want %q", lit, got, want)
		}
	}
}

// A removed API keeps its key with "validVersions": "none" and no fields,
// as Kafka's MessageSpec allows; a message with versions needs fields.
func TestRemovedAPI(t *testing.T) {
	removed := `{"apiKey": 4, "type": "request", "name": "LeaderAndIsrRequest", "validVersions": "none"}`
	m, err := Parse("LeaderAndIsrRequest.json", []byte(removed))
	if err != nil || !m.ValidVersions.None || len(m.Fields) != 0 {
		t.Fatalf("removed API: %v, %+v", err, m)
	}
	_, err = Parse("X.json", []byte(`{"apiKey": 4, "type": "request", "name": "XRequest", "validVersions": "0", "flexibleVersions": "0+"}`))
	if err == nil || !strings.Contains(err.Error(), `X.json:1:1: schema "XRequest" has no "fields"`) {
		t.Errorf("no fields: %v", err)
	}
}
