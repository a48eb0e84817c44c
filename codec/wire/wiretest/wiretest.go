// Package wiretest records what Kafka clients send and receive, for tests
// that use real clients (franz-go's kgo against kfake) as a source of
// frames: a dialer that keeps each connection's reads and writes in the
// order they happened, and the split of a byte stream into size-delimited
// frames.
package wiretest

import (
	"context"
	"encoding/binary"
	"net"
	"sync"
	"time"
)

// Chunk is the bytes of one read or write on a recorded connection.
type Chunk struct {
	Conn       int // 0-based connection number
	FromClient bool
	Time       time.Time
	Data       []byte
}

// Recorder records every connection its Dial opens, in the order the
// bytes went (a write is recorded before it is sent, a read after it is
// received, so that a response never comes before its request).
type Recorder struct {
	mu     sync.Mutex
	Chunks []Chunk
	n      int
}

// Dial is a kgo.Dialer.
func (r *Recorder) Dial(ctx context.Context, network, host string) (net.Conn, error) {
	var d net.Dialer
	c, err := d.DialContext(ctx, network, host)
	if err != nil {
		return nil, err
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	return &recConn{Conn: c, r: r, id: r.n - 1}, nil
}

// Wrap records a connection opened otherwise (the plaintext of a
// tls.Conn), as Dial does.
func (r *Recorder) Wrap(c net.Conn) net.Conn {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.n++
	return &recConn{Conn: c, r: r, id: r.n - 1}
}

func (r *Recorder) add(id int, fromClient bool, b []byte) {
	if len(b) == 0 {
		return
	}
	r.mu.Lock()
	r.Chunks = append(r.Chunks, Chunk{id, fromClient, time.Now(), append([]byte(nil), b...)})
	r.mu.Unlock()
}

// Streams returns each connection's bytes, client's and broker's.
func (r *Recorder) Streams() (client, broker [][]byte) {
	r.mu.Lock()
	defer r.mu.Unlock()
	client, broker = make([][]byte, r.n), make([][]byte, r.n)
	for _, c := range r.Chunks {
		if c.FromClient {
			client[c.Conn] = append(client[c.Conn], c.Data...)
		} else {
			broker[c.Conn] = append(broker[c.Conn], c.Data...)
		}
	}
	return client, broker
}

// Conns is the number of connections recorded.
func (r *Recorder) Conns() int {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.n
}

type recConn struct {
	net.Conn
	r  *Recorder
	id int
}

func (c *recConn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.r.add(c.id, false, p[:n])
	return n, err
}

func (c *recConn) Write(p []byte) (int, error) {
	c.r.add(c.id, true, p)
	return c.Conn.Write(p)
}

// Frames splits a stream of size-delimited frames; a last, incomplete one
// (the client may have closed mid-read) is left out.
func Frames(b []byte) [][]byte {
	var out [][]byte
	for len(b) >= 4 {
		n := int(binary.BigEndian.Uint32(b))
		if n < 0 || len(b)-4 < n {
			break
		}
		out = append(out, b[:4+n])
		b = b[4+n:]
	}
	return out
}
