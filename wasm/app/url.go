package app

import (
	"strconv"
	"strings"

	"kwire/codec"
	"kwire/internal/xfmt"
)

// MaxLinkBytes is the largest message whose bytes a link carries.
const MaxLinkBytes = 16 << 10

// Query is the URL query that reproduces the view: set, api, v, dir, body
// (1 for a bare body), records (how records' keys and values are read,
// when not auto) and, when the bytes are not the smallest message,
// hex; with a draft schema
// pasted, base, keys and schema (see draftQuery). The docs link to
// index.html?set=trunk&api=JoinGroup&v=9&dir=request.
func (s *State) Query() string {
	q := "set=" + queryEscape(s.Choice()) + "&api=" + queryEscape(s.API.Name) +
		"&v=" + strconv.Itoa(int(s.Version)) + "&dir=" + s.Dir.String()
	if s.Body {
		q += "&body=1"
	}
	if s.topicFormat != codec.TopicAuto {
		q += "&records=" + s.topicFormat.String()
	}
	if s.custom() && len(s.Bytes) <= MaxLinkBytes {
		q += "&hex=" + s.HexString()
	}
	return q + s.draftQuery()
}

// LinkComplete reports whether Query carries the bytes it needs.
func (s *State) LinkComplete() bool {
	return (!s.custom() || len(s.Bytes) <= MaxLinkBytes) && len(s.draftQuery()) <= MaxLinkDraft
}

// custom reports whether the bytes differ from the smallest message.
func (s *State) custom() bool {
	return s.Pasted || s.Frame == nil || !s.isSmallest(s.Bytes)
}

// Apply sets the state from a URL query: set (default trunk), api (name or
// key), v (default the latest), dir (request or response), body (1: the
// bytes are a bare body), then hex (the
// bytes to decode) or json (a value to encode). A schema (a draft, with
// its base and keys) is loaded first, so that set=draft selects from it. It returns the first
// problem; what could be applied stays applied.
func (s *State) Apply(query string) error {
	q, err := parseQuery(strings.TrimPrefix(query, "?"))
	if err != nil {
		return xfmt.Errorf("bad link: %v", err)
	}
	dir := codec.Request
	switch q.get("dir") {
	case "", "request":
	case "response":
		dir = codec.Response
	default:
		return xfmt.Errorf("bad link: dir is request or response, not %q", q.get("dir"))
	}
	version := -1
	if v := q.get("v"); v != "" {
		n, err := strconv.Atoi(v)
		if err != nil || n < 0 {
			return xfmt.Errorf("bad link: version %q", v)
		}
		version = n
	}
	if err := s.applyDraft(q); err != nil {
		return err
	}
	s.topicFormat = codec.TopicAuto
	if r := q.get("records"); r != "" {
		f, err := codec.ParseTopicFormat(r)
		if err != nil {
			return xfmt.Errorf("bad link: records: %v", err)
		}
		s.topicFormat = f
	}
	api := q.get("api")
	if api == "" {
		api = s.API.Name
	}
	if err := s.Select(q.get("set"), api, version, dir); err != nil {
		return err
	}
	if h := q.get("hex"); h != "" {
		s.Body = q.get("body") == "1"
		return s.Paste(h)
	}
	if j := q.get("json"); j != "" {
		return s.SetJSON(j)
	}
	return nil
}

// The page's query is small and its own: these two stand in for net/url,
// which would add 43 KB to the browser app.

// query holds the first value of each key of a URL query.
type query map[string]string

func (q query) get(k string) string { return q[k] }

// parseQuery reads "a=1&b=x%20y" (also "+" for a space).
func parseQuery(s string) (query, error) {
	q := query{}
	for _, part := range strings.Split(s, "&") {
		if part == "" {
			continue
		}
		k, v, _ := strings.Cut(part, "=")
		key, err := unescape(k)
		if err != nil {
			return nil, err
		}
		val, err := unescape(v)
		if err != nil {
			return nil, err
		}
		if _, seen := q[key]; !seen {
			q[key] = val
		}
	}
	return q, nil
}

func unescape(s string) (string, error) {
	if !strings.ContainsAny(s, "%+") {
		return s, nil
	}
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch c := s[i]; c {
		case '+':
			b.WriteByte(' ')
		case '%':
			if i+2 >= len(s) || unhex(s[i+1]) < 0 || unhex(s[i+2]) < 0 {
				return "", xfmt.Errorf("bad escape %q", s[i:min(i+3, len(s))])
			}
			b.WriteByte(byte(unhex(s[i+1])<<4 | unhex(s[i+2])))
			i += 2
		default:
			b.WriteByte(c)
		}
	}
	return b.String(), nil
}

func unhex(c byte) int {
	switch {
	case c >= '0' && c <= '9':
		return int(c - '0')
	case c >= 'a' && c <= 'f':
		return int(c-'a') + 10
	case c >= 'A' && c <= 'F':
		return int(c-'A') + 10
	}
	return -1
}

// queryEscape percent-encodes all but the unreserved characters.
func queryEscape(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_' || c == '.' || c == '~' {
			b.WriteByte(c)
		} else {
			xfmt.Fprintf(&b, "%%%02X", c)
		}
	}
	return b.String()
}
