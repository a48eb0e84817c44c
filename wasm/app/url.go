package app

import (
	"fmt"
	"net/url"
	"strconv"
	"strings"

	"kwire/codec"
)

// MaxLinkBytes is the largest message whose bytes a link carries.
const MaxLinkBytes = 16 << 10

// Query is the URL query that reproduces the view: set, api, v, dir and,
// when the bytes are not the smallest message, hex. The docs link to
// index.html?set=trunk&api=JoinGroup&v=9&dir=request.
func (s *State) Query() string {
	q := "set=" + url.QueryEscape(s.Set.Name) + "&api=" + url.QueryEscape(s.API.Name) +
		"&v=" + strconv.Itoa(int(s.Version)) + "&dir=" + s.Dir.String()
	if s.custom() && len(s.Bytes) <= MaxLinkBytes {
		q += "&hex=" + s.HexString()
	}
	return q
}

// LinkComplete reports whether Query carries the bytes it needs.
func (s *State) LinkComplete() bool { return !s.custom() || len(s.Bytes) <= MaxLinkBytes }

// custom reports whether the bytes differ from the smallest message.
func (s *State) custom() bool {
	return s.Pasted || s.Frame == nil || !s.isSmallest(s.Bytes)
}

// Apply sets the state from a URL query: set (default trunk), api (name or
// key), v (default the latest), dir (request or response), then hex (the
// bytes to decode) or json (a value to encode). It returns the first
// problem; what could be applied stays applied.
func (s *State) Apply(query string) error {
	q, err := url.ParseQuery(strings.TrimPrefix(query, "?"))
	if err != nil {
		return fmt.Errorf("bad link: %v", err)
	}
	dir := codec.Request
	switch q.Get("dir") {
	case "", "request":
	case "response":
		dir = codec.Response
	default:
		return fmt.Errorf("bad link: dir is request or response, not %q", q.Get("dir"))
	}
	version := -1
	if v := q.Get("v"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return fmt.Errorf("bad link: version %q", v)
		}
		version = n
	}
	api := q.Get("api")
	if api == "" {
		api = s.API.Name
	}
	if err := s.Select(q.Get("set"), api, version, dir); err != nil {
		return err
	}
	if h := q.Get("hex"); h != "" {
		return s.Paste(h)
	}
	if j := q.Get("json"); j != "" {
		return s.SetJSON(j)
	}
	return nil
}
