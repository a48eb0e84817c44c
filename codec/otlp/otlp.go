// Package otlp shows the OpenTelemetry metrics (MetricsData, OTLP
// protobuf) that a PushTelemetry request carries (KIP-714) as tree nodes.
// The same decoder (decode.go) runs on the command line and in the
// browser app, on a protobuf wire reader of its own (pbwire.go).
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
