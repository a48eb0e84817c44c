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

// maxRechecked is the size up to which a frame that decodes as the
// request its header names is ranked too: a response reads as a request
// whose header is its correlation id, and small responses often decode
// whole as one (a SaslAuthenticate v1 response as a Produce v1 request).
// A larger request that decodes is not ranked again.
const maxRechecked = 64 << 10

// Instead says what bytes read as the request frame their header names
// (err: how that reading failed, nil when it decoded every byte) are
// rather: the ranking of their readings as frames (with o), when its
// best decodes every byte and is a response; of a request frame that
// failed, any reading that decodes every byte (a bare body) when the
// header names no version a release has or the reading stopped early
// (notRequest); a failed request of another API than Produce (a response
// with a correlation id above 65535) stays a damaged request otherwise. A response's correlation id reads as a
// request's API key and version (14 as Produce v14, 300 as Produce v300,
// 7 as Produce v7), so a response reading that decodes every byte is
// shown whatever the first bytes look like, and a request reading
// outranks it only with a better score (Rank). A request that fails and
// that nothing decodes whole stays a damaged request. The one rule of
// the command line and the explorer.
func Instead(b []byte, err error, o Options) ([]Candidate, bool) {
	if err == nil && len(b) > maxRechecked {
		return nil, false
	}
	// A response's correlation id under 65536 reads as a Produce
	// request's header (key 0); a damaged request of another API would be
	// a response with a correlation id of 65536 or more, which few
	// connections reach.
	produce := len(b) >= 6 && binary.BigEndian.Uint16(b[4:]) == 0
	if err != nil {
		cs := Rank(b, o)
		if len(cs) > 0 && cs[0].Exact() && (produce && cs[0].Dir == codec.Response && cs[0].Framing == Frame || notRequest(b, err)) {
			return cs, true
		}
		if !produce {
			return nil, false
		}
	}
	keep := o.Keep
	o.Keep = func(d codec.Direction, fr Framing) bool { return fr == Frame && (keep == nil || keep(d, fr)) }
	cs := Rank(b, o)
	if len(cs) == 0 || !cs[0].Exact() || cs[0].Dir == codec.Request {
		return nil, false
	}
	return cs, true
}

// notRequest says whether bytes that did not decode as a request frame
// (with err) are rather a body, when a body reading decodes them whole:
// when their header names no API version that a release has (a response's
// correlation id read as a key and version), or when the frame is whole
// but small (under 32 bytes prove little) or stopped in its first half. A
// request cut short or with bytes after it, one that read most of its
// bytes, and one newer than every release (read as a guess) stay
// requests.
func notRequest(b []byte, err error) bool {
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
