package app

import (
	"net/url"
	"testing"
)

// parseQuery and queryEscape agree with net/url on what the page uses.
func TestQuery(t *testing.T) {
	for _, s := range []string{"set=3.9&api=Join%20Group&v=9", "a=1&a=2&b=x+y", "json=%7B%22a%22%3A1%7D", "k", "=v&&x=%41"} {
		got, err := parseQuery(s)
		want, werr := url.ParseQuery(s)
		if (err != nil) != (werr != nil) {
			t.Fatalf("%q: %v vs %v", s, err, werr)
		}
		for k := range want {
			if got.get(k) != want.Get(k) {
				t.Errorf("%q: %s = %q, net/url says %q", s, k, got.get(k), want.Get(k))
			}
		}
	}
	for _, bad := range []string{"a=%zz", "a=%4"} {
		if _, err := parseQuery(bad); err == nil {
			t.Errorf("%q accepted", bad)
		}
	}
	for _, s := range []string{"trunk", "3.9", "a b&c=d/é"} {
		back, err := url.QueryUnescape(queryEscape(s))
		if err != nil || back != s {
			t.Errorf("queryEscape(%q) = %q", s, queryEscape(s))
		}
	}
}
