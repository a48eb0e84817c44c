package codec

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"kwire/codec/wire"
	"kwire/schemas"
)

// TestEncodeErrors: a value that does not fit its schema is refused with
// an *EncodeError naming the field and the reason, and an ignorable field
// the version lacks is dropped.
func TestEncodeErrors(t *testing.T) {
	set := loadSet(t, "trunk")
	field := func(p *Plan, v Value, name string) *Value {
		fp := p.Root.Field(name)
		if fp == nil {
			t.Fatalf("no field %s", name)
		}
		return &v.List()[fp.Index]
	}
	cases := []struct {
		name    string
		msg     string
		version int16
		edit    func(p *Plan, v Value) Value
		path    string // "" for no error
		want    string
	}{
		{"int32 out of range", "JoinGroupRequest", 9, func(p *Plan, v Value) Value {
			*field(p, v, "SessionTimeoutMs") = Int(1 << 31)
			return v
		}, "SessionTimeoutMs", "2147483648 is out of range for int32"},
		{"null string", "JoinGroupRequest", 9, func(p *Plan, v Value) Value {
			*field(p, v, "GroupId") = Null
			return v
		}, "GroupId", "null in a field that is not nullable"},
		{"null in an element", "JoinGroupRequest", 9, func(p *Plan, v Value) Value {
			protos := field(p, v, "Protocols")
			*protos = List(append(protos.List(), protos.List()[0].Clone()))
			protos.List()[1].List()[0] = Null
			return v
		}, "Protocols[1].Name", "null in a field that is not nullable"},
		{"null array", "JoinGroupRequest", 9, func(p *Plan, v Value) Value {
			*field(p, v, "Protocols") = Null
			return v
		}, "Protocols", "null array"},
		{"field the version lacks", "JoinGroupRequest", 4, func(p *Plan, v Value) Value {
			*field(p, v, "GroupInstanceId") = String("instance-1")
			return v
		}, "GroupInstanceId", "cannot be written at this version"},
		{"ignorable field the version lacks", "JoinGroupRequest", 4, func(p *Plan, v Value) Value {
			*field(p, v, "Reason") = String("dropped")
			return v
		}, "", ""},
		{"short uuid", "FetchRequest", 16, func(p *Plan, v Value) Value {
			topics := field(p, v, "Topics")
			topics.List()[0].List()[1] = String("short")
			return v
		}, "Topics[0].TopicId", "uuid must be 16 bytes, not 5"},
		{"uint16 negative", "BrokerRegistrationRequest", 4, func(p *Plan, v Value) Value {
			l := field(p, v, "Listeners")
			l.List()[0].List()[2] = Int(-1)
			return v
		}, "Listeners[0].Port", "-1 is out of range for uint16"},
		{"int32 element out of range", "DescribeProducersRequest", 0, func(p *Plan, v Value) Value {
			topic := field(p, v, "Topics").List()[0].List()
			topic[1] = List([]Value{Int(7), Int(1 << 40), Int(8)})
			return v
		}, "Topics[0].PartitionIndexes[1]", "1099511627776 is out of range for int32"},
		{"int16 out of range", "ProduceRequest", 9, func(p *Plan, v Value) Value {
			*field(p, v, "Acks") = Int(40000)
			return v
		}, "Acks", "40000 is out of range for int16"},
		{"int8 out of range", "ListOffsetsRequest", 9, func(p *Plan, v Value) Value {
			*field(p, v, "IsolationLevel") = Int(-129)
			return v
		}, "IsolationLevel", "-129 is out of range for int8"},
		{"null struct", "JoinGroupRequest", 9, func(p *Plan, v Value) Value {
			field(p, v, "Protocols").List()[0] = Null
			return v
		}, "Protocols[0]", "struct JoinGroupRequestProtocol has 2 fields, the value has 0"},
		{"wrong field count", "JoinGroupRequest", 9, func(p *Plan, v Value) Value {
			return List(v.List()[:2])
		}, "", "struct JoinGroupRequest has 8 fields, the value has 2"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			p := mustPlan(t, set, c.msg, c.version)
			_, err := p.Encode(c.edit(p, p.Smallest()))
			if c.want == "" {
				if err != nil {
					t.Fatalf("error %v, want none", err)
				}
				return
			}
			var ee *EncodeError
			if !errors.As(err, &ee) || !errors.Is(err, wire.ErrValue) {
				t.Fatalf("error %v (%T), want an *EncodeError wrapping wire.ErrValue", err, err)
			}
			if ee.Path != c.path || !strings.Contains(err.Error(), c.want) {
				t.Errorf("error %q at %q, want %q at %q", err, ee.Path, c.want, c.path)
			}
		})
	}
}

// Frame.Append writes what Encode does after what dst holds, in dst's
// memory when it has room, and leaves dst as it was on error.
func TestFrameAppend(t *testing.T) {
	set := loadSet(t, "trunk")
	api, err := set.LookupAPI("JoinGroup")
	if err != nil {
		t.Fatal(err)
	}
	f, err := NewFrame(set, api, 9, Request)
	if err != nil {
		t.Fatal(err)
	}
	want, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	dst := make([]byte, 3, 3+len(want))
	copy(dst, "abc")
	got, err := f.Append(dst)
	if err != nil || string(got[:3]) != "abc" || !bytes.Equal(got[3:], want) {
		t.Fatalf("Append = %x, %v; want abc then %x", got, err, want)
	}
	if &got[0] != &dst[0] {
		t.Error("Append did not use dst's room")
	}
	_, bp, err := f.Plans()
	if err != nil {
		t.Fatal(err)
	}
	f.Body.List()[bp.Root.Field("SessionTimeoutMs").Index] = Int(1 << 40)
	again, err := f.Append(dst[:3])
	if err == nil || len(again) != 3 || string(again) != "abc" {
		t.Errorf("on error Append returned %q, %v; want dst as it was", again, err)
	}
}

// TestEncodeLengthEdges: strings, bytes and int32 arrays at the lengths
// where their prefix changes size (a compact length of one byte or two,
// an array count the encoder writes inline or not), in classic and
// flexible versions, encode to kmsg's bytes, and into a buffer with room
// without allocating.
func TestEncodeLengthEdges(t *testing.T) {
	set := loadSet(t, "trunk")
	check := func(t *testing.T, p *Plan, m kmsgMessage) {
		t.Helper()
		want := m.AppendTo(nil)
		v, n, err := p.Decode(want)
		if err != nil || n != len(want) {
			t.Fatalf("decode read %d of %d bytes: %v", n, len(want), err)
		}
		buf := make([]byte, 0, len(want))
		got, err := p.Append(buf, v)
		if err != nil || !bytes.Equal(got, want) {
			t.Fatalf("encode = %d bytes, %v; kmsg wrote %d bytes (first difference at %d)", len(got), err, len(want), firstDiff(got, want))
		}
		if a := testing.AllocsPerRun(5, func() { p.Append(buf[:0], v) }); a != 0 {
			t.Errorf("encode into a buffer with room: %v allocs", a)
		}
	}
	for _, n := range []int{0, 1, 125, 126, 127, 128, 300, 16383, 16384, 32767} {
		for _, version := range []int16{5, 9} { // classic lengths, compact ones
			m := kmsg.NewPtrJoinGroupRequest()
			m.SetVersion(version)
			m.Group, m.MemberID, m.ProtocolType = strings.Repeat("g", n), strings.Repeat("m", n%200), "consumer"
			instance := strings.Repeat("i", n)
			m.InstanceID = &instance
			p := kmsg.NewJoinGroupRequestProtocol()
			p.Name, p.Metadata = "range", bytes.Repeat([]byte{0xa5}, n)
			m.Protocols = append(m.Protocols, p)
			t.Run(caseName("JoinGroupRequest", version, n), func(t *testing.T) {
				check(t, mustPlan(t, set, "JoinGroupRequest", version), m)
			})
		}
		if n > 300 {
			continue
		}
		for _, version := range []int16{4, 12} {
			m := kmsg.NewPtrMetadataResponse()
			m.SetVersion(version)
			tp := kmsg.NewMetadataResponseTopic()
			name := "t"
			tp.Topic = &name
			pt := kmsg.NewMetadataResponseTopicPartition()
			for i := range n {
				pt.Replicas = append(pt.Replicas, []int32{math.MinInt32, math.MaxInt32, -1, 0, int32(i)}[i%5])
			}
			pt.ISR = pt.Replicas[:n/2]
			tp.Partitions = append(tp.Partitions, pt)
			m.Topics = append(m.Topics, tp)
			t.Run(caseName("MetadataResponse", version, n), func(t *testing.T) {
				check(t, mustPlan(t, set, "MetadataResponse", version), m)
			})
		}
	}
}

func caseName(msg string, version int16, n int) string {
	return msg + "/v" + strconv.Itoa(int(version)) + "/" + strconv.Itoa(n)
}

func firstDiff(a, b []byte) int {
	for i := range min(len(a), len(b)) {
		if a[i] != b[i] {
			return i
		}
	}
	return min(len(a), len(b))
}

// TestEncodeAllocs: encoding the smallest instance of every message of
// every set, at every version, into a buffer with room allocates nothing
// (tagged fields at their defaults, no unknown tags).
func TestEncodeAllocs(t *testing.T) {
	forEachVersion(t, func(t *testing.T, set *schemas.Set, api *schemas.API, v int16, dir Direction) {
		p, err := PlanFor(dir.Schema(api), v)
		if err != nil {
			t.Fatal(err)
		}
		val := p.Smallest()
		b, err := p.Encode(val)
		if err != nil {
			t.Fatalf("%s %s v%d %s: %v", set.Name, api.Name, v, dir, err)
		}
		buf := make([]byte, 0, len(b))
		if a := testing.AllocsPerRun(3, func() { p.Append(buf, val) }); a != 0 {
			t.Errorf("%s %s v%d %s: %v allocs", set.Name, api.Name, v, dir, a)
		}
	})
}
