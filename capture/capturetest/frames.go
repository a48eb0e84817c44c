package capturetest

import (
	"kwire/codec"
	"kwire/schemas/sets"
)

// FrameFromJSON encodes a frame of api at version in direction dir, read
// with the release named set, from its body's JSON form, with correlation
// id corr.
func FrameFromJSON(set, api string, version int16, dir codec.Direction, corr int32, body string) ([]byte, error) {
	s, err := sets.Load(set)
	if err != nil {
		return nil, err
	}
	a, err := s.LookupAPI(api)
	if err != nil {
		return nil, err
	}
	f, err := codec.NewFrame(s, a, version, dir)
	if err != nil {
		return nil, err
	}
	if err := f.SetJSON([]byte(body)); err != nil {
		return nil, err
	}
	hp, _, err := f.Plans()
	if err != nil {
		return nil, err
	}
	f.Header.List()[hp.Root.Field("CorrelationId").Index] = codec.Int(int64(corr))
	return f.Encode()
}
