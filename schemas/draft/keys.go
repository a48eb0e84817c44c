package draft

import (
	"math"
	"strconv"

	"kwire/internal/xfmt"
)

// keys pairs requests and responses by API name and settles each one's
// API key: the key written, else (TBD) its partner's, else the user's
// choice, else a placeholder no other API uses. The key is written into
// the repaired text, so the parser sees a whole schema.
func (d *Draft) keys(regions []*region, o Options) {
	type pair struct {
		api       string
		req, resp *region
	}
	var pairs []*pair
	byAPI := map[string]*pair{}
	used := map[int]string{} // keys in use: by the base set and written in the draft
	next := 0
	if d.base != nil {
		for _, a := range d.base.APIIndex() {
			used[int(a.Key)] = a.Name
			next = max(next, int(a.Key)+1)
		}
	}
	written := func(r *region) (int, bool) {
		tm, ok := r.top["apiKey"]
		if !ok || (tm.val.kind != tWord && tm.val.kind != tString) {
			return 0, false
		}
		n, err := strconv.Atoi(tm.text)
		return n, err == nil && n >= 0 && n <= math.MaxInt16
	}
	for _, r := range regions {
		if tm, ok := r.top["apiKey"]; ok && tm.val.kind == tWord && !number.MatchString(tm.text) {
			if n, err := strconv.Atoi(tm.text); err == nil { // 007, +7: JSON has no such numbers
				r.warnf(tm.val.off, xfmt.Sprintf("apiKey %s is not a JSON number; read as %d", tm.text, n), xfmt.Sprintf(`write "apiKey": %d`, n))
			}
		}
		r.name, r.typ = r.top["name"].text, r.top["type"].text
		if r.top["name"].val.kind != tString {
			r.name = ""
		}
		r.api = apiName(r.name, r.typ)
		r.keySrc = KeyNone
		if r.typ != "request" && r.typ != "response" {
			if tm, ok := r.top["apiKey"]; ok {
				if _, ok := written(r); !ok {
					switch tm.val.kind {
					case tWord, tString:
						r.warnf(tm.val.off, xfmt.Sprintf("apiKey %s of a %s schema: left unset", tm.text, orNone(r.typ)), "write a number or remove it")
						r.replaceToken(tm.val, "-1")
					}
					r.writeKey("-1")
				} else {
					n, _ := written(r)
					r.writeKey(strconv.Itoa(n))
				}
			}
			continue
		}
		p := byAPI[r.api]
		if p == nil {
			p = &pair{api: r.api}
			byAPI[r.api] = p
			pairs = append(pairs, p)
		}
		slot := &p.req
		if r.typ == "response" {
			slot = &p.resp
		}
		if *slot != nil {
			r.dup = true
			r.errorf(r.start, xfmt.Sprintf("a second %s for API %s: ignored", r.typ, r.api), "paste one request and one response per API")
			n, ok := written(r)
			if !ok {
				n = -1
			}
			r.writeKey(strconv.Itoa(n))
			continue
		}
		*slot = r
		if n, ok := written(r); ok {
			next = max(next, n+1)
		}
	}
	placeholder := func() int16 {
		for used[next] != "" {
			next++
		}
		k := next
		next++
		return int16(min(k, math.MaxInt16))
	}
	for _, p := range pairs {
		d.suffixes(p.req, p.resp)
		var key int16
		src := KeyPlaceholder
		var from *region
		for _, r := range []*region{p.req, p.resp} {
			if r == nil {
				continue
			}
			if n, ok := written(r); ok {
				if from == nil {
					key, src, from = int16(n), KeyWritten, r
				} else if int16(n) != key {
					tm := r.top["apiKey"]
					r.errorf(tm.val.off, xfmt.Sprintf("apiKey %d disagrees with %d of %s", n, key, from.name),
						xfmt.Sprintf("give both the same key; %d is used", key))
				}
			}
		}
		if src == KeyPlaceholder {
			if k, ok := o.Keys[p.api]; ok && k >= 0 {
				key, src = k, KeyChosen
			} else {
				key = placeholder()
			}
		}
		if src == KeyWritten || src == KeyChosen {
			if other := used[int(key)]; other != "" && other != p.api && d.clash(p.req, p.resp, from, key, other) {
				key, src = placeholder(), KeyPlaceholder
			}
		}
		used[int(key)] = p.api
		for _, r := range []*region{p.req, p.resp} {
			if r != nil {
				d.settle(r, p.api, key, src, from)
				r.writeKey(strconv.Itoa(int(r.key)))
			}
		}
	}
}

func orNone(s string) string {
	if s == "" {
		return "typeless"
	}
	return s
}

// settle writes the key of one schema and reports a TBD one.
func (d *Draft) settle(r *region, api string, key int16, src KeySource, from *region) {
	r.key, r.keySrc = key, src
	tm, has := r.top["apiKey"]
	n, ok := 0, false
	if has && (tm.val.kind == tWord || tm.val.kind == tString) {
		var err error
		n, err = strconv.Atoi(tm.text)
		ok = err == nil && n >= 0 && n <= math.MaxInt16
	}
	if ok {
		// Written; when it disagrees with its partner's or clashes with
		// another API's (both reported), the key settled on replaces it.
		if int16(n) != key {
			r.replaceToken(tm.val, strconv.Itoa(int(key)))
			if src == KeyWritten {
				r.keySrc = KeyPartner
			}
		}
		return
	}
	if src == KeyWritten {
		src, r.keySrc = KeyPartner, KeyPartner
	}
	what := "apiKey is TBD"
	off := r.start
	switch {
	case !has:
		what = xfmt.Sprintf("%s %s has no apiKey", r.typ, r.name)
		r.insert(r.start+1, xfmt.Sprintf(` "apiKey": %d,`, key))
	case tm.val.kind == tEOF: // reported as missing; writeKey fills it
		off = tm.keyOff
	case tm.val.kind != tWord && tm.val.kind != tString:
		return // an object or array: the parser says it is no integer
	default:
		off = tm.val.off
		if _, err := strconv.Atoi(tm.text); err == nil {
			what = xfmt.Sprintf("apiKey %s is not a key from 0 to %d", tm.text, math.MaxInt16)
		} else if tm.text != "TBD" {
			what = xfmt.Sprintf("apiKey is %s, not a number", jsonQuote(tm.text))
		}
		r.replaceToken(tm.val, strconv.Itoa(int(key)))
	}
	switch src {
	case KeyPartner:
		r.warnf(off, xfmt.Sprintf("%s; using %d, the key of %s", what, key, from.name), xfmt.Sprintf(`write "apiKey": %d`, key))
	case KeyChosen:
		r.warnf(off, xfmt.Sprintf("%s; using %d, as chosen", what, key), xfmt.Sprintf(`write "apiKey": %d once it is assigned`, key))
	default:
		msg := xfmt.Sprintf("%s; using placeholder %d", what, key)
		hint := "write the key once it is assigned, or choose another"
		if d.base != nil {
			msg += ", unused in " + d.base.Name
			if a, err := d.base.LookupAPI(api); err == nil && a.Name == api {
				hint = xfmt.Sprintf("write the key once it is assigned; %s has %s as %d", d.base.Name, api, a.Key)
			}
		}
		r.warnf(off, msg, hint)
	}
}

// clash reports a key that another API already uses, in the base set
// (a warning) or earlier in the draft (an error: one set cannot hold both,
// so clash returns true and the pair gets a placeholder).
func (d *Draft) clash(req, resp, from *region, key int16, other string) bool {
	r, off := from, 0
	if r != nil {
		off = r.top["apiKey"].val.off
	} else if r = req; r == nil {
		r = resp
	}
	if r != from {
		off = r.start
	}
	if d.base != nil && d.base.APIByKey(key) != nil && d.base.APIByKey(key).Name == other {
		hint := "pick a key " + d.base.Name + " does not use"
		if b, err := d.base.LookupAPI(r.api); err == nil && b.Name == r.api {
			hint = xfmt.Sprintf("%s has %s as %d", d.base.Name, r.api, b.Key)
		}
		r.warnf(off, xfmt.Sprintf("apiKey %d is %s in %s", key, other, d.base.Name), hint)
		return false
	}
	r.errorf(off, xfmt.Sprintf("apiKey %d is also the key of %s in this paste; using a placeholder", key, other), "give each API its own key")
	return true
}

// suffixes reports a request or response named without its suffix; the
// two are paired by API name all the same.
func (d *Draft) suffixes(req, resp *region) {
	for _, c := range []struct {
		r, other *region
		suffix   string
	}{{req, resp, "Request"}, {resp, req, "Response"}} {
		if c.r == nil || c.r.name == "" || c.r.name != c.r.api {
			continue
		}
		msg := xfmt.Sprintf("%s %s is not named %s%s", c.r.typ, c.r.name, c.r.name, c.suffix)
		if c.other != nil && c.other.name != "" {
			msg += xfmt.Sprintf("; paired with %s by name", c.other.name)
		}
		c.r.warnf(c.r.top["name"].val.off, msg, xfmt.Sprintf(`name it "%s%s"`, c.r.name, c.suffix))
	}
}
