package records

import (
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf16"
	"unicode/utf8"

	"kwire/internal/textesc"
	"kwire/internal/xfmt"
	"kwire/internal/xhex"
	"kwire/jsonv"
)

// The JSON form of a records field is a list with one object per batch
// (and per legacy message):
//
//	[{"baseOffset": 0, "partitionLeaderEpoch": -1, "magic": 2,
//	  "compression": "gzip", "timestampType": "CreateTime",
//	  "transactional": false, "control": false,
//	  "baseTimestamp": 1700000000000,
//	  "producerId": -1, "producerEpoch": -1, "baseSequence": -1,
//	  "records": [
//	    {"key": "user-1", "value": "hello", "headers": [{"key": "h", "value": "v"}]},
//	    {"offsetDelta": 5, "timestampDelta": 12, "key": null, "valueHex": "00ff"}]}]
//
// Keys, values and header keys and values are written as a JSON string
// when they are text (valid UTF-8 without control characters other than
// tab, newline and carriage return) and under the same name plus "Hex"
// otherwise: "key": "abc" and "keyHex": "00ff" say which. null is null.
//
// What encoding computes is left out when it matches: a record's
// offsetDelta (its index), timestampDelta and attributes (0), headers
// (none), a batch's lastOffsetDelta (the last record's offsetDelta),
// maxTimestamp (the largest record timestamp), deleteHorizon (false),
// attribute bits Kafka does not define ("otherAttributes", 0) and the CRC
// ("crc", written only when the bytes carry a wrong one, to keep it). The
// batch length, record lengths and count are always computed. Written by
// hand, a batch may leave out anything: producerId, producerEpoch,
// baseSequence and partitionLeaderEpoch default to -1 as producers write
// them, the rest to 0, "none", "CreateTime" and false.
//
// A legacy message (magic 0 or 1) is {"offset", "magic", "compression",
// "timestampType" and "timestamp" (magic 1), "key", "value"}; a
// compressed one holds its inner messages in "messages" instead of a
// value.
//
// A compressed batch or message also holds its compressed bytes as read,
// "compressedHex": encoding writes them back while they decompress to the
// records (or messages) of the JSON, and compresses anew once these
// change, so that an unchanged batch keeps the producer's bytes.
//
// The form is lossless: an uncompressed entry is written this way only
// when it encodes back to the same bytes, a compressed one when it
// decompresses to the same bytes. An entry that is not (a partial batch at
// the end of a Fetch response, a corrupt record), that the message's budget
// leaves out (Limits), or that this build cannot compress again (a zstd
// batch in the browser app), is {"rawHex": "...", "note": "why"}, written
// back as is; bytes that hold no readable entry at all are a plain hex
// string.

// JSONError is an error in the JSON form of a records field: the path
// inside the field ("[0].records[2].key") and what is wrong; codec
// prefixes the field's path and places it in the text.
type JSONError = jsonv.Error

// AppendJSON appends the JSON form of the records field b, drawing on
// the message's budget bg (nil: a budget of its own with the default
// limits). An entry past the budget is written as rawHex, with a note
// saying what was left out and how to raise the limit.
func AppendJSON(dst, b []byte, bg *Budget) []byte {
	return AppendJSONWith(dst, b, bg, nil)
}

// RecordJSON writes and reads the keys and values of an internal topic's
// records as JSON objects (codec/topics*.go): Write returns the objects
// of a record's key and value, or nil for either to leave it text or hex
// (it must return an object only when Read encodes it back to the same
// bytes); Read encodes an object read at path.
type RecordJSON struct {
	Write func(key, value []byte) (keyJSON, valueJSON []byte)
	Read  func(obj map[string]any, path string) ([]byte, error)
}

// AppendJSONWith is AppendJSON that writes the keys and values of the
// records of batches that are not control batches with rj, when rj and
// rj.Write are set.
func AppendJSONWith(dst, b []byte, bg *Budget, rj *RecordJSON) []byte {
	if rj != nil && rj.Write == nil {
		rj = nil
	}
	d := newDecoder(Options{Budget: bg})
	// With rj, records are written through it: not from the JSON of the
	// batches seen before (seen.go), which holds a plain topic's.
	d.reuse = rj == nil
	start, unread := len(dst), d.bg.Unread
	dst = append(dst, '[')
	readable := false
	for pos, i := 0, 0; pos < len(b); i++ {
		e, next := d.walkEntry(-1, b, pos, span{}, i)
		if i > 0 {
			dst = append(dst, ',')
		}
		if e.json != nil || d.jsonExact(&e) {
			readable = true
			if e.batch.wrongCRC() {
				d.bg.Unread++
			}
			if rj != nil {
				dst = appendEntryJSON(dst, &e.batch, rj)
			} else {
				dst = appendSeenEntryJSON(dst, &e)
			}
		} else {
			d.bg.Unread++
			dst = appendRawEntryJSON(dst, &e)
		}
		if !e.shared {
			putStream(e.stream) // the entry is written: nothing refers to it
		}
		if next < 0 {
			break
		}
		pos = next
	}
	if !readable && d.bg.Hit == "" { // the entries would not say what was left out
		d.bg.Unread = unread
		dst = append(dst[:start], '"')
		dst = appendHex(dst, b)
		return append(dst, '"')
	}
	return append(dst, ']')
}

// recordsJSON is what AppendJSON made of the records of a batch (exact):
// the JSON of their list, what reading them charged to the budget, and
// what the batch's JSON compares with its header.
type recordsJSON struct {
	count          int32 // the batch's record count, which the list depends on
	streamLen      int
	records, nodes int
	lastDelta      int32
	maxTsDelta     int64
	json           []byte
}

// appendRawEntryJSON writes an entry that is not written as a batch:
// its bytes, and why.
func appendRawEntryJSON(dst []byte, e *parsed) []byte {
	dst = append(dst, `{"rawHex":"`...)
	dst = appendHex(dst, e.raw)
	dst = append(dst, `","note":`...)
	note := "does not encode back to the same bytes"
	if e.err != nil {
		note = e.err.Error()
	} else if e.batch.Codec() == Zstd && !zstdEncodes {
		note = "zstd batches stay hex here: this build cannot compress them again (`kwire` on the command line can)"
	}
	dst = AppendJSONString(dst, []byte(note))
	return append(dst, '}')
}

// jsonExact reports whether e is written as a batch: it encodes back to
// what was read (exact), and this build can compress it again (the
// browser app reads zstd but does not write it, codecs_js.go).
func (d *decoder) jsonExact(e *parsed) bool {
	return (zstdEncodes || e.batch.Codec() != Zstd) && d.exact(e)
}

func appendEntryJSON(dst []byte, b *Batch, rj *RecordJSON) []byte {
	if rj != nil && (rj.Write == nil || b.Attributes&AttrControl != 0) {
		rj = nil
	}
	if b.Magic != 2 {
		return appendMessageJSON(dst, b)
	}
	dst = appendBatchHeadJSON(dst, b, b.lastOffsetDelta(), b.maxTimestamp())
	dst = appendRecordsJSON(dst, b.Records, rj)
	return appendBatchTailJSON(dst, b)
}

// appendBatchHeadJSON writes a RecordBatch v2 up to its records, whose
// last offset delta and largest timestamp are given.
func appendBatchHeadJSON(dst []byte, b *Batch, lastDelta int32, maxTimestamp int64) []byte {
	dst = xfmt.Appendf(dst, `{"baseOffset":%d,"partitionLeaderEpoch":%d,"magic":2,`, b.BaseOffset, b.PartitionLeaderEpoch)
	dst = appendAttributesJSON(dst, b.Attributes, 2)
	if b.KeepCRC {
		dst = xfmt.Appendf(dst, `,"crc":%d`, b.CRC)
	}
	if b.LastOffsetDelta != lastDelta {
		dst = xfmt.Appendf(dst, `,"lastOffsetDelta":%d`, b.LastOffsetDelta)
	}
	dst = xfmt.Appendf(dst, `,"baseTimestamp":%d`, b.BaseTimestamp)
	if b.MaxTimestamp != maxTimestamp {
		dst = xfmt.Appendf(dst, `,"maxTimestamp":%d`, b.MaxTimestamp)
	}
	return xfmt.Appendf(dst, `,"producerId":%d,"producerEpoch":%d,"baseSequence":%d,"records":[`, b.ProducerID, b.ProducerEpoch, b.BaseSequence)
}

// appendBatchTailJSON writes what follows a RecordBatch v2's records.
func appendBatchTailJSON(dst []byte, b *Batch) []byte {
	dst = append(dst, ']')
	return append(appendCompressedJSON(dst, b), '}')
}

// appendRecordsJSON writes the records of a RecordBatch v2, inside their
// list's brackets; their keys and values with rj when it is set.
func appendRecordsJSON(dst []byte, recs []Record, rj *RecordJSON) []byte {
	for i := range recs {
		if i > 0 {
			dst = append(dst, ',')
		}
		r := &recs[i]
		dst = append(dst, '{')
		if r.OffsetDelta != int32(i) {
			dst = append(strconv.AppendInt(append(dst, `"offsetDelta":`...), int64(r.OffsetDelta), 10), ',')
		}
		if r.TimestampDelta != 0 {
			dst = append(strconv.AppendInt(append(dst, `"timestampDelta":`...), r.TimestampDelta, 10), ',')
		}
		if r.Attributes != 0 {
			dst = append(strconv.AppendInt(append(dst, `"attributes":`...), int64(r.Attributes), 10), ',')
		}
		var kj, vj []byte
		if rj != nil {
			kj, vj = rj.Write(r.Key, r.Value)
		}
		dst = appendPartJSON(dst, "key", r.Key, kj)
		dst = append(dst, ',')
		dst = appendPartJSON(dst, "value", r.Value, vj)
		if len(r.Headers) > 0 {
			dst = append(dst, `,"headers":[`...)
			for j, h := range r.Headers {
				if j > 0 {
					dst = append(dst, ',')
				}
				dst = append(dst, '{')
				dst = appendBytesJSON(dst, "key", h.Key)
				dst = append(dst, ',')
				dst = appendBytesJSON(dst, "value", h.Value)
				dst = append(dst, '}')
			}
			dst = append(dst, ']')
		}
		dst = append(dst, '}')
	}
	return dst
}

// appendCompressedJSON writes the compressed bytes of a compressed batch or
// wrapper as read: encoding keeps them while the records are unchanged.
func appendCompressedJSON(dst []byte, b *Batch) []byte {
	if b.Codec() == None || b.Compressed == nil {
		return dst
	}
	dst = append(dst, `,"compressedHex":"`...)
	dst = appendHex(dst, b.Compressed)
	return append(dst, '"')
}

// appendAttributesJSON writes the named attribute bits, and the others
// when set.
func appendAttributesJSON(dst []byte, a int16, magic int8) []byte {
	dst = append(dst, `"compression":`...)
	dst = AppendJSONString(dst, []byte(Codec(a&AttrCodec).String()))
	known := int16(AttrCodec)
	if magic >= 1 {
		ts := "CreateTime"
		if a&AttrLogAppendTime != 0 {
			ts = "LogAppendTime"
		}
		dst = append(dst, `,"timestampType":`...)
		dst = AppendJSONString(dst, []byte(ts))
		known |= AttrLogAppendTime
	}
	if magic == 2 {
		dst = xfmt.Appendf(dst, `,"transactional":%t,"control":%t`, a&AttrTransactional != 0, a&AttrControl != 0)
		if a&AttrDeleteHorizon != 0 {
			dst = append(dst, `,"deleteHorizon":true`...)
		}
		known = attrKnown
	}
	if other := a &^ known; other != 0 {
		dst = xfmt.Appendf(dst, `,"otherAttributes":%d`, other)
	}
	return dst
}

func appendMessageJSON(dst []byte, m *Batch) []byte {
	dst = xfmt.Appendf(dst, `{"offset":%d,"magic":%d,`, m.BaseOffset, m.Magic)
	dst = appendAttributesJSON(dst, m.Attributes, m.Magic)
	if m.KeepCRC {
		dst = xfmt.Appendf(dst, `,"crc":%d`, m.CRC)
	}
	if m.Magic == 1 {
		dst = xfmt.Appendf(dst, `,"timestamp":%d`, m.BaseTimestamp)
	}
	dst = append(dst, ',')
	dst = appendBytesJSON(dst, "key", m.Key)
	if m.Codec() == None {
		dst = append(dst, ',')
		dst = appendBytesJSON(dst, "value", m.Value)
		return append(dst, '}')
	}
	dst = append(dst, `,"messages":[`...)
	for i := range m.Messages {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = appendMessageJSON(dst, &m.Messages[i])
	}
	dst = append(dst, ']')
	return append(appendCompressedJSON(dst, m), '}')
}

// wrongCRC reports whether b, or a message inside it, keeps a CRC that
// does not match its bytes.
func (b *Batch) wrongCRC() bool {
	for i := range b.Messages {
		if b.Messages[i].wrongCRC() {
			return true
		}
	}
	return b.KeepCRC
}

// appendBytesJSON writes "name": "text", "nameHex": "hex" or "name": null.
func appendBytesJSON(dst []byte, name string, b []byte) []byte {
	switch {
	case b == nil:
		dst = AppendJSONString(dst, []byte(name))
		return append(dst, ":null"...)
	case plainPrefix(b) == len(b): // the common case: text written as it is
		dst = AppendJSONString(dst, []byte(name))
		dst = append(dst, ':', '"')
		dst = append(dst, b...)
		return append(dst, '"')
	case isText(b):
		dst = AppendJSONString(dst, []byte(name))
		dst = append(dst, ':')
		return AppendJSONString(dst, b)
	}
	dst = AppendJSONString(dst, []byte(name+"Hex"))
	dst = append(dst, `:"`...)
	dst = appendHex(dst, b)
	return append(dst, '"')
}

// AppendJSONString appends s as a JSON string. Runes that would not show
// as themselves (textesc.Hidden: controls, bidi overrides and the like) are
// written as \u escapes, so that the JSON form is safe to print and reads
// back the same; a byte that is not UTF-8 is written as \ufffd, as
// encoding/json writes it.
func AppendJSONString(dst []byte, s []byte) []byte {
	dst = append(dst, '"')
	for i := 0; i < len(s); {
		if n := plainPrefix(s[i:]); n > 0 { // written as they are, at once
			dst = append(dst, s[i:i+n]...)
			if i += n; i == len(s) {
				break
			}
		}
		c := s[i]
		if c < utf8.RuneSelf {
			i++
			switch {
			case c == '"' || c == '\\':
				dst = append(dst, '\\', c)
			case c == '\n':
				dst = append(dst, '\\', 'n')
			case c == '\r':
				dst = append(dst, '\\', 'r')
			case c == '\t':
				dst = append(dst, '\\', 't')
			case c < 0x20 || c == 0x7f:
				dst = append(dst, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&15])
			default:
				dst = append(dst, c)
			}
			continue
		}
		r, size := utf8.DecodeRune(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			dst = append(dst, `\ufffd`...)
		case textesc.Hidden(r):
			if r1, r2 := utf16.EncodeRune(r); r1 != utf8.RuneError {
				dst = appendU4(appendU4(dst, r1), r2)
			} else {
				dst = appendU4(dst, r)
			}
		default:
			dst = append(dst, s[i:i+size]...)
		}
		i += size
	}
	return append(dst, '"')
}

// appendU4 appends \uXXXX.
func appendU4(dst []byte, r rune) []byte {
	return append(dst, '\\', 'u', hexDigits[r>>12&15], hexDigits[r>>8&15], hexDigits[r>>4&15], hexDigits[r&15])
}

// FromJSON encodes the JSON form of a records field, as decoded by
// jsonv.Parse (numbers as jsonv.Number): a list of batches
// and messages, or a hex string.
func FromJSON(raw any) ([]byte, error) { return FromJSONWith(raw, nil) }

// FromJSONWith is FromJSON that reads a record's key or value written as
// an object with rj.Read (nil, or no Read: an object is an error).
func FromJSONWith(raw any, rj *RecordJSON) ([]byte, error) {
	var read func(map[string]any, string) ([]byte, error)
	if rj != nil {
		read = rj.Read
	}
	switch x := raw.(type) {
	case string:
		b, err := xhex.DecodeString(strings.TrimPrefix(x, "0x"))
		if err != nil {
			return nil, &JSONError{Msg: xfmt.Sprintf("%q is not hex: %v", x, err)}
		}
		return b, nil
	case []any:
		var out []byte
		for i, e := range x {
			path := "[" + strconv.Itoa(i) + "]"
			obj, ok := e.(map[string]any)
			if !ok {
				return nil, &JSONError{Path: path, Msg: "want an object (a batch or message), got " + JSONKind(e)}
			}
			var err error
			if out, err = appendEntryFromJSON(out, obj, path, read); err != nil {
				return nil, err
			}
		}
		return out, nil
	}
	return nil, &JSONError{Msg: "want a list of batches or a hex string, got " + JSONKind(raw)}
}

// reader takes fields out of a JSON object, remembering errors.
type reader struct {
	obj  map[string]any
	path string
	err  error
	read func(obj map[string]any, path string) ([]byte, error) // RecordJSON.Read
}

func (r *reader) fail(key, format string, args ...any) {
	if r.err == nil {
		p := r.path
		if key != "" {
			p += "." + key
		}
		r.err = &JSONError{Path: p, Msg: xfmt.Sprintf(format, args...)}
	}
}

// check fails on keys other than those allowed.
func (r *reader) check(allowed ...string) {
	var extra []string
	for k := range r.obj {
		if !slices.Contains(allowed, k) {
			extra = append(extra, k)
		}
	}
	if len(extra) > 0 && r.err == nil {
		sort.Slice(extra, func(i, j int) bool { return extra[i] < extra[j] }) // sort.Strings is slices.Sort: a copy of pdqsort more in the browser app
		r.fail(extra[0], "unknown key %q (keys: %s)", extra[0], strings.Join(allowed, ", "))
		je := r.err.(*JSONError)
		je.Path, je.Key = r.path+"."+extra[0], true // the key (which may be ""), not its value, is wrong
	}
}

func (r *reader) int(key string, def, lo, hi int64) int64 {
	v, ok := r.obj[key]
	if !ok {
		return def
	}
	var s string
	switch x := v.(type) {
	case jsonv.Number:
		s = string(x)
	case string:
		s = x
	case float64:
		if x != math.Trunc(x) || math.Abs(x) > 1<<53 {
			r.fail(key, "%v is not an integer", x)
			return def
		}
		s = strconv.FormatFloat(x, 'f', -1, 64)
	default:
		r.fail(key, "want an integer, got %s", JSONKind(v))
		return def
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < lo || n > hi {
		r.fail(key, "%s is not an integer in [%d, %d]", s, lo, hi)
		return def
	}
	return n
}

func (r *reader) bool(key string) bool {
	v, ok := r.obj[key]
	if !ok {
		return false
	}
	b, isBool := v.(bool)
	if !isBool {
		r.fail(key, "want true or false, got %s", JSONKind(v))
	}
	return b
}

func (r *reader) str(key, def string) string {
	v, ok := r.obj[key]
	if !ok {
		return def
	}
	s, isStr := v.(string)
	if !isStr {
		r.fail(key, "want a string, got %s", JSONKind(v))
	}
	return s
}

// bytes reads "name" (text) or "nameHex"; absent or null is null.
func (r *reader) bytes(name string) []byte {
	text, hasText := r.obj[name]
	hexv, hasHex := r.obj[name+"Hex"]
	switch {
	case hasText && hasHex:
		r.fail(name, "give %s or %sHex, not both", name, name)
	case hasHex:
		if hexv == nil {
			return nil
		}
		s, ok := hexv.(string)
		b, err := xhex.DecodeString(s)
		if !ok || err != nil {
			r.fail(name+"Hex", "want a hex string, got %s", JSONKind(hexv))
		}
		if b == nil {
			b = []byte{}
		}
		return b
	case hasText:
		if text == nil {
			return nil
		}
		if b, ok := r.readObject(text, name); ok {
			return b
		}
		s, ok := text.(string)
		if !ok {
			r.fail(name, "want a string (or %sHex with hex), got %s", name, JSONKind(text))
		}
		if !utf8.ValidString(s) {
			r.fail(name, "not valid UTF-8; use %sHex", name)
		}
		return []byte(s)
	}
	return nil
}

// attributes reads the named attribute bits.
func (r *reader) attributes(magic int8) int16 {
	name := r.str("compression", "none")
	c, ok := ParseCodec(name)
	if !ok {
		r.fail("compression", "unknown compression %q (none, gzip, snappy, lz4, zstd)", name)
	}
	a := int16(c)
	if magic >= 1 {
		switch ts := r.str("timestampType", "CreateTime"); ts {
		case "CreateTime":
		case "LogAppendTime":
			a |= AttrLogAppendTime
		default:
			r.fail("timestampType", "want CreateTime or LogAppendTime, not %q", ts)
		}
	}
	if magic == 2 {
		if r.bool("transactional") {
			a |= AttrTransactional
		}
		if r.bool("control") {
			a |= AttrControl
		}
		if r.bool("deleteHorizon") {
			a |= AttrDeleteHorizon
		}
	}
	lo, hi := int64(math.MinInt16), int64(math.MaxInt16)
	known := int64(AttrCodec | AttrLogAppendTime)
	switch magic {
	case 0:
		lo, hi, known = 0, math.MaxUint8, AttrCodec
	case 1:
		lo, hi = 0, math.MaxUint8
	case 2:
		known = attrKnown
	}
	other := r.int("otherAttributes", 0, lo, hi)
	if other&known != 0 {
		r.fail("otherAttributes", "%d sets bits that have names (%#x); use the named keys", other, other&known)
	}
	return a | int16(other)
}

// compressed reads "compressedHex", the compressed bytes of a batch or
// wrapper as read, kept while they decompress to its records (so not once
// the compression is changed to none).
func (r *reader) compressed(c Codec) []byte {
	v, ok := r.obj["compressedHex"]
	if !ok || c == None {
		return nil
	}
	s, isStr := v.(string)
	b, err := xhex.DecodeString(s)
	if !isStr || err != nil {
		r.fail("compressedHex", "want a hex string, got %s", JSONKind(v))
	}
	return b
}

func (r *reader) list(key string) []any {
	v, ok := r.obj[key]
	if !ok || v == nil {
		return nil
	}
	l, isList := v.([]any)
	if !isList {
		r.fail(key, "want a list, got %s", JSONKind(v))
	}
	return l
}

func (r *reader) object(v any, path string) *reader {
	obj, ok := v.(map[string]any)
	sub := &reader{obj: obj, path: path, read: r.read}
	if !ok {
		sub.err = &JSONError{Path: path, Msg: "want an object, got " + JSONKind(v)}
	}
	return sub
}

func appendEntryFromJSON(dst []byte, obj map[string]any, path string, read func(map[string]any, string) ([]byte, error)) ([]byte, error) {
	r := &reader{obj: obj, path: path, read: read}
	if _, ok := obj["rawHex"]; ok {
		r.check("rawHex", "note")
		s, _ := obj["rawHex"].(string)
		b, err := xhex.DecodeString(s)
		if err != nil {
			r.fail("rawHex", "want a hex string")
		}
		if r.err != nil {
			return nil, r.err
		}
		return append(dst, b...), nil
	}
	b, err := batchFromJSON(r)
	if err != nil {
		return nil, err
	}
	out, err := AppendBatch(dst, &b)
	if err != nil {
		return nil, &JSONError{Path: path, Msg: err.Error()}
	}
	return out, nil
}

func batchFromJSON(r *reader) (Batch, error) {
	magic := int8(r.int("magic", 2, 0, 2))
	if r.err != nil {
		return Batch{}, r.err
	}
	if magic < 2 {
		return messageFromJSON(r, magic)
	}
	r.check("baseOffset", "partitionLeaderEpoch", "magic", "compression", "timestampType", "transactional", "control",
		"deleteHorizon", "otherAttributes", "crc", "lastOffsetDelta", "baseTimestamp", "maxTimestamp", "producerId",
		"producerEpoch", "baseSequence", "records", "compressedHex")
	b := Batch{Magic: 2}
	b.BaseOffset = r.int("baseOffset", 0, math.MinInt64, math.MaxInt64)
	b.PartitionLeaderEpoch = int32(r.int("partitionLeaderEpoch", -1, math.MinInt32, math.MaxInt32))
	b.Attributes = r.attributes(2)
	if _, ok := r.obj["crc"]; ok {
		b.CRC, b.KeepCRC = uint32(r.int("crc", 0, 0, math.MaxUint32)), true
	}
	b.BaseTimestamp = r.int("baseTimestamp", 0, math.MinInt64, math.MaxInt64)
	b.ProducerID = r.int("producerId", -1, math.MinInt64, math.MaxInt64)
	b.ProducerEpoch = int16(r.int("producerEpoch", -1, math.MinInt16, math.MaxInt16))
	b.BaseSequence = int32(r.int("baseSequence", -1, math.MinInt32, math.MaxInt32))
	list := r.list("records")
	b.Records = make([]Record, 0, len(list))
	for i, e := range list {
		rr := r.object(e, r.path+".records["+strconv.Itoa(i)+"]")
		rr.check("offsetDelta", "timestampDelta", "attributes", "key", "keyHex", "value", "valueHex", "headers")
		rec := Record{
			OffsetDelta:    int32(rr.int("offsetDelta", int64(i), math.MinInt32, math.MaxInt32)),
			TimestampDelta: rr.int("timestampDelta", 0, math.MinInt64, math.MaxInt64),
			Attributes:     int8(rr.int("attributes", 0, math.MinInt8, math.MaxInt8)),
			Key:            rr.bytes("key"),
			Value:          rr.bytes("value"),
		}
		for j, he := range rr.list("headers") {
			hr := rr.object(he, rr.path+".headers["+strconv.Itoa(j)+"]")
			hr.check("key", "keyHex", "value", "valueHex")
			rec.Headers = append(rec.Headers, Header{Key: hr.bytes("key"), Value: hr.bytes("value")})
			if hr.err != nil {
				return b, hr.err
			}
		}
		if rr.err != nil {
			return b, rr.err
		}
		b.Records = append(b.Records, rec)
	}
	b.Compressed = r.compressed(b.Codec())
	b.Fill()
	b.LastOffsetDelta = int32(r.int("lastOffsetDelta", int64(b.LastOffsetDelta), math.MinInt32, math.MaxInt32))
	b.MaxTimestamp = r.int("maxTimestamp", b.MaxTimestamp, math.MinInt64, math.MaxInt64)
	return b, r.err
}

func messageFromJSON(r *reader, magic int8) (Batch, error) {
	keys := []string{"offset", "magic", "compression", "otherAttributes", "crc", "key", "keyHex", "value", "valueHex", "messages", "compressedHex"}
	if magic == 1 {
		keys = append(keys, "timestampType", "timestamp")
	}
	r.check(keys...)
	m := Batch{Magic: magic}
	m.BaseOffset = r.int("offset", 0, math.MinInt64, math.MaxInt64)
	m.Attributes = r.attributes(magic)
	if _, ok := r.obj["crc"]; ok {
		m.CRC, m.KeepCRC = uint32(r.int("crc", 0, 0, math.MaxUint32)), true
	}
	if magic == 1 {
		m.BaseTimestamp = r.int("timestamp", -1, math.MinInt64, math.MaxInt64)
	}
	m.Key = r.bytes("key")
	_, hasMessages := r.obj["messages"]
	if m.Codec() == None {
		if hasMessages {
			r.fail("messages", "only a compressed message holds messages")
		}
		m.Value = r.bytes("value")
		return m, r.err
	}
	if _, v := r.obj["value"]; v {
		r.fail("value", "a compressed message holds \"messages\"; its value is computed from them")
	}
	if _, v := r.obj["valueHex"]; v {
		r.fail("valueHex", "a compressed message holds \"messages\"; its value is computed from them")
	}
	m.Compressed = r.compressed(m.Codec())
	m.Messages = []Batch{}
	for i, e := range r.list("messages") {
		sub := r.object(e, r.path+".messages["+strconv.Itoa(i)+"]")
		if sub.err != nil {
			return m, sub.err
		}
		inner, err := batchFromJSON(sub)
		if err != nil {
			return m, err
		}
		if inner.Magic == 2 {
			return m, &JSONError{Path: sub.path, Msg: "a RecordBatch cannot sit inside a legacy message"}
		}
		m.Messages = append(m.Messages, inner)
	}
	return m, r.err
}

// JSONKind names the kind of a value decoded by jsonv ("a list",
// "a number"), for errors that say what was found; codec uses it too.
func JSONKind(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "a boolean"
	case jsonv.Number, float64:
		return "a number"
	case string:
		return "a string"
	case []any:
		return "a list"
	case map[string]any:
		return "an object"
	}
	return xfmt.Sprintf("%T", v)
}
