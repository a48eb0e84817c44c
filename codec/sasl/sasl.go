// Package sasl decodes SaslAuthenticate's AuthBytes into rows of the
// codec's tree.Flat (the codec calls it for the field, as it decodes
// other nested formats). It is a package of its own so that the browser
// build compiles it without inlining (scripts/build-wasm.sh): it is no
// hot path.
//
// SaslAuthenticate's AuthBytes (request and response) as rows under the
// field's span (tree.Flat.Row, in preorder), with offsets in the outer
// frame and paths under AuthBytes.SASL (so that NestedOwner maps them to
// the field), called by codec/nested.go.
// The mechanism is the one given (DecodeOptions.SASLMechanism: a capture's
// SaslHandshake, kwire decode --sasl-mechanism, a capture row opened in the
// explorer) or recognised from the bytes alone, as a single pasted frame has
// no handshake beside it: PLAIN, SCRAM's four messages (RFC 5802's
// attributes by name), OAUTHBEARER (RFC 7628's key=value pairs, a JWT's
// header and claims read with jsonv; the server's JSON error); bytes of no
// mechanism (GSSAPI, ...) are a note, never an error. Secrets (PLAIN's
// password, a JWT's signature, an opaque token) are nodes of type
// tree.Secret, whose value says only their length and whose bytes render
// masks in the text column; tree.Flat.Reveal (the user's choice:
// --reveal-secrets, the explorer's button) turns them into tree.Revealed
// nodes showing the bytes escaped, which render leaves unmasked; the JSON
// form keeps the bytes as hex. A package of its own so that the browser
// build compiles it without inlining.
package sasl

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"kwire/internal/textesc"
	"kwire/jsonv"
	"kwire/tree"
)

// SaslAuthenticate's AuthBytes, decoded in place. The mechanism is the one
// given (a capture's SaslHandshake, the user's choice) or, as a single
// pasted frame has no handshake beside it, recognised from the bytes:
//
//   - PLAIN (RFC 4616): authzid NUL authcid NUL passwd, in a request; the
//     password is masked in the tree (the JSON form keeps the bytes);
//   - SCRAM-SHA-256/512 (RFC 5802 section 5.1): client-first (GS2 header,
//     n=, r=, extensions) and client-final (c=, r=, p=) in a request,
//     server-first (r=, s=, i=) and server-final (v= or e=) in a response;
//   - OAUTHBEARER (RFC 7628): GS2 header, then key=value pairs each ended
//     by 0x01; a bearer token that is a JWT has its header and claims
//     decoded, its signature not (and a token that is no JWT is masked);
//     the server's error is a JSON object.
//
// Anything else (GSSAPI's Kerberos tokens, bytes of no mechanism) stays
// bytes with a note: auth bytes are opaque, so nothing here is an error.
// The JSON form writes them as hex, as before.

// Seg is the path segment of the decoded mechanism: "AuthBytes.SASL.user".
const Seg = "SASL"

// saslQuote shows a value of the bytes as an escaped, quoted string.
func saslQuote(b []byte) string { return string(textesc.AppendEscaped(nil, string(b), true)) }

// saslName is a key from the bytes as a node's name and path segment:
// escaped, and quoted when it is empty or starts as an index does.
func saslName(k string) string {
	if k == "" || k[0] == '[' {
		return saslQuote([]byte(k))
	}
	return string(textesc.AppendEscaped(nil, k, false))
}

// saslAttr is an attribute of a SCRAM message or a key of OAUTHBEARER's:
// its name, value and where its text starts in the bytes.
type saslAttr struct {
	key, val   []byte
	start, end int // the whole "k=value"
	vstart     int
}

// scramAttrs splits s (from offset off of the bytes) into RFC 5802's
// attributes: a letter, "=", a value without a comma. ok is false when
// an attribute is not one.
func scramAttrs(s []byte, off int) ([]saslAttr, bool) {
	var out []saslAttr
	for i := 0; i <= len(s); {
		j := bytes.IndexByte(s[i:], ',')
		if j < 0 {
			j = len(s) - i
		}
		a := s[i : i+j]
		if len(a) < 2 || a[1] != '=' || !(a[0] >= 'a' && a[0] <= 'z' || a[0] >= 'A' && a[0] <= 'Z') || !utf8.Valid(a) {
			return nil, false
		}
		out = append(out, saslAttr{key: a[:1], val: a[2:], start: off + i, end: off + i + j, vstart: off + i + 2})
		i += j + 1
	}
	return out, true
}

// scramNames are RFC 5802's attributes by letter.
var scramNames = map[byte]string{
	'a': "authzid", 'n': "username", 'm': "reserved-mext", 'r': "nonce", 'c': "channel-binding",
	's': "salt", 'i': "iteration-count", 'p': "proof", 'v': "verifier", 'e': "server-error",
}

// gs2Header reads a GS2 header (RFC 5801: "n,", "y," or "p=name,", then
// an optional "a=authzid", then ","): the bytes it takes, or -1.
func gs2Header(b []byte) int {
	if len(b) < 3 {
		return -1
	}
	i := 0
	switch b[0] {
	case 'n', 'y':
		i = 1
	case 'p':
		if b[1] != '=' {
			return -1
		}
		j := bytes.IndexByte(b, ',')
		if j < 0 {
			return -1
		}
		i = j
	default:
		return -1
	}
	if b[i] != ',' {
		return -1
	}
	i++
	if i < len(b) && b[i] == 'a' {
		if i+1 >= len(b) || b[i+1] != '=' {
			return -1
		}
		j := bytes.IndexByte(b[i:], ',')
		if j < 0 {
			return -1
		}
		i += j
	}
	if i >= len(b) || b[i] != ',' {
		return -1
	}
	return i + 1
}

// Options place the rows Decode adds and say what the bytes are.
type Options struct {
	Base    int          // offset of the bytes' first byte in the buffer shown
	Section tree.Section // colour of the rows' bytes
	Field   string       // the bytes field's name ("AuthBytes")
	Path    string       // its path
	// Response says the bytes are a response's (the server's messages).
	Response bool
	// Mechanism is the one agreed by SaslHandshake or chosen ("PLAIN",
	// "SCRAM-SHA-256", ...); empty, it is recognised from the bytes.
	Mechanism string
}

// sasl is what decodes one AuthBytes: the tree's allocator, the Flat and
// section (not the codec's decoder, which would then escape to the heap
// in every decode), the bytes, where they start in the buffer shown, and
// the path of the decoded node.
type sasl struct {
	a       *tree.Alloc
	f       *tree.Flat
	section tree.Section
	b       []byte
	base    int
	prefix  string
}

// row is the node of name over the bytes [at, end).
func (s *sasl) row(name, typ, value string, at, end int, about string) tree.Node {
	return tree.Node{Name: name, Type: typ, Value: value, Offset: s.base + at, Size: end - at, Section: s.section,
		Path: s.join(s.prefix, name), About: about}
}

// node adds the node of name over [at, end) under span parent and
// returns its span.
func (s *sasl) node(parent int, name, typ, value string, at, end int, about string) int {
	return s.f.Row(parent, s.row(name, typ, value, at, end, about))
}

// join is the path of name in prefix.
func (s *sasl) join(prefix, name string) string {
	if prefix == "" {
		return name
	}
	return s.a.Concat(prefix, ".", name)
}

// quote is saslQuote with the string from the tree's text blocks.
func (s *sasl) quote(b []byte) string {
	return s.a.String(textesc.AppendEscaped(s.a.Text(len(b)+2), string(b), true))
}

// masked is how a secret of n bytes is shown in the tree.
func (s *sasl) masked(n int) string {
	return s.a.Concat("•••••••• (", s.a.Itoa(int64(n)), " bytes, masked)")
}

// Decode reads the AuthBytes b of a request or a response (o.Response)
// into rows of f under span parent (the bytes field's), in preorder,
// taking strings from a, or returns in note why it does not (for the
// field's detail). value, when not empty, is what the field shows instead
// of its bytes (PLAIN's: the password masked). Nothing in b is an error.
func Decode(a *tree.Alloc, f *tree.Flat, parent int, b []byte, o Options) (note, value string) {
	if len(b) == 0 {
		return "", ""
	}
	mechanism := strings.ToUpper(o.Mechanism)
	switch {
	case mechanism == "GSSAPI":
		return "not decoded: GSSAPI (Kerberos tokens, RFC 4752)", ""
	case mechanism != "" && mechanism != "PLAIN" && mechanism != "OAUTHBEARER" && !strings.HasPrefix(mechanism, "SCRAM-"):
		return "not decoded: mechanism " + saslQuote([]byte(mechanism)) + " (kwire reads PLAIN, SCRAM and OAUTHBEARER)", ""
	}
	if a == nil { // the strings of the rows share blocks all the same
		a = new(tree.Alloc)
	}
	s := &sasl{a: a, f: f, section: o.Section, b: b, base: o.Base}
	s.prefix = s.join(o.Path, Seg)
	var mech, what string
	var fill func(c int)         // adds the rows under the decoded node
	var serverErr map[string]any // or: the decoded node is this JSON object
	if !o.Response {
		h := gs2Header(b)
		switch {
		case h > 0 && h < len(b) && b[h] == 0x01:
			mech, what, fill = "OAUTHBEARER", "client's initial response", func(c int) { s.oauth(c, h) }
		case h > 0:
			if attrs, ok := scramAttrs(b[h:], h); ok && len(attrs) >= 2 && attrs[0].key[0] == 'n' && attrs[1].key[0] == 'r' {
				mech, what, fill = "SCRAM", "client-first-message", func(c int) { s.gs2(c, h); s.scram(c, attrs) }
			}
		default:
			if attrs, ok := scramAttrs(b, 0); ok && len(attrs) >= 3 && attrs[0].key[0] == 'c' && attrs[1].key[0] == 'r' && attrs[len(attrs)-1].key[0] == 'p' {
				mech, what, fill = "SCRAM", "client-final-message", func(c int) { s.scram(c, attrs) }
			}
		}
		if mech == "" {
			if parts := bytes.Split(b, []byte{0}); len(parts) == 3 && len(parts[1]) > 0 && plainText(parts[0]) && plainText(parts[1]) && utf8.Valid(parts[2]) {
				mech, what, fill = "PLAIN", "authzid NUL user NUL password", func(c int) { s.plain(c, parts) }
				// Masked whatever the mechanism: the bytes may hold a password.
				value = a.Concat(a.Plural(len(b), "byte"), "", ", SASL PLAIN (password masked)")
			}
		}
	} else {
		if attrs, ok := scramAttrs(b, 0); ok {
			switch {
			case len(attrs) >= 3 && (attrs[0].key[0] == 'r' || attrs[0].key[0] == 'm') && hasAttrs(attrs, 'r', 's', 'i'):
				mech, what, fill = "SCRAM", "server-first-message", func(c int) { s.scram(c, attrs) }
			case attrs[0].key[0] == 'v' || attrs[0].key[0] == 'e':
				mech, what, fill = "SCRAM", "server-final-message", func(c int) { s.scram(c, attrs) }
			}
		}
		if mech == "" && b[0] == '{' {
			if v, err := jsonv.Parse(b); err == nil {
				if obj, ok := v.(map[string]any); ok && obj["status"] != nil {
					mech, what, serverErr = "OAUTHBEARER", "server's error (JSON)", obj
				}
			}
		}
	}
	switch {
	case mechanism != "" && mech != mechanism && !(mech == "SCRAM" && strings.HasPrefix(mechanism, "SCRAM-")):
		return "not decoded: the bytes are no " + saslQuote([]byte(mechanism)) + " message", value
	case mech == "":
		return "not decoded: no SASL mechanism recognised in the bytes (opaque auth bytes: GSSAPI's Kerberos tokens, or another mechanism)", value
	}
	about := "the bytes of " + o.Field + ", decoded: SASL " + mech + ", recognised from the bytes"
	switch {
	case mechanism != "":
		mech = mechanism
		about = "the bytes of " + o.Field + ", decoded: SASL " + mech + ", the mechanism given"
	case mech == "SCRAM":
		about += " (SCRAM-SHA-256 or SCRAM-SHA-512: the bytes do not say which)"
	}
	n := tree.Node{Name: Seg, Type: mech, Value: what, Offset: o.Base, Size: len(b), Section: o.Section, Path: s.prefix, About: about}
	if serverErr != nil {
		s.json(parent, n, serverErr, 0, len(b))
	} else {
		fill(f.Row(parent, n))
	}
	return "", value
}

// plainText says whether b can be PLAIN's authzid or user: UTF-8 without
// controls (which binary tokens, GSSAPI's, have).
func plainText(b []byte) bool {
	for _, c := range b {
		if c < 0x20 || c == 0x7f {
			return false
		}
	}
	return utf8.Valid(b)
}

func hasAttrs(attrs []saslAttr, keys ...byte) bool {
	for _, k := range keys {
		found := false
		for _, a := range attrs {
			found = found || a.key[0] == k
		}
		if !found {
			return false
		}
	}
	return true
}

// plain shows PLAIN's three fields, the password masked.
func (s *sasl) plain(c int, parts [][]byte) {
	at := 0
	s.node(c, "authzid", "string", s.quote(parts[0]), at, len(parts[0]), "the authorization identity; empty: the user's own")
	at += len(parts[0]) + 1
	s.node(c, "user", "string", s.quote(parts[1]), at, at+len(parts[1]), "the authentication identity")
	at += len(parts[1]) + 1
	s.node(c, "password", tree.Secret, s.masked(len(parts[2])), at, len(s.b), "a secret, masked unless revealed; the JSON form keeps the bytes")
}

// gs2 shows a GS2 header of h bytes.
func (s *sasl) gs2(c, h int) {
	hd := s.b[:h]
	about := "no channel binding"
	switch hd[0] {
	case 'y':
		about = "the client supports channel binding and thinks the server does not"
	case 'p':
		about = "channel binding " + strings.TrimPrefix(string(hd[:bytes.IndexByte(hd, ',')]), "p=")
	}
	g := s.node(c, "gs2-header", "string", s.quote(hd), 0, h, "GS2 header (RFC 5801): "+about)
	if i := bytes.Index(hd, []byte(",a=")); i >= 0 {
		s.node(g, "authzid", "a=", s.quote(hd[i+3:h-1]), i+1, h-1, "the authorization identity")
	}
}

// scram shows SCRAM attributes by name.
func (s *sasl) scram(c int, attrs []saslAttr) {
	for _, a := range attrs {
		name, ok := scramNames[a.key[0]]
		if !ok {
			name = "extension " + string(a.key)
		}
		n := s.row(name, string(a.key)+"=", s.quote(a.val), a.start, a.end, "")
		switch a.key[0] {
		case 's', 'p', 'v', 'c':
			if raw, err := base64.StdEncoding.DecodeString(string(a.val)); err == nil {
				if a.key[0] == 'c' {
					n.Detail = "(the GS2 header " + s.quote(raw) + ")"
				} else {
					n.Detail = "(base64 of " + strconv.Itoa(len(raw)) + " bytes: " + hex.EncodeToString(raw[:min(len(raw), 16)]) + ")"
				}
			} else {
				n.Detail = "(not base64)"
			}
		case 'i':
			if _, err := strconv.Atoi(string(a.val)); err != nil {
				n.Detail = "(not a number)"
			}
		}
		s.f.Row(c, n)
	}
}

// oauth shows OAUTHBEARER's initial response: the GS2 header of h bytes,
// then key=value pairs each ended by 0x01.
func (s *sasl) oauth(c, h int) {
	s.gs2(c, h)
	at := h + 1
	for at < len(s.b) {
		j := bytes.IndexByte(s.b[at:], 0x01)
		if j < 0 {
			j = len(s.b) - at
		}
		kv := s.b[at : at+j]
		if len(kv) == 0 {
			break // the final 0x01
		}
		k, v, ok := bytes.Cut(kv, []byte{'='})
		if !ok {
			n := s.row("pair", "bytes", s.quote(kv), at, at+j, "")
			n.Detail = "(no key=value)"
			s.f.Row(c, n)
		} else if string(k) == "auth" {
			s.auth(c, v, at, at+len(k)+1, at+j)
		} else {
			s.node(c, saslName(string(k)), "string", s.quote(v), at, at+j, "")
		}
		at += j + 1
	}
}

// auth shows "auth=Bearer <token>" (vat: where the value starts): a JWT's
// header and claims decoded, its signature and any other token not shown.
func (s *sasl) auth(c int, v []byte, at, vat, end int) {
	scheme, tok, _ := bytes.Cut(v, []byte{' '})
	n := s.row("auth", "string", s.quote(scheme)+" "+s.masked(len(tok)), at, end, "the bearer token; a JWT's signature is not shown")
	parts := bytes.Split(tok, []byte{'.'})
	off := vat + len(scheme) + 1
	if len(parts) != 3 {
		n.Detail = "(no JWT)"
		ni := s.f.Row(c, n)
		if len(tok) > 0 {
			s.node(ni, "token", tree.Secret, s.masked(len(tok)), off, off+len(tok), "the bearer token, a secret, masked unless revealed")
		}
		return
	}
	n.Value = s.quote(scheme) + " JWT"
	ni := s.f.Row(c, n)
	for i, name := range []string{"header", "claims", "signature"} {
		p := parts[i]
		if i == 2 {
			s.node(ni, name, tree.Secret, s.masked(len(p)), off, off+len(p), "not decoded; a secret, masked unless revealed")
			break
		}
		pn := s.row(name, "base64url JSON", "", off, off+len(p), "")
		raw, err := base64.RawURLEncoding.DecodeString(strings.TrimRight(string(p), "="))
		var obj map[string]any
		if err == nil {
			if jv, jerr := jsonv.Parse(raw); jerr == nil {
				obj, _ = jv.(map[string]any)
			}
		}
		if obj == nil {
			pn.Detail = "(not base64url of a JSON object)"
			s.f.Row(ni, pn)
		} else {
			s.json(ni, pn, obj, off, off+len(p))
		}
		off += len(p) + 1
	}
}

// json adds n, the node of a JSON object, under span parent, its value
// the count of the object's members and its children the members, each
// over the span [at, end) (base64 has no byte of each member to point
// at).
func (s *sasl) json(parent int, n tree.Node, obj map[string]any, at, end int) {
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return keys[i] < keys[j] }) // sort.Strings is slices.Sort: a copy of pdqsort more in the browser app
	n.Value = s.a.Plural(len(keys), "member")
	c := s.f.Row(parent, n)
	for _, k := range keys {
		name := saslName(k)
		s.f.Row(c, tree.Node{Name: name, Type: "json", Value: jsonShort(obj[k]), Offset: s.base + at, Size: end - at, Section: s.section,
			Path: s.join(n.Path, name)})
	}
}

// jsonShort is a JSON value as the tree shows it.
func jsonShort(v any) string {
	switch v := v.(type) {
	case string:
		return saslQuote([]byte(v))
	case jsonv.Number:
		return string(v)
	case bool:
		return strconv.FormatBool(v)
	case nil:
		return "null"
	case []any:
		parts := make([]string, 0, len(v))
		for _, e := range v {
			parts = append(parts, jsonShort(e))
		}
		return "[" + strings.Join(parts, ", ") + "]"
	case map[string]any:
		return "{" + strconv.Itoa(len(v)) + " members}"
	}
	return ""
}
