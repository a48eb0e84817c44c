package sasl

import (
	"strconv"
	"strings"
	"testing"

	"kwire/tree"
)

// decode decodes b as AuthBytes at offset 10 under a field's row and
// returns the Flat, what Decode says of the field, and the rows under it
// in preorder as "depth name type = value [offset+size] path" lines.
func decode(t *testing.T, b []byte, response bool, mechanism string) (f *tree.Flat, note, value string, rows []string) {
	t.Helper()
	f = &tree.Flat{}
	field := f.Row(-1, tree.Node{Name: "AuthBytes", Offset: 10, Size: len(b), Path: "AuthBytes"})
	note, value = Decode(nil, f, field, b, Options{Base: 10, Field: "AuthBytes", Path: "AuthBytes", Response: response, Mechanism: mechanism})
	f.Done()
	for i := field + 1; i < f.Len(); i++ {
		depth := 0
		for p := f.Spans[i].Parent; p != int32(field); p = f.Spans[p].Parent {
			depth++
		}
		n := f.Node(i, nil)
		rows = append(rows, strconv.Itoa(depth)+" "+n.Name+" "+n.Type+" = "+n.Value+" ["+strconv.Itoa(n.Offset)+"+"+strconv.Itoa(n.Size)+"] "+n.Path)
	}
	return f, note, value, rows
}

// Decode writes its rows under the field in preorder, offsets in the
// buffer shown and paths below the field's, and returns the field's note
// and value: PLAIN's password masked (and shown by Reveal), a JWT's
// header and claims decoded under their part, the server's JSON error
// counted on the SASL row, and a note for bytes it does not read.
func TestDecodeRows(t *testing.T) {
	jwt := "eyJhbGciOiJub25lIn0.eyJzdWIiOiJhbGljZSJ9.c2ln"
	for _, c := range []struct {
		name      string
		b         string
		response  bool
		mechanism string
		note      string
		value     string
		rows      []string
	}{
		{"PLAIN", "\x00alice\x00secret", false, "", "", "13 bytes, SASL PLAIN (password masked)", []string{
			"0 SASL PLAIN = authzid NUL user NUL password [10+13] AuthBytes.SASL",
			`1 authzid string = "" [10+0] AuthBytes.SASL.authzid`,
			`1 user string = "alice" [11+5] AuthBytes.SASL.user`,
			"1 password secret = •••••••• (6 bytes, masked) [17+6] AuthBytes.SASL.password",
		}},
		{"SCRAM client-first", "n,a=bob,n=alice,r=abc", false, "SCRAM-SHA-256", "", "", []string{
			"0 SASL SCRAM-SHA-256 = client-first-message [10+21] AuthBytes.SASL",
			`1 gs2-header string = "n,a=bob," [10+8] AuthBytes.SASL.gs2-header`,
			`2 authzid a= = "bob" [12+5] AuthBytes.SASL.authzid`,
			`1 username n= = "alice" [18+7] AuthBytes.SASL.username`,
			`1 nonce r= = "abc" [26+5] AuthBytes.SASL.nonce`,
		}},
		{"OAUTHBEARER JWT", "n,,\x01auth=Bearer " + jwt + "\x01\x01", false, "", "", "", []string{
			"0 SASL OAUTHBEARER = client's initial response [10+63] AuthBytes.SASL",
			`1 gs2-header string = "n,," [10+3] AuthBytes.SASL.gs2-header`,
			`1 auth string = "Bearer" JWT [14+57] AuthBytes.SASL.auth`,
			"2 header base64url JSON = 1 member [26+19] AuthBytes.SASL.header",
			`3 alg json = "none" [26+19] AuthBytes.SASL.header.alg`,
			"2 claims base64url JSON = 1 member [46+20] AuthBytes.SASL.claims",
			`3 sub json = "alice" [46+20] AuthBytes.SASL.claims.sub`,
			"2 signature secret = •••••••• (4 bytes, masked) [67+4] AuthBytes.SASL.signature",
		}},
		{"OAUTHBEARER error", `{"status":"invalid_token","scope":"x"}`, true, "", "", "", []string{
			"0 SASL OAUTHBEARER = 2 members [10+38] AuthBytes.SASL",
			`1 scope json = "x" [10+38] AuthBytes.SASL.scope`,
			`1 status json = "invalid_token" [10+38] AuthBytes.SASL.status`,
		}},
		{"GSSAPI given", "\x60\x82token", false, "gssapi", "not decoded: GSSAPI (Kerberos tokens, RFC 4752)", "", nil},
		{"opaque", "\x05\x04\x01\xff", false, "", "not decoded: no SASL mechanism recognised in the bytes (opaque auth bytes: GSSAPI's Kerberos tokens, or another mechanism)", "", nil},
		{"PLAIN, SCRAM given", "\x00alice\x00secret", false, "SCRAM-SHA-512", `not decoded: the bytes are no "SCRAM-SHA-512" message`, "13 bytes, SASL PLAIN (password masked)", nil},
	} {
		t.Run(c.name, func(t *testing.T) {
			f, note, value, rows := decode(t, []byte(c.b), c.response, c.mechanism)
			if note != c.note || value != c.value {
				t.Errorf("note %q, value %q; want %q, %q", note, value, c.note, c.value)
			}
			if strings.Join(rows, "\n") != strings.Join(c.rows, "\n") {
				t.Errorf("rows:\n%s\nwant:\n%s", strings.Join(rows, "\n"), strings.Join(c.rows, "\n"))
			}
			if c.name != "PLAIN" {
				return
			}
			buf := append(make([]byte, 10), c.b...)
			if !f.HasSecret() || !f.Reveal(buf) || f.Node(f.Len()-1, nil).Value != `"secret"` {
				t.Errorf("revealed password: %+v", f.Node(f.Len()-1, nil))
			}
		})
	}
}
