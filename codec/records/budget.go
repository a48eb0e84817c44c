package records

import (
	"errors"
	"strconv"

	"kwire/codec/wire"
	"kwire/internal/xfmt"
)

// Limits bound what one decode of a message spends on its records fields,
// all of them together: a Produce request of thirty partitions gets the
// same budget as one of a single partition. A zero field takes its
// default. The defaults keep the decode of any frame of up to 1 MB within
// about 256 MB of memory, as a tree or as JSON; past them the tree and the
// JSON say what was left out and how to raise the limit.
type Limits struct {
	// MaxDecompressed bounds the bytes decompressed, over every
	// compressed batch and message of the message.
	MaxDecompressed int
	// MaxRecords bounds the records (and legacy messages) decoded: shown
	// in the tree, or read for the JSON form.
	MaxRecords int
	// MaxNodes bounds the tree nodes of the message (its records and its
	// arrays); zero is ten per record of MaxRecords and 10,000 more for
	// the rest.
	MaxNodes int
}

// Defaults of Limits.
const (
	DefaultMaxDecompressed = 16 << 20
	DefaultMaxRecords      = 40_000
	nodesPerRecord         = 10
	nodesBesideRecords     = 10_000
)

// withDefaults fills the zero fields.
func (l Limits) withDefaults() Limits {
	if l.MaxDecompressed <= 0 {
		l.MaxDecompressed = DefaultMaxDecompressed
	}
	if l.MaxRecords <= 0 {
		l.MaxRecords = DefaultMaxRecords
	}
	if l.MaxNodes <= 0 {
		l.MaxNodes = nodesPerRecord*l.MaxRecords + nodesBesideRecords
	}
	return l
}

// Budget is what is left of a message's Limits during one decode. Every
// records field of the message, and the message sets nested in them, draw
// from the one Budget; it is charged as bytes are decompressed and records
// and nodes are made, and checked before anything is allocated for them.
// A nil *Budget stands for a fresh one with the default limits.
type Budget struct {
	l                           Limits
	decompressed, records, node int // spent so far
	// Hit is set once something was left out because the budget was
	// spent: what was left out and how to raise the limit.
	Hit string
	// Unread counts the entries AppendJSON wrote as they were read, in
	// rawHex with a note (they did not read, or would not encode back),
	// or with their wrong CRC ("crc"): what the tree shows as errors.
	Unread int
}

// NewBudget returns a budget of l (zero fields at their defaults).
func NewBudget(l Limits) *Budget { return &Budget{l: l.withDefaults()} }

// orNew returns b, or a fresh default budget when b is nil.
func (b *Budget) orNew() *Budget {
	if b == nil {
		return NewBudget(Limits{})
	}
	return b
}

// Limits returns the budget's limits, defaults filled in.
func (b *Budget) Limits() Limits { return b.l }

// Spent returns what the decode has used so far.
func (b *Budget) Spent() (decompressed, records, nodes int) {
	return b.decompressed, b.records, b.node
}

func (b *Budget) bytesLeft() int   { return max(b.l.MaxDecompressed-b.decompressed, 0) }
func (b *Budget) recordsLeft() int { return max(b.l.MaxRecords-b.records, 0) }

// NodesLeft returns the tree nodes left.
func (b *Budget) NodesLeft() int { return max(b.l.MaxNodes-b.node, 0) }

// spent reports whether records or nodes are spent: nothing more is shown.
func (b *Budget) spent() bool { return b.recordsLeft() == 0 || b.NodesLeft() == 0 }

// hit records, once, why something was left out, and returns msg.
func (b *Budget) hit(msg string) string {
	if b.Hit == "" {
		b.Hit = msg
	}
	return msg
}

// decompressError says that c's output would take the message past its
// decompression budget.
func (b *Budget) decompressError(c Codec) error {
	return wire.Mark(wire.ErrBudget, xfmt.Errorf("%w: the %s output would take the message past its decompression budget of %s "+
		"(%s already decompressed in it; kwire decode --max-decompressed raises it)",
		ErrLimit, c, byteCount(b.l.MaxDecompressed), byteCount(b.decompressed)))
}

// TakeNodes charges n tree nodes made outside the records fields (the
// message's own arrays share the budget of nodes).
func (b *Budget) TakeNodes(n int) { b.node += n }

// LeftOut says that what follows is left out because records or nodes
// are spent, and how to raise the limit; what names it ("37 more
// records (259 bytes)"). It is a case of wire.ErrBudget.
func (b *Budget) LeftOut(what string) error {
	if b.NodesLeft() == 0 {
		return wire.Mark(wire.ErrBudget, errors.New(b.hit(what+" left out: the message's budget of "+strconv.Itoa(b.l.MaxNodes)+
			" tree nodes is spent (kwire decode --max-records raises it)")))
	}
	return wire.Mark(wire.ErrBudget, errors.New(b.hit(what+" left out: the message's budget of "+strconv.Itoa(b.l.MaxRecords)+
		" records is spent (kwire decode --max-records raises it)")))
}

// byteCount writes a size in bytes, with MiB when it is large.
func byteCount(n int) string {
	if n >= 1<<20 && n%(1<<20) == 0 {
		return strconv.Itoa(n>>20) + " MiB"
	}
	return plural(n, "byte")
}
