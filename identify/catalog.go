package identify

import (
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
	seen := map[string]int{} // dir/key/version/layout: its entry
	var newest *schemas.Set
	for i := len(rs) - 1; i >= 0; i-- {
		s, err := sets.Load(rs[i].Name)
		if err != nil {
			continue // a release that does not load is left out
		}
		if newest == nil {
			newest = s
		}
		for _, a := range s.APIs {
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
							e.prior, e.words = prior(*e, newest), apiWords(a)
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
					e.prior = prior(e, newest)
					e.words = apiWords(a)
					c.entries = append(c.entries, e)
				}
			}
		}
	}
	return c
}

// everyday are the APIs of producers and consumers, which most of the
// traffic between clients and brokers is; the others (admin calls) are
// rarer.
var everyday = []string{
	"Produce", "Fetch", "ListOffsets", "Metadata", "OffsetCommit", "OffsetFetch", "FindCoordinator",
	"JoinGroup", "Heartbeat", "LeaveGroup", "SyncGroup", "SaslHandshake", "ApiVersions", "InitProducerId",
	"OffsetForLeaderEpoch", "AddPartitionsToTxn", "AddOffsetsToTxn", "EndTxn", "TxnOffsetCommit",
	"SaslAuthenticate", "ConsumerGroupHeartbeat", "GetTelemetrySubscriptions", "PushTelemetry",
	"ShareGroupHeartbeat", "ShareFetch", "ShareAcknowledge",
}

// prior is the penalty of a candidate before its bytes are read: APIs
// that clients do not send (controller-only ones), APIs the newest release
// removed and unstable versions are less likely, and admin calls a little
// less likely than the APIs of producers and consumers.
func prior(e entry, newest *schemas.Set) float64 {
	p := 0.0
	switch {
	case !slices.Contains(e.api.Request.Listeners, "broker") && !slices.Contains(e.api.Request.Listeners, "zkBroker"):
		p += 1
	case !slices.Contains(everyday, e.api.Name):
		p += 0.3
	}
	if newest != nil {
		if na := newest.APIByKey(e.api.Key); na == nil || na.Removed() {
			p += 1
		}
	}
	if sets.Unstable(e.api, e.version) {
		p += 1
	}
	return p
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
