package draft

import (
	"strings"

	"kwire/internal/xfmt"
	"kwire/schemas"
)

// load parses one repaired schema and reports, at their places in the
// paste, the repairs and what the parser found.
func (d *Draft) load(r *region) {
	s := &Schema{Name: r.name, Type: r.typ, API: r.api, Start: r.start, End: r.end, Key: r.key, KeySource: r.keySrc}
	s.Line, s.EndLine = d.idx.line(r.start), d.idx.line(max(r.start, r.end-1))
	d.Schemas = append(d.Schemas, s)
	for _, g := range r.diags {
		d.diag(g.Severity, g.Offset, r.name, g.Message, g.Suggestion)
	}
	text, om := r.apply(d.Source)
	s.Repaired = text
	if r.dup {
		return
	}
	p := schemas.ParsePartial(d.File, text)
	at := func(e *schemas.Error) int { return om.orig(e.Pos.Offset) }
	for _, e := range p.Warnings {
		d.diag(Warning, at(e), r.name, e.Msg, suggest(e, nil, p.Message))
	}
	skipped := map[*schemas.Error]*schemas.SkippedField{}
	for i := range p.Skipped {
		skipped[p.Skipped[i].Err] = &p.Skipped[i]
	}
	for _, e := range p.Errors {
		msg := e.Msg
		var f *schemas.Field
		if sf := skipped[e]; sf != nil {
			f = sf.Field
			msg += "; the field is left out"
		}
		d.diag(Error, at(e), r.name, msg, suggest(e, f, p.Message))
	}
	rm := remapper{d: d, om: om, seenF: map[*schemas.Field]bool{}, seenS: map[*schemas.Struct]bool{}, seenE: map[*schemas.Error]bool{}}
	for _, e := range p.Errors {
		rm.err(e)
	}
	for _, e := range p.Warnings {
		rm.err(e)
	}
	for _, sf := range p.Skipped {
		rm.fields([]*schemas.Field{sf.Field})
	}
	s.Skipped = p.Skipped
	if m := p.Message; m != nil {
		rm.message(m)
		m.File, m.Source = d.File, d.Source
		s.Message = m
	}
}

// remapper moves the positions of a parsed schema from the repaired text
// to the paste, each once.
type remapper struct {
	d     *Draft
	om    *offsetMap
	seenF map[*schemas.Field]bool
	seenS map[*schemas.Struct]bool
	seenE map[*schemas.Error]bool
}

func (rm *remapper) pos(p *schemas.Pos) {
	off := rm.om.orig(p.Offset)
	p.Line, p.Col = rm.d.idx.pos(off)
	p.Offset, p.File = off, rm.d.File
}

func (rm *remapper) err(e *schemas.Error) {
	if !rm.seenE[e] {
		rm.seenE[e] = true
		rm.pos(&e.Pos)
	}
}

func (rm *remapper) fields(fs []*schemas.Field) {
	for _, f := range fs {
		if rm.seenF[f] {
			continue
		}
		rm.seenF[f] = true
		rm.pos(&f.Pos)
		rm.fields(f.Fields)
		if f.Struct != nil {
			rm.strct(f.Struct)
		}
	}
}

func (rm *remapper) strct(s *schemas.Struct) {
	if rm.seenS[s] {
		return
	}
	rm.seenS[s] = true
	rm.pos(&s.Pos)
	rm.fields(s.Fields)
}

func (rm *remapper) message(m *schemas.Message) {
	rm.strct(m.Body)
	for _, s := range m.CommonStructs {
		rm.strct(s)
	}
	for _, s := range m.Structs {
		rm.strct(s)
	}
}

// buildSet puts the loaded schemas into one set, with the base set's
// headers.
func (d *Draft) buildSet() {
	var msgs []*schemas.Message
	byName := map[string]*Schema{}
	for _, s := range d.Schemas {
		m := s.Message
		if m == nil || m.Name == "" {
			continue
		}
		if prev := byName[m.Name]; prev != nil {
			d.diag(Error, s.Start, s.Name, xfmt.Sprintf("a second schema named %s (the first is on line %d): ignored", m.Name, prev.Line), "paste each schema once")
			continue
		}
		if n := instanceValues(m); n > maxValues {
			d.diag(Error, s.Start, s.Name, xfmt.Sprintf("%s is not loaded: its smallest instance would hold more than %d values (structs holding structs)", m.Name, maxValues),
				"nest fewer structs, or use fewer fields of struct types")
			continue
		}
		byName[m.Name] = s
		s.InSet = true
		msgs = append(msgs, m)
	}
	if len(msgs) == 0 {
		return
	}
	if d.base != nil {
		for _, h := range []*schemas.Message{d.base.RequestHeader, d.base.ResponseHeader} {
			if h != nil && byName[h.Name] == nil {
				msgs = append(msgs, h)
			}
		}
	}
	set, err := schemas.NewSet(SetName, msgs)
	if err != nil {
		d.diag(Error, 0, "", "the schemas do not make one set: "+err.Error(), "")
		for _, s := range d.Schemas {
			s.InSet = false
		}
		return
	}
	if d.base != nil {
		set.SetErrors(d.base.Errors) // error codes in decoded drafts show their names
	}
	d.Set = set
}

// maxValues bounds the values of a draft's smallest instance (every array
// holds one element, so common structs that hold each other several times
// over multiply): a paste must not make the page build a huge message.
// Kafka's largest released message is far below it (TestInstanceValues).
const maxValues = 20000

// instanceValues counts the values of a message's smallest instance, all
// versions' fields together, up to just over maxValues.
func instanceValues(m *schemas.Message) int {
	memo := map[*schemas.Struct]int{}
	var count func(s *schemas.Struct) int
	count = func(s *schemas.Struct) int {
		if n, ok := memo[s]; ok {
			return n
		}
		memo[s] = maxValues + 1 // a cycle (reported by the parser) counts as too many
		n := 0
		for _, f := range s.Fields {
			n++
			if f.Struct != nil {
				n += count(f.Struct)
			}
			if n > maxValues {
				break
			}
		}
		memo[s] = min(n, maxValues+1)
		return memo[s]
	}
	return count(m.Body)
}

// check runs the check of Options on the smallest instance of each
// request and response at its latest version and reports what fails.
func (d *Draft) check(check func(*schemas.Set, *schemas.API, schemas.Direction, *schemas.Message, int16) error) {
	if check == nil {
		return
	}
	for _, s := range d.Schemas {
		if !s.InSet || (s.Type != "request" && s.Type != "response") {
			continue
		}
		a, err := d.Set.LookupAPI(s.API)
		if err != nil || a.Key != s.Key {
			continue
		}
		dir := schemas.Request
		if s.Type == "response" {
			dir = schemas.Response
		}
		v := s.Message.ValidVersions
		if v.None {
			continue // reported by the parser
		}
		if err := check(d.Set, a, dir, s.Message, v.Hi); err != nil {
			d.diag(Error, s.Start, s.Name, xfmt.Sprintf("%s v%d does not encode: %v", s.Name, v.Hi, err), "")
		}
	}
}

// suggest proposes a fix for a parser error; f is the field left out for
// it, if any.
func suggest(e *schemas.Error, f *schemas.Field, m *schemas.Message) string {
	msg := e.Msg
	has := func(s string) bool { return strings.Contains(msg, s) }
	switch {
	case has("unknown type") && f != nil && f.Type.Name != "":
		return typeSuggestion(f.Type.Name, m)
	case has(`no "versions"`):
		return `add "versions", such as "0+"`
	case has(`a tag but no "taggedVersions"`):
		lo := "0"
		if m != nil && !m.FlexibleVersions.None {
			lo = xfmt.Sprint(m.FlexibleVersions.Lo)
		}
		return xfmt.Sprintf(`add "taggedVersions": "%s+"; tagged fields exist in flexible versions only (KIP-482)`, lo)
	case has(`"taggedVersions" but no "tag"`):
		return `add a "tag" number unused in its struct`
	case has("are outside the versions"):
		return "make its versions overlap the versions of what holds it, or widen validVersions"
	case has("bad version range"):
		return `write a range such as "0+", "1-3", "2" or "none"`
	case has("cannot be nullable"):
		return `remove "nullableVersions": only strings, bytes, records, arrays, structs and uuids can be null`
	case has("duplicate field name"):
		return "rename one of them"
	case has("is already used by"):
		return "give each tagged field of a struct its own tag"
	case has("must be open-ended"):
		return `write an open range such as "0+"`
	case has("must be flexible versions"):
		return "tag it in flexible versions only"
	case has("default"):
		return `fix the default or remove it`
	case has("defined twice (the same way)"):
		return `define it once, in "commonStructs", and give the other fields its name alone`
	case has("defined twice, differently"):
		return "give the two structs different names"
	case has("unknown key"), has("unknown schema key"), has("unknown common struct key"):
		if k := quoted(msg, 1); k != "" {
			if c := closest(k, knownKeys, 3); c != "" {
				return xfmt.Sprintf("did you mean %q?", c)
			}
		}
		return "remove it"
	case has("has no apiKey"):
		return `add "apiKey"`
	case has(`has no "name"`):
		return `add "name"`
	case has(`has no "type"`):
		return `add "type"`
	case has("validVersions must name"):
		return `add "validVersions", such as "0"`
	}
	return ""
}

var knownKeys = []string{"apiKey", "type", "name", "validVersions", "flexibleVersions", "deprecatedVersions",
	"latestVersionUnstable", "listeners", "fields", "commonStructs", "versions", "nullableVersions",
	"taggedVersions", "tag", "ignorable", "mapKey", "zeroCopy", "default", "about", "entityType"}

// quoted returns the n-th (from 0) double-quoted part of s.
func quoted(s string, n int) string {
	parts := strings.Split(s, `"`)
	if 2*n+1 < len(parts)-1 {
		return parts[2*n+1]
	}
	return ""
}

var primitives = []string{"bool", "int8", "int16", "uint16", "int32", "uint32", "int64", "float64", "string", "bytes", "records", "uuid"}

// typeSuggestion proposes types for an unknown one: the primitives its
// name holds ("[]int32int16": []int32 or []int16), else the closest
// primitive or struct name.
func typeSuggestion(typ string, m *schemas.Message) string {
	elem, arr := strings.CutPrefix(typ, "[]")
	prefix := ""
	if arr {
		prefix = "[]"
	}
	var held []string
	low := strings.ToLower(elem)
	for _, p := range primitives {
		if strings.Contains(low, p) && !(p == "int16" && strings.Contains(low, "uint16")) && !(p == "int32" && strings.Contains(low, "uint32")) {
			held = append(held, prefix+p)
		}
	}
	if len(held) > 1 || len(held) == 1 && held[0] != typ {
		return "use one type: " + strings.Join(held, " or ")
	}
	names := append([]string(nil), primitives...)
	if m != nil {
		for n := range m.Structs {
			names = append(names, n)
		}
	}
	if c := closest(elem, names, 3); c != "" {
		return xfmt.Sprintf("did you mean %s%s?", prefix, c)
	}
	return "use a primitive type (int32, string, ...) or a struct defined in the schema"
}

// closest returns the name nearest to s within maxDist edits, or "".
func closest(s string, names []string, maxDist int) string {
	best, bestD := "", maxDist+1
	for _, n := range names {
		if dist := editDistance(strings.ToLower(s), strings.ToLower(n)); dist < bestD || dist == bestD && n < best {
			best, bestD = n, dist
		}
	}
	if bestD > maxDist {
		return ""
	}
	return best
}

func editDistance(a, b string) int {
	if len(a) > 64 || len(b) > 64 {
		return 1 << 20
	}
	prev := make([]int, len(b)+1)
	cur := make([]int, len(b)+1)
	for j := range prev {
		prev[j] = j
	}
	for i := 1; i <= len(a); i++ {
		cur[0] = i
		for j := 1; j <= len(b); j++ {
			cost := 1
			if a[i-1] == b[j-1] {
				cost = 0
			}
			cur[j] = min(prev[j]+1, cur[j-1]+1, prev[j-1]+cost)
		}
		prev, cur = cur, prev
	}
	return prev[len(b)]
}
