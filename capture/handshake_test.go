package capture

import "testing"

func TestHandshakeMechanism(t *testing.T) {
	frame := func(clientID, mech string) []byte {
		b := []byte{0, 0, 0, 0, 0, 17, 0, 1, 0, 0, 0, 7, 0, byte(len(clientID))}
		b = append(b, clientID...)
		b = append(b, 0, byte(len(mech)))
		return append(b, mech...)
	}
	for _, c := range []struct {
		b    []byte
		want string
	}{
		{frame("kgo", "SCRAM-SHA-512"), "SCRAM-SHA-512"},
		{frame("", "PLAIN"), "PLAIN"},
		{frame("kgo", "PL AIN"), ""},
		{frame("kgo", "PLAIN")[:20], ""},
		{frame("kgo", ""), ""},
		{[]byte{0, 0, 0, 0, 0, 17, 0, 1, 0, 0, 0, 7, 0x7f, 0xff}, ""},
		{[]byte{0, 0, 0, 0, 0, 17, 0, 1, 0, 0, 0, 7, 0xff, 0xff, 0, 2, 'a'}, ""},
		{nil, ""},
	} {
		if got := handshakeMechanism(c.b); got != c.want {
			t.Errorf("%x: %q, want %q", c.b, got, c.want)
		}
	}
}
