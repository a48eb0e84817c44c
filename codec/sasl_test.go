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
	"kwire/tree/treetest"
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
// frame, its tree and the index of the SASL node (-1 when there is none).
func saslDecoded(t *testing.T, auth []byte, dir Direction) ([]byte, *tree.Flat, int) {
	t.Helper()
	b := saslFrame(t, auth, dir)
	_, fl, err := decodeTest(t, b, "SaslAuthenticate", 2, dir)
	if err != nil {
		t.Fatal(err)
	}
	if e := treetest.FirstError(fl); e != nil {
		t.Fatalf("error node %s: %s\n%s", e.Name, e.Err, treetest.Text(fl))
	}
	roundTrip(t, b, "SaslAuthenticate", 2, dir)
	n, _ := treetest.Find(fl, "AuthBytes."+sasl.Seg, sasl.Seg)
	return b, fl, n
}

// saslAttrIs checks that the descendant name of node n of fl has value
// value (when not "") and spans exactly span in b.
func saslAttrIs(t *testing.T, b []byte, fl *tree.Flat, n int, name, value, span string) {
	t.Helper()
	var c *tree.Node
	for i, x := range treetest.Under(fl, n) {
		if x.Name == name && i != n {
			c = x
			break
		}
	}
	if c == nil {
		t.Fatalf("no %s in\n%s", name, treetest.TextAt(fl, n))
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
	b, fl, n := saslDecoded(t, auth, Request)
	if sn := treetest.At(fl, n); sn == nil || sn.Type != "PLAIN" || sn.Offset != bytes.Index(b, auth) || sn.Size != len(auth) {
		t.Fatalf("PLAIN node %+v\n%s", sn, treetest.Text(fl))
	}
	saslAttrIs(t, b, fl, n, "authzid", `"admin"`, "admin")
	saslAttrIs(t, b, fl, n, "user", `"alice"`, "alice")
	saslAttrIs(t, b, fl, n, "password", "•••••••• (12 bytes, masked)", pw)
	text := treetest.Text(fl)
	if strings.Contains(text, pw) || strings.Contains(text, hex.EncodeToString([]byte(pw))[:8]) {
		t.Errorf("the password shows in the tree:\n%s", text)
	}
	f, _, _ := decodeTest(t, b, "SaslAuthenticate", 2, Request)
	j, err := f.JSON(len(b))
	if err != nil || !strings.Contains(string(j), hex.EncodeToString(auth)) {
		t.Errorf("JSON form without the bytes: %v\n%s", err, j)
	}
	// Revealed on request: the password's value, and nothing else changed.
	if !fl.HasSecret() || !fl.Reveal(b) || fl.Reveal(b) || !fl.HasSecret() {
		t.Fatalf("Reveal found no secret, or revealed one twice")
	}
	saslAttrIs(t, b, fl, n, "password", `"`+pw+`"`, pw)
	saslAttrIs(t, b, fl, n, "user", `"alice"`, "alice")
	if text := treetest.Text(fl); strings.Count(text, pw) != 1 || !strings.Contains(text, tree.Revealed) {
		t.Errorf("revealed tree:\n%s", treetest.Text(fl))
	}
	// Empty authzid.
	b, fl, n = saslDecoded(t, []byte("\x00bob\x00pw"), Request)
	saslAttrIs(t, b, fl, n, "user", `"bob"`, "bob")
	saslAttrIs(t, b, fl, n, "authzid", `""`, "")
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
		b, fl, n := saslDecoded(t, []byte(c.auth), c.dir)
		if sn := treetest.At(fl, n); sn == nil || sn.Type != "SCRAM" || sn.Value != c.what {
			t.Fatalf("%s: %+v\n%s", c.auth, sn, treetest.Text(fl))
		}
		for _, a := range c.attrs {
			saslAttrIs(t, b, fl, n, a[0], a[1], a[2])
		}
	}
	_, fl, n := saslDecoded(t, []byte("r=abc,s=QSXCR+Q6sek8bf92,i=4096"), Response)
	if _, s := treetest.FindUnder(fl, n, "AuthBytes.SASL.salt", "salt"); s == nil || s.Detail != "(base64 of 12 bytes: 4125c247e43ab1e93c6dff76)" {
		t.Errorf("salt %+v", s)
	}
}

func TestSASLOAuthBearer(t *testing.T) {
	enc := base64.RawURLEncoding.EncodeToString
	const sig = "c2lnbmF0dXJlLXNlY3JldA"
	jwt := enc([]byte(`{"alg":"HS256","typ":"JWT"}`)) + "." + enc([]byte(`{"sub":"alice","exp":1700000000,"scope":["a","b"]}`)) + "." + sig
	auth := []byte("n,a=alice,\x01auth=Bearer " + jwt + "\x01host=broker\x01port=9092\x01\x01")
	b, fl, n := saslDecoded(t, auth, Request)
	if sn := treetest.At(fl, n); sn == nil || sn.Type != "OAUTHBEARER" {
		t.Fatalf("%+v\n%s", sn, treetest.Text(fl))
	}
	saslAttrIs(t, b, fl, n, "gs2-header", `"n,a=alice,"`, "n,a=alice,")
	saslAttrIs(t, b, fl, n, "host", `"broker"`, "host=broker")
	saslAttrIs(t, b, fl, n, "port", `"9092"`, "port=9092")
	saslAttrIs(t, b, fl, n, "auth", `"Bearer" JWT`, "auth=Bearer "+jwt)
	saslAttrIs(t, b, fl, n, "alg", `"HS256"`, strings.Split(jwt, ".")[0])
	saslAttrIs(t, b, fl, n, "sub", `"alice"`, strings.Split(jwt, ".")[1])
	saslAttrIs(t, b, fl, n, "exp", "1700000000", strings.Split(jwt, ".")[1])
	saslAttrIs(t, b, fl, n, "scope", `["a", "b"]`, strings.Split(jwt, ".")[1])
	saslAttrIs(t, b, fl, n, "signature", "•••••••• (22 bytes, masked)", sig)
	if strings.Contains(treetest.Text(fl), sig) {
		t.Errorf("the signature shows:\n%s", treetest.Text(fl))
	}
	// A token that is no JWT is masked whole.
	b, fl, n = saslDecoded(t, []byte("n,,\x01auth=Bearer opaque-token\x01\x01"), Request)
	if n < 0 || strings.Contains(treetest.Text(fl), "opaque-token") {
		t.Fatalf("opaque token:\n%s", treetest.Text(fl))
	}
	saslAttrIs(t, b, fl, n, "token", "•••••••• (12 bytes, masked)", "opaque-token")
	// A secret with a control character is revealed escaped.
	b, fl, n = saslDecoded(t, []byte("n,,\x01auth=Bearer op\x1baque\x01\x01"), Request)
	fl.Reveal(b)
	saslAttrIs(t, b, fl, n, "token", `"op\x1baque"`, "op\x1baque")
	// The server's error.
	b, fl, n = saslDecoded(t, []byte(`{"status":"invalid_token","scope":"s"}`), Response)
	if sn := treetest.At(fl, n); sn == nil || sn.Type != "OAUTHBEARER" {
		t.Fatalf("server error %+v", sn)
	}
	saslAttrIs(t, b, fl, n, "status", `"invalid_token"`, `{"status":"invalid_token","scope":"s"}`)
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
		_, fl, n := saslDecoded(t, []byte(c.auth), c.dir)
		_, ab := treetest.Find(fl, "AuthBytes", "AuthBytes")
		if n >= 0 || !strings.Contains(ab.Detail, "not decoded: no SASL mechanism") {
			t.Errorf("%q: %s\n%s", c.auth, ab.Line(), treetest.Text(fl))
		}
	}
	// Empty: nothing to say.
	_, fl, _ := saslDecoded(t, nil, Response)
	if _, ab := treetest.Find(fl, "AuthBytes", "AuthBytes"); strings.Contains(ab.Detail, "not decoded") {
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
	_, fl, n := saslDecoded(t, []byte("n,,\x01=x\x01auth=Bearer "+jwt+"\x01\x01"), Request)
	if i, _ := treetest.FindUnder(fl, n, `AuthBytes.SASL.""`, `""`); n < 0 || i < 0 {
		t.Errorf("%v", treetest.At(fl, n))
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
		f, fl, err := Decode(b, DecodeOptions{Set: set, API: api, Dir: Request, SASLMechanism: c.mech})
		if err != nil {
			t.Fatal(err)
		}
		_, n := treetest.Find(fl, "AuthBytes."+sasl.Seg, sasl.Seg)
		_, ab := treetest.Find(fl, "AuthBytes", "AuthBytes")
		if c.typ == "" && (n != nil || !strings.Contains(ab.Detail, c.note)) || c.typ != "" && (n == nil || n.Type != c.typ) {
			t.Errorf("%s %q:\n%s", c.mech, c.auth, treetest.Text(fl))
		}
		if c.auth == "\x00u\x00p" && c.mech != "GSSAPI" && !strings.Contains(ab.Value, "masked") {
			t.Errorf("%s %q: the password shows: %s", c.mech, c.auth, ab.Line())
		}
		jsonRoundTrip(t, f, b)
	}
}
