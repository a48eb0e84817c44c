package capture

import (
	"encoding/binary"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"kwire/codec"
	"kwire/codec/records"
	"kwire/internal/xfmt"
	"kwire/schemas"
	"kwire/schemas/sets"
)

// keyApiVersions is ApiVersions' key.
const keyApiVersions = 18

// An Upgrade gathers, from a capture's events in order, what its clients
// used, to say what a target release would refuse of it (Report). Add
// reads a request's header from its bytes and decodes only ApiVersions
// frames (the client's software, the broker's ranges).
type Upgrade struct {
	clients map[clientKey]*Client
	order   []*Client
	conns   map[int]*connInfo
	brokers map[string]*Broker
	border  []*Broker
}

type clientKey struct{ id, name, version string }

type connInfo struct {
	name, version string // ApiVersions v3+'s ClientSoftwareName and ...Version
	adv           map[int16]schemas.Versions
}

// Client is one client of a capture: its client id (the request
// header's), the software it named in ApiVersions v3 and later, and
// what it sent.
type Client struct {
	ID, Software, SoftwareVersion string
	Conns                         []int
	// Used counts the requests by API key and version.
	Used []Use
	// Refused and Hints are filled by Report.
	Refused []Refusal
	Hints   []Hint
	used    map[[2]int16]int
	newest  map[int16]int16 // the highest version each broker offered, by key
	merged  map[int]bool    // the connections whose ranges newest holds
}

// Use is how many requests of one API version a client sent.
type Use struct {
	Key, Version int16
	API          string
	Count        int
}

// Refusal is a target release's refusal of an API version a client sent
// (sets.Refuses), with how many times it did.
type Refusal struct {
	sets.Refusal
	Count int
}

// Hint is an API for which a client used an older version than both the
// broker it talked to (its ApiVersions response) and the target release
// have: not an error, but a newer client would use Newest.
type Hint struct {
	Key, Version int16
	API          string
	Newest       int16
	Count        int
}

// Broker is one broker address of the capture, with the release its
// ApiVersions responses match (sets.Describe; "" when none was seen).
type Broker struct {
	Addr    string
	Release string
	Matches []string // the releases that match exactly
}

// NewUpgrade returns an empty Upgrade.
func NewUpgrade() *Upgrade {
	return &Upgrade{clients: map[clientKey]*Client{}, conns: map[int]*connInfo{}, brokers: map[string]*Broker{}}
}

// Add takes one event (call it in the capture's order).
func (u *Upgrade) Add(e *Event) {
	if e.Kind != KindFrame || e.Conn == nil || e.Incomplete != "" {
		return
	}
	ci := u.conns[e.Conn.ID]
	if ci == nil {
		ci = &connInfo{}
		u.conns[e.Conn.ID] = ci
	}
	if e.Dir == codec.Response {
		if e.Request != nil && e.Key == keyApiVersions {
			u.advertised(e, ci)
		}
		return
	}
	if len(e.Data) < 12 {
		return
	}
	key, version := int16(binary.BigEndian.Uint16(e.Data[4:])), int16(binary.BigEndian.Uint16(e.Data[6:]))
	if key == keyApiVersions && version >= 3 {
		if f, err := e.DecodeValues(records.Limits{}); err == nil && f.API != nil {
			ci.name, ci.version = bodyString(f, "ClientSoftwareName"), bodyString(f, "ClientSoftwareVersion")
		}
	}
	k := clientKey{ClientID(e.Data), ci.name, ci.version}
	c := u.clients[k]
	if c == nil {
		c = &Client{ID: k.id, Software: k.name, SoftwareVersion: k.version, used: map[[2]int16]int{}, newest: map[int16]int16{}, merged: map[int]bool{}}
		u.clients[k] = c
		u.order = append(u.order, c)
	}
	if !slices.Contains(c.Conns, e.Conn.ID) {
		c.Conns = append(c.Conns, e.Conn.ID)
	}
	c.used[[2]int16{key, version}]++
	if ci.adv != nil && !c.merged[e.Conn.ID] {
		c.merged[e.Conn.ID] = true
		for k, vs := range ci.adv {
			if old, ok := c.newest[k]; !ok || vs.Hi > old {
				c.newest[k] = vs.Hi
			}
		}
	}
}

// advertised keeps a broker's ApiVersions response: its ranges for the
// connection, its release for the broker.
func (u *Upgrade) advertised(e *Event, ci *connInfo) {
	f, err := e.DecodeValues(records.Limits{})
	if err != nil {
		return
	}
	adv := f.Advertised()
	if len(adv) == 0 {
		return
	}
	ci.adv = map[int16]schemas.Versions{}
	for _, a := range adv {
		ci.adv[a.Key] = a.Versions
	}
	addr := e.Conn.Broker.String()
	if u.brokers[addr] == nil {
		ms := sets.MatchAdvertised(adv)
		b := &Broker{Addr: addr, Release: sets.Describe(ms)}
		for _, m := range ms {
			if len(m.Differ) == 0 {
				b.Matches = append(b.Matches, m.Release.Name)
			}
		}
		u.brokers[addr] = b
		u.border = append(u.border, b)
	}
}

// bodyString is a string field of a frame's body ("" when it has none).
func bodyString(f *codec.Frame, name string) string {
	_, bp, err := f.Plans()
	if err != nil {
		return ""
	}
	fp := bp.Root.Field(name)
	if fp == nil || !fp.Present || fp.Index >= len(f.Body.List()) {
		return ""
	}
	return f.Body.List()[fp.Index].Str()
}

// ClientID reads the client id of a request frame's header (size, key,
// version, correlation id, then the nullable string client id of
// request header v1 and later); "" when it has none (ControlledShutdown
// v0's header is v0, without one).
func ClientID(frame []byte) string {
	if len(frame) < 14 || binary.BigEndian.Uint32(frame[4:]) == 7<<16 {
		return ""
	}
	n := int(int16(binary.BigEndian.Uint16(frame[12:])))
	if n < 0 || 14+n > len(frame) {
		return ""
	}
	s := string(frame[14 : 14+n])
	if !utf8.ValidString(s) {
		return ""
	}
	return s
}

// Report is what a capture's clients would meet in a target release.
type Report struct {
	Against sets.Release
	Clients []*Client
	Brokers []*Broker
	// Refused is every client's refusals together, by API and version.
	Refused []Refusal
}

// Report says, for each client, what the target release would refuse of
// what it sent, and where it used an older version than both its broker
// and the target offer.
func (u *Upgrade) Report(target string) (*Report, error) {
	ts, err := sets.Load(target)
	if err != nil {
		return nil, err
	}
	r := &Report{Against: sets.ReleaseOf(target), Clients: u.order, Brokers: u.border}
	all := map[[2]int16]*Refusal{}
	var keys [][2]int16
	for _, c := range u.order {
		c.Used, c.Refused, c.Hints = nil, nil, nil
		for kv, n := range c.used {
			c.Used = append(c.Used, Use{Key: kv[0], Version: kv[1], API: APIName(kv[0]), Count: n})
		}
		sort.Slice(c.Used, func(i, j int) bool {
			if c.Used[i].Key != c.Used[j].Key {
				return c.Used[i].Key < c.Used[j].Key
			}
			return c.Used[i].Version < c.Used[j].Version
		})
		for _, use := range c.Used {
			ref, refused, err := sets.Refuses(target, use.Key, use.Version)
			if err != nil {
				return nil, err
			}
			// A broker answers an ApiVersions request newer than its own
			// with its versions, for the client to retry (KIP-511): not
			// a refusal.
			if refused && use.Key == keyApiVersions && ref.Instead >= 0 && use.Version > ref.Instead {
				refused = false
			}
			if refused {
				c.Refused = append(c.Refused, Refusal{ref, use.Count})
				kv := [2]int16{use.Key, use.Version}
				if all[kv] == nil {
					all[kv] = &Refusal{ref, 0}
					keys = append(keys, kv)
				}
				all[kv].Count += use.Count
				continue
			}
			hi, ok := c.newest[use.Key]
			a := ts.APIByKey(use.Key)
			if !ok || a == nil || a.Removed() {
				continue
			}
			if both := min(hi, a.Request.ValidVersions.Hi); both > use.Version && !laterUse(c.Used, use) {
				c.Hints = append(c.Hints, Hint{Key: use.Key, Version: use.Version, API: use.API, Newest: both, Count: use.Count})
			}
		}
	}
	sort.Slice(keys, func(i, j int) bool {
		if keys[i][0] != keys[j][0] {
			return keys[i][0] < keys[j][0]
		}
		return keys[i][1] < keys[j][1]
	})
	for _, kv := range keys {
		r.Refused = append(r.Refused, *all[kv])
	}
	return r, nil
}

// laterUse says whether a client also used a newer version of the API
// (then its old one is not a hint: ApiVersions v0 before v3 is how
// clients start).
func laterUse(used []Use, u Use) bool {
	for _, o := range used {
		if o.Key == u.Key && o.Version > u.Version {
			return true
		}
	}
	return false
}

// Lines is the report as text, a line for the target, one per broker,
// then per client its APIs and versions, refusals and hints (not
// escaped: client ids and software names are the capture's).
func (r *Report) Lines() []string {
	var out []string
	out = append(out, "Against "+r.Against.String()+":")
	for _, b := range r.Brokers {
		out = append(out, "  broker "+b.Addr+": "+b.Release)
	}
	for _, c := range r.Clients {
		who := strconv.Quote(c.ID)
		if c.Software != "" {
			who += " (" + c.Software + " " + c.SoftwareVersion + ")"
		}
		conns := "1 connection"
		if len(c.Conns) != 1 {
			conns = strconv.Itoa(len(c.Conns)) + " connections"
		}
		out = append(out, "  client "+who+", "+conns+":")
		var used []string
		for _, u := range c.Used {
			used = append(used, xfmt.Sprintf("%s v%d ×%d", u.API, u.Version, u.Count))
		}
		out = append(out, "    used: "+strings.Join(used, ", "))
		if len(c.Refused) == 0 {
			out = append(out, "    "+r.Against.Name+" refuses none of it")
		}
		for _, f := range c.Refused {
			line := xfmt.Sprintf("    refused: %s v%d ×%d: %s", f.API, f.Version, f.Count, f.Why)
			if f.Instead >= 0 {
				line += xfmt.Sprintf("; works if the client supports v%d", f.Instead)
			}
			out = append(out, line)
		}
		for _, h := range c.Hints {
			out = append(out, xfmt.Sprintf("    hint: %s v%d ×%d: the broker and %s both have up to v%d", h.API, h.Version, h.Count, r.Against.Name, h.Newest))
		}
	}
	return out
}
