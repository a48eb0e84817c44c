package capture

import (
	"errors"
	"fmt"

	"kwire/codec"
	"kwire/codec/records"
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
	if e.Kind != KindFrame {
		return nil, nil, fmt.Errorf("event %d is not a Kafka frame", e.N)
	}
	if e.Dir == codec.Request {
		set, err := sets.Load(sets.Auto)
		if err != nil {
			return nil, nil, err
		}
		return codec.Decode(e.Data, codec.DecodeOptions{Set: set, Choose: sets.Choice{}, Dir: codec.Request, Limits: limits})
	}
	if e.Request == nil {
		return nil, nil, fmt.Errorf("no request with correlation id %d in the capture: the response's API is unknown", e.Correlation)
	}
	set, err := setFor(e.Key, e.Version, codec.Response)
	if err != nil {
		return nil, nil, err
	}
	api := set.APIByKey(e.Key)
	if api == nil {
		return nil, nil, errors.New("no API with key " + fmt.Sprint(e.Key))
	}
	return codec.Decode(e.Data, codec.DecodeOptions{Set: set, API: api, Version: e.Version, Dir: codec.Response, Limits: limits})
}
