package capture

import (
	"errors"
	"slices"
	"strconv"
	"strings"

	"kwire/codec"
	"kwire/codec/records"
	"kwire/codec/wire"
	"kwire/internal/xfmt"
	"kwire/schemas"
	"kwire/schemas/sets"
	"kwire/tree"
)

// setFor is the release a frame of an API version is read with.
func setFor(key, version int16, dir codec.Direction) (*schemas.Set, error) {
	return sets.ForVersion(key, version, dir == codec.Response)
}

// Decode decodes a frame event as kwire decode does: a request with the
// newest release that has its version, a response with its request's
// API and version (and so its header version). The tree, a tree.Flat
// (codec.Decode), is nil for a response whose request the capture
// lacks. The Flat reads e.Data.
func (e *Event) Decode(limits records.Limits) (*codec.Frame, *tree.Flat, error) {
	return e.decode(codec.DecodeOptions{Limits: limits})
}

// DecodeValues is Decode without the trees of the header and body
// (codec.DecodeOptions.ValuesOnly): faster, for the JSON form. Its
// records fields refer to e.Data (codec.DecodeOptions.InPlace): the frame
// is good while e.Data is, and the reader reuses it once the callback
// returns (copy it to keep the frame longer).
func (e *Event) DecodeValues(limits records.Limits) (*codec.Frame, error) {
	f, _, err := e.decode(codec.DecodeOptions{Limits: limits, ValuesOnly: true, InPlace: true})
	return f, err
}

func (e *Event) decode(o codec.DecodeOptions) (*codec.Frame, *tree.Flat, error) {
	if e.Kind != KindFrame {
		return nil, nil, xfmt.Errorf("event %d is not a Kafka frame", e.N)
	}
	o.SASLMechanism, o.TopicNames, o.TopicFormat = e.SASLMechanism, e.TopicNames, e.TopicFormat
	o.Trailing = true // the connection says the direction: read as Kafka's broker reads it
	if e.Dir == codec.Request {
		set, err := sets.Load(sets.Auto)
		if err != nil {
			return nil, nil, err
		}
		o.Set, o.Choose, o.Dir = set, sets.Choice{}, codec.Request
		return codec.Decode(e.Data, o)
	}
	if e.Request == nil {
		return nil, nil, xfmt.Errorf("no request with correlation id %d in the capture: the response's API is unknown", e.Correlation)
	}
	set, err := setFor(e.Key, e.Version, codec.Response)
	if err != nil {
		return nil, nil, err
	}
	api := set.APIByKey(e.Key)
	if api == nil {
		return nil, nil, errors.New("no API with key " + xfmt.Sprint(e.Key))
	}
	o.Set, o.API, o.Version, o.Dir = set, api, e.Version, codec.Response
	return codec.Decode(e.Data, o)
}

// APIName is the name of an API key in the newest release that has it.
func APIName(key int16) string {
	if set, a := sets.FindAPI(strconv.Itoa(int(key))); set != nil && a != nil {
		return a.Name
	}
	return "key " + strconv.Itoa(int(key))
}

// ErrorCodes are the names of the non-zero error codes of a frame's body,
// once each, in order, for a frame's row in a capture's list (the command
// line's and the explorer's): its int16 fields named *ErrorCode, nested
// ones included, read from the decoded values (a frame decoded with its
// tree or without); a code the release does not name is its number.
func ErrorCodes(f *codec.Frame) []string {
	if f == nil || f.Set == nil || f.API == nil {
		return nil
	}
	_, bp, err := f.Plans()
	if err != nil {
		return nil
	}
	var out []string
	var walk func(sp *codec.StructPlan, v codec.Value)
	walk = func(sp *codec.StructPlan, v codec.Value) {
		if sp == nil || v.IsNull() || len(v.List()) != len(sp.Fields) {
			return
		}
		for i, fp := range sp.Fields {
			fv := v.List()[i]
			switch {
			case !fp.Present:
			case fp.Kind == schemas.KindInt16 && strings.HasSuffix(fp.Field.Name, "ErrorCode"):
				code := int16(fv.Int())
				if code == 0 {
					continue
				}
				name := strconv.Itoa(int(code))
				if e, ok := f.Set.ErrorCode(code); ok {
					name = e.Name
				}
				if !slices.Contains(out, name) {
					out = append(out, name)
				}
			case fp.Kind == schemas.KindStruct:
				walk(fp.Struct, fv)
			case fp.Kind == schemas.KindArray && fp.Elem == schemas.KindStruct && !fv.IsNull():
				for _, ev := range fv.List() {
					walk(fp.Struct, ev)
				}
			}
		}
	}
	walk(bp.Root, f.Body)
	return out
}

// FrameStatus is what went wrong with a frame, "" for nothing: the bytes
// lost before it (incomplete), the decode's error, or else the first
// error node of its tree (nil: none), positioned as a wire.DecodeError
// says it ("decode error at offset 12 (0x000c): Topics[0].Name: what"),
// for the command line and the explorer alike.
func FrameStatus(incomplete string, fl *tree.Flat, err error) string {
	var parts []string
	if incomplete != "" {
		parts = append(parts, "incomplete: "+incomplete)
	}
	var de *wire.DecodeError
	switch {
	case errors.As(err, &de):
		parts = append(parts, "decode error at "+err.Error())
	case err != nil:
		parts = append(parts, err.Error())
	case fl != nil && fl.Len() > 0:
		if j, off := fl.FirstError(0); j >= 0 {
			parts = append(parts, "decode error at "+wire.NodeError(fl.Node(j, nil), off).Error())
		}
	}
	return strings.Join(parts, "; ")
}
