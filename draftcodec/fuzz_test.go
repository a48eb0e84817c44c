package draftcodec

import (
	"bytes"
	"testing"

	"github.com/tailscale/hujson"

	"kwire/codec"
	"kwire/schemas/draft"
	"kwire/schemas/draft/drafttest"
)

// FuzzLoad: the reader never panics or hangs on any paste; every
// diagnostic points into the paste, at the line and column of its offset;
// every schema's repaired text is JSON that hujson reads; every schema that
// loads into the set plans and encodes its smallest instance or says why.
func FuzzLoad(f *testing.F) {
	for _, seed := range []string{seedStreams, seedConsumer} {
		f.Add(readSeed(f, seed))
	}
	for _, s := range []string{
		drafttest.Head + `    { "name": "A", "type": "int32", "versions": "0+", }` + "\n  ]\n}",
		drafttest.Head + "    { \u201cname\u201d: \u201cA\u201d, \"type\": \"int32\", \"versions\": \"0+\" }\n  ]\n}",
		drafttest.Head + `    { "name": "A", "type": "int32", "versions": "0+", "about": "open` + "\n    }\n  ]\n}",
		"{\"apiKey\": TBD, \"fields\": [ { \"name\": \"x\\q\" /* open",
		"{\"name\": [[[[[[[[{\"a\": \"\t\u2028\"}]]]]]]]]}",
		"text { \"type\": \"response\", name: Foo, \"fields\": [ { \"name\": \"A\", \"type\": \"[]A\", \"versions\": \"0+\", \"fields\": [] } ] }",
		"{\"fields\": \"\n\n\"\n\"\n}\"",
	} {
		f.Add([]byte(s))
	}
	base := pinnedSet(f)
	f.Fuzz(func(t *testing.T, src []byte) {
		if len(src) > 1<<16 {
			return
		}
		d := Load(src, draft.Options{Base: base})
		for _, g := range d.Diagnostics {
			if g.Offset < 0 || g.Offset > len(src) {
				t.Fatalf("%s: offset %d outside the paste of %d bytes", g, g.Offset, len(src))
			}
			line := 1 + bytes.Count(src[:g.Offset], []byte("\n"))
			col := g.Offset - (bytes.LastIndexByte(src[:g.Offset], '\n') + 1) + 1
			if g.Line != line || g.Col != col || g.Message == "" {
				t.Fatalf("%s: offset %d is %d:%d", g, g.Offset, line, col)
			}
		}
		for _, s := range d.Schemas {
			if s.Start < 0 || s.End > len(src) || s.Start >= s.End || src[s.Start] != '{' {
				t.Fatalf("schema spans [%d, %d) of %d bytes", s.Start, s.End, len(src))
			}
			if _, err := hujson.Parse(s.Repaired); err != nil {
				t.Fatalf("repaired text is not JSON: %v\n%s", err, s.Repaired)
			}
			if !s.InSet || s.Type != "request" && s.Type != "response" {
				continue
			}
			v := s.Message.ValidVersions
			if v.None || v.Hi-v.Lo > 64 {
				continue
			}
			if p, err := codec.PlanFor(s.Message, v.Hi); err == nil {
				if _, err := p.Encode(p.Smallest()); err != nil && d.Errors() == 0 {
					t.Fatalf("%s loads cleanly but does not encode: %v", s.Name, err)
				}
			}
		}
	})
}
