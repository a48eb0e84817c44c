package codec

import (
	"encoding/base64"
	"encoding/hex"
	"errors"
	"math"
	"sort"
	"strconv"
	"strings"

	"kwire/codec/records"
	"kwire/codec/wire"
	"kwire/internal/xfmt"
	"kwire/internal/xhex"
	"kwire/jsonv"
	"kwire/schemas"
)

// The JSON form of a value, shared by the command line, the page and the
// tests: an object per struct with the fields the version has, named as in
// the schema and in schema order; integers as exact JSON numbers (int64
// too); float64 as a number or "NaN", "Infinity", "-Infinity"; uuids in the
// canonical 8-4-4-4-12 form; bytes as hex; records as a list of batches
// with their records (records.AppendJSON says how), or hex when the bytes
// hold no readable batch; null for null. Tagged fields the
// schema does not know are kept under "_unknownTags".

// UnknownTagsKey is the JSON key of tagged fields the schema does not know.
const UnknownTagsKey = "_unknownTags"

// AppendJSON appends the JSON form of v, a struct value of the plan.
func (p *Plan) AppendJSON(dst []byte, v Value) []byte {
	return p.AppendJSONBudget(dst, v, nil)
}

// AppendJSONBudget is AppendJSON whose records fields draw on bg, the
// message's budget (nil: one with the default records.Limits).
func (p *Plan) AppendJSONBudget(dst []byte, v Value, bg *records.Budget) []byte {
	return p.AppendJSONSet(dst, v, nil, bg)
}

// AppendJSONSet is AppendJSONBudget that writes the bytes fields that
// carry another format (nested.go) decoded, with the schemas of set, the
// release the value was read with (nil: as hex).
func (p *Plan) AppendJSONSet(dst []byte, v Value, set *schemas.Set, bg *records.Budget) []byte {
	if bg == nil {
		bg = records.NewBudget(records.Limits{})
	}
	return p.Root.appendJSON(dst, v, &jctx{bg: bg, set: set, rootPlan: p.Root, root: v})
}

// JSON returns the JSON form of v, indented.
func (p *Plan) JSON(v Value) []byte {
	return jsonv.Indent(nil, p.AppendJSON(nil, v), "  ")
}

func (sp *StructPlan) appendJSON(dst []byte, v Value, c *jctx) []byte {
	dst = append(dst, '{')
	first := true
	list := v.List()
	for _, fp := range sp.Fields {
		if !fp.Present || fp.Index >= len(list) {
			continue
		}
		if !first {
			dst = append(dst, ',')
		}
		first = false
		dst = records.AppendJSONString(dst, []byte(fp.Field.Name))
		dst = append(dst, ':')
		dst = fp.appendJSON(dst, list[fp.Index], c)
	}
	if u := v.Unknown(); len(u) > 0 {
		if !first {
			dst = append(dst, ',')
		}
		dst = append(dst, `"`+UnknownTagsKey+`":[`...)
		for i, t := range u {
			if i > 0 {
				dst = append(dst, ',')
			}
			dst = xfmt.Appendf(dst, `{"tag":%d,"data":"%x"}`, t.Tag, t.Data)
		}
		dst = append(dst, ']')
	}
	return append(dst, '}')
}

func (fp *FieldPlan) appendJSON(dst []byte, v Value, c *jctx) []byte {
	if v.IsNull() {
		return append(dst, "null"...)
	}
	bg := c.bg
	if fp.Nested != nestNone {
		if j, ok := nestedJSON(fp.Nested, v.Str(), c); ok {
			return append(dst, j...)
		}
	}
	switch fp.Topic {
	case topicByID:
		c.topicID = v.Str()
	case topicByName:
		c.topic = v.Str()
	}
	if fp.Kind == schemas.KindRecords {
		if j, ok := c.records(dst, v); ok {
			return j
		}
	}
	switch fp.Kind {
	case schemas.KindArray:
		dst = append(dst, '[')
		for i, e := range v.List() {
			if i > 0 {
				dst = append(dst, ',')
			}
			if fp.Elem == schemas.KindStruct {
				dst = fp.Struct.appendJSON(dst, e, c)
			} else {
				dst = appendPrimitiveJSON(dst, fp.Elem, e, bg)
			}
		}
		return append(dst, ']')
	case schemas.KindStruct:
		return fp.Struct.appendJSON(dst, v, c)
	}
	return appendPrimitiveJSON(dst, fp.Kind, v, bg)
}

func appendPrimitiveJSON(dst []byte, k schemas.Kind, v Value, bg *records.Budget) []byte {
	if v.IsNull() {
		return append(dst, "null"...)
	}
	switch k {
	case schemas.KindBool:
		return strconv.AppendBool(dst, v.Int() != 0)
	case schemas.KindFloat64:
		f := v.Float64()
		switch {
		case math.IsNaN(f):
			return append(dst, `"NaN"`...)
		case math.IsInf(f, 1):
			return append(dst, `"Infinity"`...)
		case math.IsInf(f, -1):
			return append(dst, `"-Infinity"`...)
		}
		return strconv.AppendFloat(dst, f, 'g', -1, 64)
	case schemas.KindString:
		return records.AppendJSONString(dst, []byte(v.Str()))
	case schemas.KindUUID:
		return strconv.AppendQuote(dst, FormatUUID(v.Str()))
	case schemas.KindRecords:
		return records.AppendJSON(dst, recordBytes(v.Str()), bg)
	case schemas.KindBytes:
		dst = append(dst, '"')
		dst = hex.AppendEncode(dst, []byte(v.Str()))
		return append(dst, '"')
	}
	return strconv.AppendInt(dst, v.Int(), 10)
}

// JSONError is an error in a JSON value: where (the field path, and,
// once placed in the text, the span, line and column) and what. It is
// records.JSONError too: one type for the whole JSON form.
type JSONError = jsonv.Error

// ParseJSON reads the JSON form of a struct value of the plan. Fields left
// out take their defaults; unknown keys are errors, and so are the errors
// parseJSON refuses.
func (p *Plan) ParseJSON(data []byte) (Value, error) {
	return p.ParseJSONSet(data, nil)
}

// ParseJSONSet is ParseJSON that reads bytes fields given in their
// decoded form (nested.go) with the schemas of set.
func (p *Plan) ParseJSONSet(data []byte, set *schemas.Set) (Value, error) {
	raw, err := parseJSON(data)
	if err != nil {
		return Value{}, err
	}
	v, err := p.Root.fromJSON(raw, "", set)
	return v, placeJSONError(err, data, "")
}

// parseJSON reads one JSON value into maps, lists, jsonv.Numbers,
// strings, bools and nils. Unlike encoding/json it refuses what would not
// come back as it was written: bytes that are not UTF-8 (encoding/json
// turns them into U+FFFD), escapes of lone UTF-16 surrogates (the same),
// and an object with the same key twice (encoding/json keeps the last).
// Errors say the line, column and byte offset.
func parseJSON(data []byte) (any, error) {
	return jsonv.Parse(data)
}

// placeJSONError sets the place in data of err's JSONError, whose path
// starts at the value at base (jsonv.Error.Place), and returns err.
func placeJSONError(err error, data []byte, base string) error {
	var je *JSONError
	if errors.As(err, &je) && je.Line == 0 {
		je.Place(data, base)
	}
	return err
}

// Not inlined: it is cold (an error, or the text of a few nodes), and
// inlined it was copied into each caller.
//
//go:noinline
func jsonErr(path, format string, args ...any) error {
	// The cause, for errors.Is: a value that does not encode (wire.ErrValue),
	// and the error that said why, if one did.
	e := &JSONError{Path: path, Msg: xfmt.Sprintf(format, args...), Err: wire.ErrValue}
	for _, a := range args {
		if err, ok := a.(error); ok {
			e.Err = xfmt.Errorf("%w: %w", wire.ErrValue, err)
		}
	}
	return e
}

// jsonErrAt is jsonErr at the path of inner: an error of a records field
// (whose paths start inside the field) under the field's path.
func jsonErrAt(path string, inner *JSONError) error {
	e := *inner
	e.Path = path + e.Path
	return &e
}

func (sp *StructPlan) fromJSON(raw any, path string, set *schemas.Set) (Value, error) {
	obj, ok := raw.(map[string]any)
	if !ok {
		return Value{}, jsonErr(orRoot(path), "want an object for struct %s, got %s", sp.Name, records.JSONKind(raw))
	}
	v := sp.Defaults()
	names := map[string]*FieldPlan{}
	for _, fp := range sp.Fields {
		names[fp.Field.Name] = fp
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] }) // sort.Strings is slices.Sort: a copy of pdqsort more in the browser app
	for _, k := range keys {
		val := obj[k]
		if k == UnknownTagsKey {
			tags, err := unknownTagsFromJSON(val, keyPath(path, k))
			if err != nil {
				return v, err
			}
			v = v.WithUnknown(tags)
			continue
		}
		fp := names[k]
		if fp == nil {
			var known []string
			for _, f := range sp.Fields {
				if f.Present {
					known = append(known, f.Field.Name)
				}
			}
			err := jsonErr(keyPath(path, k), "%s has no field %q (fields: %s)", sp.Name, k, strings.Join(known, ", "))
			err.(*JSONError).Key = true // the key is wrong, not its value
			return v, err
		}
		fv, err := fp.fromJSON(val, keyPath(path, k), set)
		if err != nil {
			return v, err
		}
		v.List()[fp.Index] = fv
	}
	return v, nil
}

// keyPath is the path of the value of key k in the object at path: as
// joinPath's, with a '.' before a key that starts with '[' too (it is no
// list index).
func keyPath(path, k string) string {
	if path == "" {
		return k
	}
	return path + "." + k
}

func orRoot(path string) string {
	if path == "" {
		return jsonv.TopLevel
	}
	return path
}

func unknownTagsFromJSON(raw any, path string) ([]RawTag, error) {
	list, ok := raw.([]any)
	if !ok {
		return nil, jsonErr(path, "want a list of {\"tag\": n, \"data\": \"hex\"}")
	}
	var out []RawTag
	for i, e := range list {
		obj, _ := e.(map[string]any)
		tag, err1 := intFromJSON(obj["tag"], 0, math.MaxUint32)
		data, err2 := hexFromJSON(obj["data"])
		if obj == nil || err1 != nil || err2 != nil {
			return nil, jsonErr(xfmt.Sprintf("%s[%d]", path, i), "want {\"tag\": n, \"data\": \"hex\"}")
		}
		out = append(out, RawTag{Tag: uint32(tag), Data: data})
	}
	return out, nil
}

func (fp *FieldPlan) fromJSON(raw any, path string, set *schemas.Set) (Value, error) {
	if raw == nil {
		switch fp.Kind {
		case schemas.KindString, schemas.KindBytes, schemas.KindRecords, schemas.KindArray, schemas.KindStruct:
			return Null, nil // checked against nullability when encoded
		}
		return Value{}, jsonErr(path, "%s cannot be null", fp.Field.Type.Name)
	}
	switch fp.Kind {
	case schemas.KindArray:
		list, ok := raw.([]any)
		if !ok {
			return Value{}, jsonErr(path, "want a list for %s, got %s", fp.Field.Type.Name, records.JSONKind(raw))
		}
		elems := make([]Value, len(list))
		for i, e := range list {
			p := xfmt.Sprintf("%s[%d]", path, i)
			var err error
			if fp.Elem == schemas.KindStruct {
				elems[i], err = fp.Struct.fromJSON(e, p, set)
			} else {
				elems[i], err = primitiveFromJSON(fp.Elem, e, p)
			}
			if err != nil {
				return List(elems[:i+1]), err
			}
		}
		return List(elems), nil
	case schemas.KindStruct:
		return fp.Struct.fromJSON(raw, path, set)
	}
	if obj, ok := raw.(map[string]any); ok && fp.Nested != nestNone {
		b, err := nestedFromJSON(fp.Nested, obj, set, path)
		return String(string(b)), err
	}
	if fp.Kind == schemas.KindRecords {
		if v, ok, err := recordsFromJSON(raw, path, set); ok {
			return v, err
		}
	}
	return primitiveFromJSON(fp.Kind, raw, path)
}

func primitiveFromJSON(k schemas.Kind, raw any, path string) (Value, error) {
	switch k {
	case schemas.KindBool:
		b, ok := raw.(bool)
		if !ok {
			return Value{}, jsonErr(path, "want true or false, got %s", records.JSONKind(raw))
		}
		return Bool(b), nil
	case schemas.KindFloat64:
		switch x := raw.(type) {
		case jsonv.Number:
			f, err := strconv.ParseFloat(string(x), 64)
			if err != nil {
				return Value{}, jsonErr(path, "%s is not a float64", x)
			}
			return Float(f), nil
		case string:
			switch x {
			case "NaN":
				return Float(math.NaN()), nil
			case "Infinity":
				return Float(math.Inf(1)), nil
			case "-Infinity":
				return Float(math.Inf(-1)), nil
			}
		}
		return Value{}, jsonErr(path, "want a number, got %s", records.JSONKind(raw))
	case schemas.KindString:
		s, ok := raw.(string)
		if !ok {
			return Value{}, jsonErr(path, "want a string, got %s", records.JSONKind(raw))
		}
		return String(s), nil
	case schemas.KindUUID:
		s, ok := raw.(string)
		if !ok {
			return Value{}, jsonErr(path, "want a uuid string, got %s", records.JSONKind(raw))
		}
		u, err := ParseUUID(s)
		if err != nil {
			return Value{}, jsonErr(path, "%v", err)
		}
		return String(u), nil
	case schemas.KindRecords:
		b, err := records.FromJSON(raw)
		if je, ok := err.(*records.JSONError); ok {
			return Value{}, jsonErrAt(path, je)
		}
		return String(string(b)), err
	case schemas.KindBytes:
		b, err := hexFromJSON(raw)
		if err != nil {
			return Value{}, jsonErr(path, "%v", err)
		}
		return String(string(b)), nil
	}
	lo, hi := IntRange(k)
	n, err := intFromJSON(raw, lo, hi)
	if err != nil {
		return Value{}, jsonErr(path, "%s: %v", k, err)
	}
	return Int(n), nil
}

func intFromJSON(raw any, lo, hi int64) (int64, error) {
	num, ok := raw.(jsonv.Number)
	if !ok {
		if s, isStr := raw.(string); isStr {
			num = jsonv.Number(s) // accept "123" for int64s written by JavaScript
		} else {
			return 0, xfmt.Errorf("want an integer, got %s", records.JSONKind(raw))
		}
	}
	if hi == math.MaxUint32 {
		u, err := strconv.ParseUint(string(num), 10, 32)
		if err != nil {
			return 0, xfmt.Errorf("%s is not an integer in [0, %d]", num, hi)
		}
		return int64(u), nil
	}
	n, err := strconv.ParseInt(string(num), 10, 64)
	if err != nil || n < lo || n > hi {
		return 0, xfmt.Errorf("%s is not an integer in [%d, %d]", num, lo, hi)
	}
	return n, nil
}

func hexFromJSON(raw any) ([]byte, error) {
	s, ok := raw.(string)
	if !ok {
		return nil, xfmt.Errorf("want a hex string, got %s", records.JSONKind(raw))
	}
	b, err := xhex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil {
		return nil, xfmt.Errorf("%q is not hex: %v", s, err)
	}
	return b, nil
}

// ParseUUID reads a uuid in the canonical form, as 32 hex digits, or as
// Kafka's Uuid.toString (22 characters of URL-safe base64).
func ParseUUID(s string) (string, error) {
	h := strings.ReplaceAll(s, "-", "")
	if len(h) == 32 {
		b, err := xhex.DecodeString(h)
		if err == nil {
			return string(b), nil
		}
	}
	if len(s) == 22 {
		if b, err := base64.RawURLEncoding.DecodeString(s); err == nil && len(b) == 16 {
			return string(b), nil
		}
	}
	return "", xfmt.Errorf("%q is not a uuid (want 8-4-4-4-12 hex, or Kafka's 22-character base64)", s)
}
