package codec

import (
	"bytes"
	"encoding/base64"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"kwire/codec/sasl"
	"kwire/tree"
)

// saslFrame is a SaslAuthenticate v2 frame whose AuthBytes are auth.
func saslFrame(t *testing.T, auth []byte, dir Direction) []byte {
	t.Helper()
	body := fmt.Sprintf(`{"AuthBytes":"%x"}`, auth)
	if dir == Response {
		body = fmt.Sprintf(`{"ErrorCode":0,"ErrorMessage":null,"AuthBytes":"%x","SessionLifetimeMs":0}`, auth)
	}
	return frameFromJSON(t, "SaslAuthenticate", 2, dir, body)
}

// saslDecoded decodes a SaslAuthenticate frame of auth and returns the
// frame, its tree and the SASL node (nil when there is none).
func saslDecoded(t *testing.T, auth []byte, dir Direction) ([]byte, *tree.Node, *tree.Node) {
	t.Helper()
	b := saslFrame(t, auth, dir)
	_, root, err := decodeTest(t, b, "SaslAuthenticate", 2, dir)
	if err != nil {
		t.Fatal(err)
	}
	if e, _ := root.FirstError(); e != nil {
		t.Fatalf("error node %s: %s\n%s", e.Name, e.Err, root.Text())
	}
	roundTrip(t, b, "SaslAuthenticate", 2, dir)
	return b, root, findNode(root, "AuthBytes."+sasl.Seg, sasl.Seg)
}

// saslAttrIs checks that the child name of n has value value (when not
// "") and spans exactly span in b.
func saslAttrIs(t *testing.T, b []byte, n *tree.Node, name, value, span string) {
	t.Helper()
	var c *tree.Node
	n.Walk(func(x *tree.Node, _ int) bool {
		if c == nil && x.Name == name && x != n {
			c = x
		}
		return c == nil
	})
	if c == nil {
		t.Fatalf("no %s in\n%s", name, n.Text())
	}
	if value != "" && c.Value != value {
		t.Errorf("%s = %s, want %s", name, c.Value, value)
	}
	if got := string(b[c.Offset:c.End()]); got != span {
		t.Errorf("%s spans %q, want %q", name, got, span)
	}
}

func TestSASLPlain(t *testing.T) {
	const pw = "s3cr3t-Pa55!"
	auth := []byte("admin\x00alice\x00" + pw)
	b, root, n := saslDecoded(t, auth, Request)
	if n == nil || n.Type != "PLAIN" || n.Offset != bytes.Index(b, auth) || n.Size != len(auth) {
		t.Fatalf("PLAIN node %+v\n%s", n, root.Text())
	}
	saslAttrIs(t, b, n, "authzid", `"admin"`, "admin")
	saslAttrIs(t, b, n, "user", `"alice"`, "alice")
	saslAttrIs(t, b, n, "password", "•••••••• (12 bytes, masked)", pw)
	text := root.Text()
	if strings.Contains(text, pw) || strings.Contains(text, hex.EncodeToString([]byte(pw))[:8]) {
		t.Errorf("the password shows in the tree:\n%s", text)
	}
	f, _, _ := decodeTest(t, b, "SaslAuthenticate", 2, Request)
	j, err := f.JSON(len(b))
	if err != nil || !strings.Contains(string(j), hex.EncodeToString(auth)) {
		t.Errorf("JSON form without the bytes: %v\n%s", err, j)
	}
	// Revealed on request: the password's value, and nothing else changed.
	if !tree.HasSecret(root) || !tree.Reveal(root, b) || tree.Reveal(root, b) || !tree.HasSecret(root) {
		t.Fatalf("Reveal found no secret, or revealed one twice")
	}
	saslAttrIs(t, b, n, "password", `"`+pw+`"`, pw)
	saslAttrIs(t, b, n, "user", `"alice"`, "alice")
	if strings.Count(root.Text(), pw) != 1 || !strings.Contains(root.Text(), tree.Revealed) {
		t.Errorf("revealed tree:\n%s", root.Text())
	}
	// Empty authzid.
	b, _, n = saslDecoded(t, []byte("\x00bob\x00pw"), Request)
	saslAttrIs(t, b, n, "user", `"bob"`, "bob")
	saslAttrIs(t, b, n, "authzid", `""`, "")
}

func TestSASLScram(t *testing.T) {
	// RFC 5802 section 5's example (SHA-1's values; the layout is SHA-256's and SHA-512's too).
	for _, c := range []struct {
		dir   Direction
		auth  string
		what  string
		attrs [][3]string // name, value, span
	}{
		{Request, "n,,n=user,r=fyko+d2lbbFgONRv9qkxdawL", "client-first-message", [][3]string{
			{"gs2-header", `"n,,"`, "n,,"}, {"username", `"user"`, "n=user"}, {"nonce", `"fyko+d2lbbFgONRv9qkxdawL"`, "r=fyko+d2lbbFgONRv9qkxdawL"}}},
		{Request, "n,a=admin,n=user,r=abc,x=1", "client-first-message", [][3]string{
			{"authzid", `"admin"`, "a=admin"}, {"username", `"user"`, "n=user"}, {"extension x", `"1"`, "x=1"}}},
		{Response, "r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,s=QSXCR+Q6sek8bf92,i=4096", "server-first-message", [][3]string{
			{"salt", `"QSXCR+Q6sek8bf92"`, "s=QSXCR+Q6sek8bf92"}, {"iteration-count", `"4096"`, "i=4096"}}},
		{Request, "c=biws,r=fyko+d2lbbFgONRv9qkxdawL3rfcNHYJY1ZVvWVs7j,p=v0X8v3Bz2T0CJGbJQyF0X+HI4Ts=", "client-final-message", [][3]string{
			{"channel-binding", `"biws"`, "c=biws"}, {"proof", `"v0X8v3Bz2T0CJGbJQyF0X+HI4Ts="`, "p=v0X8v3Bz2T0CJGbJQyF0X+HI4Ts="}}},
		{Response, "v=rmF9pqV8S7suAoZWja4dJRkFsKQ=", "server-final-message", [][3]string{{"verifier", "", "v=rmF9pqV8S7suAoZWja4dJRkFsKQ="}}},
		{Response, "e=invalid-proof", "server-final-message", [][3]string{{"server-error", `"invalid-proof"`, "e=invalid-proof"}}},
	} {
		b, root, n := saslDecoded(t, []byte(c.auth), c.dir)
		if n == nil || n.Type != "SCRAM" || n.Value != c.what {
			t.Fatalf("%s: %+v\n%s", c.auth, n, root.Text())
		}
		for _, a := range c.attrs {
			saslAttrIs(t, b, n, a[0], a[1], a[2])
		}
	}
	_, _, n := saslDecoded(t, []byte("r=abc,s=QSXCR+Q6sek8bf92,i=4096"), Response)
	if s := findNode(n, "AuthBytes.SASL.salt", "salt"); s == nil || s.Detail != "(base64 of 12 bytes: 4125c247e43ab1e93c6dff76)" {
		t.Errorf("salt %+v", s)
	}
}

func TestSASLOAuthBearer(t *testing.T) {
	enc := base64.RawURLEncoding.EncodeToString
	const sig = "c2lnbmF0dXJlLXNlY3JldA"
	jwt := enc([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + enc([]byte(`{"sub":"alice","exp":1700000000,"scope":["a","b"]}`)) + "." + sig
	auth := []byte("n,a=alice,\x01auth=Bearer " + jwt + "\x01host=broker\x01port=9092\x01\x01")
	b, root, n := saslDecoded(t, auth, Request)
	if n == nil || n.Type != "OAUTHBEARER" {
		t.Fatalf("%+v\n%s", n, root.Text())
	}
	saslAttrIs(t, b, n, "gs2-header", `"n,a=alice,"`, "n,a=alice,")
	saslAttrIs(t, b, n, "host", `"broker"`, "host=broker")
	saslAttrIs(t, b, n, "port", `"9092"`, "port=9092")
	saslAttrIs(t, b, n, "auth", `"Bearer" JWT`, "auth=Bearer "+jwt)
	saslAttrIs(t, b, n, "alg", `"HS256"`, strings.Split(jwt, ".")[0])
	saslAttrIs(t, b, n, "sub", `"alice"`, strings.Split(jwt, ".")[1])
	saslAttrIs(t, b, n, "exp", "1700000000", strings.Split(jwt, ".")[1])
	saslAttrIs(t, b, n, "scope", `["a", "b"]`, strings.Split(jwt, ".")[1])
	saslAttrIs(t, b, n, "signature", "•••••••• (22 bytes, masked)", sig)
	if strings.Contains(root.Text(), sig) {
		t.Errorf("the signature shows:\n%s", root.Text())
	}
	// A token that is no JWT is masked whole.
	b, root, n = saslDecoded(t, []byte("n,,\x01auth=Bearer opaque-token\x01\x01"), Request)
	if n == nil || strings.Contains(root.Text(), "opaque-token") {
		t.Fatalf("opaque token:\n%s", root.Text())
	}
	saslAttrIs(t, b, n, "token", "•••••••• (12 bytes, masked)", "opaque-token")
	// A secret with a control character is revealed escaped.
	b, root, n = saslDecoded(t, []byte("n,,\x01auth=Bearer op\x1baque\x01\x01"), Request)
	tree.Reveal(root, b)
	saslAttrIs(t, b, n, "token", `"op\x1baque"`, "op\x1baque")
	// The server's error.
	b, _, n = saslDecoded(t, []byte(`{"status":"invalid_token","scope":"s"}`), Response)
	if n == nil || n.Type != "OAUTHBEARER" {
		t.Fatalf("server error %+v", n)
	}
	saslAttrIs(t, b, n, "status", `"invalid_token"`, `{"status":"invalid_token","scope":"s"}`)
}

func TestSASLOpaque(t *testing.T) {
	for _, c := range []struct {
		dir  Direction
		auth string
	}{
		{Request, "\x60\x82\x02\x00\x06\x09\x2a\x86\x48"}, // GSSAPI's Kerberos token
		{Request, "\x60\x01\x00\x02\x00x"}, {Request, "a\x00b\x00\xff"}, {Request, "no nul"}, {Request, "a\x00\x00"}, {Request, "n,,"}, {Request, "n,,n=x"}, {Request, "c=biws"},
		{Response, "r=abc"}, {Response, "{}"}, {Response, "{\"status\":"}, {Response, "\xff\xfe"},
	} {
		_, root, n := saslDecoded(t, []byte(c.auth), c.dir)
		ab := findNode(root, "AuthBytes", "AuthBytes")
		if n != nil || !strings.Contains(ab.Detail, "not decoded: no SASL mechanism") {
			t.Errorf("%q: %s\n%s", c.auth, ab.Line(), root.Text())
		}
	}
	// Empty: nothing to say.
	_, root, _ := saslDecoded(t, nil, Response)
	if ab := findNode(root, "AuthBytes", "AuthBytes"); strings.Contains(ab.Detail, "not decoded") {
		t.Errorf("empty: %s", ab.Line())
	}
}

func TestSASLNestedOwner(t *testing.T) {
	if got, ok := NestedOwner("AuthBytes.SASL.auth.claims.sub"); !ok || got != "AuthBytes" {
		t.Errorf("NestedOwner = %q, %v", got, ok)
	}
}

func TestSASLOddKeys(t *testing.T) {
	enc := base64.RawURLEncoding.EncodeToString
	jwt := enc([]byte(`{"":1,"[0]":2}`)) + "." + enc([]byte(`{}`)) + ".x"
	_, _, n := saslDecoded(t, []byte("n,,\x01=x\x01auth=Bearer "+jwt+"\x01\x01"), Request)
	if n == nil || findNode(n, `AuthBytes.SASL.""`, `""`) == nil {
		t.Errorf("%v", n)
	}
}

func TestSASLMechanismGiven(t *testing.T) {
	set := loadSet(t, "trunk")
	api, _ := set.LookupAPI("SaslAuthenticate")
	for _, c := range []struct {
		mech, auth string
		typ        string // of the SASL node; "" for none
		note       string
	}{
		{"SCRAM-SHA-512", "n,,n=user,r=abc", "SCRAM-SHA-512", ""},
		{"scram-sha-256", "c=biws,r=abc,p=AAAA", "SCRAM-SHA-256", ""},
		{"PLAIN", "\x00u\x00p", "PLAIN", ""},
		{"PLAIN", "n,,n=user,r=abc", "", `not decoded: the bytes are no "PLAIN" message`},
		{"SCRAM-SHA-256", "\x00u\x00p", "", `not decoded: the bytes are no "SCRAM-SHA-256" message`},
		{"GSSAPI", "\x00u\x00p", "", "not decoded: GSSAPI"},
		{"AWS_MSK_IAM", `{"version":"2020_10_22"}`, "", `not decoded: mechanism "AWS_MSK_IAM"`},
	} {
		b := saslFrame(t, []byte(c.auth), Request)
		f, root, err := Decode(b, DecodeOptions{Set: set, API: api, Dir: Request, SASLMechanism: c.mech})
		if err != nil {
			t.Fatal(err)
		}
		n := findNode(root, "AuthBytes."+sasl.Seg, sasl.Seg)
		ab := findNode(root, "AuthBytes", "AuthBytes")
		if c.typ == "" && (n != nil || !strings.Contains(ab.Detail, c.note)) || c.typ != "" && (n == nil || n.Type != c.typ) {
			t.Errorf("%s %q:\n%s", c.mech, c.auth, root.Text())
		}
		if c.auth == "\x00u\x00p" && c.mech != "GSSAPI" && !strings.Contains(ab.Value, "masked") {
			t.Errorf("%s %q: the password shows: %s", c.mech, c.auth, ab.Line())
		}
		jsonRoundTrip(t, f, b)
	}
}
