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
	"kwire/tree"
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
	f, root, err := Decode(b, o)
	if err != nil {
		t.Fatalf("%s: %v", dir, err)
	}
	if e, _ := root.FirstError(); e != nil {
		t.Errorf("%s: error node %s: %s", dir, e.Path, e.Err)
	}
	if strings.Contains(root.Text(), pass) {
		t.Errorf("the password shows:\n%s", root.Text())
	}
	jsonRoundTrip(t, f, b)
	var out []string
	root.Walk(func(n *tree.Node, _ int) bool {
		if n.Name == saslnodes.Seg {
			out = append(out, n.Value)
		}
		return true
	})
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
	b, root, n := saslDecoded(t, first, Request)
	if n == nil || n.Type != "OAUTHBEARER" {
		t.Fatalf("%q:\n%s", first, root.Text())
	}
	saslAttrIs(t, b, n, "gs2-header", `"n,a=admin,"`, "n,a=admin,")
	saslAttrIs(t, b, n, "traceId", `"t-1"`, "traceId=t-1")
	saslAttrIs(t, b, n, "sub", `"svc-a"`, strings.Split(jwt, ".")[1])
	saslAttrIs(t, b, n, "kid", `"k1"`, strings.Split(jwt, ".")[0])
	if strings.Contains(root.Text(), "U0lHTkFUVVJF") {
		t.Errorf("the signature shows:\n%s", root.Text())
	}
}
