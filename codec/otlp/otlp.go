// Package otlp shows the OpenTelemetry metrics (MetricsData, OTLP
// protobuf) that a PushTelemetry request carries (KIP-714) as tree nodes.
// The decoder is built into the command line only (otlp_native.go); the
// browser app leaves the bytes as bytes.
package otlp

import "kwire/tree"

// Seg is the path segment of the decoded metrics below the Metrics field.
const Seg = "MetricsData"

// Options place the nodes Decode adds.
type Options struct {
	Base     int          // offset of b[0]
	Relative bool         // offsets count from the start of a decompressed stream
	Section  tree.Section // colour of the nodes' bytes
	Path     string       // path of the node decoded into
	// NodesLeft and TakeNodes share the message's budget of nodes; nil
	// for no limit beyond the package's own.
	NodesLeft func() int
	TakeNodes func(int)
}
