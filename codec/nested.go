package codec

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"strconv"
	"strings"

	"kwire/codec/otlp"
	"kwire/codec/records"
	"kwire/codec/sasl"
	"kwire/codec/wire"
	"kwire/internal/xfmt"
	"kwire/schemas"
	"kwire/tree"
)

// Bytes inside bytes: fields of type bytes that carry another format,
// decoded as children of the field's node (offsets in the outer frame)
// and, in the JSON form, as an object that encodes back to the same bytes.
//
//   - JoinGroup's protocol metadata (request Protocols[].Metadata,
//     response Members[].Metadata): ConsumerProtocolSubscription;
//   - SyncGroup's assignments (request Assignments[].Assignment, response
//     Assignment): ConsumerProtocolAssignment;
//   - Envelope's RequestPrincipal: DefaultPrincipalData;
//   - Envelope's RequestData: the request (header and body, no size) it
//     carries (tree only; the JSON form keeps it hex);
//   - SaslAuthenticate's AuthBytes, request and response: the SASL
//     mechanism's messages (codec/sasl; tree only, the JSON form keeps
//     them hex).
//
// The consumer formats are decoded when the message's ProtocolType is
// "consumer"; a version without ProtocolType (JoinGroupResponse before v7,
// SyncGroup before v5, or a null one) has them decoded when the bytes are
// a plausible subscription or assignment that uses every byte. Other
// protocol types stay bytes with a note. Each is a version-prefixed
// struct (an int16, then the struct at that version) of a schema of the
// frame's own release; a version newer than the schema's is read with the
// newest layout, as Kafka's consumer reads it, and the bytes it leaves are
// shown as unread.

type nestedKind uint8

const (
	nestNone nestedKind = iota
	nestSubscription
	nestAssignment
	nestPrincipal
	nestRequest
	nestSASLRequest  // SaslAuthenticate's AuthBytes (codec/sasl)
	nestSASLResponse // the same in the response
	nestTelemetry    // PushTelemetry's Metrics: compressed OTLP (codec/otlp)
)

// nestedFor is the format that the bytes field named field of message msg
// carries.
func nestedFor(msg, field string) nestedKind {
	switch msg + "." + field {
	case "JoinGroupRequest.Metadata", "JoinGroupResponse.Metadata":
		return nestSubscription
	case "SyncGroupRequest.Assignment", "SyncGroupResponse.Assignment":
		return nestAssignment
	case "EnvelopeRequest.RequestPrincipal":
		return nestPrincipal
	case "EnvelopeRequest.RequestData":
		return nestRequest
	case "SaslAuthenticateRequest.AuthBytes":
		return nestSASLRequest
	case "SaslAuthenticateResponse.AuthBytes":
		return nestSASLResponse
	case "PushTelemetryRequest.Metrics":
		return nestTelemetry
	}
	return nestNone
}

// schema is the name of the schema of a version-prefixed format.
func (k nestedKind) schema() string {
	switch k {
	case nestSubscription:
		return "ConsumerProtocolSubscription"
	case nestAssignment:
		return "ConsumerProtocolAssignment"
	case nestPrincipal:
		return "DefaultPrincipalData"
	}
	return ""
}

// How a nested field is read.
type nestMode uint8

const (
	nestSkip   nestMode = iota // left as bytes, with a note
	nestDecode                 // decoded; failures are errors
	nestSniff                  // decoded if the bytes are plausibly the format
)

// nestChoice says how the field of kind k is read in a message whose root
// struct is sp with value root, and why when it is not.
func nestChoice(k nestedKind, sp *StructPlan, root Value) (nestMode, string) {
	switch k {
	case nestNone:
		return nestSkip, ""
	case nestPrincipal, nestRequest:
		return nestDecode, ""
	}
	if sp == nil {
		return nestSkip, ""
	}
	fp := sp.Field(protocolTypeField)
	list := root.List()
	if fp == nil || !fp.Present || fp.Index >= len(list) || list[fp.Index].IsNull() {
		return nestSniff, ""
	}
	pt := list[fp.Index].Str()
	if pt == "consumer" {
		return nestDecode, ""
	}
	return nestSkip, "not decoded: protocol type " + strconv.Quote(pt) + " (only the consumer protocol has a schema)"
}

// versioned is a version-prefixed struct read from bytes: the version
// written, the plan it is read with and the bytes the plan left.
type versioned struct {
	version int16
	plan    *Plan
	newer   bool // the version is newer than the schema's: read with the newest layout
}

// versionedPlan reads the leading int16 of b and returns the plan of
// schema name in set that reads the rest.
func versionedPlan(set *schemas.Set, name string, b []byte) (versioned, error) {
	msg := set.Message(name)
	if msg == nil {
		return versioned{}, xfmt.Errorf("release %s has no schema %s", set.Name, name)
	}
	v, n := wire.ConsumeInt16(b)
	if n < 0 {
		return versioned{}, xfmt.Errorf("%w: %s starts with an int16 version; %d bytes", wire.ErrShort, name, len(b))
	}
	// Kafka's consumer reads a newer subscription or assignment with the
	// layout it knows; DefaultKafkaPrincipalBuilder refuses a newer
	// principal.
	if v < msg.ValidVersions.Lo || v > msg.ValidVersions.Hi && name == "DefaultPrincipalData" {
		return versioned{version: v}, xfmt.Errorf("%w: %s version %d (valid: %s)", wire.ErrValue, name, v, msg.ValidVersions)
	}
	layout := min(v, msg.ValidVersions.Hi)
	p, err := PlanFor(msg, layout)
	return versioned{version: v, plan: p, newer: v > layout}, err
}

// plausible says whether a value of a consumer format read without a
// protocol type to say so looks like one: its topic names are valid
// names of Kafka topics.
func plausible(p *Plan, v Value) bool {
	ok := true
	var walk func(sp *StructPlan, v Value)
	walk = func(sp *StructPlan, v Value) {
		list := v.List()
		for _, fp := range sp.Wire {
			if fp.Index >= len(list) {
				continue
			}
			fv := list[fp.Index]
			switch {
			case fp.Field.Name == "Topics" && fp.Elem == schemas.KindString:
				for _, t := range fv.List() {
					ok = ok && validTopic(t.Str())
				}
			case fp.Field.Name == "Topic" && fp.Kind == schemas.KindString:
				ok = ok && validTopic(fv.Str())
			case fp.Kind == schemas.KindArray && fp.Elem == schemas.KindStruct:
				for _, e := range fv.List() {
					walk(fp.Struct, e)
				}
			}
		}
	}
	walk(p.Root, v)
	return ok
}

// validTopic says whether s is a legal topic name: 1 to 249 of
// [a-zA-Z0-9._-].
func validTopic(s string) bool {
	if len(s) == 0 || len(s) > 249 {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '.' || c == '_' || c == '-') {
			return false
		}
	}
	return true
}

// sniff reads b as the format of name when it plausibly is one: a known
// version, every byte used, plausible values.
func sniff(set *schemas.Set, name string, b []byte) bool {
	vp, err := versionedPlan(set, name, b)
	if err != nil || vp.newer {
		return false
	}
	v, used, err := vp.plan.Decode(b[2:])
	return err == nil && used == len(b)-2 && plausible(vp.plan, v)
}

// nested decodes the bytes s of field fp, which start at offset base of
// the buffer shown, into children of span node, written straight into
// the Flat in preorder; what it says of the field is a note on the
// field's detail (a value, for SASL PLAIN's masked bytes). A
// version-prefixed struct and Envelope's request are decoded into spans,
// a describer of their own writing their text with the field's path
// before theirs; the other formats (SASL, OTLP) are rows whose text is
// kept (tree.Flat.Row). Failures are error nodes inside node; the outer
// decode goes on.
func (d *decoder) nested(fp *FieldPlan, s string, base int, node int) {
	if d.set == nil || d.depth > 0 {
		return
	}
	var note, value string
	switch {
	case len(s) == 0 && (fp.Nested == nestSASLRequest || fp.Nested == nestSASLResponse || fp.Nested == nestTelemetry):
		return // nothing to read, nothing to say
	case fp.Nested == nestSASLRequest || fp.Nested == nestSASLResponse:
		note, value = sasl.Decode(d.a, d.flat, node, []byte(s), sasl.Options{Base: base, Section: d.section, Field: fp.Field.Name, Path: d.flat.Path(node),
			Response: fp.Nested == nestSASLResponse, Mechanism: d.saslMech})
	case fp.Nested == nestTelemetry:
		d.telemetry([]byte(s), base, node)
	default:
		note = d.versioned(fp, s, base, node)
	}
	if note != "" {
		d.desc.note(&d.desc.notes, node, note)
	}
	if value != "" { // SASL PLAIN's bytes, masked
		d.desc.note(&d.desc.values, node, value)
	}
}

// versioned decodes a version-prefixed struct (a consumer protocol's
// subscription or assignment) or Envelope's request into spans under
// node, and returns the note on the field.
func (d *decoder) versioned(fp *FieldPlan, s string, base int, node int) string {
	mode, note := nestChoice(fp.Nested, d.rootPlan, d.rootValue())
	if len(s) == 0 && mode != nestDecode {
		return "" // empty, and not said to be a consumer's: nothing to say
	}
	b := []byte(s)
	if mode == nestSniff {
		if !sniff(d.set, fp.Nested.schema(), b) {
			return "not decoded: no protocol type at this version, and the bytes are no " + fp.Nested.schema()
		}
		note = "read as " + fp.Nested.schema() + ": no protocol type at this version, and the bytes are one"
	}
	if mode == nestSkip {
		return note
	}
	if fp.Nested == nestRequest {
		return d.nestedRequest(b, base, node)
	}
	name := fp.Nested.schema()
	// Paths inside are those of the JSON form: Metadata.ConsumerProtocolSubscription.Topics[0].
	prefix := joinPath(nil, d.flat.Path(node), name)
	vp, err := versionedPlan(d.set, name, b)
	if vp.plan == nil && err == nil {
		err = errors.New("no plan")
	}
	typ := "struct"
	if err == nil {
		typ = "v" + strconv.Itoa(int(vp.plan.Version))
	}
	c := d.add(node, tree.Node{Name: name, Type: typ, Offset: base, Size: len(b), Section: d.section, Path: prefix,
		About: "the bytes of " + fp.Field.Name + ", decoded: a version-prefixed " + name})
	if len(b) >= 2 {
		vn := tree.Node{Name: "Version", Type: "int16", Value: strconv.Itoa(int(vp.version)), Offset: base, Size: 2, Section: d.section, Path: prefix + ".version",
			About: "the version of " + name + " that follows"}
		if vp.newer {
			vn.Detail = "(newer than the schema's " + strconv.Itoa(int(vp.plan.Version)) + ": read with its layout, as Kafka's consumer reads it)"
		}
		d.add(c, vn)
	}
	if err != nil {
		at := min(len(b), 2)
		if len(b) < 2 {
			at = 0
		}
		d.add(c, tree.Node{Name: "error", Type: "error", Offset: base + at, Size: len(b) - at, Section: tree.Error, Path: prefix, Err: err})
		return note
	}
	_, used, err := vp.plan.decodeFlat(b[2:], d.flat, c, TreeOptions{Base: base + 2, Section: d.section, Set: d.set, Budget: d.budget, depth: d.depth + 1, prefix: prefix, copied: true})
	if err != nil {
		d.flat.Cover(c, d.flat.Len(), false)
		if !d.flat.Failed(c, d.flat.Len()) { // an array's length, say, has no node of its own
			at, msg := base+len(b), err.Error()
			var de *wire.DecodeError
			if errors.As(err, &de) {
				at, msg = min(max(de.Offset, base), base+len(b)), de.Err.Error()
				if de.Path != "" {
					msg = de.Path + ": " + msg
				}
			}
			d.add(c, tree.Node{Name: "error", Type: "error", Offset: at, Size: base + len(b) - at, Section: tree.Error, Path: prefix, Err: errors.New(msg)})
		}
		return note
	}
	if rest := len(b) - 2 - used; rest > 0 {
		un := tree.Node{Name: "unread", Type: "bytes", Value: d.plural(rest, "byte"), Offset: base + 2 + used, Size: rest, Section: d.section, Path: prefix + ".unreadHex"}
		if vp.newer {
			un.About = "fields of version " + strconv.Itoa(int(vp.version)) + " that the schema does not know; Kafka's consumer leaves them too"
		} else {
			un.Section, un.Err = tree.Error, xfmt.Errorf("%s v%d ended after %d bytes; %d bytes are left", name, vp.version, 2+used, rest)
		}
		d.add(c, un)
	}
	return note
}

// The fields of a message's root struct that say how other fields are
// read: the protocol type of JoinGroup's and SyncGroup's nested bytes
// (nestChoice), the codec of PushTelemetry's metrics (telemetry).
const (
	protocolTypeField    = "ProtocolType"
	compressionTypeField = "CompressionType"
)

// steers says whether fp, a field of root (a message's root struct) or of
// a struct under it, says how other fields of the message are read, so
// that a change of its value may change their nodes too.
func steers(root *StructPlan, fp *FieldPlan) bool {
	return fp.Topic != 0 || fp == root.Field(protocolTypeField) || fp == root.Field(compressionTypeField)
}

// rootValue is the value of the message being decoded, as decoded so far.
func (d *decoder) rootValue() Value {
	if d.root == nil {
		return Value{}
	}
	return *d.root
}

// nestedRequest decodes Envelope's RequestData, b at offset base: a
// request header and body without the size that a frame starts with,
// read as a frame's (decodeHeader, decodeBody) into spans under node,
// with offsets in the outer frame and paths below the field's. It returns
// the note on the field.
func (d *decoder) nestedRequest(b []byte, base int, node int) string {
	if len(b) >= 2 && binary.BigEndian.Uint16(b) == keyEnvelope {
		return "not decoded: an Envelope inside an Envelope"
	}
	prefix := joinPath(nil, d.flat.Path(node), nestedRequestSeg)
	c := d.add(node, tree.Node{Name: "message", Offset: base, Size: len(b), Section: d.section, Path: prefix,
		About: "the request the envelope carries: header and body, without a size"})
	o := DecodeOptions{Set: d.set, Dir: Request, budget: d.budget, at: base, prefix: prefix, copied: true}
	f := &Frame{Set: d.set, Dir: Request}
	desc := new([2]planDesc) // the header's and the body's
	used, err := f.decodeHeader(b, 0, d.flat, c, o, d.budget, &desc[0])
	if err == nil {
		err = f.decodeBody(b, used, d.flat, c, o, d.budget, &desc[1])
	}
	if err == nil {
		return ""
	}
	d.flat.Cover(c, d.flat.Len(), false)
	if !d.flat.Failed(c, d.flat.Len()) {
		at := 0
		var de *wire.DecodeError
		if errors.As(err, &de) {
			at = min(max(de.Offset-base, 0), len(b))
			// The text gives the offset in the request framed alone,
			// after its 4-byte size, as it did when it was decoded so.
			de.Offset += 4 - base
		}
		d.add(c, tree.Node{Name: "error", Type: "error", Offset: base + at, Size: len(b) - at, Section: tree.Error, Path: prefix, Err: err})
	}
	return ""
}

// nestedRequestSeg is the path segment of the request inside Envelope's
// RequestData: "RequestData.request.GroupId".
const nestedRequestSeg = "request"

// NestedOwner returns the path of the bytes field that holds the node of
// path p when p is inside a nested format ("Protocols[0].Metadata" for
// "Protocols[0].Metadata.ConsumerProtocolSubscription.Topics[0]"), and
// whether it is.
func NestedOwner(p string) (string, bool) {
	best := -1
	for _, seg := range []string{"ConsumerProtocolSubscription", "ConsumerProtocolAssignment", "DefaultPrincipalData", nestedRequestSeg, sasl.Seg, otlp.Seg} {
		for i := 0; ; {
			j := strings.Index(p[i:], "."+seg)
			if j < 0 {
				break
			}
			at := i + j
			end := at + 1 + len(seg)
			if end == len(p) || p[end] == '.' || p[end] == '[' {
				if best < 0 || at < best {
					best = at
				}
				break
			}
			i = end
		}
	}
	if best < 0 {
		return p, false
	}
	return p[:best], true
}

const keyEnvelope = 58

// jctx is what the JSON form of a message needs beside each value: the
// records budget, the release (for nested formats) and the message's
// root value (whose ProtocolType says what nested bytes are).
type jctx struct {
	bg       *records.Budget
	set      *schemas.Set
	rootPlan *StructPlan
	root     Value
	depth    int
	// The topic of the records that follow, as the decoder tracks it
	// (topics.go).
	topic, topicID string
	topics         topicCtx
}

// nestedJSON is the JSON form of the bytes s of a nested field, when
// they decode to one that encodes back to them exactly:
// {"version": n, "<Schema>": {...}}, with "unreadHex" for the bytes a
// newer version has that the schema does not know.
func nestedJSON(k nestedKind, s string, c *jctx) ([]byte, bool) {
	if c.set == nil || c.depth > 0 || k == nestSASLRequest || k == nestSASLResponse || k == nestTelemetry {
		return nil, false // SASL's and PushTelemetry's bytes stay hex: lossless, and the tree shows them
	}
	if k == nestRequest {
		return requestJSON(s, c)
	}
	mode, _ := nestChoice(k, c.rootPlan, c.root)
	name := k.schema()
	b := []byte(s)
	switch mode {
	case nestSkip:
		return nil, false
	case nestSniff:
		if !sniff(c.set, name, b) {
			return nil, false
		}
	}
	vp, err := versionedPlan(c.set, name, b)
	if err != nil {
		return nil, false
	}
	v, used, err := vp.plan.Decode(b[2:])
	if err != nil {
		return nil, false
	}
	if 2+used < len(b) && !vp.newer {
		return nil, false // the tree says what is wrong; the form stays hex
	}
	out := xfmt.Appendf(nil, `{"version":%d,"%s":`, vp.version, name)
	out = vp.plan.Root.appendJSON(out, v, &jctx{bg: c.bg, set: c.set, depth: c.depth + 1})
	if 2+used < len(b) {
		out = append(out, `,"unreadHex":"`...)
		out = hex.AppendEncode(out, b[2+used:])
		out = append(out, '"')
	}
	out = append(out, '}')
	raw, err := parseJSON(out)
	if err != nil {
		return nil, false
	}
	back, err := nestedFromJSON(k, raw, c.set, "")
	if err != nil || !bytes.Equal(back, b) {
		return nil, false
	}
	return out, true
}

// nestedFromJSON encodes the JSON form of a nested field: hex, or the
// object nestedJSON writes. An object may also hold "hex": the bytes as
// hex, which must be the encoding of the rest.
func nestedFromJSON(k nestedKind, raw any, set *schemas.Set, path string) ([]byte, error) {
	obj := raw.(map[string]any)
	if k == nestSASLRequest || k == nestSASLResponse || k == nestTelemetry {
		if len(obj) != 1 || obj["hex"] == nil {
			return nil, jsonErr(path, "want hex, or {\"hex\": ...}: these bytes are written as hex")
		}
		b, err := hexFromJSON(obj["hex"])
		if err != nil {
			return nil, jsonErr(path+".hex", "%v", err)
		}
		return b, nil
	}
	name := k.schema()
	if k == nestRequest {
		name = nestedRequestSeg
	}
	for key := range obj {
		switch key {
		case "version", name, "unreadHex", "hex":
		default:
			err := jsonErr(path+"."+key, "unknown key %q (want version, %s, unreadHex, hex)", key, name)
			err.(*JSONError).Key = true
			return nil, err
		}
	}
	var fromHex []byte
	if h, ok := obj["hex"]; ok {
		b, err := hexFromJSON(h)
		if err != nil {
			return nil, jsonErr(path+".hex", "%v", err)
		}
		fromHex = b
	}
	inner, ok := obj[name]
	if !ok {
		if fromHex == nil {
			return nil, jsonErr(path, "want hex, or {\"version\": n, %q: {...}}", name)
		}
		return fromHex, nil
	}
	if set == nil {
		return nil, jsonErr(path, "a decoded %s needs a release to encode it with", name)
	}
	if k == nestRequest {
		out, err := requestFromJSON(inner, set, path+"."+name)
		if err == nil && fromHex != nil && !bytes.Equal(fromHex, out) {
			err = jsonErr(path, "hex %x and the decoded request (which encodes to %x) disagree: give one", fromHex, out)
		}
		return out, err
	}
	version, err := intFromJSON(obj["version"], 0, 32767)
	if err != nil {
		return nil, jsonErr(path+".version", "%v", err)
	}
	vb := wire.AppendInt16(nil, int16(version))
	vp, err := versionedPlan(set, name, vb)
	if err != nil {
		return nil, jsonErr(path+".version", "%v", err)
	}
	v, err := vp.plan.Root.fromJSON(inner, path+"."+name, set)
	if err != nil {
		return nil, err
	}
	out, err := vp.plan.Append(vb, v)
	if err != nil {
		return nil, jsonErr(path+"."+name, "%v", err)
	}
	if u, ok := obj["unreadHex"]; ok {
		b, err := hexFromJSON(u)
		if err != nil {
			return nil, jsonErr(path+".unreadHex", "%v", err)
		}
		out = append(out, b...)
	}
	if fromHex != nil && !bytes.Equal(fromHex, out) {
		return nil, jsonErr(path, "hex %x and the decoded %s (which encodes to %x) disagree: give one", fromHex, name, out)
	}
	return out, nil
}

// requestJSON is the JSON form of Envelope's RequestData when it is a
// request that encodes back to the same bytes: {"request": {the frame's
// JSON form}}.
func requestJSON(s string, c *jctx) ([]byte, bool) {
	if len(s) < 2 || binary.BigEndian.Uint16([]byte(s)) == keyEnvelope {
		return nil, false
	}
	buf := make([]byte, 4+len(s))
	binary.BigEndian.PutUint32(buf, uint32(len(s)))
	copy(buf[4:], s)
	f, _, err := Decode(buf, DecodeOptions{Set: c.set, Dir: Request, ValuesOnly: true})
	if err != nil {
		return nil, false
	}
	inner, err := f.AppendJSON(nil, -1)
	if err != nil {
		return nil, false
	}
	out := append(append([]byte(`{"`+nestedRequestSeg+`":`), inner...), '}')
	raw, err := parseJSON(out)
	if err != nil {
		return nil, false
	}
	back, err := nestedFromJSON(nestRequest, raw, c.set, "")
	if err != nil || string(back) != s {
		return nil, false
	}
	return out, true
}

// requestFromJSON encodes the JSON form of a request frame (Frame.JSON)
// as Envelope's RequestData: header and body without the size.
func requestFromJSON(raw any, set *schemas.Set, path string) ([]byte, error) {
	obj, ok := raw.(map[string]any)
	if !ok {
		return nil, jsonErr(path, "want the JSON form of a request frame")
	}
	key, ok1 := jsonInt(obj["api_key"])
	version, ok2 := jsonInt(obj["version"])
	if !ok1 || !ok2 {
		return nil, jsonErr(path, "want the request's api_key and version")
	}
	api := set.APIByKey(int16(key))
	if api == nil || key == keyEnvelope {
		return nil, jsonErr(path+".api_key", "release %s has no API %d to carry", set.Name, key)
	}
	f, err := NewFrame(set, api, int16(version), Request)
	if err != nil {
		return nil, jsonErr(path+".version", "%v", err)
	}
	if obj["body"] == nil {
		return nil, jsonErr(path, "want the request's body")
	}
	hp, bp, err := f.Plans()
	if err != nil {
		return nil, jsonErr(path, "%v", err)
	}
	if h, ok := obj["header"]; ok {
		if f.Header, err = hp.Root.fromJSON(h, path+".header", set); err != nil {
			return nil, err
		}
	}
	if f.Body, err = bp.Root.fromJSON(obj["body"], path+".body", set); err != nil {
		return nil, err
	}
	b, err := f.Encode()
	if err != nil {
		return nil, jsonErr(path, "%v", err)
	}
	return b[4:], nil
}

// telemetry decodes PushTelemetry's Metrics: the bytes decompressed by
// the request's CompressionType (0 none, 1 gzip, 2 snappy, 3 lz4, 4 zstd,
// as records' codecs number them), counted against the message's budget,
// then the OTLP MetricsData they hold (codec/otlp), as rows under span
// node. A decompressed stream's nodes have offsets relative to it.
func (d *decoder) telemetry(b []byte, base int, node int) {
	if len(b) == 0 {
		return
	}
	codec := records.None
	if fp := d.rootPlan.Field(compressionTypeField); fp != nil && fp.Present {
		if list := d.rootValue().List(); fp.Index < len(list) {
			codec = records.Codec(list[fp.Index].Int())
		}
	}
	bg := d.budget
	if bg == nil {
		bg = records.NewBudget(records.Limits{})
	}
	path := d.flat.Path(node)
	o := otlp.Options{Base: base, Section: d.section, Path: path, Budget: bg}
	parent := node
	if codec != records.None {
		out, note, err := records.Decompress(codec, b, bg)
		if err != nil {
			d.add(node, tree.Node{Name: "error", Type: "error", Offset: base, Size: len(b), Section: tree.Error, Path: path, Err: err})
			return
		}
		parent = d.add(node, tree.Node{Name: "decompressed", Type: codec.String(), Value: d.plural(len(out), "byte"), Size: len(out),
			Section: d.section, Path: path, Relative: true, Detail: note,
			About: "the metrics decompressed (CompressionType " + codec.String() + "); offsets count from the start of the decompressed bytes"})
		o.Base, o.Relative = 0, true
		b = out
	}
	otlp.Decode(d.a, d.flat, parent, b, o)
}
