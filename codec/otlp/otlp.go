// Package otlp shows the OpenTelemetry metrics (MetricsData, OTLP
// protobuf) that a PushTelemetry request carries (KIP-714) as rows of the
// codec's tree.Flat (tree.Flat.Row, in preorder).
// The same decoder (decode.go) runs on the command line and in the
// browser app, on a protobuf wire reader of its own (pbwire.go).
//
// OTLP MetricsData (opentelemetry-proto's metrics.proto and common.proto,
// field numbers written by hand) as rows under Metrics.MetricsData, on
// the command line and in the explorer. Read with a protobuf wire reader of
// its own (pbwire.go: protowire's results, codes and texts, compared with
// protowire on every input of FuzzPBWire; protowire's errors would bring fmt
// into the browser app), which checks every length against the bytes before
// it is used; nothing is allocated from a length. A table of messages
// (arrays indexed by field number: static data, not maps built at start)
// drives one reader; unknown fields are a node with their number and wire
// type, a wrong wire type or a bad tag an error node where it starts,
// nesting stops at 32 (AnyValue nests without end) with a note, and nodes
// are charged to the message's budget. About 12 KB gzip of the browser app,
// compiled without inlining (scripts/build-wasm.sh).
package otlp

import (
	"kwire/codec/records"
	"kwire/tree"
)

// Seg is the path segment of the decoded metrics below the Metrics field.
const Seg = "MetricsData"

// Options place the nodes Decode adds.
type Options struct {
	Base     int          // offset of b[0]
	Relative bool         // offsets count from the start of a decompressed stream
	Section  tree.Section // colour of the nodes' bytes
	Path     string       // path of the node decoded into
	// Budget is the message's: the nodes added are charged to it (nil: a
	// fresh default one).
	Budget *records.Budget
}
