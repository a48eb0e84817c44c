package codec

import (
	"errors"
	"strings"
	"testing"

	"kwire/codec/wire"
)

// TestTLSRecordFrame: a TLS record where a frame should start (an alert a
// TLS listener sends a client in the clear, a ClientHello a broker in the
// clear receives) is said to be one, at offset 0, in the tree and the
// error, whichever way the bytes are read.
func TestTLSRecordFrame(t *testing.T) {
	set := loadSet(t, "trunk")
	for _, c := range []struct {
		name string
		b    []byte
		o    DecodeOptions
		want string
	}{
		{"alert, as a response", []byte{0x15, 3, 3, 0, 2, 2, 40}, DecodeOptions{Set: set, API: set.APIByKey(18), Version: 3, Dir: Response},
			"a TLS 1.2 alert record: fatal handshake_failure (40); one side speaks TLS and the other does not"},
		{"alert, four bytes", []byte{0x15, 3, 3, 0}, DecodeOptions{Set: set, Dir: Request}, "a TLS 1.2 alert record;"},
		{"ClientHello, as a request", []byte{0x16, 3, 1, 0, 0xf4, 1, 0, 0, 0xf0, 3, 3}, DecodeOptions{Set: set, Dir: Request},
			"a TLS 1.0 handshake record: ClientHello;"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, fl, err := Decode(c.b, c.o)
			var de *wire.DecodeError
			if !errors.Is(err, wire.ErrTLS) || !errors.As(err, &de) || de.Offset != 0 || !strings.Contains(err.Error(), c.want) {
				t.Fatalf("err = %v, want ErrTLS at 0 saying %q", err, c.want)
			}
			e, off := fl.FirstError(0)
			if e < 0 || off != 0 || !strings.Contains(fl.Node(e, nil).Line(), c.want) {
				t.Errorf("first error node %d at %d", e, off)
			}
		})
	}
}
