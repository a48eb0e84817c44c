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
	byReq   map[[2]int16][]int // request entries by key and version
	err     error
}

var (
	catOnce sync.Once
	cat     catalog
)

// load builds the catalog once: releases newest first, so that a layout
// that several releases share is listed with the newest.
func load() *catalog {
	catOnce.Do(func() { cat = build() })
	return &cat
}

// Reset forgets the catalog, to be built again from the releases known
// now (after sets.UseDir or sets.Provide).
func Reset() { catOnce = sync.Once{} }

func build() catalog {
	c := catalog{byReq: map[[2]int16][]int{}}
	rs := sets.Releases()
	layouts := map[string]int{}
	fp := fingerprinter{memo: map[*codec.StructPlan]string{}}
	seen := map[string]bool{} // dir/key/version/layout already listed
	var newest *schemas.Set
	for i := len(rs) - 1; i >= 0; i-- {
		s, err := sets.Load(rs[i].Name)
		if err != nil {
			c.err = err
			continue
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
					if seen[key] {
						continue
					}
					seen[key] = true
					id, ok := layouts[wire]
					if !ok {
						id = len(layouts)
						layouts[wire] = id
					}
					e := entry{set: s, api: a, version: v, dir: dir, body: bp, header: hp, layout: id}
					e.prior = prior(e, newest)
					e.words = apiWords(a)
					if dir == codec.Request {
						k := [2]int16{a.Key, v}
						c.byReq[k] = append(c.byReq[k], len(c.entries))
					}
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
