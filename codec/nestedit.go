package codec

import (
	"bytes"

	"kwire/codec/wire"
	"kwire/schemas"
)

// Nested is the value that a bytes field carries in a version-prefixed
// format (a consumer protocol subscription or assignment, a principal),
// read so that its fields can be edited one by one: an edit changes
// Value, and Bytes writes the field's new bytes.
type Nested struct {
	Schema  string // "ConsumerProtocolSubscription"
	Version int16
	Plan    *Plan
	Value   Value
}

// NestedValue reads b, the bytes of field fp in a message of set whose
// root struct is sp with value root, as the version-prefixed format the
// field carries, as the tree does. ok is false when the field carries
// none here (another protocol type, bytes that are not one) or when the
// value would not write back the same bytes (a version newer than the
// schema's, bytes left over): those are edited as bytes.
func NestedValue(fp *FieldPlan, set *schemas.Set, sp *StructPlan, root Value, b []byte) (n Nested, ok bool) {
	name := fp.Nested.schema()
	if name == "" || set == nil {
		return Nested{}, false
	}
	switch mode, _ := nestChoice(fp.Nested, sp, root); mode {
	case nestSkip:
		return Nested{}, false
	case nestSniff:
		if !sniff(set, name, b) {
			return Nested{}, false
		}
	}
	vp, err := versionedPlan(set, name, b)
	if err != nil || vp.newer {
		return Nested{}, false
	}
	v, used, err := vp.plan.Decode(b[2:])
	if err != nil || 2+used != len(b) {
		return Nested{}, false
	}
	n = Nested{Schema: name, Version: vp.version, Plan: vp.plan, Value: v}
	if back, err := n.Bytes(); err != nil || !bytes.Equal(back, b) {
		return Nested{}, false
	}
	return n, true
}

// Bytes encodes n as the field holds it: the version, then the value.
func (n Nested) Bytes() ([]byte, error) {
	return n.Plan.Append(wire.AppendInt16(nil, n.Version), n.Value)
}

// NestedSchema reports whether name is the schema of a version-prefixed
// format that a bytes field carries (the path segment under the field in
// the tree: "Metadata.ConsumerProtocolSubscription.Topics[0]").
func NestedSchema(name string) bool {
	for k := nestSubscription; k <= nestPrincipal; k++ {
		if k.schema() == name {
			return true
		}
	}
	return false
}
