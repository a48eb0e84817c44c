package app

import (
	"encoding/hex"
	"errors"
	"strconv"
	"strings"

	"kwire/codec"
	"kwire/internal/xfmt"
	"kwire/internal/xhex"
	"kwire/schemas"
)

// A form key names one value of the frame: "h:" then a path in the header,
// or "b:" then a path in the body, as tree.Node.Path writes it
// ("Protocols[0].Name").

// slot is one value of the frame found by its key.
type slot struct {
	fp    *codec.FieldPlan // the field holding it
	v     *codec.Value
	elem  bool // an element of the array fp
	index int  // its index, for elements
	list  *codec.Value
	small codec.Value // the smallest value of this slot
	// nests are the bytes fields on the way that carry the value in a
	// nested format, outermost first: an edit writes each one's bytes
	// again, innermost first.
	nests []nest
}

// nest is a bytes field whose value is edited as the format it carries.
type nest struct {
	bytes *codec.Value  // the field's bytes
	n     *codec.Nested // its value, as edited
}

// commit writes the bytes of the nested formats on the way to the slot
// from their edited values.
func (s slot) commit() error {
	for i := len(s.nests) - 1; i >= 0; i-- {
		b, err := s.nests[i].n.Bytes()
		if err != nil {
			return err
		}
		*s.nests[i].bytes = codec.String(string(b))
	}
	return nil
}

// kind is the kind of the slot's value.
func (s slot) kind() schemas.Kind {
	if s.elem {
		return s.fp.Elem
	}
	return s.fp.Kind
}

// nullable reports whether the slot may hold null.
func (s slot) nullable() bool { return !s.elem && s.fp.Nullable }

type seg struct {
	name  string
	index int // -1 for a name
}

func parsePath(p string) ([]seg, error) {
	var out []seg
	for p != "" {
		if p[0] == '[' {
			end := strings.IndexByte(p, ']')
			if end < 0 {
				return nil, xfmt.Errorf("bad path: unclosed [")
			}
			i, err := strconv.Atoi(p[1:end])
			if err != nil || i < 0 {
				return nil, xfmt.Errorf("bad index %q", p[1:end])
			}
			out = append(out, seg{index: i})
			p = strings.TrimPrefix(p[end+1:], ".")
			continue
		}
		end := strings.IndexAny(p, ".[")
		if end < 0 {
			end = len(p)
		}
		out = append(out, seg{name: p[:end], index: -1})
		p = strings.TrimPrefix(p[end:], ".")
	}
	if len(out) == 0 {
		return nil, errors.New("empty path")
	}
	return out, nil
}

// find locates the value named by key.
func (s *State) find(key string) (slot, error) {
	if s.Frame == nil {
		return slot{}, errors.New("the bytes did not decode; nothing to edit")
	}
	hp, bp, err := s.Frame.Plans()
	if err != nil {
		return slot{}, err
	}
	sp, v, small := bp.Root, &s.Frame.Body, bp.Smallest()
	switch {
	case strings.HasPrefix(key, "h:"):
		sp, v, small = hp.Root, &s.Frame.Header, hp.Smallest()
	case !strings.HasPrefix(key, "b:"):
		return slot{}, xfmt.Errorf("bad field key %q", key)
	}
	segs, err := parsePath(key[2:])
	if err != nil {
		return slot{}, err
	}
	var cur slot
	var nests []nest
	for i, sg := range segs {
		if i > 0 && sg.index < 0 && !cur.elem && cur.fp.Kind == schemas.KindBytes && codec.NestedSchema(sg.name) {
			// A field of the format the bytes carry: read it, and go on
			// inside (the edit writes the bytes again).
			n, ok := codec.NestedValue(cur.fp, s.Frame.Set, bp.Root, s.Frame.Body, []byte(v.Str()))
			if !ok || n.Schema != sg.name || v.IsNull() {
				return slot{}, xfmt.Errorf("%s: %s does not hold a %s that can be edited", key, cur.fp.Field.Name, sg.name)
			}
			nests = append(nests, nest{bytes: v, n: &n})
			sp, v, small = n.Plan.Root, &n.Value, n.Plan.Smallest()
			if i == len(segs)-1 {
				return slot{}, xfmt.Errorf("%s: edit the fields of the %s", key, sg.name)
			}
			cur = slot{fp: &codec.FieldPlan{Kind: schemas.KindStruct, Struct: sp, Field: cur.fp.Field}}
			continue
		}
		if sg.index >= 0 {
			if i == 0 || cur.fp.Kind != schemas.KindArray || cur.elem {
				return slot{}, xfmt.Errorf("%s: not an array", key)
			}
			if v.IsNull() || sg.index >= len(v.List()) {
				return slot{}, xfmt.Errorf("%s: no element %d", key, sg.index)
			}
			es := codec.Value{}
			if len(small.List()) > 0 {
				es = small.List()[0]
			}
			cur = slot{fp: cur.fp, v: &v.List()[sg.index], elem: true, index: sg.index, list: v, small: es}
			v, small = cur.v, es
			if cur.fp.Elem == schemas.KindStruct {
				sp = cur.fp.Struct
			}
			continue
		}
		if i > 0 && (cur.kind() != schemas.KindStruct) {
			return slot{}, xfmt.Errorf("%s: %s is not a struct", key, cur.fp.Field.Name)
		}
		if v.IsNull() {
			return slot{}, xfmt.Errorf("%s: the struct is null", key)
		}
		fp := sp.Field(sg.name)
		if fp == nil || !fp.Present || fp.Index >= len(v.List()) {
			return slot{}, xfmt.Errorf("%s: no field %s at this version", key, sg.name)
		}
		var fs codec.Value
		if fp.Index < len(small.List()) {
			fs = small.List()[fp.Index]
		}
		cur = slot{fp: fp, v: &v.List()[fp.Index], small: fs}
		v, small = cur.v, fs
		if fp.Kind == schemas.KindStruct {
			sp = fp.Struct
		}
	}
	cur.nests = nests
	return cur, nil
}

// edit applies change to the value at key and re-encodes; if the change
// or the encoding fails, the value is restored.
func (s *State) edit(key string, change func(sl slot) error) error {
	sl, err := s.find(key)
	if err != nil {
		return err
	}
	body, header := s.Frame.Body.Clone(), s.Frame.Header.Clone()
	if err := change(sl); err != nil {
		return err
	}
	if err := sl.commit(); err != nil {
		s.Frame.Body, s.Frame.Header = body, header
		return err
	}
	frame := s.Frame
	if err := s.Encode(); err != nil {
		frame.Body, frame.Header = body, header
		s.Frame = frame
		s.Encode()
		return err
	}
	s.Pasted = false
	return nil
}

// SetField sets the value at key from the text of its form input.
func (s *State) SetField(key, text string) error {
	return s.edit(key, func(sl slot) error {
		v, err := parseText(sl.kind(), text)
		if err != nil {
			return err
		}
		*sl.v = v
		return nil
	})
}

// SetNull makes the value at key null, or (null false) the smallest
// non-null value.
func (s *State) SetNull(key string, null bool) error {
	return s.edit(key, func(sl slot) error {
		if !sl.nullable() {
			return xfmt.Errorf("%s is not nullable at this version", key)
		}
		if null {
			*sl.v = codec.Null
		} else if sl.v.IsNull() {
			*sl.v = sl.small.Clone()
			if sl.v.IsNull() {
				*sl.v = codec.Value{}
			}
		}
		return nil
	})
}

// AddElem appends the smallest element to the array at key.
func (s *State) AddElem(key string) error {
	return s.edit(key, func(sl slot) error {
		if sl.kind() != schemas.KindArray {
			return xfmt.Errorf("%s is not an array", key)
		}
		e := codec.Value{}
		if len(sl.small.List()) > 0 {
			e = sl.small.List()[0].Clone()
		}
		*sl.v = codec.List(append(sl.v.List(), e))
		return nil
	})
}

// RemoveElem removes the array element at key ("b:Protocols[1]").
func (s *State) RemoveElem(key string) error {
	return s.edit(key, func(sl slot) error {
		if !sl.elem {
			return xfmt.Errorf("%s is not an array element", key)
		}
		l := sl.list.List()
		*sl.list = codec.List(append(l[:sl.index:sl.index], l[sl.index+1:]...))
		return nil
	})
}

// parseText reads a form input's text as a value of kind k.
func parseText(k schemas.Kind, text string) (codec.Value, error) {
	switch k {
	case schemas.KindBool:
		switch strings.TrimSpace(text) {
		case "true", "1":
			return codec.Bool(true), nil
		case "false", "0":
			return codec.Bool(false), nil
		}
		return codec.Value{}, xfmt.Errorf("%q is not true or false", text)
	case schemas.KindInt8, schemas.KindInt16, schemas.KindUint16, schemas.KindInt32, schemas.KindUint32, schemas.KindInt64:
		n, err := strconv.ParseInt(strings.TrimSpace(text), 10, 64)
		lo, hi := IntRange(k)
		if err != nil || n < lo || n > hi {
			return codec.Value{}, xfmt.Errorf("%s takes a whole number from %d to %d", k, lo, hi)
		}
		return codec.Int(n), nil
	case schemas.KindFloat64:
		x, err := strconv.ParseFloat(strings.TrimSpace(text), 64)
		if err != nil {
			return codec.Value{}, xfmt.Errorf("%q is not a number", text)
		}
		return codec.Float(x), nil
	case schemas.KindString:
		return codec.String(text), nil
	case schemas.KindBytes, schemas.KindRecords:
		if strings.TrimSpace(text) == "" {
			return codec.String(""), nil
		}
		b, err := strictHex(text)
		if err != nil {
			return codec.Value{}, err
		}
		return codec.String(string(b)), nil
	case schemas.KindUUID:
		u, err := codec.ParseUUID(strings.TrimSpace(text))
		if err != nil {
			return codec.Value{}, err
		}
		return codec.String(u), nil
	}
	return codec.Value{}, xfmt.Errorf("a %s is edited through its fields", k)
}

// strictHex reads hex digits, ignoring spaces and 0x prefixes.
func strictHex(text string) ([]byte, error) {
	clean := strings.NewReplacer("0x", "", "0X", "", " ", "", "\n", "", "\t", "", "\r", "").Replace(text)
	for i, c := range clean {
		if !strings.ContainsRune("0123456789abcdefABCDEF", c) {
			return nil, xfmt.Errorf("not hex: %q at character %d", c, i+1)
		}
	}
	if len(clean)%2 != 0 {
		return nil, xfmt.Errorf("odd number of hex digits (%d)", len(clean))
	}
	return xhex.DecodeString(clean)
}

// formatText is the form input's text for a value of kind k.
func formatText(k schemas.Kind, v codec.Value) string {
	switch k {
	case schemas.KindBool:
		return strconv.FormatBool(v.Int() != 0)
	case schemas.KindFloat64:
		return strconv.FormatFloat(v.Float64(), 'g', -1, 64)
	case schemas.KindString:
		return v.Str()
	case schemas.KindBytes, schemas.KindRecords:
		return hex.EncodeToString([]byte(v.Str()))
	case schemas.KindUUID:
		return codec.FormatUUID(v.Str())
	}
	return strconv.FormatInt(v.Int(), 10)
}

// IntRange is the range of an integer kind.
var IntRange = codec.IntRange
