package capture

import (
	"sort"
	"time"
)

// maxPending bounds the out-of-order bytes one direction holds while it
// waits for a missing segment; past it the missing bytes count as lost.
const maxPending = 4 << 20

// sink receives one direction's byte stream in order: bytes, and gaps
// (bytes the capture lacks).
type sink interface {
	data(b []byte, t time.Time)
	gap(n int, t time.Time, why string) // why: "" for bytes the capture lost
}

type pendingSeg struct {
	seq  uint32
	data []byte
	miss int    // bytes the snaplen cut after data
	why  string // what cut them
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
	ack     uint32 // the largest acknowledgement the other side sent
	acks    bool   // ack is set
	fin     uint32 // the sequence number of a FIN
	fins    bool   // fin is set
}

// finAt notes a FIN at seq (the byte after the last): its sequence
// number is acknowledged, but carries no byte.
func (h *half) finAt(seq uint32) {
	h.fin, h.fins = seq, true
}

// syn starts the stream at the byte after a SYN.
func (h *half) syn(seq uint32) {
	if !h.started {
		h.started, h.next = true, seq+1
	}
}

// segment takes one segment's payload (and the bytes the snaplen cut after
// it, and why).
func (h *half) segment(seq uint32, data []byte, miss int, why string, t time.Time) {
	if len(data)+miss == 0 {
		return
	}
	if !h.started {
		h.started, h.next = true, seq
	}
	if d := int32(seq - h.next); d > 0 {
		h.hold(pendingSeg{seq, append([]byte(nil), data...), miss, why, t})
		if h.pbytes > maxPending {
			h.skipToPending(t)
		}
	} else {
		h.deliver(pendingSeg{seq, data, miss, why, t})
		h.drain()
	}
	h.lost(t)
}

// deliver hands on the part of a segment at or after next.
func (h *half) deliver(p pendingSeg) {
	seq, data, miss, t := p.seq, p.data, p.miss, p.t
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
		h.out.gap(m, t, p.why)
		h.next += uint32(m)
	}
}

func (h *half) hold(p pendingSeg) {
	i := sort.Search(len(h.pending), func(i int) bool { return int32(h.pending[i].seq-p.seq) >= 0 })
	h.pending = append(h.pending, pendingSeg{})
	copy(h.pending[i+1:], h.pending[i:])
	h.pending[i] = p
	h.pbytes += len(p.data)
}

// drain delivers the held segments that now follow on.
func (h *half) drain() {
	for len(h.pending) > 0 && int32(h.pending[0].seq-h.next) <= 0 {
		p := h.pending[0]
		h.pending = h.pending[1:]
		h.pbytes -= len(p.data)
		h.deliver(p)
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
		h.out.gap(int(n), t, "")
		h.next = h.pending[0].seq
	}
	h.drain()
}

// acked: the other side acknowledged every byte before ack.
func (h *half) acked(ack uint32) {
	if !h.acks || int32(ack-h.ack) > 0 {
		h.ack, h.acks = ack, true
	}
}

// lost declares lost the bytes the other side acknowledged and the
// capture still lacks: they are lost, not late. It runs after the next
// segment of this direction, or with data from the other side, not on a
// bare acknowledgement, so that a segment captured just after its
// acknowledgement (captures on several queues may order them so) still
// comes in time.
func (h *half) lost(t time.Time) {
	if !h.acks || !h.started {
		return
	}
	for len(h.pending) > 0 && int32(h.ack-h.pending[0].seq) >= 0 {
		h.skipToPending(t)
	}
	end := h.ack // the bytes before it were read
	if h.fins && int32(end-h.fin) > 0 {
		end = h.fin
	}
	if n := int32(end - h.next); n > 0 && n <= maxPending {
		h.out.gap(int(n), t, "")
		h.next = end
		h.drain()
	}
}

// flush ends the stream: held segments are delivered after their gaps.
func (h *half) flush(t time.Time) {
	for len(h.pending) > 0 {
		h.skipToPending(t)
	}
}
