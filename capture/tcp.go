package capture

import (
	"slices"
	"time"
)

// maxPending bounds the out-of-order bytes one direction holds while it
// waits for a missing segment; past it the missing bytes count as lost.
const maxPending = 4 << 20

// sink receives one direction's byte stream in order: bytes, and gaps
// (bytes the capture lacks).
type sink interface {
	data(b []byte, t time.Time)
	gap(n int, t time.Time)
}

type pendingSeg struct {
	seq  uint32
	data []byte
	miss int // bytes the snaplen cut after data
	t    time.Time
}

// half reassembles one direction of a TCP connection: segments out of
// order wait until the bytes before them come (or are known lost: the
// other side acknowledged them, the wait grew past maxPending, the
// connection ended); retransmitted and overlapping bytes are delivered
// once.
type half struct {
	out     sink
	started bool
	next    uint32 // sequence number of the next byte to deliver
	pending []pendingSeg
	pbytes  int
}

// syn starts the stream at the byte after a SYN.
func (h *half) syn(seq uint32) {
	if !h.started {
		h.started, h.next = true, seq+1
	}
}

// segment takes one segment's payload (and the bytes the snaplen cut after
// it).
func (h *half) segment(seq uint32, data []byte, miss int, t time.Time) {
	if len(data)+miss == 0 {
		return
	}
	if !h.started {
		h.started, h.next = true, seq
	}
	d := int32(seq - h.next)
	if d > 0 {
		h.hold(seq, data, miss, t)
		if h.pbytes > maxPending {
			h.skipToPending(t)
		}
		return
	}
	h.deliver(seq, data, miss, t)
	h.drain()
}

// deliver hands on the part of a segment at or after next.
func (h *half) deliver(seq uint32, data []byte, miss int, t time.Time) {
	skip := int(h.next - seq) // bytes already delivered
	if skip >= len(data)+miss {
		return // a retransmission
	}
	if skip < len(data) {
		h.out.data(data[skip:], t)
		h.next += uint32(len(data) - skip)
		skip = 0
	} else {
		skip -= len(data)
	}
	if m := miss - skip; m > 0 {
		h.out.gap(m, t)
		h.next += uint32(m)
	}
}

func (h *half) hold(seq uint32, data []byte, miss int, t time.Time) {
	i, _ := slices.BinarySearchFunc(h.pending, seq, func(p pendingSeg, s uint32) int { return int(int32(p.seq - s)) })
	h.pending = slices.Insert(h.pending, i, pendingSeg{seq, append([]byte(nil), data...), miss, t})
	h.pbytes += len(data)
}

// drain delivers the held segments that now follow on.
func (h *half) drain() {
	for len(h.pending) > 0 && int32(h.pending[0].seq-h.next) <= 0 {
		p := h.pending[0]
		h.pending = h.pending[1:]
		h.pbytes -= len(p.data)
		h.deliver(p.seq, p.data, p.miss, p.t)
	}
	if len(h.pending) == 0 {
		h.pending = nil
	}
}

// skipToPending declares the bytes before the first held segment lost.
func (h *half) skipToPending(t time.Time) {
	if len(h.pending) == 0 {
		return
	}
	if n := int32(h.pending[0].seq - h.next); n > 0 {
		h.out.gap(int(n), t)
		h.next = h.pending[0].seq
	}
	h.drain()
}

// acked: the other side acknowledged every byte before ack, so bytes
// before it that the capture lacks are lost, not late.
func (h *half) acked(ack uint32, t time.Time) {
	for len(h.pending) > 0 && int32(ack-h.pending[0].seq) >= 0 {
		h.skipToPending(t)
	}
}

// flush ends the stream: held segments are delivered after their gaps.
func (h *half) flush(t time.Time) {
	for len(h.pending) > 0 {
		h.skipToPending(t)
	}
}
