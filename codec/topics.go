package codec

import (
	"kwire/internal/xfmt"
	"strconv"
	"strings"

	"kwire/codec/records"
	"kwire/schemas"
)

// The records of Kafka's internal topics carry formats of their own in
// their keys and values, decoded as children of the key and value nodes
// (offsets in the outer frame) when the topic is known: by name (Produce,
// Fetch, FetchSnapshot name it in older versions), by topic id through
// TopicNames (filled from Metadata responses seen earlier), or by the
// user's choice (TreeOptions.TopicFormat).
//
//   - __consumer_offsets, __transaction_state, __share_group_state: the
//     group, transaction and share coordinators' records. A key is an
//     int16 record type and the key schema whose apiKey is that type
//     (coordinator/*Key.json; in 3.9 and older, whose version is that
//     type, read at that version); a value is an int16 version and the
//     matching value schema at that version; a null value is a tombstone.
//   - __cluster_metadata: KRaft's metadata records. A value is an unsigned
//     varint frame version (1), an unsigned varint API key (the apiKey of
//     metadata/*.json), an unsigned varint version, then the record at
//     that version. The KRaft control records of its control batches are
//     read by ControlDecoder, as in any control batch.
//
// The schemas are those of the frame's release. Failures are error nodes
// inside the key or value; the records around them are decoded as usual.

// TopicFormat is what the keys and values of a topic's records carry.
type TopicFormat uint8

const (
	TopicAuto             TopicFormat = iota // by the topic's name, if known
	TopicPlain                               // opaque bytes, whatever the topic
	TopicConsumerOffsets                     // __consumer_offsets
	TopicTransactionState                    // __transaction_state
	TopicShareGroupState                     // __share_group_state
	TopicClusterMetadata                     // __cluster_metadata
)

// topicUnnamed is the format of records whose topic is given by an id
// that no response named: a coordinator's records are recognised by their
// keys and values decoding exactly as one (topics_decode.go's guess).
const topicUnnamed = TopicClusterMetadata + 1

var topicFormats = [...]struct{ name, topic string }{
	TopicAuto:             {"auto", ""},
	TopicPlain:            {"plain", ""},
	TopicConsumerOffsets:  {"consumer-offsets", "__consumer_offsets"},
	TopicTransactionState: {"transaction-state", "__transaction_state"},
	TopicShareGroupState:  {"share-group-state", "__share_group_state"},
	TopicClusterMetadata:  {"cluster-metadata", "__cluster_metadata"},
}

// String is the format's name, as ParseTopicFormat reads it.
func (f TopicFormat) String() string {
	if int(f) < len(topicFormats) {
		return topicFormats[f].name
	}
	return "TopicFormat(" + strconv.Itoa(int(f)) + ")"
}

// TopicFormatNames lists the names ParseTopicFormat reads.
func TopicFormatNames() []string {
	names := make([]string, len(topicFormats))
	for i, f := range topicFormats {
		names[i] = f.name
	}
	return names
}

// ParseTopicFormat reads a format's name ("consumer-offsets", ...) or
// its topic's ("__consumer_offsets", ...).
func ParseTopicFormat(s string) (TopicFormat, error) {
	for i, f := range topicFormats {
		if s == f.name || s == f.topic && s != "" {
			return TopicFormat(i), nil
		}
	}
	return TopicAuto, xfmt.Errorf("unknown topic format %q (one of %s)", s, strings.Join(TopicFormatNames(), ", "))
}

// FormatOfTopic is the format of the records of the topic named name:
// one of the internal topics', or TopicPlain.
func FormatOfTopic(name string) TopicFormat {
	for i, f := range topicFormats {
		if f.topic != "" && f.topic == name {
			return TopicFormat(i)
		}
	}
	return TopicPlain
}

// TopicNames maps topic ids to topic names, for the records of requests
// and responses that name their topic by id (Produce v13+, Fetch v13+,
// ShareFetch): Add fills it from responses that give both. A pointer to
// it keeps DecodeOptions comparable; nil knows no ids. It is not safe for
// concurrent use.
type TopicNames struct {
	byID map[string]string // the 16 bytes of the uuid → name
}

// NewTopicNames returns an empty map of topic ids to names.
func NewTopicNames() *TopicNames { return &TopicNames{byID: map[string]string{}} }

// Name is the name of the topic whose id is the 16 bytes of id.
func (t *TopicNames) Name(id string) (string, bool) {
	if t == nil {
		return "", false
	}
	n, ok := t.byID[id]
	return n, ok
}

// Len is how many ids t names.
func (t *TopicNames) Len() int {
	if t == nil {
		return 0
	}
	return len(t.byID)
}

// topicField says which field names the topic of the records that follow
// in its struct's partitions: the messages that carry records.
func topicField(msg, field string) uint8 {
	switch msg {
	case "ProduceRequest", "FetchResponse", "FetchSnapshotRequest", "FetchSnapshotResponse", "ShareFetchResponse":
		switch field {
		case "Name", "Topic":
			return topicByName
		case "TopicId":
			return topicByID
		}
	}
	return 0
}

const (
	topicByName = 1
	topicByID   = 2
)

// topicCtx is how the topic of records is known: the user's choice
// (TopicFormat) and the ids named before (TopicNames).
type topicCtx struct {
	format TopicFormat
	names  *TopicNames
}

// format is the format of the records of the topic named topic or with
// id topicID: the user's choice, else the topic's.
func (t topicCtx) of(topic, topicID string) TopicFormat {
	if t.format != TopicAuto {
		return t.format
	}
	if topic == "" && topicID != "" {
		var named bool
		if topic, named = t.names.Name(topicID); !named {
			return topicUnnamed
		}
	}
	return FormatOfTopic(topic)
}

// recordFormat is the format of the records field about to be read.
func (d *decoder) recordFormat() TopicFormat {
	return d.topics.of(d.topic, d.topicID)
}

// RecordDecoder returns the records.RecordFunc that decodes the keys and
// values of records of format f with the schemas of set, or nil when f has
// nothing to decode.
func RecordDecoder(set *schemas.Set, f TopicFormat) records.RecordFunc {
	if set == nil || f == TopicAuto || f == TopicPlain || f > topicUnnamed {
		return nil
	}
	return recordDecoder(set, f)
}
