// Package traffic records what Kafka clients send and receive, for tests
// that use real clients (franz-go's kgo against kfake) as a source of
// frames: a dialer that keeps each connection's bytes, and the split of a
// byte stream into size-delimited frames.
package traffic

import (
	"bytes"
	"context"
	"encoding/binary"
	"net"
	"sync"
)

// Conn is one recorded connection: the bytes the client wrote (Out) and
// read (In).
type Conn struct {
	net.Conn
	mu      sync.Mutex
	out, in bytes.Buffer
}

func (c *Conn) Read(p []byte) (int, error) {
	n, err := c.Conn.Read(p)
	c.mu.Lock()
	c.in.Write(p[:n])
	c.mu.Unlock()
	return n, err
}

func (c *Conn) Write(p []byte) (int, error) {
	n, err := c.Conn.Write(p)
	c.mu.Lock()
	c.out.Write(p[:n])
	c.mu.Unlock()
	return n, err
}

// Out is what the client wrote: its requests.
func (c *Conn) Out() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Clone(c.out.Bytes())
}

// In is what the client read: the responses.
func (c *Conn) In() []byte {
	c.mu.Lock()
	defer c.mu.Unlock()
	return bytes.Clone(c.in.Bytes())
}

// Recorder is a dialer (kgo.Dialer(r.Dial)) that records every
// connection it makes.
type Recorder struct {
	mu    sync.Mutex
	conns []*Conn
}

// Dial connects and records the connection.
func (r *Recorder) Dial(ctx context.Context, network, host string) (net.Conn, error) {
	var d net.Dialer
	conn, err := d.DialContext(ctx, network, host)
	if err != nil {
		return nil, err
	}
	c := &Conn{Conn: conn}
	r.mu.Lock()
	r.conns = append(r.conns, c)
	r.mu.Unlock()
	return c, nil
}

// Conns are the connections made so far, in order.
func (r *Recorder) Conns() []*Conn {
	r.mu.Lock()
	defer r.mu.Unlock()
	return append([]*Conn(nil), r.conns...)
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
