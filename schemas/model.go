// Package schemas reads Apache Kafka's message JSON definitions into a
// model, validates them as Kafka's generator does, and keeps a registry of
// the messages of one schema set.
//
// Reads one schema file (JSON with comments, via schemas/jsonc) into a
// Message: fields, versions, tags, defaults, structs, comments, each with
// its file position; validates it as Kafka's generator does; Set is the
// registry of one schema set (APIs by key and name, the headers, error
// codes), read whole (LoadSet) or opened (OpenSet, lazy.go): a set with an
// index (kwire-index.tsv: each schema file's path, name, type and API key,
// written by WriteIndex at build time into the browser's bundle, never kept
// with Kafka's files) has its headers, SOURCE and errors.tsv read at once
// and each other file when its message or API is asked for (Message,
// APIByKey, LookupAPI, under the set's lock), whose errors are reported then
// (LookupAPI returns them with file:line:col); Messages(), APIs() and
// Broken() read every file, APIIndex lists the APIs' keys and names without
// reading any; a set without an index is read whole; Direction (request or
// response, codec.Direction is this type).
package schemas

import (
	"strings"
	"sync"

	"kwire/internal/xfmt"
)

// Kind is the wire kind of a field type.
type Kind uint8

// The kinds of field types (SCHEMA-FORMAT.md, "Field Types").
const (
	KindInvalid Kind = iota
	KindBool
	KindInt8
	KindInt16
	KindUint16
	KindInt32
	KindUint32
	KindInt64
	KindFloat64
	KindString
	KindBytes
	KindRecords
	KindUUID
	KindStruct
	KindArray
)

var kindNames = [...]string{
	KindInvalid: "invalid", KindBool: "bool", KindInt8: "int8", KindInt16: "int16",
	KindUint16: "uint16", KindInt32: "int32", KindUint32: "uint32", KindInt64: "int64",
	KindFloat64: "float64", KindString: "string", KindBytes: "bytes", KindRecords: "records",
	KindUUID: "uuid", KindStruct: "struct", KindArray: "array",
}

func (k Kind) String() string {
	if int(k) < len(kindNames) {
		return kindNames[k]
	}
	return xfmt.Sprintf("Kind(%d)", k)
}

// Primitive reports whether the kind is not a struct or an array.
func (k Kind) Primitive() bool { return k != KindStruct && k != KindArray && k != KindInvalid }

// Width is the fixed wire width of numeric kinds, 0 for the others.
func (k Kind) Width() int {
	switch k {
	case KindBool, KindInt8:
		return 1
	case KindInt16, KindUint16:
		return 2
	case KindInt32, KindUint32:
		return 4
	case KindInt64, KindFloat64:
		return 8
	case KindUUID:
		return 16
	}
	return 0
}

// NullableKind reports whether a field of this kind may be nullable
// (strings, bytes, records, arrays and structs; SCHEMA-FORMAT.md).
func (k Kind) NullableKind() bool {
	switch k {
	case KindString, KindBytes, KindRecords, KindArray, KindStruct, KindUUID:
		return true
	}
	return false
}

var primitiveKinds = map[string]Kind{
	"bool": KindBool, "int8": KindInt8, "int16": KindInt16, "uint16": KindUint16,
	"int32": KindInt32, "uint32": KindUint32, "int64": KindInt64, "float64": KindFloat64,
	"string": KindString, "bytes": KindBytes, "records": KindRecords, "uuid": KindUUID,
}

// Type is a parsed field type such as "int32", "[]string" or "[]Topic".
type Type struct {
	Kind Kind
	Name string // as written: "int32", "[]Topic", "Topic"
	Elem *Type  // for arrays
}

// ParseType parses a field type. A name that is not a primitive and does
// not start with a capital letter is an unknown type.
func ParseType(s string) (Type, error) {
	if elem, ok := strings.CutPrefix(s, "[]"); ok {
		et, err := ParseType(elem)
		if err != nil {
			return Type{}, xfmt.Errorf("unknown type %q", s)
		}
		if et.Kind == KindArray {
			return Type{}, xfmt.Errorf("unknown type %q: arrays of arrays are not allowed", s)
		}
		return Type{Kind: KindArray, Name: s, Elem: &et}, nil
	}
	if k, ok := primitiveKinds[s]; ok {
		return Type{Kind: k, Name: s}, nil
	}
	if isStructName(s) {
		return Type{Kind: KindStruct, Name: s}, nil
	}
	return Type{}, xfmt.Errorf("unknown type %q", s)
}

func isStructName(s string) bool {
	if s == "" || s[0] < 'A' || s[0] > 'Z' {
		return false
	}
	for _, c := range s {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// StructName is the name of the struct a field holds (directly or as array
// elements), or "".
func (t Type) StructName() string {
	if t.Kind == KindArray {
		return t.Elem.StructName()
	}
	if t.Kind == KindStruct {
		return t.Name
	}
	return ""
}

// Pos is a position in a schema file; Line and Col count from 1.
type Pos struct {
	File      string
	Line, Col int
	Offset    int
}

func (p Pos) String() string {
	if p.File == "" {
		return xfmt.Sprintf("%d:%d", p.Line, p.Col)
	}
	return xfmt.Sprintf("%s:%d:%d", p.File, p.Line, p.Col)
}

// Error is a schema error at a position.
type Error struct {
	Pos Pos
	Msg string
}

func (e *Error) Error() string { return e.Pos.String() + ": " + e.Msg }

// Field is one field of a message or struct.
type Field struct {
	Name             string
	Type             Type
	Versions         Versions
	NullableVersions Versions
	TaggedVersions   Versions
	Tag              int // -1 when the field is not tagged
	// FlexibleVersions overrides the message's flexible versions for this
	// field (RequestHeader's ClientId has "none"); nil when absent.
	FlexibleVersions *Versions
	Ignorable        bool
	Default          string // as written, "" when absent
	HasDefault       bool
	About            string
	EntityType       string
	MapKey           bool
	ZeroCopy         bool
	Fields           []*Field // inline struct fields, as written
	Struct           *Struct  // the struct this field holds, resolved
	Comments         []string // comment lines written just before the field
	Pos              Pos
}

// Tagged reports whether the field is a tagged field.
func (f *Field) Tagged() bool { return f.Tag >= 0 }

// Struct is a named list of fields: a message body, an inline struct or a
// common struct.
type Struct struct {
	Name     string
	Fields   []*Field
	Versions Versions
	Common   bool
	Pos      Pos
}

// Message is one schema file.
type Message struct {
	Name                  string
	Type                  string // request, response, header, data, metadata, coordinator-key, coordinator-value
	APIKey                int    // -1 when absent
	ValidVersions         Versions
	FlexibleVersions      Versions
	DeprecatedVersions    Versions
	LatestVersionUnstable bool
	Listeners             []string
	Fields                []*Field
	CommonStructs         []*Struct
	// Structs holds every named struct of the file, inline and common.
	Structs  map[string]*Struct
	Body     *Struct  // the message's own fields as a struct named after it
	Comments []string // top-level comment lines (version history)
	File     string
	Source   []byte // the file as read, comments included
	// Plans holds what the codec compiles from the message, by version
	// (codec.PlanFor): it lives as long as the message does, so that a
	// draft read again on every keystroke leaves nothing behind.
	Plans sync.Map
}

// APIName is the message name without its Request/Response suffix.
func (m *Message) APIName() string {
	if s, ok := strings.CutSuffix(m.Name, "Request"); ok && m.Type == "request" {
		return s
	}
	if s, ok := strings.CutSuffix(m.Name, "Response"); ok && m.Type == "response" {
		return s
	}
	return m.Name
}

// Flexible reports whether version v is flexible.
func (m *Message) Flexible(v int16) bool { return m.FlexibleVersions.Contains(v) }
