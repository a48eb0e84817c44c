// Package codec encodes and decodes every Kafka message of a schema set, at
// every version, from a plan compiled once per (schema, version): a value
// to bytes, and bytes to a value and to an object tree (package tree).
//
// PlanFor(message, version) compiles a schema for one version once (which
// fields are on the wire, in what encoding, tagged fields by tag) and keeps
// it in the message (schemas.Message.Plans), so that plans go with their
// message (a draft read again on each keystroke, a release reset) instead of
// piling up in a global map. A plan encodes a Value, decodes bytes to a
// Value alone (fast path: each struct's steps, StructPlan.steps, which the
// encoder's loop reads too, read ints, uuids, strings, bytes, structs and
// arrays of structs and of int32 inline and hand anything else, a short
// input, a null, a tagged field, to the general code, field, which reads it
// again from the same offset and fails with the same error;
// DecodeOptions.InPlace leaves records fields in the frame's bytes) or with
// its tree. The tree is built by the same walk (structValue's loop and
// field, given the span to add under): one tree.Span per node, 32 bytes
// without pointers, in a tree.Flat (spans.go): a span names its field by its
// number in the plan (FieldPlan.id, Plan.fields) and its kind (field, tagged
// field, element, array length, tagged-field count, presence byte, unknown
// tag), and its text (name, type, value read again from the bytes, detail,
// description, path) is written when it is drawn by the decode's planDesc,
// which keeps only what the bytes cannot say (error texts, the notes of
// nested formats); Plan.DecodeTree and Decode (a frame: its framing,
// header and body nodes rows whose text is kept, tree.Flat.Row) give the
// Flat, which the command line prints (tree.Flat.WriteText; TestFlatText
// checks its text against the nodes' own lines on every input of
// TestTreeDump) and the docs and the explorer draw; a Flat's first spans are as many as the plan's last tree decode made
// (Plan.spans), in proportion.
//
// TestTreeDump (-treedump FILE) hashes every field of every node of 12,576
// inputs' trees (every API version of every release, smallest and random, as
// frames and bodies, cut and corrupted; records of each codec and legacy;
// nested formats, internal topics, SASL, OTLP; identify's corpora): the
// trees of the Flat were checked identical, case by case, to those the
// decoder built as Nodes before. It builds the smallest legal instance, and
// reads and writes the JSON form (Frame.AppendJSONBudget with a budget the
// caller reads afterwards).
//
// Frame adds the size prefix and the request/response header, chosen as
// Kafka chooses it; bytes after a body inside its frame, which Kafka's
// broker ignores (librdkafka sends them), are with DecodeOptions.Trailing
// (set by capture, whose connection says the direction, and by the explorer
// for a capture's row) Frame.Trailing: a trailing node, "trailing_hex" in
// the JSON form, written back by Append; without it an error, as a guessed
// direction needs it.
//
// nested.go: bytes fields that carry another format (marked on their
// FieldPlan by message and field name: JoinGroup's metadata, SyncGroup's
// assignments, Envelope's principal and request) are decoded as children of
// the field's node, straight into the same Flat, with offsets in the outer
// frame and paths below the field's (a version-prefixed struct of the
// frame's release, or the carried request's header and body read as a
// frame's, by describers of their own; SASL's and OTLP's nodes as rows),
// whether they are is decided from the message's
// own ProtocolType as decoded so far (the decoder keeps the root value) or,
// without one, from the bytes; the JSON form writes them as an object only
// when it encodes back to the same bytes, and reads either form; NestedValue
// (nestedit.go) gives the explorer's form the value of a version-prefixed
// one under the same condition, and Nested.Bytes writes it back after an
// edit of one of its fields (wasm/app's keys go through it:
// b:Protocols[0].Metadata.ConsumerProtocolSubscription.Topics[0], the tree's
// path). Failures are error nodes inside the field; the outer decode goes
// on. SaslAuthenticate's AuthBytes are one of these fields, decoded by
// codec/sasl; PushTelemetry's Metrics another: decompressed by the request's
// CompressionType with records.Decompress (records' codecs, charged to the
// message's records.Budget) into a decompressed node whose children are
// Relative, then read by codec/otlp (the JSON form keeps them hex).
//
// topics.go: the records of Kafka's internal topics (__consumer_offsets,
// __transaction_state, __share_group_state, __cluster_metadata), whose
// format (TopicFormat) the decoder and the JSON writer know from the topic's
// name or id as read so far in the message (FieldPlan.Topic marks Produce's,
// Fetch's, FetchSnapshot's and ShareFetch's topic fields; TopicNames, the
// ids that earlier Metadata, CreateTopics and DescribeTopicPartitions
// responses named, filled by capture and the explorer) or from the user's
// choice (DecodeOptions.TopicFormat), or, for a topic given by an id no
// response named, guessed record by record from a key and value that use
// every byte as exactly one coordinator's (guessCoordinator, asked first as
// records.Options.RecordFilter, so that an ordinary topic's records stay
// spans); topics_decode.go decodes their keys and values through
// records.Options.Record (coordinator keys by record type = the key schema's
// apiKey, or its version in 3.9; values and metadata records by version;
// tables per set and format built once from the set's schemas) into nodes
// under the key and value with offsets in the outer frame, failures as error
// nodes inside, charged to the message's budget, and writes and reads them
// in the JSON form as objects that name their schema (records.RecordJSON),
// only when they encode back to the same bytes. The explorer decodes and
// edits them as the command line does (about 19 KB gzip of the app).
//
// patch.go: Patch brings the Flat of a message up to date after an edit of
// one field by reading that field alone with the decoder's own primitive
// (the bytes that differ, found by comparing old and new from both ends,
// must lie in one primitive field's or element's span of the body's
// describer: not the header, an array's length, a tagged field, records, a
// nested format, nor a field that steers how others are read: a topic's name
// or id, ProtocolType, CompressionType); as a span's text is read from the
// bytes when drawn, nothing else changes when the length did not; when it
// did, the spans after it move and those around it grow; the describers then
// read the new bytes (those of nested formats, which keep a copy, move with
// their spans). TestPatch (random messages of every API version of the six
// releases, as frames and bodies) and TestPatchCorpus (identify's real
// frames) compare every patched tree with a decode of the whole message.
package codec

import (
	"math"
	"slices"
	"sort"
	"unsafe"
)

// Value is a schema-typed value. Which accessor applies depends on the
// field's kind, known from the plan:
//
//   - bool, integers: Int (bool is 0 or 1)
//   - float64: Float64 (Int holds math.Float64bits)
//   - string, bytes, uuid (16 bytes), records (the raw record bytes): Str
//   - array: List holds the elements
//   - struct: List holds one value per schema field, in schema order,
//     including fields the version lacks (at their defaults); Unknown holds
//     tagged fields the schema does not know, kept to be written back
//
// IsNull reports a null string, bytes, records, array or struct.
//
// A Value takes 16 bytes: a pointer and a number. An integer has no
// pointer and is the number; a string or list points at its first byte or
// element, and its number holds its kind and length. Decoding a message
// makes one Value per field and element, so this size, more than the
// wire's, sets how much a decode allocates. The zero Value is the integer
// 0, and equals the empty string and the empty list. Values are not
// comparable with ==; use Equal.
type Value struct {
	_ [0]func() // not comparable
	p unsafe.Pointer
	n uint64
}

// The kinds of a Value whose pointer is set, in the top byte of its
// number; the rest is the length of its string or list.
const (
	kindShift = 56
	lenMask   = 1<<kindShift - 1

	kindString = 1 + iota // p: the bytes, or &empty
	kindList              // p: the first element, or &empty
	kindTagged            // p: a *tagged
	kindNull              // p: &empty
)

// empty is where the pointer of a null or empty value points.
var empty byte

func (v Value) kind() uint64 {
	if v.p == nil {
		return 0
	}
	return v.n >> kindShift
}

// tagged is a struct value with tagged fields its schema does not know;
// rare, so kept in a box of its own.
type tagged struct {
	list []Value
	tags []RawTag
}

// RawTag is a tagged field that the schema does not define (KIP-482).
type RawTag struct {
	Tag  uint32
	Data []byte
}

// Bool returns a bool value.
func Bool(b bool) Value {
	if b {
		return Value{n: 1}
	}
	return Value{}
}

// Int returns an integer value.
func Int(n int64) Value { return Value{n: uint64(n)} }

// Float returns a float64 value.
func Float(f float64) Value { return Value{n: math.Float64bits(f)} }

// String returns a string (or bytes, or uuid, or records) value.
func String(s string) Value {
	if len(s) == 0 {
		return Value{p: unsafe.Pointer(&empty), n: kindString << kindShift}
	}
	return Value{p: unsafe.Pointer(unsafe.StringData(s)), n: kindString<<kindShift | uint64(len(s))}
}

// List returns an array or struct value holding l (not a copy).
func List(l []Value) Value {
	if len(l) == 0 {
		return Value{p: unsafe.Pointer(&empty), n: kindList << kindShift}
	}
	return Value{p: unsafe.Pointer(unsafe.SliceData(l)), n: kindList<<kindShift | uint64(len(l))}
}

// Null is the null value.
var Null = Value{p: unsafe.Pointer(&empty), n: kindNull << kindShift}

// IsNull reports whether v is null.
func (v Value) IsNull() bool { return v.kind() == kindNull }

// Int reads an integer (or bool) value; it is 0 for other values.
func (v Value) Int() int64 {
	if v.p != nil {
		return 0
	}
	return int64(v.n)
}

// Bool reads a bool value.
func (v Value) Bool() bool { return v.Int() != 0 }

// Float64 reads a float64 value.
func (v Value) Float64() float64 { return math.Float64frombits(uint64(v.Int())) }

// Str reads a string, bytes, uuid or records value; it is "" for other
// values.
//
//go:noinline
func (v Value) Str() string { return v.str() }

// str is Str, inlined in the codec's loops; Str is not, which keeps the
// WebAssembly build (where every inlined copy counts) smaller.
func (v Value) str() string {
	if v.kind() != kindString {
		return ""
	}
	return unsafe.String((*byte)(v.p), int(v.n&lenMask))
}

// List returns the elements of an array value or the fields of a struct
// value, sharing v's memory: setting an element changes v. It is nil for
// other values and for empty lists.
//
//go:noinline
func (v Value) List() []Value { return v.list() }

// list is List, inlined in the codec's loops.
func (v Value) list() []Value {
	switch v.kind() {
	case kindList:
		if n := int(v.n & lenMask); n > 0 {
			return unsafe.Slice((*Value)(v.p), n)
		}
	case kindTagged:
		return (*tagged)(v.p).list
	}
	return nil
}

// IsList reports whether v is an array or struct value (not null).
func (v Value) IsList() bool {
	k := v.kind()
	return k == kindList || k == kindTagged
}

// Unknown returns the tagged fields of a struct value that its schema does
// not define, in the order they were read or set.
func (v Value) Unknown() []RawTag {
	if v.kind() != kindTagged {
		return nil
	}
	return (*tagged)(v.p).tags
}

// WithUnknown returns the struct value v with its unknown tagged fields
// replaced by tags (not a copy).
func (v Value) WithUnknown(tags []RawTag) Value {
	if len(tags) == 0 {
		return List(v.List())
	}
	return Value{p: unsafe.Pointer(&tagged{list: v.List(), tags: tags}), n: kindTagged << kindShift}
}

// Clone returns a deep copy of v.
func (v Value) Clone() Value {
	switch v.kind() {
	case kindList:
		old := v.List()
		l := make([]Value, len(old))
		for i, e := range old {
			l[i] = e.Clone()
		}
		return List(l)
	case kindTagged:
		return List(v.List()).Clone().WithUnknown(slices.Clone(v.Unknown()))
	}
	return v
}

// Equal reports whether two values are the same. Unknown tags are
// compared in ascending tag order, the order Encode writes them in
// (KIP-482), whatever order they were read or set in.
func (v Value) Equal(o Value) bool {
	if v.p == nil && o.p == nil {
		return v.n == o.n
	}
	if v.IsNull() != o.IsNull() || v.Int() != o.Int() || v.Str() != o.Str() {
		return false
	}
	l, m := v.List(), o.List()
	if len(l) != len(m) {
		return false
	}
	for i := range l {
		if !l[i].Equal(m[i]) {
			return false
		}
	}
	a, b := v.Unknown(), o.Unknown()
	if len(a) != len(b) {
		return false
	}
	if len(a) == 0 {
		return true
	}
	return slices.EqualFunc(sortedTags(a), sortedTags(b), func(a, b RawTag) bool {
		return a.Tag == b.Tag && string(a.Data) == string(b.Data)
	})
}

// sortedTags returns tags in ascending tag order, keeping the order of
// equal tags; it copies only when they are out of order.
func sortedTags(tags []RawTag) []RawTag {
	cmp := func(a, b RawTag) int { return int(int64(a.Tag) - int64(b.Tag)) }
	if slices.IsSortedFunc(tags, cmp) {
		return tags
	}
	tags = slices.Clone(tags)
	// sort.SliceStable orders as slices.SortStableFunc does, with one
	// copy of its code for every type (the browser app's size).
	sort.SliceStable(tags, func(i, j int) bool { return cmp(tags[i], tags[j]) < 0 })
	return tags
}
