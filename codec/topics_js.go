//go:build js

package codec

import (
	"kwire/codec/records"
	"kwire/schemas"
	"kwire/tree"
)

// recordDecoder leaves an internal topic's keys and values as bytes in the
// browser app, with a note: their decoders (topics_native.go) would not fit
// its size budget. `kwire decode` shows them.
func recordDecoder(_ *schemas.Set, f TopicFormat) records.RecordFunc {
	note := "a " + topicFormats[f].topic + " record: decoded by `kwire decode`, not in the browser (size budget)"
	return func(_, value records.Part) []*tree.Node {
		if value.Node.Detail == "" {
			value.Node.Detail = note
		} else {
			value.Node.Detail += " " + note
		}
		return nil
	}
}

// recordJSON leaves an internal topic's keys and values as text or hex in
// the browser app's JSON form (an object written elsewhere is refused).
func recordJSON(*schemas.Set, TopicFormat) *records.RecordJSON { return nil }
