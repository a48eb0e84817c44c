package draft

import (
	"strings"

	"kwire/internal/xfmt"
	"kwire/schemas"
)

// ChangeKind says how a field of a draft differs from the released one.
type ChangeKind uint8

// The kinds of change, from none to the strongest.
const (
	Same     ChangeKind = iota
	Changed             // the default differs
	Versions            // versions, nullableVersions, taggedVersions or tag differ
	Retyped             // the type differs (and maybe more)
	Added               // only in the draft
	Removed             // only in the released schema
)

// String names the kind: same, changed, versions, retyped, added, removed.
func (k ChangeKind) String() string {
	return [...]string{"same", "changed", "versions", "retyped", "added", "removed"}[k]
}

// MarshalText writes the kind's name.
func (k ChangeKind) MarshalText() ([]byte, error) { return []byte(k.String()), nil }

// Row is one field of either side, matched by name within its struct.
type Row struct {
	Path     string // dotted: "Topology.Subtopologies.SourceTopics"
	Depth    int    // 0 for the message's own fields
	Draft    *schemas.Field
	Released *schemas.Field
	Kind     ChangeKind
	Detail   string // "type []int32 → []int16; versions 0+ → 1+"
}

// Diff compares one draft schema with the released schema of the same
// name: every field side by side. (draftcodec's Compare adds the
// sizes of their smallest instances.)
type Diff struct {
	Name            string // the message name, as written in the draft
	Draft           *schemas.Message
	Released        *schemas.Message
	DraftVersion    int16 // the latest versions of both
	ReleasedVersion int16
	Rows            []Row
	// API is the draft's API name for requests and responses ("" for other
	// schemas), Dir their direction, and ReleasedAPI the released API
	// (nil for other schemas).
	API         string
	Dir         schemas.Direction
	ReleasedAPI *schemas.API
}

// Changes returns the rows that differ.
func (d *Diff) Changes() []Row {
	var out []Row
	for _, r := range d.Rows {
		if r.Kind != Same {
			out = append(out, r)
		}
	}
	return out
}

// Count returns how many rows are of kind k.
func (d *Diff) Count(k ChangeKind) int {
	n := 0
	for _, r := range d.Rows {
		if r.Kind == k {
			n++
		}
	}
	return n
}

// Compare diffs each schema of the draft that base also has (by API name
// and direction for requests and responses, by name for the others).
func Compare(d *Draft, base *schemas.Set) []*Diff {
	var out []*Diff
	if base == nil {
		return nil
	}
	for _, s := range d.Schemas {
		if !s.InSet || s.Message == nil {
			continue
		}
		var rel *schemas.Message
		var relAPI *schemas.API
		dir := schemas.Request
		switch s.Type {
		case "request", "response":
			a, err := base.LookupAPI(s.API)
			if err != nil || a.Name != s.API {
				continue
			}
			if s.Type == "response" {
				dir = schemas.Response
			}
			rel, relAPI = dir.Schema(a), a
		default:
			rel = base.Message(s.Name)
		}
		if rel == nil {
			continue
		}
		df := &Diff{Name: s.Name, Draft: s.Message, Released: rel, DraftVersion: s.Message.ValidVersions.Hi, ReleasedVersion: rel.ValidVersions.Hi, Dir: dir, ReleasedAPI: relAPI}
		if relAPI != nil {
			df.API = s.API
		}
		c := &comparer{skipped: map[[2]string]*schemas.SkippedField{}, byIn: map[string][]*schemas.SkippedField{}}
		for i, sf := range s.Skipped {
			c.skipped[[2]string{sf.In, sf.Field.Name}] = &s.Skipped[i]
			c.byIn[sf.In] = append(c.byIn[sf.In], &s.Skipped[i])
		}
		df.Rows = c.fields(s.Message.Name, s.Message.Fields, rel.Fields, "", 0)
		out = append(out, df)
	}
	return out
}

// maxDiffDepth and maxDiffRows bound the walk into structs (a struct is
// shown again wherever it is used).
const (
	maxDiffDepth = 32
	maxDiffRows  = 5000
)

// comparer matches fields; it knows the draft's fields that were left out,
// by struct and name, to show them against the released ones.
type comparer struct {
	skipped map[[2]string]*schemas.SkippedField
	byIn    map[string][]*schemas.SkippedField
	rows    int // rows made, against maxDiffRows
}

// fields matches two field lists by name, in the draft's order; a
// released field the draft lacks comes after the field it follows in the
// released schema. in names the draft's struct.
func (c *comparer) fields(in string, draft, released []*schemas.Field, path string, depth int) []Row {
	if depth > maxDiffDepth {
		return nil
	}
	relIdx := map[string]int{}
	for i, f := range released {
		relIdx[f.Name] = i
	}
	inDraft := map[string]bool{}
	for _, f := range draft {
		inDraft[f.Name] = true
	}
	var rows []Row
	next := 0 // released fields before next are placed
	removedUpTo := func(end int) {
		for ; next < end; next++ {
			if f := released[next]; !inDraft[f.Name] {
				rows = append(rows, c.side(nil, f, path, depth, c.skipped[[2]string{in, f.Name}])...)
			}
		}
	}
	for _, f := range draft {
		i, ok := relIdx[f.Name]
		if !ok {
			rows = append(rows, c.side(f, nil, path, depth, nil)...)
			continue
		}
		if i >= next {
			removedUpTo(i)
			next = i + 1
		}
		rows = append(rows, c.side(f, released[i], path, depth, nil)...)
	}
	removedUpTo(len(released))
	for _, sf := range c.byIn[in] {
		if _, ok := relIdx[sf.Field.Name]; !ok && !inDraft[sf.Field.Name] {
			rows = append(rows, c.side(nil, nil, path, depth, sf)...)
		}
	}
	return rows
}

// side is the row of a field (either side nil) and the rows of its
// struct's fields; sf is the draft's field of that name that was left out.
func (c *comparer) side(d, r *schemas.Field, path string, depth int, sf *schemas.SkippedField) []Row {
	f := d
	if f == nil {
		f = r
	}
	if f == nil {
		f = sf.Field
	}
	p := f.Name
	if path != "" {
		p = path + "." + f.Name
	}
	row := Row{Path: p, Depth: depth, Draft: d, Released: r}
	switch {
	case sf != nil:
		row.Draft = sf.Field
		_, why, _ := strings.Cut(sf.Err.Msg, xfmt.Sprintf("field %q: ", sf.Field.Name))
		if why == "" {
			why = sf.Err.Msg
		}
		row.Kind, row.Detail = Added, "left out of the draft: "+why
		if r != nil {
			kind, detail := compareField(sf.Field, r)
			row.Kind = max(kind, Versions)
			if detail != "" {
				row.Detail += "; " + detail
			}
		}
	case r == nil:
		row.Kind, row.Detail = Added, "added: "+describe(d)
	case d == nil:
		row.Kind, row.Detail = Removed, "removed: "+describe(r)
	default:
		row.Kind, row.Detail = compareField(d, r)
	}
	rows := []Row{row}
	c.rows++
	if c.rows > maxDiffRows {
		return rows
	}
	var df, rf []*schemas.Field
	if d != nil && d.Struct != nil {
		df = d.Struct.Fields
	}
	if r != nil && r.Struct != nil {
		rf = r.Struct.Fields
	}
	if df != nil || rf != nil {
		in := ""
		if d != nil {
			in = d.Type.StructName()
		}
		rows = append(rows, c.fields(in, df, rf, p, depth+1)...)
	}
	return rows
}

// describe writes a field's type and versions: "[]int16 0+ nullable 0+".
func describe(f *schemas.Field) string {
	s := f.Type.Name + " " + f.Versions.String()
	if !f.NullableVersions.None {
		s += " nullable " + f.NullableVersions.String()
	}
	if f.Tagged() {
		s += xfmt.Sprintf(" tag %d in %s", f.Tag, f.TaggedVersions)
	}
	return s
}

// compareField says how two fields of one name differ.
func compareField(d, r *schemas.Field) (ChangeKind, string) {
	kind := Same
	var detail []string
	note := func(k ChangeKind, what string, a, b any) {
		detail = append(detail, xfmt.Sprintf("%s %v → %v", what, a, b))
		kind = max(kind, k)
	}
	if d.Type.Name != r.Type.Name && !(d.Type.StructName() != "" && r.Type.StructName() != "" && d.Type.Kind == r.Type.Kind) {
		note(Retyped, "type", d.Type.Name, r.Type.Name)
	}
	if d.Versions != r.Versions {
		note(Versions, "versions", d.Versions, r.Versions)
	}
	if d.NullableVersions != r.NullableVersions {
		note(Versions, "nullable", d.NullableVersions, r.NullableVersions)
	}
	if d.TaggedVersions != r.TaggedVersions {
		note(Versions, "tagged", d.TaggedVersions, r.TaggedVersions)
	}
	if d.Tag != r.Tag {
		note(Versions, "tag", d.Tag, r.Tag)
	}
	if d.Default != r.Default {
		note(Changed, "default", quoteEmpty(d.Default), quoteEmpty(r.Default))
	}
	return kind, strings.Join(detail, "; ")
}

func quoteEmpty(s string) string {
	if s == "" {
		return `""`
	}
	return s
}
