package otlp

import (
	"errors"
	"math"
	"strconv"
	"unicode/utf8"

	"kwire/codec/records"
	"kwire/tree"
)

// kind is how a field's value is shown.
type kind uint8

const (
	kMsg     kind = iota // an embedded message of msg
	kString              // length-delimited UTF-8
	kBytes               // length-delimited
	kUint                // varint
	kInt                 // varint, two's complement int64
	kBool                // varint
	kFixed64             // unsigned fixed64 (a time in ns, a count)
	kSfixed              // sfixed64
	kDouble              // fixed64 IEEE 754
	kFixed32             // fixed32 (flags)
	kEnum                // varint, named by enum
)

type field struct {
	name string
	kind kind
	msg  int // message index for kMsg
	enum []string
}

// Messages of opentelemetry-proto (opentelemetry/proto/metrics/v1/
// metrics.proto, common/v1/common.proto, resource/v1/resource.proto),
// field numbers as written there.
const (
	mMetricsData = iota
	mResourceMetrics
	mResource
	mScopeMetrics
	mScope
	mMetric
	mGauge
	mSum
	mHistogram
	mNumberDataPoint
	mHistogramDataPoint
	mKeyValue
	mAnyValue
	mArrayValue
	mKeyValueList
	mExpHistogram
	mSummary
	mExpPoint
	mSummaryPoint
	mOther // a message kwire has no layout for: number + wire type
)

var names = [...]string{"MetricsData", "ResourceMetrics", "Resource", "ScopeMetrics", "InstrumentationScope", "Metric",
	"Gauge", "Sum", "Histogram", "NumberDataPoint", "HistogramDataPoint", "KeyValue", "AnyValue", "ArrayValue", "KeyValueList",
	"ExponentialHistogram", "Summary", "ExponentialHistogramDataPoint", "SummaryDataPoint", "message"}

var temporality = []string{"UNSPECIFIED", "DELTA", "CUMULATIVE"}

// maxField is the largest field number of the layouts: a layout is an
// array indexed by field number (static data, where maps would be built
// by code at start: 28 KB of the browser app).
const maxField = 12

var layouts = [...][maxField + 1]field{
	mMetricsData:     {1: {"resource_metrics", kMsg, mResourceMetrics, nil}},
	mResourceMetrics: {1: {"resource", kMsg, mResource, nil}, 2: {"scope_metrics", kMsg, mScopeMetrics, nil}, 3: {"schema_url", kString, 0, nil}},
	mResource:        {1: {"attributes", kMsg, mKeyValue, nil}, 2: {"dropped_attributes_count", kUint, 0, nil}},
	mScopeMetrics:    {1: {"scope", kMsg, mScope, nil}, 2: {"metrics", kMsg, mMetric, nil}, 3: {"schema_url", kString, 0, nil}},
	mScope: {1: {"name", kString, 0, nil}, 2: {"version", kString, 0, nil}, 3: {"attributes", kMsg, mKeyValue, nil},
		4: {"dropped_attributes_count", kUint, 0, nil}},
	mMetric: {1: {"name", kString, 0, nil}, 2: {"description", kString, 0, nil}, 3: {"unit", kString, 0, nil},
		5: {"gauge", kMsg, mGauge, nil}, 7: {"sum", kMsg, mSum, nil}, 9: {"histogram", kMsg, mHistogram, nil},
		10: {"exponential_histogram", kMsg, mExpHistogram, nil}, 11: {"summary", kMsg, mSummary, nil},
		12: {"metadata", kMsg, mKeyValue, nil}},
	mGauge: {1: {"data_points", kMsg, mNumberDataPoint, nil}},
	mSum: {1: {"data_points", kMsg, mNumberDataPoint, nil}, 2: {"aggregation_temporality", kEnum, 0, temporality},
		3: {"is_monotonic", kBool, 0, nil}},
	mHistogram: {1: {"data_points", kMsg, mHistogramDataPoint, nil}, 2: {"aggregation_temporality", kEnum, 0, temporality}},
	mNumberDataPoint: {7: {"attributes", kMsg, mKeyValue, nil}, 2: {"start_time_unix_nano", kFixed64, 0, nil},
		3: {"time_unix_nano", kFixed64, 0, nil}, 4: {"as_double", kDouble, 0, nil}, 6: {"as_int", kSfixed, 0, nil},
		5: {"exemplars", kMsg, mOther, nil}, 8: {"flags", kUint, 0, nil}},
	mHistogramDataPoint: {9: {"attributes", kMsg, mKeyValue, nil}, 2: {"start_time_unix_nano", kFixed64, 0, nil},
		3: {"time_unix_nano", kFixed64, 0, nil}, 4: {"count", kFixed64, 0, nil}, 5: {"sum", kDouble, 0, nil},
		6: {"bucket_counts", kFixed64, 0, nil}, 7: {"explicit_bounds", kDouble, 0, nil}, 8: {"exemplars", kMsg, mOther, nil},
		10: {"flags", kUint, 0, nil}, 11: {"min", kDouble, 0, nil}, 12: {"max", kDouble, 0, nil}},
	mKeyValue: {1: {"key", kString, 0, nil}, 2: {"value", kMsg, mAnyValue, nil}},
	mAnyValue: {1: {"string_value", kString, 0, nil}, 2: {"bool_value", kBool, 0, nil}, 3: {"int_value", kInt, 0, nil},
		4: {"double_value", kDouble, 0, nil}, 5: {"array_value", kMsg, mArrayValue, nil}, 6: {"kvlist_value", kMsg, mKeyValueList, nil},
		7: {"bytes_value", kBytes, 0, nil}},
	mArrayValue:   {1: {"values", kMsg, mAnyValue, nil}},
	mKeyValueList: {1: {"values", kMsg, mKeyValue, nil}},
	mExpHistogram: {1: {"data_points", kMsg, mExpPoint, nil}, 2: {"aggregation_temporality", kEnum, 0, temporality}},
	mSummary:      {1: {"data_points", kMsg, mSummaryPoint, nil}},
	// Their buckets and quantiles are shown by number and wire type.
	mExpPoint: {1: {"attributes", kMsg, mKeyValue, nil}, 2: {"start_time_unix_nano", kFixed64, 0, nil},
		3: {"time_unix_nano", kFixed64, 0, nil}, 4: {"count", kFixed64, 0, nil}, 5: {"sum", kDouble, 0, nil}},
	mSummaryPoint: {7: {"attributes", kMsg, mKeyValue, nil}, 2: {"start_time_unix_nano", kFixed64, 0, nil},
		3: {"time_unix_nano", kFixed64, 0, nil}, 4: {"count", kFixed64, 0, nil}, 5: {"sum", kDouble, 0, nil}},
	mOther: {},
}

// maxDepth bounds the nesting of messages (AnyValue can nest without end).
const maxDepth = 32

type dec struct {
	a    *tree.Alloc
	f    *tree.Flat
	o    Options
	bg   *records.Budget
	full bool
}

func (d *dec) left() bool { return d.bg.NodesLeft() > 0 }

// The strings of the rows, from the tree's text blocks: numbers, a
// quoted string.
func (d *dec) uint(v uint64, base int) string {
	return d.a.String(strconv.AppendUint(d.a.Text(20), v, base))
}

func (d *dec) int(v int64) string { return d.a.String(strconv.AppendInt(d.a.Text(20), v, 10)) }

func (d *dec) float(bits uint64) string {
	return d.a.String(strconv.AppendFloat(d.a.Text(24), math.Float64frombits(bits), 'g', -1, 64))
}

func (d *dec) quote(b []byte) string {
	return d.a.String(strconv.AppendQuote(d.a.Text(len(b)+2), string(b)))
}

// node is a node over b[pos:pos+size], charged to the budget.
func (d *dec) node(name, typ, val string, pos, size int, path string) tree.Node {
	d.bg.TakeNodes(1)
	return tree.Node{Name: name, Type: typ, Value: val, Offset: d.o.Base + pos, Size: size, Section: d.o.Section, Path: path, Relative: d.o.Relative}
}

func (d *dec) errNode(parent int, pos, end int, err error, path string) {
	n := d.node("error", "error", "", pos, end-pos, path)
	n.Section, n.Err = tree.Error, err
	d.f.Row(parent, n)
}

// Decode adds the nodes of the MetricsData in b to f under span parent,
// in preorder. Malformed protobuf is an error node where it starts; the
// rest stays bytes.
func Decode(a *tree.Alloc, f *tree.Flat, parent int, b []byte, o Options) {
	bg := o.Budget
	if bg == nil {
		bg = records.NewBudget(records.Limits{})
	}
	if a == nil { // the strings of the rows share blocks all the same
		a = new(tree.Alloc)
	}
	d := &dec{a: a, f: f, o: o, bg: bg}
	path := d.a.Concat(o.Path, ".", Seg)
	c := d.node(Seg, "otlp", d.a.Plural(len(b), "byte"), 0, len(b), path)
	c.About = "OpenTelemetry metrics (OTLP MetricsData protobuf, KIP-714)"
	d.message(f.Row(parent, c), b, 0, mMetricsData, path, 0)
}

// summary is what a message node shows as its value, from its fields: a
// metric's or scope's name, an attribute's key and value, an AnyValue's
// value, a point's value.
type summary struct {
	name, key, val string
	named          bool
}

// field takes in the field name, whose node shows value.
func (s *summary) field(name, value string) {
	switch name {
	case "name":
		if !s.named {
			s.name, s.named = value, true
		}
	case "key":
		s.key = value
	case "value", "string_value", "bool_value", "int_value", "double_value", "bytes_value", "as_double", "as_int":
		s.val = value
	}
}

// String is the summary.
func (s *summary) String() string {
	switch {
	case s.named:
		return s.name
	case s.key != "" && s.val != "":
		return s.key + ": " + s.val
	case s.key != "":
		return s.key
	}
	return s.val
}

// message reads the fields of message m from b[pos:end] into rows under
// span parent and returns the summary of them it shows.
func (d *dec) message(parent int, b []byte, pos int, m int, path string, depth int) string {
	var counts [maxField + 1]int
	var sum summary
	lay := &layouts[m]
	for len(b) > 0 {
		if !d.left() {
			if !d.full {
				d.full = true
				d.errNode(parent, pos, pos+len(b), d.bg.LeftOut("the rest of "+names[m]+" ("+d.a.Plural(len(b), "byte")+")"), path)
			}
			return sum.String()
		}
		num, typ, tn := consumeTag(b)
		if tn < 0 {
			d.errNode(parent, pos, pos+len(b), errors.New("bad tag: "+parseError(tn)), path)
			return sum.String()
		}
		vn := consumeFieldValue(num, typ, b[tn:])
		if vn < 0 {
			d.errNode(parent, pos, pos+len(b), errors.New("field "+strconv.Itoa(int(num))+": "+parseError(vn)), path)
			return sum.String()
		}
		var f field
		if num <= maxField {
			f = lay[num]
		}
		known := f.name != ""
		val := b[tn : tn+vn]
		size := tn + vn
		if !known {
			id := d.a.Itoa(int64(num))
			n := d.node(d.a.Concat("field ", id, ""), wireName(typ), "", pos, size, d.a.Concat(path, ".f", id))
			n.Value = d.raw(typ, val)
			n.Detail = "not in kwire's layout of " + names[m]
			d.f.Row(parent, n)
		} else {
			sum.field(d.known(parent, f, num, typ, val, pos, tn, size, path, &counts, depth))
		}
		b = b[size:]
		pos += size
	}
	return sum.String()
}

// known adds the row of a field of the layout under span parent and
// returns its name and the value it shows (an error's are "").
func (d *dec) known(parent int, f field, num number, typ wireTyp, val []byte, pos, tn, size int, path string, counts *[maxField + 1]int, depth int) (string, string) {
	p := d.a.Concat(path, ".", f.name)
	want := wantType(f.kind)
	list := f.name == "bucket_counts" || f.name == "explicit_bounds" // repeated fixed64 and double: packed, or one field each
	packed := list && typ == bytesType
	repeated := f.kind == kMsg && (f.name == "resource_metrics" || f.name == "scope_metrics" || f.name == "metrics" ||
		f.name == "data_points" || f.name == "attributes" || f.name == "values" || f.name == "exemplars" || f.name == "metadata") ||
		list && !packed
	name := f.name
	if repeated {
		i := counts[num]
		counts[num] = i + 1
		name = d.a.Indexed(f.name, i)
		p = d.a.Indexed(p, i)
	}
	if typ != want && !packed {
		n := d.node(name, wireName(typ), d.raw(typ, val), pos, size, p)
		n.Section, n.Err = tree.Error, errors.New("wire type "+wireName(typ)+", want "+wireName(want))
		d.f.Row(parent, n)
		return name, n.Value
	}
	if typ == bytesType {
		v, n := consumeBytes(val)
		if n < 0 {
			d.errNode(parent, pos, pos+size, errors.New(f.name+": "+parseError(n)), p)
			return "", ""
		}
		val = v
		tn = size - len(v)
	}
	switch {
	case packed:
		// Its value, the count of values, is known once they are read.
		n := d.f.Row(parent, d.node(name, "packed", "", pos, size, p))
		i := 0
		for len(val) >= 8 && d.left() {
			u := consumeFixed64
			x, _ := u(val)
			var s string
			if f.kind == kDouble {
				s = d.float(x)
			} else {
				s = d.uint(x, 10)
			}
			d.f.Row(n, d.node(d.a.Indexed("", i), typeName(f.kind), s, pos+tn+8*i, 8, d.a.Indexed(p, i)))
			val = val[8:]
			i++
		}
		value := d.a.Plural(i, "value")
		d.f.Stored(n).Value = value
		if len(val) > 0 && len(val) < 8 {
			d.errNode(n, pos+tn+8*i, pos+size, errors.New("packed fixed64 values: "+strconv.Itoa(len(val))+" bytes left over"), p)
		}
		return name, value
	case f.kind == kMsg:
		// Its value, the summary of its fields, is known once they are.
		n := d.node(name, names[f.msg], "", pos, size, p)
		if depth >= maxDepth {
			n.Detail = "not decoded: nested more than " + strconv.Itoa(maxDepth) + " deep"
			d.f.Row(parent, n)
			return name, ""
		}
		i := d.f.Row(parent, n)
		value := d.message(i, val, pos+tn, f.msg, p, depth+1)
		d.f.Stored(i).Value = value
		return name, value
	default:
		n := d.node(name, typeName(f.kind), d.scalar(f, typ, val), pos, size, p)
		d.f.Row(parent, n)
		return name, n.Value
	}
}

func wantType(k kind) wireTyp {
	switch k {
	case kMsg, kString, kBytes:
		return bytesType
	case kFixed64, kSfixed, kDouble:
		return fixed64Type
	case kFixed32:
		return fixed32Type
	}
	return varintType
}

func typeName(k kind) string {
	return [...]string{"message", "string", "bytes", "uint64", "int64", "bool", "fixed64", "sfixed64", "double", "fixed32", "enum"}[k]
}

func wireName(t wireTyp) string {
	switch t {
	case varintType:
		return "varint"
	case fixed32Type:
		return "i32"
	case fixed64Type:
		return "i64"
	case bytesType:
		return "len"
	case startGroupType:
		return "group"
	}
	return "wire type " + strconv.Itoa(int(t))
}

// raw shows the value of a field kwire has no layout for.
func (d *dec) raw(typ wireTyp, val []byte) string {
	switch typ {
	case varintType:
		v, _ := consumeVarint(val)
		return d.uint(v, 10)
	case fixed32Type:
		v, _ := consumeFixed32(val)
		return d.a.Concat("0x", d.uint(uint64(v), 16), "")
	case fixed64Type:
		v, _ := consumeFixed64(val)
		return d.a.Concat("0x", d.uint(v, 16), "")
	case bytesType:
		v, _ := consumeBytes(val)
		return d.a.Plural(len(v), "byte")
	}
	return d.a.Plural(len(val), "byte")
}

func (d *dec) scalar(f field, typ wireTyp, val []byte) string {
	switch f.kind {
	case kString:
		if utf8.Valid(val) {
			return d.quote(val)
		}
		return "invalid UTF-8, " + d.a.Plural(len(val), "byte")
	case kBytes:
		return d.a.Plural(len(val), "byte")
	case kFixed32:
		v, _ := consumeFixed32(val)
		return d.uint(uint64(v), 10)
	}
	if typ == fixed64Type {
		v, _ := consumeFixed64(val)
		switch f.kind {
		case kSfixed:
			return d.int(int64(v))
		case kDouble:
			return d.float(v)
		}
		return d.uint(v, 10)
	}
	v, _ := consumeVarint(val)
	switch f.kind {
	case kInt:
		return d.int(int64(v))
	case kBool:
		return strconv.FormatBool(v != 0)
	case kEnum:
		if v < uint64(len(f.enum)) {
			return d.a.Concat(d.uint(v, 10), " (", d.a.Concat(f.enum[v], ")", ""))
		}
	}
	return d.uint(v, 10)
}
