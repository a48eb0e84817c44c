package tlsdec

import (
	"bytes"
	"testing"
)

func FuzzKeyLog(f *testing.F) {
	f.Add([]byte("# comment\nCLIENT_RANDOM " + string(bytes.Repeat([]byte("ab"), 32)) + " " + string(bytes.Repeat([]byte("cd"), 48)) + "\n"))
	f.Add([]byte("SERVER_HANDSHAKE_TRAFFIC_SECRET 00 11\r\nCLIENT_TRAFFIC_SECRET_0 zz zz\n"))
	f.Fuzz(func(t *testing.T, b []byte) {
		k, err := ParseKeyLog(b)
		if err != nil {
			if _, ok := err.(*LineError); !ok {
				t.Fatalf("%T: %v", err, err)
			}
			if bytes.Contains([]byte(err.Error()), bytes.Repeat([]byte("cd"), 8)) {
				t.Fatalf("an error holds the secret: %v", err)
			}
		}
		if k.Len() > len(b)/64+1 {
			t.Fatalf("%d client randoms from %d bytes", k.Len(), len(b))
		}
	})
}

// FuzzRecords feeds bytes to both directions of a Conn, split at a
// point, with a key log that has keys for every client random it sees.
func FuzzRecords(f *testing.F) {
	hello := []byte{22, 3, 1, 0, 45, 1, 0, 0, 41, 3, 3}
	hello = append(hello, make([]byte, 32)...)
	hello = append(hello, 0, 0, 2, 0x13, 0x01, 1, 0)
	sh := []byte{22, 3, 3, 0, 52, 2, 0, 0, 48, 3, 3}
	sh = append(sh, make([]byte, 32)...)
	sh = append(sh, 0, 0x13, 0x01, 0, 0, 6, 0, 0x2b, 0, 2, 3, 4)
	f.Add(hello, append(sh, 23, 3, 3, 0, 20, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15, 16, 17, 18, 19, 20), uint8(3))
	f.Add([]byte{22, 3, 3, 0, 4, 1, 0, 0, 0}, []byte{23, 3, 3, 0xff, 0xff}, uint8(1))
	// TLS 1.2 with a CBC suite and with AES-GCM: a ServerHello, a
	// ChangeCipherSpec and a record from each side.
	for _, suite := range []byte{0x13, 0x2f} {
		sh12 := []byte{22, 3, 3, 0, 42, 2, 0, 0, 38, 3, 3}
		sh12 = append(sh12, make([]byte, 32)...)
		sh12 = append(sh12, 0, 0xc0, suite, 0)
		rec := append([]byte{20, 3, 3, 0, 1, 1, 22, 3, 3, 0, 48}, make([]byte, 48)...)
		f.Add(append(hello, rec...), append(sh12, rec...), uint8(len(hello)))
	}
	f.Fuzz(func(t *testing.T, client, server []byte, cut uint8) {
		keys := NewKeyLog()
		sec := &secrets{}
		for l := range sec {
			sec[l] = bytes.Repeat([]byte{byte(l)}, 32)
		}
		sec[labelMaster] = bytes.Repeat([]byte{1}, 48)
		keys.m[[32]byte{}] = sec
		c := NewConn(keys, nil)
		c.Out = func(int, []byte) {}
		c.OnStatus = func(Status) {}
		i := min(int(cut), len(client))
		c.Data(Client, client[:i], 1)
		c.Data(Server, server, 2)
		c.Data(Client, client[i:], 3)
		c.Gap(Server, 10, 4)
		c.Close()
		for d := range c.d {
			if len(c.d[d].buf) > len(client)+len(server) || len(c.d[d].hs) > len(client)+len(server) {
				t.Fatal("a buffer grew past the input")
			}
		}
	})
}
