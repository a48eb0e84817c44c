package schemas

import (
	"bytes"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"kwire/internal/xfmt"
	"kwire/jsonv"
	"kwire/schemas/jsonc"
)

// ErrorList is every error found in one schema, in file order.
type ErrorList []*Error

func (l ErrorList) Error() string {
	var b strings.Builder
	for i, e := range l {
		if i > 0 {
			b.WriteByte('\n')
		}
		b.WriteString(e.Error())
	}
	return b.String()
}

// Parse reads one schema file (JSON with // comments) into a Message and
// validates it. On errors it returns the message as far as it could be
// read together with an ErrorList; fields with unknown types are left out.
func Parse(file string, src []byte) (*Message, error) {
	p := &parser{file: file, src: src}
	root, err := jsonc.Parse(src)
	if err != nil {
		return nil, ErrorList{p.syntaxError(err)}
	}
	obj := &root
	if root.Kind != '{' {
		return nil, ErrorList{p.errAt(root.Start, "a schema must be a JSON object")}
	}
	p.objStart = root.Start
	m := p.message(obj)
	m.Source = src
	if len(p.errs) == 0 {
		p.validate(m)
	}
	if len(p.errs) > 0 {
		return m, p.errs
	}
	return m, nil
}

// Partial is what ParsePartial read from one schema.
type Partial struct {
	// Message is the schema without the fields in Skipped; nil when the
	// text is not a JSON object.
	Message *Message
	// Errors are the errors Parse reports, in file order.
	Errors ErrorList
	// Warnings are what Parse reports as errors but ParsePartial could use
	// as written: an inline struct defined twice the same way.
	Warnings ErrorList
	// Skipped are the fields left out of Message, each with the error that
	// made it unusable.
	Skipped []SkippedField
}

// SkippedField is a field ParsePartial left out.
type SkippedField struct {
	Field *Field // as far as it was read; its Type may be zero
	Path  string // dotted from the message or common struct: "Topology.Subtopologies.SourceTopics"
	In    string // the struct it was in: the message's name for its own fields
	Err   *Error
}

// ParsePartial reads a schema as far as it can, for drafts: a field with
// an error of its own (an unknown type, a version range that does not
// parse or lies outside its parent's, a tag without taggedVersions, a bad
// default, a duplicate name or tag) is reported and left out, and the rest
// is validated and kept, so that it can still be encoded. An inline struct
// defined twice identically is a warning; defined twice differently, each
// field keeps its own definition and the second is an error.
func ParsePartial(file string, src []byte) *Partial {
	p := &parser{file: file, src: src, partial: true, bad: map[*Field]*Error{}, inline: map[*Field]*Struct{}}
	root, err := jsonc.Parse(src)
	if err != nil {
		return &Partial{Errors: ErrorList{p.syntaxError(err)}}
	}
	obj := &root
	if root.Kind != '{' {
		return &Partial{Errors: ErrorList{p.errAt(root.Start, "a schema must be a JSON object")}}
	}
	p.objStart = root.Start
	m := p.message(obj)
	m.Source = src
	p.validate(m)
	out := &Partial{Message: m, Warnings: p.warns, Skipped: p.prune(m)}
	sort.SliceStable(p.errs, func(i, j int) bool { return p.errs[i].Pos.Offset < p.errs[j].Pos.Offset })
	out.Errors = p.errs
	return out
}

type parser struct {
	file  string
	src   []byte
	errs  ErrorList
	lines []int // offsets of line starts, built on first use
	// objStart is the offset of the schema's "{": the position of a
	// message without fields.
	objStart int

	// ParsePartial only.
	partial bool
	bad     map[*Field]*Error  // fields to leave out, with their first error
	inline  map[*Field]*Struct // the struct each field with inline fields defines
	warns   ErrorList
}

func (p *parser) pos(off int) Pos {
	if p.lines == nil {
		p.lines = []int{0}
		for i, c := range p.src {
			if c == '\n' {
				p.lines = append(p.lines, i+1)
			}
		}
	}
	off = max(0, min(off, len(p.src)))
	l := sort.SearchInts(p.lines, off+1) - 1 // the last line start <= off
	return Pos{File: p.file, Line: l + 1, Col: off - p.lines[l] + 1, Offset: off}
}

// mark leaves f out (ParsePartial only) for the last error recorded.
func (p *parser) mark(f *Field) {
	if p.partial && len(p.errs) > 0 && p.bad[f] == nil {
		p.bad[f] = p.errs[len(p.errs)-1]
	}
}

// failField records an error that makes the field unusable.
func (p *parser) failField(f *Field, off int, format string, args ...any) {
	p.fail(off, format, args...)
	p.mark(f)
}

// unusable is what field returns for a field that cannot be used: nil for
// Parse, the field marked to be left out for ParsePartial.
func (p *parser) unusable(f *Field) *Field {
	p.mark(f)
	if p.partial {
		return f
	}
	return nil
}

func (p *parser) errAt(off int, format string, args ...any) *Error {
	return &Error{Pos: p.pos(off), Msg: xfmt.Sprintf(format, args...)}
}

func (p *parser) fail(off int, format string, args ...any) {
	p.errs = append(p.errs, p.errAt(off, format, args...))
}

// syntaxError is an Error at the place jsonc stopped.
func (p *parser) syntaxError(err error) *Error {
	if se, ok := err.(*jsonc.SyntaxError); ok {
		return p.errAt(se.Offset, "%s", se.Msg)
	}
	return &Error{Pos: Pos{File: p.file, Line: 1, Col: 1}, Msg: err.Error()}
}

// comments returns the text of the // and /* */ comments in extra.
func comments(extra []byte) []string {
	var out []string
	for _, line := range strings.Split(string(extra), "\n") {
		line = strings.TrimSpace(line)
		if c, ok := strings.CutPrefix(line, "//"); ok {
			out = append(out, strings.TrimPrefix(c, " "))
		} else if strings.HasPrefix(line, "/*") || strings.HasPrefix(line, "*") {
			c := strings.TrimSuffix(strings.TrimLeft(line, "/*"), "*/")
			out = append(out, strings.TrimSpace(c))
		}
	}
	return out
}

type member struct {
	name  string
	off   int // offset of the name
	value *jsonc.Value
	extra []byte // comments before the name
}

func (p *parser) members(obj *jsonc.Value) []member {
	out := make([]member, 0, len(obj.Members))
	raw := func(m member) []byte { return p.src[m.value.Start:m.value.End] }
	for i := range obj.Members {
		m := &obj.Members[i]
		mem := member{name: text(m.Name.Lit), off: m.Name.Start, value: &m.Value, extra: m.Name.Before}
		// Kafka's own files repeat a key with the same value now and then
		// (DescribeTopicPartitionsRequest); Jackson keeps the last one.
		for _, prev := range out {
			if prev.name == mem.name && !bytes.Equal(raw(prev), raw(mem)) {
				p.fail(mem.off, "key %q is given twice with different values", mem.name)
			}
		}
		out = append(out, mem)
	}
	return out
}

// text is a literal's text: a string unquoted (most schema strings hold
// no escape and are cut from their quotes), anything else as written.
func text(lit []byte) string {
	if len(lit) < 2 || lit[0] != '"' {
		return string(lit)
	}
	inner := lit[1 : len(lit)-1]
	if bytes.IndexByte(inner, '\\') < 0 && utf8.Valid(inner) {
		return string(inner)
	}
	if s, ok := jsonv.Unquote(string(inner)); ok {
		return s
	}
	return strings.ToValidUTF8(string(inner), "\uFFFD")
}

func (p *parser) str(m member) string {
	lit := m.value.Lit
	if m.value.Kind != '"' {
		p.fail(m.value.Start, "%q must be a string", m.name)
		return ""
	}
	return text(lit)
}

func (p *parser) boolean(m member) bool {
	lit, k := m.value.Lit, m.value.Kind
	if k == 't' || k == 'f' {
		return k == 't'
	}
	if k == '"' { // a few drafts quote booleans
		if b, err := strconv.ParseBool(text(lit)); err == nil {
			return b
		}
	}
	p.fail(m.value.Start, "%q must be true or false", m.name)
	return false
}

func (p *parser) integer(m member) (int, bool) {
	lit, k := m.value.Lit, m.value.Kind
	if k == '0' {
		n, err := strconv.Atoi(string(lit))
		if err == nil {
			return n, true
		}
	}
	if k == '"' {
		if n, err := strconv.Atoi(text(lit)); err == nil {
			return n, true
		}
	}
	p.fail(m.value.Start, "%q must be an integer, not %s", m.name, bytes.TrimSpace(p.src[m.value.Start:m.value.End]))
	return 0, false
}

func (p *parser) versions(m member) Versions {
	s := p.str(m)
	v, err := ParseVersions(s)
	if err != nil && s != "" {
		p.fail(m.value.Start, "%q: %v", m.name, err)
	}
	return v
}

func (p *parser) message(obj *jsonc.Value) *Message {
	m := &Message{APIKey: -1, File: p.file, FlexibleVersions: NoVersions, DeprecatedVersions: NoVersions, Structs: map[string]*Struct{}}
	var fields, common *jsonc.Value
	var fieldsOff int
	for _, mem := range p.members(obj) {
		m.Comments = append(m.Comments, comments(mem.extra)...)
		switch mem.name {
		case "apiKey":
			if n, ok := p.integer(mem); ok {
				m.APIKey = n
			}
		case "type":
			m.Type = p.str(mem)
		case "name":
			m.Name = p.str(mem)
		case "validVersions":
			m.ValidVersions = p.versions(mem)
		case "flexibleVersions":
			m.FlexibleVersions = p.versions(mem)
		case "deprecatedVersions":
			m.DeprecatedVersions = p.versions(mem)
		case "headerVersions":
			// Kafka's newer generator reads it; the header version is
			// still chosen from flexibleVersions here, as Kafka does.
		case "latestVersionUnstable":
			m.LatestVersionUnstable = p.boolean(mem)
		case "listeners":
			arr := mem.value
			if arr.Kind != '[' {
				p.fail(mem.value.Start, `"listeners" must be an array of strings`)
				continue
			}
			for i := range arr.Elems {
				m.Listeners = append(m.Listeners, p.str(member{name: "listeners", value: &arr.Elems[i]}))
			}
		case "fields":
			fields, fieldsOff = mem.value, mem.off
		case "commonStructs":
			common = mem.value
		default:
			p.fail(mem.off, "unknown schema key %q", mem.name)
		}
	}
	if m.Name == "" {
		p.fail(0, `schema has no "name"`)
	}
	switch m.Type {
	case "request", "response", "header", "data", "metadata", "coordinator-key", "coordinator-value":
	case "":
		p.fail(0, `schema %q has no "type"`, m.Name)
	default:
		p.fail(0, "schema %q has unknown type %q", m.Name, m.Type)
	}
	if common != nil {
		arr := common
		if arr.Kind != '[' {
			p.fail(common.Start, `"commonStructs" must be an array`)
		} else {
			for i := range arr.Elems {
				s := p.commonStruct(&arr.Elems[i])
				if s == nil {
					continue
				}
				m.CommonStructs = append(m.CommonStructs, s)
			}
		}
	}
	switch {
	case fields == nil && m.ValidVersions.None:
		// A removed API: Kafka keeps its key reserved with
		// "validVersions": "none" and no fields (MessageSpec).
		fieldsOff = p.objStart
	case fields == nil:
		p.fail(0, `schema %q has no "fields"`, m.Name)
	default:
		m.Fields = p.fields(fields)
	}
	m.Body = &Struct{Name: m.Name, Fields: m.Fields, Versions: AllVersions, Pos: p.pos(fieldsOff)}
	p.collectStructs(m)
	return m
}

func (p *parser) commonStruct(v *jsonc.Value) *Struct {
	obj := v
	if v.Kind != '{' {
		p.fail(v.Start, "a common struct must be an object")
		return nil
	}
	s := &Struct{Common: true, Versions: AllVersions, Pos: p.pos(v.Start)}
	for _, mem := range p.members(obj) {
		switch mem.name {
		case "name":
			s.Name = p.str(mem)
		case "versions":
			s.Versions = p.versions(mem)
		case "fields":
			s.Fields = p.fields(mem.value)
		default:
			p.fail(mem.off, "unknown common struct key %q", mem.name)
		}
	}
	if !isStructName(s.Name) {
		p.fail(v.Start, "common struct name %q must start with a capital letter", s.Name)
	}
	return s
}

func (p *parser) fields(v *jsonc.Value) []*Field {
	arr := v
	if v.Kind != '[' {
		p.fail(v.Start, `"fields" must be an array`)
		return nil
	}
	out := make([]*Field, 0, len(arr.Elems))
	for i := range arr.Elems {
		if f := p.field(&arr.Elems[i]); f != nil {
			out = append(out, f)
		}
	}
	return out
}

// field reads one field; it returns nil for a field that cannot be used
// (its error is recorded), or with ParsePartial the field marked to be
// left out.
func (p *parser) field(v *jsonc.Value) *Field {
	obj := v
	if v.Kind != '{' {
		p.fail(v.Start, "a field must be an object")
		return nil
	}
	f := &Field{Tag: -1, NullableVersions: NoVersions, TaggedVersions: NoVersions, Pos: p.pos(v.Start), Comments: comments(v.Before)}
	var typ string
	typOff := v.Start
	hasVersions, hasTag := false, false
	for _, mem := range p.members(obj) {
		n := len(p.errs)
		switch mem.name {
		case "name":
			f.Name = p.str(mem)
		case "type":
			typ, typOff = p.str(mem), mem.value.Start
		case "versions":
			f.Versions, hasVersions = p.versions(mem), true
		case "nullableVersions":
			f.NullableVersions = p.versions(mem)
		case "taggedVersions":
			f.TaggedVersions = p.versions(mem)
		case "flexibleVersions":
			fv := p.versions(mem)
			f.FlexibleVersions = &fv
		case "tag":
			if n, ok := p.integer(mem); ok {
				f.Tag, hasTag = n, true
				if n < 0 {
					p.fail(mem.value.Start, "field %q: tag %d is negative", f.Name, n)
				}
			}
		case "ignorable":
			f.Ignorable = p.boolean(mem)
		case "mapKey":
			f.MapKey = p.boolean(mem)
		case "zeroCopy":
			f.ZeroCopy = p.boolean(mem)
		case "default":
			f.HasDefault = true
			if lit := mem.value.Lit; mem.value.Kind == 'n' {
				// Kafka's FieldSpec reads a JSON null as no default at all
				// (ConsumerGroupMemberMetadataValue writes one), unlike
				// the string "null".
				f.HasDefault = false
			} else if lit != nil {
				f.Default = text(lit)
			} else {
				p.fail(mem.value.Start, "field %q: default must be a literal", f.Name)
			}
		case "about":
			f.About = p.str(mem)
		case "entityType":
			f.EntityType = p.str(mem)
		case "fields":
			f.Fields = p.fields(mem.value)
			continue // errors of the inline fields are theirs
		default:
			p.fail(mem.off, "field %q: unknown key %q", f.Name, mem.name)
			continue // the key is ignored, the field is usable
		}
		switch mem.name {
		case "versions", "nullableVersions", "taggedVersions", "flexibleVersions", "tag", "default":
			if len(p.errs) > n {
				p.mark(f)
			}
		}
	}
	if f.Name == "" {
		p.fail(v.Start, `field has no "name"`)
		return p.unusable(f)
	}
	if !hasVersions {
		// Kafka's FieldSpec takes taggedVersions when versions is absent.
		if hasTag && !f.TaggedVersions.None {
			f.Versions = f.TaggedVersions
		} else {
			p.failField(f, v.Start, `field %q has no "versions"`, f.Name)
		}
	}
	if hasTag && f.TaggedVersions.None {
		p.failField(f, v.Start, `field %q has a tag but no "taggedVersions"`, f.Name)
	}
	if !hasTag && !f.TaggedVersions.None {
		p.failField(f, v.Start, `field %q has "taggedVersions" but no "tag"`, f.Name)
	}
	if typ == "" {
		p.fail(v.Start, `field %q has no "type"`, f.Name)
		return p.unusable(f)
	}
	t, err := ParseType(typ)
	if err != nil {
		p.fail(typOff, "field %q: %v", f.Name, err)
		f.Type = Type{Name: typ} // kind invalid: kept for ParsePartial's report
		return p.unusable(f)
	}
	f.Type = t
	if t.StructName() == "" && len(f.Fields) > 0 {
		p.fail(typOff, "field %q of type %s cannot have fields", f.Name, typ)
	}
	return f
}

// collectStructs registers every named struct of the message (inline
// definitions and common structs) and resolves each struct field to one.
func (p *parser) collectStructs(m *Message) {
	for _, s := range m.CommonStructs {
		if prev, dup := m.Structs[s.Name]; dup {
			if p.partial {
				p.twice(s.Name, s.Pos.Offset, prev.Fields, s.Fields, "the first definition is used")
				continue
			}
			p.fail(s.Pos.Offset, "struct %q is defined twice", s.Name)
		}
		m.Structs[s.Name] = s
	}
	var define func(fields []*Field)
	define = func(fields []*Field) {
		for _, f := range fields {
			name := f.Type.StructName()
			if name == "" || len(f.Fields) == 0 || p.bad[f] != nil {
				continue
			}
			st := &Struct{Name: name, Fields: f.Fields, Versions: f.Versions, Pos: f.Pos}
			prev, dup := m.Structs[name]
			switch {
			case dup && p.partial:
				p.twice(name, f.Pos.Offset, prev.Fields, f.Fields, "this field keeps its own")
			case dup:
				p.fail(f.Pos.Offset, "struct %q is defined twice", name)
			}
			if p.partial {
				p.inline[f] = st
			}
			if !dup || !p.partial {
				m.Structs[name] = st
			}
			define(f.Fields)
		}
	}
	define(m.Fields)
	for _, s := range m.CommonStructs {
		define(s.Fields)
	}
	var resolve func(fields []*Field)
	resolve = func(fields []*Field) {
		for _, f := range fields {
			name := f.Type.StructName()
			if name == "" || p.bad[f] != nil {
				continue
			}
			s, ok := p.inline[f], true
			if s == nil {
				s, ok = m.Structs[name]
			}
			if !ok {
				p.failField(f, f.Pos.Offset, "field %q: unknown type %q (no struct of that name)", f.Name, name)
				continue
			}
			f.Struct = s
			if len(f.Fields) > 0 {
				resolve(f.Fields)
			}
		}
	}
	resolve(m.Fields)
	for _, s := range m.CommonStructs {
		resolve(s.Fields)
	}
}

// twice reports a struct defined a second time (ParsePartial): a warning
// when both definitions agree, as Kafka's generator rejects it all the
// same, an error when they differ.
func (p *parser) twice(name string, off int, first, again []*Field, which string) {
	if SameFields(first, again) {
		p.warns = append(p.warns, p.errAt(off, "struct %q is defined twice (the same way)", name))
		return
	}
	p.fail(off, "struct %q is defined twice, differently; %s", name, which)
}

// SameFields reports whether two field lists define the same wire format:
// names, types, versions, tags, defaults and inline fields, ignoring about
// texts and comments.
func SameFields(a, b []*Field) bool {
	if len(a) != len(b) {
		return false
	}
	for i, f := range a {
		g := b[i]
		if f.Name != g.Name || f.Type.Name != g.Type.Name || f.Versions != g.Versions ||
			f.NullableVersions != g.NullableVersions || f.TaggedVersions != g.TaggedVersions ||
			f.Tag != g.Tag || f.Default != g.Default || f.HasDefault != g.HasDefault ||
			(f.FlexibleVersions == nil) != (g.FlexibleVersions == nil) ||
			(f.FlexibleVersions != nil && *f.FlexibleVersions != *g.FlexibleVersions) ||
			!SameFields(f.Fields, g.Fields) {
			return false
		}
	}
	return true
}

// prune removes the fields marked unusable (ParsePartial) from the
// message, its common structs and its inline structs, and lists them.
func (p *parser) prune(m *Message) []SkippedField {
	var out []SkippedField
	var walk func(fields []*Field, path, in string) []*Field
	walk = func(fields []*Field, path, in string) []*Field {
		kept := make([]*Field, 0, len(fields))
		for _, f := range fields {
			fp := f.Name
			if path != "" {
				fp = path + "." + f.Name
			}
			if err := p.bad[f]; err != nil {
				out = append(out, SkippedField{Field: f, Path: fp, In: in, Err: err})
				continue
			}
			if len(f.Fields) > 0 {
				f.Fields = walk(f.Fields, fp, f.Type.StructName())
				if st := p.inline[f]; st != nil {
					st.Fields = f.Fields
				}
			}
			kept = append(kept, f)
		}
		return kept
	}
	m.Fields = walk(m.Fields, "", m.Name)
	m.Body.Fields = m.Fields
	for _, s := range m.CommonStructs {
		s.Fields = walk(s.Fields, s.Name, s.Name)
	}
	return out
}
