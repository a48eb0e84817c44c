package codec

import (
	"math"
	"sort"
	"strconv"
	"sync"
	"sync/atomic"

	"kwire/codec/records"
	"kwire/internal/xfmt"
	"kwire/schemas"
	"kwire/tree"
)

// Plan is a message schema compiled for one version: which fields are on
// the wire, in what order, in which encoding. Plans are cached; get one
// with PlanFor.
type Plan struct {
	Msg      *schemas.Message
	Version  int16
	Flexible bool
	Root     *StructPlan
	// fields are the plan's fields, each at its FieldPlan.id: what a
	// tree's spans name (planDesc).
	fields []*FieldPlan
	// sizes is what the plan's last decode that succeeded used
	// (packSizes), from which the next one sizes its first blocks.
	sizes atomic.Uint64
	// spans is how many spans the plan's last tree decode that succeeded
	// made, and of how many bytes (packSpans): the next one's first
	// guess.
	spans atomic.Uint64
	// lines are the constant parts of each field's rows in the text tree,
	// at its FieldPlan.id, made on first use (fieldLines).
	lines     []fieldLine
	linesOnce sync.Once
}

// fieldLine is what the text tree's rows of one field say whatever its
// bytes (planDesc.AppendLine): made once per plan, not per row. The parts
// a row starts with are padded, for put32.
type fieldLine struct {
	head   []byte // "Name type", the field's row up to its value
	headEq []byte // "Name type = ", a primitive's
	elem   []byte // "Elem[", an element's row up to its index
	// elemTypeEq is "] Elem = ", an element's row from after its index
	// up to its value.
	elemTypeEq []byte
	// tail is " " and the description shortened as the text tree shows
	// it (tree.Shorten), or "", and a newline.
	tail []byte
	// about is the description shortened, without tail's space and
	// newline.
	about string
	// room is how many bytes a row of the field takes past its guides
	// but for a string's or bytes' value, and more.
	room      int
	errorCode bool // an int16 error code (isErrorCode), whose row names it
	compact   bool // a flexible version's array, string or bytes
	// op and elemOp say how a row writes the field's value and an
	// element's (rowOp).
	op, elemOp rowOp
	// plain: the name, type, element type and description are printable
	// ASCII (tree.Plain), as they are but in a draft schema, so that the
	// rows need not be escaped but for their values.
	plain bool
}

// fieldLines returns the constant parts of the fields' rows
// (Plan.lines).
func (p *Plan) fieldLines() []fieldLine {
	p.linesOnce.Do(func() {
		p.lines = make([]fieldLine, len(p.fields))
		for i, fp := range p.fields {
			l, t := &p.lines[i], fp.Field.Type
			head := string(appendNameType(nil, fp.Field.Name, t.Name))
			l.head, l.headEq = padded(head), padded(head+" = ")
			l.errorCode, l.compact = fp.Kind == schemas.KindInt16 && isErrorCode(fp.Field.Name), fp.Compact
			l.op, l.elemOp = opOf(fp.Kind), opOf(fp.Elem)
			tail := ""
			if l.about = tree.Shorten(fp.Field.About, tree.MaxAbout); l.about != "" {
				tail = " " + l.about
			}
			l.tail = []byte(tail + "\n")
			l.plain = tree.Plain([]byte(head + tail))
			elem, elemTypeEq := "", ""
			if t.Elem != nil {
				elem = t.Elem.Name + "["
				elemTypeEq = string(appendNameType(nil, "]", t.Elem.Name)) + " = "
				l.plain = l.plain && tree.Plain([]byte(t.Elem.Name))
			}
			l.elem, l.elemTypeEq = padded(elem), padded(elemTypeEq)
			l.room = len(l.headEq) + len(l.elem) + len(l.elemTypeEq) + len(l.tail) + rowRoom
		}
	})
	return p.lines
}

// rowRoom is the room a row takes but for its constant parts and a
// string's value: a fixed-width value (a UUID: 36), an index and a count
// (20 each), what an array shows (18), a place (16), the 32
// bytes put32 writes, and more.
const rowRoom = 192

// StructPlan is one struct at one version.
type StructPlan struct {
	Name     string
	Fields   []*FieldPlan // every schema field, in schema order (value index)
	Wire     []*FieldPlan // fields written in order, untagged and present
	Tagged   []*FieldPlan // tagged fields present at this version, by tag
	Flexible bool
	minSize  int // fewest bytes an instance takes on the wire

	// offWire lists the fields a decoder does not read in order (absent
	// or tagged), which start at their defaults (offDefaults, side by
	// side); deepDefaults those of them whose defaults hold lists, which a
	// decoded value must not share.
	offWire      []int
	offDefaults  []Value
	deepDefaults []int
	// strict lists the fields the version lacks that are not ignorable:
	// the encoder refuses a value other than their default.
	strict []int
	// steps are the Wire fields as the encoder's loop reads them.
	steps []encStep
}

// FieldPlan is one field at one version.
type FieldPlan struct {
	Field    *schemas.Field
	Index    int
	Kind     schemas.Kind // the field's kind (KindArray for arrays)
	Elem     schemas.Kind // element kind for arrays
	Struct   *StructPlan  // for structs and arrays of structs
	Present  bool         // the version has the field
	IsTagged bool         // present as a tagged field
	Nullable bool         // nullable at this version
	Compact  bool         // compact (flexible) encoding of lengths
	Default  Value
	// Nested says what format the bytes of this field carry (a consumer
	// protocol subscription, ...): see nested.go. Zero for most fields.
	Nested nestedKind
	// Topic says the field names the topic of the records that follow in
	// its struct (topicByName, topicByID; see topics.go).
	Topic uint8
	// id is the field's number in its plan (Plan.fields).
	id int32
}

// PlanFor returns the plan of msg at version, compiling it on first use;
// the plan is kept in the message (schemas.Message.Plans), and goes when
// the message goes.
func PlanFor(msg *schemas.Message, version int16) (*Plan, error) {
	if p, ok := msg.Plans.Load(version); ok {
		return p.(*Plan), nil
	}
	if msg.Type != "header" && !msg.ValidVersions.Contains(version) {
		return nil, xfmt.Errorf("%s has no version %d (valid versions: %s)", msg.Name, version, msg.ValidVersions)
	}
	c := &compiler{msg: msg, version: version, flexible: msg.Flexible(version), structs: map[*schemas.Struct]*StructPlan{}}
	p := &Plan{Msg: msg, Version: version, Flexible: c.flexible}
	p.Root = c.structPlan(msg.Body)
	p.fields = c.fields
	if c.err != nil {
		return nil, c.err
	}
	actual, _ := msg.Plans.LoadOrStore(version, p)
	return actual.(*Plan), nil
}

type compiler struct {
	msg      *schemas.Message
	version  int16
	flexible bool
	structs  map[*schemas.Struct]*StructPlan
	fields   []*FieldPlan
	err      error
}

func (c *compiler) structPlan(s *schemas.Struct) *StructPlan {
	if sp := c.structs[s]; sp != nil {
		return sp
	}
	sp := &StructPlan{Name: s.Name, Flexible: c.flexible}
	c.structs[s] = sp
	for i, f := range s.Fields {
		fp := &FieldPlan{Field: f, Index: i, Kind: f.Type.Kind, id: int32(len(c.fields))}
		c.fields = append(c.fields, fp)
		if f.Type.Kind == schemas.KindBytes {
			fp.Nested = nestedFor(c.msg.Name, f.Name)
		}
		if f.Type.Kind == schemas.KindString || f.Type.Kind == schemas.KindUUID {
			fp.Topic = topicField(c.msg.Name, f.Name)
		}
		if f.Type.Kind == schemas.KindArray {
			fp.Elem = f.Type.Elem.Kind
		}
		if f.Struct != nil {
			fp.Struct = c.structPlan(f.Struct)
		}
		fp.Present = f.Versions.Contains(c.version)
		fp.IsTagged = fp.Present && f.TaggedVersions.Contains(c.version)
		fp.Nullable = f.NullableVersions.Contains(c.version)
		fp.Compact = c.flexible && (f.FlexibleVersions == nil || f.FlexibleVersions.Contains(c.version))
		if fp.IsTagged {
			fp.Compact = true // tagged fields exist only in flexible versions
		}
		d, err := defaultValue(fp)
		if err != nil && c.err == nil {
			c.err = xfmt.Errorf("%s: field %s: %w", f.Pos, f.Name, err)
		}
		fp.Default = d
		sp.Fields = append(sp.Fields, fp)
		switch {
		case fp.IsTagged:
			sp.Tagged = append(sp.Tagged, fp)
		case fp.Present:
			sp.Wire = append(sp.Wire, fp)
		}
	}
	sort.Slice(sp.Tagged, func(i, j int) bool { return sp.Tagged[i].Field.Tag < sp.Tagged[j].Field.Tag })
	sp.steps = encSteps(sp.Wire)
	for i, fp := range sp.Fields {
		if fp.Present && !fp.IsTagged {
			continue
		}
		sp.offWire = append(sp.offWire, i)
		if !fp.Present && !fp.Field.Ignorable {
			sp.strict = append(sp.strict, i)
		}
		sp.offDefaults = append(sp.offDefaults, fp.Default)
		if fp.Default.IsList() {
			sp.deepDefaults = append(sp.deepDefaults, i)
		}
	}
	for _, fp := range sp.Wire {
		sp.minSize += fp.minSize()
	}
	if sp.Flexible {
		sp.minSize++
	}
	return sp
}

// MinSize is the fewest bytes a body of the plan's message takes on the
// wire: shorter bytes cannot be one.
func (p *Plan) MinSize() int { return p.Root.minSize }

// minSize is the fewest bytes the field can take (lengths and markers).
func (fp *FieldPlan) minSize() int {
	switch fp.Kind {
	case schemas.KindString:
		if fp.Compact {
			return 1
		}
		return 2
	case schemas.KindBytes, schemas.KindRecords, schemas.KindArray:
		if fp.Compact {
			return 1
		}
		return 4
	case schemas.KindStruct:
		if fp.Nullable {
			return 1
		}
		return fp.Struct.minSize
	}
	return fp.Kind.Width()
}

// elemMinSize is the fewest bytes one array element takes.
func (fp *FieldPlan) elemMinSize() int {
	switch fp.Elem {
	case schemas.KindStruct:
		return fp.Struct.minSize
	case schemas.KindString:
		if fp.Compact {
			return 1
		}
		return 2
	case schemas.KindBytes, schemas.KindRecords:
		if fp.Compact {
			return 1
		}
		return 4
	}
	return fp.Elem.Width()
}

// defaultValue is the field's default, as Kafka's generated code sets it.
func defaultValue(fp *FieldPlan) (Value, error) {
	f := fp.Field
	d := f.Default
	switch fp.Kind {
	case schemas.KindBool:
		return Bool(d == "true"), nil
	case schemas.KindInt8, schemas.KindInt16, schemas.KindInt32, schemas.KindInt64, schemas.KindUint16, schemas.KindUint32:
		n, err := schemas.ParseIntDefault(d, fp.Kind)
		return Int(n), err
	case schemas.KindFloat64:
		if d == "" {
			return Float(0), nil
		}
		x, err := strconv.ParseFloat(d, 64)
		return Float(x), err
	case schemas.KindUUID:
		return String(zeroUUID), nil
	case schemas.KindString, schemas.KindBytes, schemas.KindArray:
		if d == "null" {
			return Null, nil
		}
		if fp.Kind == schemas.KindArray {
			return List(nil), nil
		}
		return String(""), nil
	case schemas.KindRecords:
		return Null, nil
	case schemas.KindStruct:
		if d == "null" {
			return Null, nil
		}
		return fp.Struct.Defaults(), nil
	}
	return Value{}, xfmt.Errorf("no default for kind %s", fp.Kind)
}

const zeroUUID = "\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00\x00"

// Field returns the plan of the struct's field with that schema name, or
// nil. Its Index is where the field's value is in the struct value's List.
func (sp *StructPlan) Field(name string) *FieldPlan {
	for _, fp := range sp.Fields {
		if fp.Field.Name == name {
			return fp
		}
	}
	return nil
}

// Defaults returns a struct value with every field at its default.
func (sp *StructPlan) Defaults() Value {
	list := make([]Value, len(sp.Fields))
	for i, fp := range sp.Fields {
		list[i] = fp.Default.Clone()
	}
	return List(list)
}

// IsDefault reports whether v equals the field's default; Kafka omits such
// tagged fields and lets them be dropped from versions that lack the field.
func (fp *FieldPlan) IsDefault(v Value) bool {
	return v.Equal(fp.Default)
}

// Smallest returns the smallest legal instance of the plan's message as
// kwire's pages define it: numbers zero, strings and bytes empty (nullable
// ones too), every array with exactly one element, nullable structs
// present, records one empty RecordBatch v2, tagged fields at their
// defaults (so not written), and fields the version lacks at their
// defaults.
func (p *Plan) Smallest() Value { return p.Root.smallest() }

func (sp *StructPlan) smallest() Value {
	list := make([]Value, len(sp.Fields))
	for i, fp := range sp.Fields {
		if !fp.Present || fp.IsTagged {
			list[i] = fp.Default.Clone()
			continue
		}
		list[i] = fp.smallest()
	}
	return List(list)
}

func (fp *FieldPlan) smallest() Value {
	switch fp.Kind {
	case schemas.KindArray:
		return List([]Value{fp.smallestElem()})
	case schemas.KindStruct:
		return fp.Struct.smallest()
	}
	return smallestPrimitive(fp.Kind)
}

func (fp *FieldPlan) smallestElem() Value {
	if fp.Elem == schemas.KindStruct {
		return fp.Struct.smallest()
	}
	return smallestPrimitive(fp.Elem)
}

func smallestPrimitive(k schemas.Kind) Value {
	switch k {
	case schemas.KindUUID:
		return String(zeroUUID)
	case schemas.KindFloat64:
		return Float(0)
	case schemas.KindRecords:
		return String(string(records.EmptyBatch()))
	}
	return Value{}
}

// IntRange is the range of values of an integer kind (bool is 0 to 1).
func IntRange(k schemas.Kind) (lo, hi int64) {
	switch k {
	case schemas.KindInt8:
		return math.MinInt8, math.MaxInt8
	case schemas.KindInt16:
		return math.MinInt16, math.MaxInt16
	case schemas.KindUint16:
		return 0, math.MaxUint16
	case schemas.KindInt32:
		return math.MinInt32, math.MaxInt32
	case schemas.KindUint32:
		return 0, math.MaxUint32
	case schemas.KindBool:
		return 0, 1
	}
	return math.MinInt64, math.MaxInt64
}
