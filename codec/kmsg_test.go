package codec

// The oracle: github.com/twmb/franz-go/pkg/kmsg, a Kafka codec generated
// independently of kwire (from franz-go's own definitions, at a different
// Kafka commit). For every API key and version both know, bytes kmsg
// writes from random values must decode in kwire, using every byte, and
// re-encode identically; bytes kwire writes from random values must be
// read by kmsg and written back identically.

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"os"
	"reflect"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/twmb/franz-go/pkg/kmsg"

	"kwire/codec/records"
	"kwire/schemas"
	"kwire/schemas/sets"
)

// kmsgTrials is how many random values each direction of each version
// gets; kmsgExceptionTrials is how many an exception may take to show its
// difference.
const (
	kmsgTrials          = 32 // KWIRE_KMSG_TRIALS overrides it
	kmsgExceptionTrials = 400
)

// kmsgException is an API version where kmsg v1.15.1 and a schema set
// genuinely disagree, so the oracle cannot vouch for it.
// TestKmsgExceptionsHold checks that each one still differs.
type kmsgException struct {
	set    string
	api    string
	lo, hi int16 // versions, inclusive
	dir    Direction
	reason string
}

var kmsgExceptions = []kmsgException{
	{"3.9", "StopReplica", 4, 4, Request, "kmsg writes isKRaftController after ControllerEpoch; Kafka's schema has it right after ControllerId (KIP-866)"},
	{"3.9", "ReadShareGroupStateSummary", 0, 0, Response, "kmsg's v0 has PartitionResult.LeaderEpoch, added to the then unreleased v0 after this set's commit (KIP-932)"},
	{"4.0", "ReadShareGroupStateSummary", 0, 0, Response, "kmsg's v0 has PartitionResult.LeaderEpoch, added to the then unreleased v0 after this set's commit (KIP-932)"},
	{"4.1", "ShareFetch", 1, 1, Response, "from 4.1 Records is nullable at v0 only; kmsg writes null Records at every version"},
	{"4.2", "ShareFetch", 1, 2, Response, "from 4.1 Records is nullable at v0 only; kmsg writes null Records at every version"},
	{"4.3", "ShareFetch", 1, 2, Response, "from 4.1 Records is nullable at v0 only; kmsg writes null Records at every version"},
	{"4.4", "ShareFetch", 1, 2, Response, "from 4.1 Records is nullable at v0 only; kmsg writes null Records at every version"},
	{"trunk", "ShareFetch", 1, 2, Response, "from 4.1 Records is nullable at v0 only; kmsg writes null Records at every version"},
}

// kmsgMessage is the kmsg request or response of key at version v, or nil.
type kmsgMessage interface {
	SetVersion(int16)
	AppendTo([]byte) []byte
	ReadFrom([]byte) error
	MaxVersion() int16
}

func newKmsg(key int16, dir Direction, v int16) kmsgMessage {
	var m kmsgMessage
	if dir == Request {
		if r := kmsg.RequestForKey(key); r != nil {
			m = r
		}
	} else if r := kmsg.ResponseForKey(key); r != nil {
		m = r
	}
	if m == nil || v > m.MaxVersion() {
		return nil
	}
	m.SetVersion(v)
	return m
}

// kmsgFromKmsg fills a kmsg message with random values, writes it, and
// checks that kwire reads every byte and writes the same bytes back.
func kmsgFromKmsg(p *Plan, key int16, dir Direction, r *rand.Rand) error {
	m := newKmsg(key, dir, p.Version)
	kfill(reflect.ValueOf(m).Elem(), r, 0)
	m.SetVersion(p.Version)
	b := m.AppendTo(nil)
	v, n, err := p.Decode(b)
	if err != nil || n != len(b) {
		return fmt.Errorf("kmsg wrote %x; kwire read %d of %d bytes: %v", b, n, len(b), err)
	}
	b2, err := p.Encode(v)
	if err != nil || !bytes.Equal(b, b2) {
		return fmt.Errorf("kmsg wrote %x; kwire wrote back %x (%v)", b, b2, err)
	}
	return nil
}

// kmsgFromKwire encodes a random kwire instance and checks that kmsg reads
// it and writes the same bytes back.
func kmsgFromKwire(p *Plan, key int16, dir Direction, r *rand.Rand) error {
	v := Random(p, r)
	shiftUnknownTags(p.Root, v)
	b, err := p.Encode(v)
	if err != nil {
		return fmt.Errorf("kwire encode: %v", err)
	}
	m := newKmsg(key, dir, p.Version)
	if err := m.ReadFrom(b); err != nil {
		return fmt.Errorf("kwire wrote %x; kmsg cannot read it: %v", b, err)
	}
	if b2 := m.AppendTo(nil); !bytes.Equal(b, b2) {
		return fmt.Errorf("kwire wrote %x; kmsg wrote back %x", b, b2)
	}
	return nil
}

// shiftUnknownTags moves the unknown tags of a random value up by 100:
// Random numbers them just above the struct's own tags, which is where a
// newer Kafka puts its next tagged field, and kmsg, generated from a newer
// Kafka, may know such a tag (FetchPartition's HighWatermark, tag 1, for
// example) and read it as its own field. Kafka's tags are all small, so
// tags above 100 are unknown to both.
func shiftUnknownTags(sp *StructPlan, v Value) {
	tags := v.Unknown()
	for i := range tags {
		tags[i].Tag += 100
	}
	for _, fp := range sp.Fields {
		fv := v.List()[fp.Index]
		switch {
		case fp.Struct == nil || fv.IsNull():
		case fp.Kind == schemas.KindStruct:
			shiftUnknownTags(fp.Struct, fv)
		default:
			for _, e := range fv.List() {
				shiftUnknownTags(fp.Struct, e)
			}
		}
	}
}

// kmsgCheck runs trials of both directions from seed and returns the first
// failure.
func kmsgCheck(p *Plan, set string, key int16, dir Direction, trials int) error {
	for i := range trials {
		s1, s2 := seedFor(set, key, p.Version, dir, i)
		if err := kmsgFromKmsg(p, key, dir, rand.New(rand.NewPCG(s1, s2))); err != nil {
			return fmt.Errorf("kmsg -> kwire, seed (%d, %d): %w", s1, s2, err)
		}
		if err := kmsgFromKwire(p, key, dir, rand.New(rand.NewPCG(s1, s2))); err != nil {
			return fmt.Errorf("kwire -> kmsg, seed (%d, %d): %w", s1, s2, err)
		}
	}
	return nil
}

func findKmsgException(set, api string, v int16, dir Direction) *kmsgException {
	for i, e := range kmsgExceptions {
		if e.set == set && e.api == api && e.dir == dir && e.lo <= v && v <= e.hi {
			return &kmsgExceptions[i]
		}
	}
	return nil
}

// TestKmsgOracle checks every API version both kmsg and a set know, except
// the listed exceptions, which TestKmsgExceptionsHold checks.
func TestKmsgOracle(t *testing.T) {
	type tally struct{ covered, excepted, kwireOnly int }
	counts := map[string]*tally{}
	trials := kmsgTrials
	if n, err := strconv.Atoi(os.Getenv("KWIRE_KMSG_TRIALS")); err == nil && n > 0 {
		trials = n
	}
	forEachVersion(t, func(t *testing.T, set *schemas.Set, api *schemas.API, v int16, dir Direction) {
		c := counts[set.Name]
		if c == nil {
			c = &tally{}
			counts[set.Name] = c
		}
		if newKmsg(api.Key, dir, v) == nil {
			c.kwireOnly++
			return
		}
		if findKmsgException(set.Name, api.Name, v, dir) != nil {
			c.excepted++
			return
		}
		c.covered++
		p, err := PlanFor(dir.Schema(api), v)
		if err != nil {
			t.Fatal(err)
		}
		if err := kmsgCheck(p, set.Name, api.Key, dir, trials); err != nil {
			t.Errorf("%s %s v%d %s: %v", set.Name, api.Name, v, dir, err)
		}
	})
	for _, name := range sets.Names() {
		c := counts[name]
		t.Logf("set %s: %d API versions checked against kmsg, %d excepted, %d unknown to kmsg v1.15.1",
			name, c.covered, c.excepted, c.kwireOnly)
	}
}

// TestKmsgExceptionsHold: every exception names API versions both know,
// and each of them really differs (some seed fails one direction).
func TestKmsgExceptionsHold(t *testing.T) {
	for _, e := range kmsgExceptions {
		set := loadSet(t, e.set)
		api, err := set.LookupAPI(e.api)
		if err != nil {
			t.Errorf("exception %+v: %v", e, err)
			continue
		}
		if e.reason == "" || e.lo > e.hi {
			t.Errorf("exception %+v: needs a reason and a version range", e)
		}
		for v := e.lo; v <= e.hi; v++ {
			m := e.dir.Schema(api)
			if !m.ValidVersions.Contains(v) || newKmsg(api.Key, e.dir, v) == nil {
				t.Errorf("exception %s %s v%d %s: not a version both kmsg and the set know", e.set, e.api, v, e.dir)
				continue
			}
			p, err := PlanFor(m, v)
			if err != nil {
				t.Fatal(err)
			}
			if kmsgCheck(p, e.set, api.Key, e.dir, kmsgExceptionTrials) == nil {
				t.Errorf("exception %s %s v%d %s (%s): kmsg and kwire agree on %d random values each way; drop the exception",
					e.set, e.api, v, e.dir, e.reason, kmsgExceptionTrials)
			}
		}
	}
}

var tagsType = reflect.TypeFor[kmsg.Tags]()

// kfill sets every exported field of a kmsg struct to a random value the
// wire can carry: short strings (int16 lengths), 0 to 3 elements per array,
// nil slices and pointers sometimes (kmsg writes them as null where the
// version allows and as empty elsewhere), records as whole empty batches,
// and now and then an unknown tag numbered far above Kafka's.
func kfill(v reflect.Value, r *rand.Rand, depth int) {
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		if !f.IsExported() || (depth == 0 && f.Name == "Version") {
			continue
		}
		fv := v.Field(i)
		if f.Type == tagsType {
			if r.IntN(8) == 0 {
				tags := fv.Addr().Interface().(*kmsg.Tags)
				for range 1 + r.IntN(2) {
					data := make([]byte, r.IntN(4))
					for j := range data {
						data[j] = byte(r.Uint32())
					}
					tags.Set(uint32(100+r.IntN(100)), data)
				}
			}
			continue
		}
		kfillValue(fv, f.Name, r, depth)
	}
}

func kfillValue(v reflect.Value, name string, r *rand.Rand, depth int) {
	switch v.Kind() {
	case reflect.Bool:
		v.SetBool(r.IntN(2) == 0)
	case reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		bits := v.Type().Bits()
		switch r.IntN(4) {
		case 0:
			v.SetInt(0)
		case 1:
			v.SetInt(int64(r.IntN(20)) - 10)
		default:
			v.SetInt(int64(r.Uint64()) >> (64 - bits))
		}
	case reflect.Uint16, reflect.Uint32:
		v.SetUint(r.Uint64() >> (64 - v.Type().Bits()))
	case reflect.Float64:
		v.SetFloat(float64(r.IntN(1000)) / 8)
	case reflect.String:
		v.SetString(kstring(r))
	case reflect.Array: // uuid
		for i := range v.Len() {
			v.Index(i).SetUint(uint64(r.Uint32() & 0xff))
		}
	case reflect.Pointer:
		if r.IntN(4) == 0 {
			return
		}
		p := reflect.New(v.Type().Elem())
		if p.Elem().Kind() == reflect.Struct {
			p.Interface().(interface{ Default() }).Default()
			kfill(p.Elem(), r, depth+1)
		} else {
			kfillValue(p.Elem(), name, r, depth+1)
		}
		v.Set(p)
	case reflect.Slice:
		if v.Type().Elem().Kind() == reflect.Uint8 { // bytes or records
			switch {
			case r.IntN(5) == 0:
			case name == "Records":
				var b []byte
				for range r.IntN(3) {
					b = append(b, records.EmptyBatch()...)
				}
				v.SetBytes(append([]byte{}, b...))
			default:
				b := make([]byte, r.IntN(8))
				for i := range b {
					b[i] = byte(r.Uint32())
				}
				v.SetBytes(b)
			}
			return
		}
		if r.IntN(6) == 0 {
			return // nil
		}
		n := r.IntN(4)
		if depth >= 3 {
			n = min(n, 1)
		}
		s := reflect.MakeSlice(v.Type(), n, n)
		for i := range n {
			e := s.Index(i)
			if e.Kind() == reflect.Struct {
				e.Addr().Interface().(interface{ Default() }).Default()
				kfill(e, r, depth+1)
			} else {
				kfillValue(e, name, r, depth+1)
			}
		}
		v.Set(s)
	case reflect.Struct:
		kfill(v, r, depth+1)
	default:
		panic(fmt.Sprintf("kfill: field %s of kind %s", name, v.Kind()))
	}
}

func kstring(r *rand.Rand) string {
	var b strings.Builder
	for range r.IntN(6) {
		b.WriteRune(randomRunes[r.IntN(len(randomRunes))])
	}
	return b.String()
}

// TestKfillReachesShapes: the kmsg filler yields nulls, empty and
// multi-element arrays and unknown tags, so the oracle sees them.
func TestKfillReachesShapes(t *testing.T) {
	var sawNil, sawEmpty, sawMulti bool
	for i := range 64 {
		m := kmsg.NewPtrMetadataResponse()
		m.SetVersion(12)
		kfill(reflect.ValueOf(m).Elem(), rand.New(rand.NewPCG(uint64(i), 0)), 0)
		sawNil = sawNil || m.Topics == nil || slices.ContainsFunc(m.Topics, func(tp kmsg.MetadataResponseTopic) bool { return tp.Topic == nil })
		sawEmpty = sawEmpty || (m.Topics != nil && len(m.Topics) == 0)
		sawMulti = sawMulti || len(m.Topics) > 1
	}
	if !sawNil || !sawEmpty || !sawMulti {
		t.Errorf("filler shapes: nil %v, empty %v, multi %v", sawNil, sawEmpty, sawMulti)
	}
}
