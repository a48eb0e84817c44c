package draft

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"kwire/codec"
	"kwire/schemas"
	"kwire/schemas/draft/drafttest"
)

const head = drafttest.Head

// encodeFoo encodes the smallest frame of the draft's FooRequest at its
// latest version: what draftcodec's NewFrame does (this package is
// below the codec; its tests use it).
func encodeFoo(d *Draft) error {
	a, err := d.LookupAPI("Foo")
	if err != nil {
		return err
	}
	f, err := codec.NewFrame(d.Set, a, a.Request.ValidVersions.Hi, codec.Request)
	if err == nil {
		_, err = f.Encode()
	}
	return err
}

// Each recovery and each error, on small drafts: the diagnostics (all of
// them, in order, as "line:col: severity: part of the message"), and the
// fields that still load.
func TestRecoveries(t *testing.T) {
	cases := []struct {
		name   string
		src    string
		want   []string
		fields string // the request's fields that loaded, space-separated
	}{
		{"clean", head + `    { "name": "A", "type": "int32", "versions": "0+" }
  ]
}`, nil, "A"},
		{"comments, as Kafka's files have them", `// Licensed to ...
{ /* the key */ "apiKey": 1000, "type": "request", "name": "FooRequest", "validVersions": "0-1", "flexibleVersions": "1+",
  // Version 1 is flexible.
  "fields": [
    { "name": "A", "type": "int32", "versions": "0+" } // one field
  ]
}
// the end`, nil, "A"},
		{"trailing commas", head + `    { "name": "A", "type": "int32", "versions": "0+", },
  ],
}`, []string{`3:53: warning: trailing comma before "}"`, `3:56: warning: trailing comma before "]"`, `4:4: warning: trailing comma before "}"`}, "A"},
		{"extra comma", head + `    { "name": "A", "type": "int32",, "versions": "0+" }
  ]
}`, []string{"3:36: warning: extra comma"}, "A"},
		{"missing comma between members", head + `    { "name": "A" "type": "int32" "versions": "0+" }
  ]
}`, []string{`3:18: warning: missing "," after the "name" member`, `3:34: warning: missing "," after the "type" member (add "," after "int32" on line 3)`}, "A"},
		{"missing colon", head + `    { "name" "A", "type": "int32", "versions": "0+" }
  ]
}`, []string{`3:13: warning: missing ":" after "name"`}, "A"},
		{"unquoted names and values", head + `    { name: "A", type: int32, "versions": 0+ }
  ]
}`, []string{`3:7: warning: member name name is not quoted`, `3:18: warning: member name type is not quoted`, `3:24: warning: value int32 is not quoted`,
			`3:43: warning: value 0+ is not quoted`}, "A"},
		{"curly quotes", head + "    { \u201cname\u201d: \u201cA\u201d, \"type\": \"int32\", \"versions\": \"0+\" }\n  ]\n}",
			[]string{"3:7: warning: curly quotes read as straight quotes"}, "A"},
		{"tab in a string", head + "    { \"name\": \"A\", \"type\": \"int32\", \"versions\": \"0+\", \"about\": \"one\ttwo\" }\n  ]\n}",
			[]string{"3:68: warning: tab or control character inside a string"}, "A"},
		{"bad escape", head + `    { "name": "A", "type": "int32", "versions": "0+", "about": "C:\dir" }
  ]
}`, []string{"3:67: warning: invalid escape in a string"}, "A"},
		{"string left open", head + `    { "name": "A", "type": "int32", "versions": "0+", "about": "open
    },
    { "name": "B", "type": "int8", "versions": "0+" }
  ]
}`, []string{`3:69: error: string not closed on its line`}, "A B"},
		{"object left open at the end", head + `    { "name": "A", "type": "int32", "versions": "0+" }`,
			[]string{`2:13: error: [ opened here (2:13) is never closed`, `1:1: error: { opened here (1:1) is never closed`}, "A"},
		{"stray closer", head + `    { "name": "A", "type": "int32", "versions": "0+" } ]
  ]
}`, []string{`4:3: warning: "]" closes nothing: dropped`}, "A"},
		{"block comment left open", head + `    { "name": "A", "type": "int32", "versions": "0+" }
  ]
} /* and then`, []string{`5:3: warning: text outside the JSON is ignored`}, "A"},
		{"unknown key", head + `    { "name": "A", "type": "string", "versions": "0+", "nullableVersion": "0+" }
  ]
}`, []string{`3:56: error: field "A": unknown key "nullableVersion" (did you mean "nullableVersions"?)`}, "A"},
		{"tag without taggedVersions", head + `    { "name": "A", "type": "int32", "versions": "0+" },
    { "name": "B", "type": "int32", "versions": "1+", "tag": 0 }
  ]
}`, []string{`4:5: error: field "B" has a tag but no "taggedVersions"; the field is left out (add "taggedVersions": "1+"; tagged fields exist in flexible versions only (KIP-482))`}, "A"},
		{"version range", head + `    { "name": "A", "type": "int32", "versions": "5-3" },
    { "name": "B", "type": "int32", "versions": "0+" }
  ]
}`, []string{`3:49: error: "versions": bad version range "5-3": 3 is below 5; the field is left out`}, "B"},
		{"unknown type inside a struct", head + `    { "name": "S", "type": "[]Item", "versions": "0+", "fields": [
      { "name": "X", "type": "[]int32int16", "versions": "0+" },
      { "name": "Y", "type": "strng", "versions": "0+" },
      { "name": "Z", "type": "int64", "versions": "0+" }
    ]}
  ]
}`, []string{`4:30: error: field "X": unknown type "[]int32int16"; the field is left out (use one type: []int16 or []int32)`,
			`5:30: error: field "Y": unknown type "strng"; the field is left out (did you mean string?)`}, "S S.Z"},
		{"struct defined twice, differently", head + `    { "name": "A", "type": "P", "versions": "0+", "fields": [
      { "name": "X", "type": "int32", "versions": "0+" } ]},
    { "name": "B", "type": "P", "versions": "0+", "fields": [
      { "name": "X", "type": "int64", "versions": "0+" } ]}
  ]
}`, []string{`5:5: error: struct "P" is defined twice, differently; this field keeps its own (give the two structs different names)`}, "A A.X B B.X"},
		{"default null on a tagged field is Kafka's own idiom", head + `    { "name": "A", "type": "string", "versions": "1+", "nullableVersions": "1+", "default": null, "taggedVersions": "1+", "tag": 0 }
  ]
}`, nil, "A"},
		{"too deep", head + `    { "name": "A", "type": "int32", "versions": "0+", "about": ` + strings.Repeat("[", 60) + strings.Repeat("]", 60) + ` }
  ]
}`, []string{`3:109: error: nested more than 48 deep: dropped`, `3:64: error: "about" must be a string`}, "A"},
		{"a field on its own is not a schema", "We add this field:\n{ \"name\": \"X\", \"type\": \"int32\", \"versions\": \"3+\" }\nto the request:\n" + head + `    { "name": "A", "type": "int32", "versions": "0+" }
  ]
}`, []string{`1:1: warning: text outside the JSON is ignored (line 1, before the first schema)`, `2:1: warning: a JSON object that is not a schema`,
			`3:1: warning: text outside the JSON is ignored (line 3, before the first schema)`}, "A"},
	}
	base := pinnedSet(t)
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Load([]byte(c.src), Options{Base: base})
			var got []string
			for _, g := range d.Diagnostics {
				got = append(got, g.String())
			}
			if len(got) != len(c.want) {
				t.Fatalf("%d diagnostics, want %d:\n%s", len(got), len(c.want), diagList(d))
			}
			for _, w := range c.want {
				found := false
				for _, g := range got {
					found = found || strings.HasPrefix(g, w)
				}
				if !found {
					t.Errorf("no diagnostic %q in:\n%s", w, diagList(d))
				}
			}
			s := d.Schema("FooRequest")
			if s == nil || s.Message == nil {
				t.Fatalf("FooRequest did not load:\n%s", diagList(d))
			}
			if names := fieldNames(s.Message.Fields, ""); names != c.fields {
				t.Errorf("fields %q, want %q", names, c.fields)
			}
			if err := encodeFoo(d); err != nil {
				t.Error(err)
			}
		})
	}
}

func fieldNames(fs []*schemas.Field, prefix string) string {
	var out []string
	for _, f := range fs {
		out = append(out, prefix+f.Name)
		if len(f.Fields) > 0 {
			if sub := fieldNames(f.Fields, prefix+f.Name+"."); sub != "" {
				out = append(out, sub)
			}
		}
	}
	return strings.Join(out, " ")
}

// Keys: TBD takes the partner's key, a missing key a placeholder, keys
// that disagree or clash are errors and still load.
func TestKeys(t *testing.T) {
	base := pinnedSet(t)
	ph := placeholder(t)
	P, P1 := strconv.Itoa(int(ph)), strconv.Itoa(int(ph)+1)
	req := func(key, name string) string {
		return `{ "apiKey": ` + key + `, "type": "request", "name": "` + name + `", "validVersions": "0", "flexibleVersions": "0+", "fields": [] }` + "\n"
	}
	resp := func(key, name string) string {
		return `{ "apiKey": ` + key + `, "type": "response", "name": "` + name + `", "validVersions": "0", "flexibleVersions": "0+", "fields": [] }` + "\n"
	}
	cases := []struct {
		name string
		src  string
		keys map[string]int16
		want []string // diagnostics
		api  map[string]int16
	}{
		{"partner", req("TBD", "FooRequest") + resp("1000", "FooResponse"),
			nil, []string{"1:13: warning: apiKey is TBD; using 1000, the key of FooResponse"}, map[string]int16{"Foo": 1000}},
		{"placeholders follow trunk's keys", req("TBD", "FooRequest") + resp("TBD", "FooResponse") + req(`"?"`, "BarRequest"),
			nil, []string{"1:13: warning: apiKey is TBD; using placeholder " + P + ", unused in " + pinned, "2:13: warning: apiKey is TBD; using placeholder " + P,
				`3:13: warning: apiKey is "?", not a number; using placeholder ` + P1}, map[string]int16{"Foo": ph, "Bar": ph + 1}},
		{"chosen", req("TBD", "FooRequest"), map[string]int16{"Foo": 2000},
			[]string{"1:13: warning: apiKey is TBD; using 2000, as chosen"}, map[string]int16{"Foo": 2000}},
		{"disagree", req("1000", "FooRequest") + resp("1001", "FooResponse"),
			nil, []string{"2:13: error: apiKey 1001 disagrees with 1000 of FooRequest"}, map[string]int16{"Foo": 1000}},
		{"clash in the paste", req("1000", "FooRequest") + req("1000", "BarRequest"),
			nil, []string{"2:13: error: apiKey 1000 is also the key of Foo in this paste; using a placeholder"}, map[string]int16{"Foo": 1000, "Bar": 1001}},
		{"clash with trunk", req("11", "FooRequest"),
			nil, []string{"1:13: warning: apiKey 11 is JoinGroup in " + pinned + " (pick a key " + pinned + " does not use)"}, map[string]int16{"Foo": 11}},
		{"missing", `{ "type": "request", "name": "FooRequest", "validVersions": "0", "flexibleVersions": "0+", "fields": [] }`,
			nil, []string{"1:1: warning: request FooRequest has no apiKey; using placeholder " + P}, map[string]int16{"Foo": ph}},
		{"response without its suffix", req("1000", "FooRequest") + resp("1000", "Foo"),
			nil, []string{`2:47: warning: response Foo is not named FooResponse; paired with FooRequest by name (name it "FooResponse")`}, map[string]int16{"Foo": 1000}},
		{"twice", req("1000", "FooRequest") + req("1000", "FooRequest"),
			nil, []string{"2:1: error: a second request for API Foo: ignored"}, map[string]int16{"Foo": 1000}},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			d := Load([]byte(c.src), Options{Base: base, Keys: c.keys})
			if len(d.Diagnostics) != len(c.want) {
				t.Fatalf("got:\n%swant %q", diagList(d), c.want)
			}
			for i, w := range c.want {
				if g := d.Diagnostics[i].String(); !strings.HasPrefix(g, w) {
					t.Errorf("diagnostic %d: %q, want %q...", i, g, w)
				}
			}
			for api, key := range c.api {
				a, err := d.LookupAPI(api)
				if err != nil || a.Key != key {
					t.Errorf("%s: %+v %v, want key %d", api, a, err, key)
				}
			}
		})
	}
}

// The offset map sends repaired offsets back to the paste: copied bytes
// one for one, inserted ones to where they were inserted.
func TestOffsetMap(t *testing.T) {
	src := []byte(`xx{"a" 1 "b": TBD}`)
	r := newRegion(2)
	r.end = len(src)
	r.insert(6, ":")                // after "a"
	r.insert(8, ",")                // after 1
	r.replace(14, 17, "90")         // TBD
	r.replace(14, 15, "never made") // inside the replacement: dropped
	out, m := r.apply(src)
	if string(out) != `{"a": 1, "b": 90}` {
		t.Fatalf("repaired %q", out)
	}
	for repaired, orig := range map[int]int{0: 2, 4: 6, 5: 6, 6: 7, 7: 8, 8: 8, 9: 9, 14: 14, 15: 14, 16: 17, 17: 18} {
		if got := m.orig(repaired); got != orig {
			t.Errorf("orig(%d) = %d, want %d (%q)", repaired, got, orig, out[min(repaired, len(out)-1):])
		}
	}
}

// The reader finds nothing in text without a schema, and says so.
func TestNoSchema(t *testing.T) {
	for _, src := range []string{"", "just words\n", "{ not json }", "{\"a\": 1}"} {
		d := Load([]byte(src), Options{})
		if d.Set != nil || len(d.Schemas) != 0 || d.Errors() != 1 || !strings.Contains(diagList(d), "no schema found") {
			t.Errorf("%q:\n%s", src, diagList(d))
		}
	}
}

// Pastes built to hurt: a struct that holds itself (its field is left
// out, the rest encodes), structs that hold each other so often that the
// smallest instance would be astronomic (not loaded), and thousands of
// nameless values (dropped, one by one).
func TestHostile(t *testing.T) {
	base := pinnedSet(t)
	self := head + `    { "name": "A", "type": "[]Node", "versions": "0+", "fields": [
      { "name": "Kids", "type": "[]Node", "versions": "0+" },
      { "name": "V", "type": "int8", "versions": "0+" } ]}
  ]
}`
	d := Load([]byte(self), Options{Base: base})
	if got := diagList(d); !strings.Contains(got, `4:7: error: field "Kids": struct Node holds itself through it; the field is left out`) || d.Errors() != 1 {
		t.Errorf("self:\n%s", got)
	}
	if s := d.Schema("FooRequest"); s == nil || fieldNames(s.Message.Fields, "") != "A A.V" {
		t.Fatalf("self: %+v", s)
	}
	if err := encodeFoo(d); err != nil {
		t.Fatal(err)
	}

	var b strings.Builder
	b.WriteString(`{ "apiKey": 1000, "type": "request", "name": "FooRequest", "validVersions": "0", "fields": [ { "name": "F", "type": "S0", "versions": "0+" } ], "commonStructs": [`)
	for i := range 30 {
		fmt.Fprintf(&b, `{ "name": "S%d", "versions": "0+", "fields": [`, i)
		for j := range 4 {
			if j > 0 {
				b.WriteString(", ")
			}
			if i < 29 {
				fmt.Fprintf(&b, `{ "name": "F%d", "type": "S%d", "versions": "0+" }`, j, i+1)
			} else {
				fmt.Fprintf(&b, `{ "name": "F%d", "type": "int8", "versions": "0+" }`, j)
			}
		}
		b.WriteString("]},\n")
	}
	b.WriteString("]}")
	d = Load([]byte(b.String()), Options{Base: base})
	if d.Set != nil || !strings.Contains(diagList(d), "FooRequest is not loaded: its smallest instance would hold more than 20000 values") {
		t.Errorf("exponential:\n%s", diagList(d))
	}

	many := `{ "apiKey": 1000, "type": "request", "name": "FooRequest", "validVersions": "0", "fields": [] ` + strings.Repeat("{} ", 20000) + "}"
	d = Load([]byte(many), Options{Base: base})
	if d.Schema("FooRequest") == nil || d.Errors() != 20000 || len(d.Diagnostics) != MaxDiagnostics+1 || !strings.Contains(diagList(d), "1:95: error: a value without a member name: dropped") {
		t.Errorf("nameless values: %d errors, want 20000; %d diagnostics listed", d.Errors(), len(d.Diagnostics))
	}
	if last := d.Diagnostics[len(d.Diagnostics)-1]; last.String() != "1:3095: error: 19000 more diagnostics are not listed" {
		t.Errorf("last: %s", last)
	}
}

// Options.Check is called once per request and response at its latest
// version, with the draft's set; what it returns is an error at the
// schema's opening brace.
func TestCheck(t *testing.T) {
	src := "text\n" + head + `    { "name": "A", "type": "int32", "versions": "0+" }
  ]
}`
	var calls []string
	d := Load([]byte(src), Options{Base: pinnedSet(t), Check: func(set *schemas.Set, a *schemas.API, dir schemas.Direction, m *schemas.Message, v int16) error {
		calls = append(calls, fmt.Sprintf("%s %s %s %s v%d", set.Name, a.Name, dir, m.Name, v))
		return errors.New("no")
	}})
	if got := strings.Join(calls, "; "); got != "draft Foo request FooRequest v1" {
		t.Errorf("calls: %s", got)
	}
	if got := diagList(d); !strings.Contains(got, "2:1: error: FooRequest v1 does not encode: no") || d.Errors() != 1 {
		t.Errorf("diagnostics:\n%s", got)
	}
}
