package capture

import (
	"errors"
	"strconv"
	"strings"

	"kwire/codec"
	"kwire/codec/records"
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
// API and version (and so its header version). The tree is nil for a
// response whose request the capture lacks.
func (e *Event) Decode(limits records.Limits) (*codec.Frame, *tree.Node, error) {
	f, fl, err := e.decode(codec.DecodeOptions{Limits: limits})
	if fl == nil {
		return f, nil, err
	}
	return f, fl.Tree(0, nil), err
}

// DecodeFlat is Decode with the tree as a tree.Flat (codec.DecodeFlat),
// nil when Decode's is: kwire capture --frame prints it from its spans.
// The Flat reads e.Data.
func (e *Event) DecodeFlat(limits records.Limits) (*codec.Frame, *tree.Flat, error) {
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
		return codec.DecodeFlat(e.Data, o)
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
	return codec.DecodeFlat(e.Data, o)
}

// APIName is the name of an API key in the newest release that has it.
func APIName(key int16) string {
	if set, a := sets.FindAPI(strconv.Itoa(int(key))); set != nil && a != nil {
		return a.Name
	}
	return "key " + strconv.Itoa(int(key))
}

// ErrorCodes are the names of the non-zero error codes in a tree, once
// each, for a frame's row in a capture's list.
func ErrorCodes(root *tree.Node) []string {
	if root == nil {
		return nil
	}
	var out []string
	root.Walk(func(n *tree.Node, _ int) bool {
		if strings.HasSuffix(n.Name, "ErrorCode") && n.Value != "0" && n.Value != "" && n.Err == "" {
			v := n.Value
			if i := strings.IndexByte(v, '('); i >= 0 {
				v = strings.TrimSuffix(v[i+1:], ")")
			}
			for _, o := range out {
				if o == v {
					return true
				}
			}
			out = append(out, v)
		}
		return true
	})
	return out
}
