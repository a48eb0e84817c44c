package codec

import (
	"context"
	"encoding/base64"
	"encoding/binary"
	"strings"
	"testing"
	"time"

	"github.com/twmb/franz-go/pkg/kfake"
	"github.com/twmb/franz-go/pkg/kgo"
	"github.com/twmb/franz-go/pkg/sasl"
	"github.com/twmb/franz-go/pkg/sasl/oauth"
	"github.com/twmb/franz-go/pkg/sasl/plain"
	"github.com/twmb/franz-go/pkg/sasl/scram"

	saslnodes "kwire/codec/sasl"
	"kwire/codec/wire/wiretest"
	"kwire/tree/treetest"
)

// TestKfakeSASL authenticates kgo against kfake with PLAIN,
// SCRAM-SHA-256 and SCRAM-SHA-512 and decodes every SaslAuthenticate
// frame on the wire: each mechanism's messages are recognised from the
// bytes, without error nodes, the password never shows in the tree, and
// every frame goes through its JSON form and back byte for byte.
func TestKfakeSASL(t *testing.T) {
	const user, pass = "kwire-user", "pa55-w0rd-kfake"
	for _, c := range []struct {
		method string
		mech   sasl.Mechanism
		want   []string // the SASL nodes' values, in order
	}{
		{"PLAIN", plain.Auth{User: user, Pass: pass}.AsMechanism(), []string{"authzid NUL user NUL password"}},
		{"SCRAM-SHA-256", scram.Auth{User: user, Pass: pass}.AsSha256Mechanism(), []string{"client-first-message", "server-first-message", "client-final-message", "server-final-message"}},
		{"SCRAM-SHA-512", scram.Auth{User: user, Pass: pass}.AsSha512Mechanism(), []string{"client-first-message", "server-first-message", "client-final-message", "server-final-message"}},
	} {
		t.Run(c.method, func(t *testing.T) {
			cluster, err := kfake.NewCluster(kfake.NumBrokers(1), kfake.EnableSASL(), kfake.Superuser(c.method, user, pass))
			if err != nil {
				t.Fatal(err)
			}
			defer cluster.Close()
			capt := &wiretest.Recorder{}
			cl, err := kgo.NewClient(kgo.SeedBrokers(cluster.ListenAddrs()...), kgo.Dialer(capt.Dial), kgo.SASL(c.mech))
			if err != nil {
				t.Fatal(err)
			}
			ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
			defer cancel()
			if err := cl.Ping(ctx); err != nil {
				t.Fatal(err)
			}
			cl.Close()
			sent, recv := capt.Streams()
			var got []string
			for i := range sent {
				corr := map[int32]int16{}
				var frames [][]byte
				for _, b := range wiretest.Frames(sent[i]) {
					if binary.BigEndian.Uint16(b[4:]) == 36 {
						corr[int32(binary.BigEndian.Uint32(b[8:]))] = int16(binary.BigEndian.Uint16(b[6:]))
						frames = append(frames, b)
					}
				}
				resps := wiretest.Frames(recv[i])
				for fi := range frames {
					// Each request, then its response.
					for _, b := range resps {
						id := int32(binary.BigEndian.Uint32(b[4:]))
						if v, ok := corr[id]; ok && id == int32(binary.BigEndian.Uint32(frames[fi][8:])) {
							got = append(got, saslCheck(t, frames[fi], Request, 0, pass)...)
							got = append(got, saslCheck(t, b, Response, v, pass)...)
						}
					}
				}
			}
			if strings.Join(got, ",") != strings.Join(c.want, ",") {
				t.Errorf("SASL messages %q, want %q", got, c.want)
			}
		})
	}
}

// saslCheck decodes a SaslAuthenticate frame and returns its SASL nodes'
// values.
func saslCheck(t *testing.T, b []byte, dir Direction, version int16, pass string) []string {
	t.Helper()
	s := loadSet(t, "4.1")
	o := DecodeOptions{Set: s, Dir: dir}
	if dir == Response {
		o.API, o.Version = s.APIByKey(36), version
	}
	f, fl, err := Decode(b, o)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	if e := treetest.FirstError(fl); e != nil {
		t.Errorf("%s: error node %s: %s", dir, e.Path, e.Err)
	}
	if strings.Contains(treetest.Text(fl), pass) {
		t.Errorf("the password shows:\n%s", treetest.Text(fl))
	}
	jsonRoundTrip(t, f, b)
	var out []string
	for _, n := range treetest.All(fl) {
		if n.Name == saslnodes.Seg {
			out = append(out, n.Value)
		}
	}
	return out
}

// TestOAuthBearerClient decodes the initial response of franz-go's
// OAUTHBEARER client (kfake has no OAUTHBEARER), with an authorization id
// and extensions.
func TestOAuthBearerClient(t *testing.T) {
	enc := base64.RawURLEncoding.EncodeToString
	jwt := enc([]byte(`{"alg":"RS256","kid":"k1"}`)) + "." + enc([]byte(`{"iss":"https://idp","sub":"svc-a"}`)) + ".U0lHTkFUVVJF"
	m := oauth.Auth{Zid: "admin", Token: jwt, Extensions: map[string]string{"traceId": "t-1"}}.AsMechanism()
	_, first, err := m.Authenticate(context.Background(), "broker:9092")
	if err != nil {
		t.Fatal(err)
	}
	b, fl, n := saslDecoded(t, first, Request)
	if sn := treetest.At(fl, n); sn == nil || sn.Type != "OAUTHBEARER" {
		t.Fatalf("%q:\n%s", first, treetest.Text(fl))
	}
	saslAttrIs(t, b, fl, n, "gs2-header", `"n,a=admin,"`, "n,a=admin,")
	saslAttrIs(t, b, fl, n, "traceId", `"t-1"`, "traceId=t-1")
	saslAttrIs(t, b, fl, n, "sub", `"svc-a"`, strings.Split(jwt, ".")[1])
	saslAttrIs(t, b, fl, n, "kid", `"k1"`, strings.Split(jwt, ".")[0])
	if strings.Contains(treetest.Text(fl), "U0lHTkFUVVJF") {
		t.Errorf("the signature shows:\n%s", treetest.Text(fl))
	}
}
