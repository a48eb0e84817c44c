package identify

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"sync"

	"kwire/codec"
	"kwire/schemas"
	"kwire/schemas/sets"
)

// entry is one distinct layout of an API version in one direction: the
// newest release that has it, its plans and its prior penalty.
type entry struct {
	set     *schemas.Set
	api     *schemas.API
	version int16
	dir     codec.Direction
	body    *codec.Plan
	header  *codec.Plan
	layout  int     // the same number for the same wire layout, whatever the API
	prior   float64 // penalty before any byte is read
	words   string  // the API's name, field and struct names, in capitals
}

// catalog holds every distinct layout of every release.
type catalog struct {
	entries []entry
	newest  *schemas.Set // the newest release when it was built
}

var (
	catMu sync.Mutex
	cat   *catalog
)

// load returns the catalog of the releases known now, built on first use
// and again when they change (sets.UseDir, sets.Provide).
func load() *catalog {
	catMu.Lock()
	defer catMu.Unlock()
	var newest *schemas.Set
	if rs := sets.Releases(); len(rs) > 0 {
		newest, _ = sets.Load(rs[len(rs)-1].Name)
	}
	if cat == nil || cat.newest != newest {
		c := build()
		c.newest = newest
		cat = &c
	}
	return cat
}

func build() catalog {
	var c catalog
	rs := sets.Releases()
	layouts := map[string]int{}
	fp := fingerprinter{memo: map[*codec.StructPlan]string{}}
	seen := map[string]int{}  // dir/key/version/layout: its entry
	var loaded []*schemas.Set // newest first
	for i := len(rs) - 1; i >= 0; i-- {
		if s, err := sets.Load(rs[i].Name); err == nil {
			loaded = append(loaded, s) // a release that does not load is left out
		}
	}
	if len(loaded) == 0 {
		return c
	}
	newest := loaded[0]
	for _, s := range loaded {
		for _, a := range s.APIs() {
			if a.Removed() {
				continue
			}
			for _, dir := range []codec.Direction{codec.Request, codec.Response} {
				m := dir.Schema(a)
				hm := s.RequestHeader
				if dir == codec.Response {
					hm = s.ResponseHeader
				}
				if m == nil || hm == nil {
					continue
				}
				for v := m.ValidVersions.Lo; v <= m.ValidVersions.Hi && !m.ValidVersions.None; v++ {
					bp, err := codec.PlanFor(m, v)
					if err != nil {
						continue
					}
					hp, err := codec.PlanFor(hm, codec.HeaderVersion(a, v, dir))
					if err != nil {
						continue
					}
					wire := fp.of(bp.Root)
					key := dir.String() + "/" + strconv.Itoa(int(a.Key)) + "/" + strconv.Itoa(int(v)) + "/" + wire
					if i, ok := seen[key]; ok {
						// An older release has it too: it is listed with
						// the newest, unless only an older one has it
						// stable (as sets.ForVersion chooses).
						if e := &c.entries[i]; sets.Unstable(e.api, v) && !sets.Unstable(a, v) {
							e.set, e.api, e.body, e.header = s, a, bp, hp
							e.prior, e.words = prior(*e, newest, loaded), apiWords(a)
						}
						continue
					}
					seen[key] = len(c.entries)
					id, ok := layouts[wire]
					if !ok {
						id = len(layouts)
						layouts[wire] = id
					}
					e := entry{set: s, api: a, version: v, dir: dir, body: bp, header: hp, layout: id}
					e.prior = prior(e, newest, loaded)
					e.words = apiWords(a)
					c.entries = append(c.entries, e)
				}
			}
		}
	}
	return c
}

// versionShare is one API version's share of the responses of real
// traffic (sent.go).
type versionShare struct {
	key, version int16
	share        float64
}

// The priors: how often clients send an API and a version, counted in
// the labelled corpora (sent.go: real clients against a real broker,
// a real cluster, kgo against kfake), which alone decides between APIs
// whose responses read the same values (a Heartbeat's, an EndTxn's and a
// LeaveGroup's: a throttle time and an error code; an OffsetCommit's and
// an AddPartitionsToTxn's: topics of partitions with an error code). The
// penalty of an API is wAPI times the log of how many times less often
// it is sent than the most sent (Fetch); of a version, wVersion times the
// log of how many times less often than its API's most sent version.
const (
	wAPI     = 0.12
	wVersion = 0.05
)

// The priors of what no corpus holds, as a share of the responses: a
// fraction of the rarest API seen. An admin call that reads
// (Describe..., List...), which tools that watch a cluster poll; one that
// changes something, which a person or an operator does; an API that
// clients do not send, between brokers and controllers.
const (
	unseenRead, unseenWrite, unseenInternal = 0.5, 0.25, 0.02
	// A version no corpus holds: older than the newest of every known
	// release (only brokers older than those releases answer with it),
	// or not.
	penOldVersion, penUnseenVersion = 0.25, 0.1
	// An API that the oldest known release does not have, or not as
	// stable: fewer brokers answer it, fewer clients send it.
	penNewAPI = 0.1
	// An API the newest release removed, or a version a release has but
	// does not call stable yet.
	penGone, penUnstable = 1, 1
)

// shares is traffic by API: each API's share, its versions' shares, the
// most sent API's and the rarest's.
type shares struct {
	api          map[int16]float64
	version      map[Seen]float64
	top          map[int16]float64 // an API's most sent version's share
	most, rarest float64
}

var trafficShares = sync.OnceValue(func() shares {
	s := shares{api: map[int16]float64{}, version: map[Seen]float64{}, top: map[int16]float64{}, rarest: 1}
	for _, t := range sent {
		s.api[t.key] += t.share
		s.version[Seen{t.key, t.version}] = t.share
		s.top[t.key] = max(s.top[t.key], t.share)
	}
	for _, x := range s.api {
		s.most, s.rarest = max(s.most, x), min(s.rarest, x)
	}
	return s
})

// prior is the penalty of a candidate before its bytes are read: how
// often clients send its API and version in the traffic counted
// (sent.go), or for an API none sent, whether it is an admin call or
// internal; less likely for APIs the newest release removed or the oldest
// does not have, unstable versions and unseen versions that no known
// release uses as its newest.
func prior(e entry, newest *schemas.Set, rs []*schemas.Set) float64 {
	t := trafficShares()
	share, seen := t.api[e.api.Key]
	if !seen {
		switch {
		case !slices.Contains(e.api.Request.Listeners, "broker") && !slices.Contains(e.api.Request.Listeners, "zkBroker"):
			share = unseenInternal * t.rarest
		case strings.HasPrefix(e.api.Name, "Describe") || strings.HasPrefix(e.api.Name, "List"):
			share = unseenRead * t.rarest
		default:
			share = unseenWrite * t.rarest
		}
	}
	p := wAPI * math.Log(t.most/share)
	if newest != nil {
		if na := newest.APIByKey(e.api.Key); na == nil || na.Removed() {
			p += penGone
		}
	}
	if sets.Unstable(e.api, e.version) {
		p += penUnstable
	}
	if vs, ok := t.version[Seen{e.api.Key, e.version}]; ok {
		p += wVersion * math.Log(t.top[e.api.Key]/vs)
	} else {
		old := true
		for _, s := range rs {
			old = old && newestStable(s, e.api.Key) != e.version
		}
		if old {
			p += penOldVersion
		} else {
			p += penUnseenVersion
		}
	}
	if newestStable(rs[len(rs)-1], e.api.Key) < 0 {
		p += penNewAPI
	}
	return p
}

// newestStable is the newest stable version of an API in a release, -1
// when the release does not have it.
func newestStable(s *schemas.Set, key int16) int16 {
	a := s.APIByKey(key)
	if a == nil || a.Removed() {
		return -1
	}
	v := a.Request.ValidVersions.Hi
	if sets.Unstable(a, v) {
		v--
	}
	return v
}

// apiWords is the text an error code's name is checked against: the
// API's name and the names, struct names and entity types of the fields of
// its request and response, in capitals.
func apiWords(a *schemas.API) string {
	var b strings.Builder
	b.WriteString(strings.ToUpper(a.Name))
	var walk func([]*schemas.Field)
	walk = func(fs []*schemas.Field) {
		for _, f := range fs {
			b.WriteString(" " + strings.ToUpper(f.Name+" "+f.EntityType))
			if f.Struct != nil {
				b.WriteString(" " + strings.ToUpper(f.Struct.Name))
				walk(f.Struct.Fields)
			}
		}
	}
	walk(a.Request.Fields)
	walk(a.Response.Fields)
	return b.String()
}

// fingerprinter writes the wire layout of a struct plan as text: what a
// decoder reads, in order, without names. Two plans with the same text
// decode the same bytes the same way.
type fingerprinter struct {
	memo map[*codec.StructPlan]string
}

func (f *fingerprinter) of(sp *codec.StructPlan) string {
	if s, ok := f.memo[sp]; ok {
		return s
	}
	var b strings.Builder
	if sp.Flexible {
		b.WriteByte('F')
	}
	b.WriteByte('{')
	for _, fp := range sp.Wire {
		f.field(&b, fp)
	}
	for _, fp := range sp.Tagged {
		b.WriteString("t" + strconv.Itoa(fp.Field.Tag))
		f.field(&b, fp)
	}
	b.WriteByte('}')
	s := b.String()
	f.memo[sp] = s
	return s
}

func (f *fingerprinter) field(b *strings.Builder, fp *codec.FieldPlan) {
	b.WriteString(fp.Kind.String())
	if fp.Kind == schemas.KindArray {
		b.WriteString("[" + fp.Elem.String() + "]")
	}
	if fp.Nullable {
		b.WriteByte('?')
	}
	if fp.Compact {
		b.WriteByte('c')
	}
	if fp.Struct != nil {
		b.WriteString(f.of(fp.Struct))
	}
	b.WriteByte(',')
}
