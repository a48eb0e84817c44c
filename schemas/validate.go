package schemas

import (
	"math"
	"strconv"
	"strings"
)

// validate checks the rules Kafka's message generator enforces.
func (p *parser) validate(m *Message) {
	if m.ValidVersions.None {
		// A removed API: Kafka's MessageSpec treats the spec as empty
		// (no flexible versions, no listeners) and checks only its
		// struct's names and tags.
		p.validateStruct(m, m.Fields, m.ValidVersions)
		return
	}
	if (m.Type == "request" || m.Type == "response") && m.APIKey < 0 {
		p.fail(0, "%s %q has no apiKey", m.Type, m.Name)
	}
	if m.APIKey > math.MaxInt16 {
		p.fail(0, "schema %q: apiKey %d does not fit in int16", m.Name, m.APIKey)
	}
	if !m.FlexibleVersions.None && !m.FlexibleVersions.Open() {
		p.fail(0, "schema %q: flexibleVersions %s must be open-ended", m.Name, m.FlexibleVersions)
	}
	p.validateStruct(m, m.Fields, m.ValidVersions)
	for _, s := range m.CommonStructs {
		p.validateStruct(m, s.Fields, m.ValidVersions)
	}
	p.cycles(m)
}

// cycles reports a field through which a struct holds itself: no
// instance of it could end (and encoding one would never stop).
func (p *parser) cycles(m *Message) {
	const onPath, done = 1, 2
	state := map[*Struct]int{}
	var visit func(s *Struct)
	visit = func(s *Struct) {
		state[s] = onPath
		for _, f := range s.Fields {
			if f.Struct == nil || p.bad[f] != nil {
				continue
			}
			switch state[f.Struct] {
			case onPath:
				p.failField(f, f.Pos.Offset, "field %q: struct %s holds itself through it", f.Name, f.Struct.Name)
			case 0:
				visit(f.Struct)
			}
		}
		state[s] = done
	}
	visit(m.Body)
	for _, s := range m.CommonStructs {
		if state[s] == 0 {
			visit(s)
		}
	}
}

func (p *parser) validateStruct(m *Message, fields []*Field, parent Versions) {
	names := map[string]bool{}
	tags := map[int]string{}
	for _, f := range fields {
		if p.bad[f] != nil {
			continue // ParsePartial leaves it out
		}
		if names[f.Name] {
			p.failField(f, f.Pos.Offset, "duplicate field name %q", f.Name)
		}
		names[f.Name] = true
		if p.partial && f.Versions.Intersect(parent).None && !parent.None {
			// Kafka's generator accepts such a field (it is never on the
			// wire); in a draft it is most likely a mistake.
			p.warns = append(p.warns, p.errAt(f.Pos.Offset, "field %q: versions %s are outside the versions %s it can appear in: it is never on the wire", f.Name, f.Versions, parent))
		}
		if !f.NullableVersions.None && !f.Type.Kind.NullableKind() {
			p.failField(f, f.Pos.Offset, "field %q: type %s cannot be nullable", f.Name, f.Type.Name)
		}
		if f.Tagged() {
			if prev, dup := tags[f.Tag]; dup {
				p.failField(f, f.Pos.Offset, "field %q: tag %d is already used by %q", f.Name, f.Tag, prev)
			}
			tags[f.Tag] = f.Name
			if !f.TaggedVersions.Open() {
				p.failField(f, f.Pos.Offset, "field %q: taggedVersions %s must be open-ended", f.Name, f.TaggedVersions)
			}
			if !f.TaggedVersions.Within(f.Versions) {
				p.failField(f, f.Pos.Offset, "field %q: taggedVersions %s are not within versions %s", f.Name, f.TaggedVersions, f.Versions)
			}
			if !f.TaggedVersions.Within(m.FlexibleVersions) {
				p.failField(f, f.Pos.Offset, "field %q: tagged versions %s must be flexible versions (%s)", f.Name, f.TaggedVersions, m.FlexibleVersions)
			}
		}
		if f.HasDefault {
			p.validateDefault(f)
		}
		if f.Struct != nil && len(f.Fields) > 0 {
			p.validateStruct(m, f.Fields, f.Versions.Intersect(parent))
		}
	}
	// Tags start at 0 and leave no gap (Kafka's StructSpec: larger
	// numbers would take more room on the wire).
	for i := range len(tags) {
		if _, ok := tags[i]; !ok {
			for _, f := range fields {
				if f.Tagged() && p.bad[f] == nil && f.Tag > i {
					p.failField(f, f.Pos.Offset, "field %q: tag %d is used but tag %d is not; tags must start at 0 and leave no gap", f.Name, f.Tag, i)
					break
				}
			}
			break
		}
	}
}

func (p *parser) validateDefault(f *Field) {
	d := f.Default
	bad := func(why string) { p.failField(f, f.Pos.Offset, "field %q: default %q %s", f.Name, d, why) }
	switch k := f.Type.Kind; k {
	case KindBool:
		if d != "true" && d != "false" {
			bad("is not true or false")
		}
	case KindInt8, KindInt16, KindInt32, KindInt64, KindUint16, KindUint32:
		if _, err := ParseIntDefault(d, k); err != nil {
			bad(err.Error())
		}
	case KindFloat64:
		if _, err := strconv.ParseFloat(d, 64); err != nil {
			bad("is not a number")
		}
	case KindString, KindStruct:
		if d == "null" && !f.Versions.Within(f.NullableVersions) {
			bad("is null but the field is not nullable in every version")
		}
	default:
		if d != "" && d != "null" {
			bad("cannot be set for " + f.Type.Name)
		} else if d == "null" && !f.Versions.Within(f.NullableVersions) {
			bad("is null but the field is not nullable in every version")
		}
	}
}

// ParseIntDefault parses an integer default as Kafka's generator does:
// decimal, or hexadecimal with 0x, checked against the kind's range.
func ParseIntDefault(s string, k Kind) (int64, error) {
	if s == "" {
		return 0, nil
	}
	bits := map[Kind]int{KindInt8: 8, KindInt16: 16, KindInt32: 32, KindInt64: 64, KindUint16: 16, KindUint32: 32}[k]
	unsigned := k == KindUint16 || k == KindUint32
	t := s
	neg := strings.HasPrefix(t, "-")
	t = strings.TrimPrefix(t, "-")
	base := 10
	if h, ok := strings.CutPrefix(t, "0x"); ok {
		t, base = h, 16
	}
	if unsigned {
		if neg {
			return 0, errRange
		}
		n, err := strconv.ParseUint(t, base, bits)
		if err != nil {
			return 0, errRange
		}
		return int64(n), nil
	}
	n, err := strconv.ParseUint(t, base, 64)
	if err != nil {
		return 0, errRange
	}
	limit := uint64(1) << (bits - 1)
	if neg {
		if n > limit {
			return 0, errRange
		}
		return -int64(n), nil
	}
	if n >= limit {
		return 0, errRange
	}
	return int64(n), nil
}

type rangeError struct{}

func (rangeError) Error() string { return "is not an integer of the field's width" }

var errRange = rangeError{}
