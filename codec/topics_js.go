//go:build js

package codec

import (
	"kwire/codec/records"
	"kwire/schemas"
	"kwire/tree"
)

// The browser app decodes no internal topic's records: their decoders
// (topics_native.go) cost 14 KB gzip, past the size budget. Their keys and
// values stay bytes, and the records field says so; the JSON form keeps
// them as text or hex. `kwire decode` shows them.

func recordDecoder(*schemas.Set, TopicFormat) records.RecordFunc { return nil }

// internalNote says on the node of a records field of an internal topic
// that its keys and values are not decoded here.
func internalNote(a *tree.Alloc, node *tree.Node, f TopicFormat) {
	if f > TopicPlain && int(f) < len(topicFormats) {
		node.Detail = a.Concat(node.Detail, " ", "records of "+topicFormats[f].topic+": their keys and values are decoded by `kwire decode`, not in the browser (size budget)")
	}
}

// Add adds nothing in the browser app, which does not decode the records
// that topic ids name (see topics_native.go).
func (t *TopicNames) Add(*Plan, Value) int { return 0 }

// With is t in the browser app (see Add).
func (t *TopicNames) With(*Plan, Value) *TopicNames { return t }

func (c *jctx) records([]byte, Value) ([]byte, bool) { return nil, false }

func recordsFromJSON(any, string, *schemas.Set) (Value, bool, error) { return Value{}, false, nil }
