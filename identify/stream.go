package identify

import (
	"encoding/binary"
	"errors"
	"maps"

	"kwire/codec"
	"kwire/codec/wire"
	"kwire/schemas/sets"
)

// Frames splits b into the size-delimited frames it holds end to end: a
// pasted stream. It returns nil unless b is two or more whole frames.
func Frames(b []byte) [][]byte {
	var out [][]byte
	for len(b) > 0 {
		if len(b) < 8 {
			return nil
		}
		n := int64(int32(binary.BigEndian.Uint32(b)))
		if n < 4 || n > int64(len(b)-4) {
			return nil
		}
		out = append(out, b[:4+n])
		b = b[4+n:]
	}
	if len(out) < 2 {
		return nil
	}
	return out
}

// RankStream ranks frames in their order, as Rank does: each request frame
// (a frame whose best reading is a request) gives the response with its
// correlation id its API and version, ahead of any ranking.
func RankStream(frames [][]byte, o Options) [][]Candidate {
	o.Requests = maps.Clone(o.Requests)
	if o.Requests == nil {
		o.Requests = map[int32]Seen{}
	}
	out := make([][]Candidate, len(frames))
	for i, f := range frames {
		cs := Rank(f, o)
		out[i] = cs
		if len(cs) > 0 && cs[0].Exact() && cs[0].Dir == codec.Request && cs[0].Framing == Frame && len(f) >= 12 {
			o.Requests[int32(binary.BigEndian.Uint32(f[8:]))] = Seen{cs[0].API.Key, cs[0].Version}
		}
	}
	return out
}

// NotRequest says whether bytes that did not decode as a request frame
// (with err) should be identified rather than shown as a damaged request:
// when their header names no API version that a release has (a response's
// correlation id read as a key and version), or when the frame is whole
// but small (under 32 bytes prove little) or stopped in its first half. A
// request cut short or with bytes after it, one that read most of its
// bytes, and one newer than every release (read as a guess) stay
// requests.
func NotRequest(b []byte, err error) bool {
	if len(b) < 8 {
		return true
	}
	key, version := int16(binary.BigEndian.Uint16(b[4:])), int16(binary.BigEndian.Uint16(b[6:]))
	if _, e := sets.ForVersion(key, version, false); e != nil {
		var verr *sets.VersionError
		return !errors.As(e, &verr) || !verr.Newer()
	}
	if int64(int32(binary.BigEndian.Uint32(b))) != int64(len(b)-4) {
		return false
	}
	var de *wire.DecodeError
	return !errors.As(err, &de) || de.Offset < len(b)/2 || len(b) < 32
}
