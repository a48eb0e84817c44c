package draft

import (
	"fmt"
	"io/fs"
	"path"
	"sort"
	"strings"
	"testing"

	"kwire/schemas"
	"kwire/schemas/sets"
)

// dump writes a message as a canonical text, positions included, to
// compare two reads of one schema.
func dump(m *schemas.Message) string {
	var b strings.Builder
	fmt.Fprintf(&b, "%s %s key=%d valid=%s flex=%s depr=%s unstable=%v listeners=%v file=%s src=%d\n",
		m.Name, m.Type, m.APIKey, m.ValidVersions, m.FlexibleVersions, m.DeprecatedVersions, m.LatestVersionUnstable, m.Listeners, m.File, len(m.Source))
	fmt.Fprintf(&b, "comments=%q\nbody %s %v\n", m.Comments, m.Body.Name, m.Body.Pos)
	var fields func(fs []*schemas.Field, indent string)
	fields = func(fs []*schemas.Field, indent string) {
		for _, f := range fs {
			st := ""
			if f.Struct != nil {
				st = fmt.Sprintf("struct=%s@%v(%d)", f.Struct.Name, f.Struct.Pos, len(f.Struct.Fields))
			}
			flex := "-"
			if f.FlexibleVersions != nil {
				flex = f.FlexibleVersions.String()
			}
			fmt.Fprintf(&b, "%s%s %s v=%s null=%s tagged=%s tag=%d flex=%s ign=%v def=%q/%v about=%q entity=%s mapKey=%v zc=%v comments=%q %s @%v\n",
				indent, f.Name, f.Type.Name, f.Versions, f.NullableVersions, f.TaggedVersions, f.Tag, flex, f.Ignorable,
				f.Default, f.HasDefault, f.About, f.EntityType, f.MapKey, f.ZeroCopy, f.Comments, st, f.Pos)
			fields(f.Fields, indent+"  ")
		}
	}
	fields(m.Fields, "")
	for _, s := range m.CommonStructs {
		fmt.Fprintf(&b, "common %s %s @%v\n", s.Name, s.Versions, s.Pos)
		fields(s.Fields, "  ")
	}
	var names []string
	for n := range m.Structs {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		s := m.Structs[n]
		fmt.Fprintf(&b, "struct %s common=%v %s @%v %d\n", n, s.Common, s.Versions, s.Pos, len(s.Fields))
	}
	return b.String()
}

// Every schema of both released sets reads through the tolerant reader
// with no diagnostic, into the very message schemas.Parse reads; and its
// smallest instance is far below the drafts' limit (TestInstanceValues).
func TestReleasedSetsLoadClean(t *testing.T) {
	files, want := 0, 0
	for _, name := range sets.Names() {
		base, err := sets.Load(name)
		if err != nil {
			t.Fatal(err)
		}
		fsys, err := sets.FS(name)
		if err != nil {
			t.Fatal(err)
		}
		for _, dir := range schemas.SchemaDirs {
			entries, _ := fs.ReadDir(fsys, dir)
			for _, e := range entries {
				if !strings.HasSuffix(e.Name(), ".json") {
					continue
				}
				file := path.Join(dir, e.Name())
				src, err := fs.ReadFile(fsys, file)
				if err != nil {
					t.Fatal(err)
				}
				files++
				parsed, err := schemas.Parse(file, src)
				if err != nil {
					t.Fatalf("%s/%s: %v", name, file, err)
				}
				d := Load(src, Options{File: file, Base: base})
				for _, g := range d.Diagnostics {
					// Kafka keeps a field of a removed version (trunk's
					// ShareFetchRequest): worth a warning in a draft.
					if g.Severity == Warning && strings.Contains(g.Message, "it is never on the wire") {
						continue
					}
					t.Errorf("%s/%s:%s", name, file, g)
				}
				if len(d.Schemas) != 1 || d.Schemas[0].Message == nil || !d.Schemas[0].InSet {
					t.Errorf("%s/%s: %d schemas", name, file, len(d.Schemas))
					continue
				}
				s := d.Schemas[0]
				if got, w := dump(s.Message), dump(parsed); got != w {
					t.Errorf("%s/%s: the draft reader's message differs from Parse's:\n%s", name, file, firstDiff(got, w))
				}
				if string(s.Repaired) != string(src[s.Start:s.End]) {
					t.Errorf("%s/%s: a clean schema was changed by repairs", name, file)
				}
				if n := instanceValues(s.Message); n > maxValues/20 {
					t.Errorf("%s/%s: smallest instance of %d values, near the draft limit %d", name, file, n, maxValues)
				}
				if s.Type == "request" || s.Type == "response" {
					if s.KeySource != KeyWritten || int(s.Key) != parsed.APIKey {
						t.Errorf("%s/%s: key %d (%s), want %d written", name, file, s.Key, s.KeySource, parsed.APIKey)
					}
				}
			}
		}
	}
	for _, name := range sets.Names() {
		s, _ := sets.Load(name)
		want += len(s.Messages())
	}
	if files != want || files < 500 {
		t.Errorf("%d schema files, want %d (the sets' messages)", files, want)
	}
}
