package capture

import (
	"strconv"
	"strings"
	"sync"

	"kwire/codec"
	"kwire/codec/records"
	"kwire/internal/xfmt"
	"kwire/schemas"
	"kwire/schemas/atlas"
	"kwire/schemas/sets"
)

// An Audit looks for broker addresses that a proxy failed to rewrite:
// every endpoint (a host and a port side by side, the address atlas's
// fields, that a node id names: the endpoint's own or its struct's
// parent's) of a response whose host:port is not one of the advertised
// ones, and every node id that one connection's responses give two
// endpoints. Endpoints no node id names (a Streams member's
// UserEndpoint) are the application's, not a broker's, and are left out.
type Audit struct {
	// Advertised are the addresses clients should be told ("host:port");
	// none: only a node with two endpoints is a finding.
	Advertised map[string]bool
	// Checked counts the endpoints checked.
	Checked int
	seen    map[int]map[nodeKey]Leak // per connection: where each node was first seen
}

type nodeKey struct {
	node     int32
	listener string
}

// Leak is one finding: an endpoint at Path of frame N (the tree's path
// of its host field: "Brokers[1].Host").
type Leak struct {
	N        int
	Conn     int
	Key      int16
	Version  int16
	Path     string
	Host     string
	Port     int32
	Node     int32 // -1 when no node id names it
	Listener string
	// Why is "not advertised", or "node 1 is also 127.0.0.1:9092 (frame 4)".
	Why string
	// PortPath is the path of its port field.
	PortPath string
}

// Addr is the finding's "host:port".
func (l Leak) Addr() string { return JoinHostPort(l.Host, l.Port) }

// JoinHostPort is "host:port", with an IPv6 host in brackets.
func JoinHostPort(host string, port int32) string {
	for i := 0; i < len(host); i++ {
		if host[i] == ':' {
			return "[" + host + "]:" + strconv.Itoa(int(port))
		}
	}
	return host + ":" + strconv.Itoa(int(port))
}

// NewAudit returns an audit against the advertised addresses.
func NewAudit(advertised []string) *Audit {
	a := &Audit{Advertised: map[string]bool{}, seen: map[int]map[nodeKey]Leak{}}
	for _, s := range advertised {
		a.Advertised[s] = true
	}
	return a
}

// Add audits one event (call it in the capture's order), decoding the
// responses that may carry an endpoint; it returns its findings.
func (a *Audit) Add(e *Event) []Leak {
	if e.Kind != KindFrame || e.Dir != codec.Response || e.Request == nil || !Carries(e.Key) {
		return nil
	}
	f, err := e.DecodeValues(records.Limits{})
	if f == nil || f.API == nil || err != nil && f.Body.List() == nil {
		return nil
	}
	return a.Check(FrameEndpoints(e, f))
}

// FrameEndpoints is Endpoints of an event's decoded frame, with the
// event's number, connection, API key and version.
func FrameEndpoints(e *Event, f *codec.Frame) []Leak {
	if e.Kind != KindFrame || e.Dir != codec.Response || f == nil || f.API == nil || !Carries(e.Key) {
		return nil
	}
	eps := Endpoints(f)
	for i := range eps {
		eps[i].N, eps[i].Key, eps[i].Version = e.N, e.Key, e.Version
		if e.Conn != nil {
			eps[i].Conn = e.Conn.ID
		}
	}
	return eps
}

// Check audits endpoints (FrameEndpoints, in the capture's order) and
// returns the findings.
func (a *Audit) Check(eps []Leak) []Leak {
	var out []Leak
	a.Checked += len(eps)
	for _, ep := range eps {
		if len(a.Advertised) > 0 && !a.Advertised[ep.Addr()] {
			l := ep
			l.Why = "not advertised"
			out = append(out, l)
		}
		if ep.Node < 0 {
			continue
		}
		m := a.seen[ep.Conn]
		if m == nil {
			m = map[nodeKey]Leak{}
			a.seen[ep.Conn] = m
		}
		k := nodeKey{ep.Node, ep.Listener}
		first, ok := m[k]
		switch {
		case !ok:
			m[k] = ep
		case first.Host != ep.Host || first.Port != ep.Port:
			l := ep
			l.Why = "node " + strconv.Itoa(int(ep.Node)) + " is also " + first.Addr() + " (frame " + strconv.Itoa(first.N) + ")"
			out = append(out, l)
		}
	}
	return out
}

// SplitHostPort reads "host:port" or "[v6 host]:port" (a port from 1 to
// 65535), as --advertised and the explorer take them.
func SplitHostPort(s string) (host string, port int32, ok bool) {
	i := strings.LastIndexByte(s, ':')
	if i <= 0 {
		return "", 0, false
	}
	host = s[:i]
	if strings.HasPrefix(host, "[") && strings.HasSuffix(host, "]") {
		host = host[1 : len(host)-1]
	} else if strings.Contains(host, ":") {
		return "", 0, false
	}
	n, err := strconv.ParseUint(s[i+1:], 10, 16)
	if err != nil || n == 0 || host == "" {
		return "", 0, false
	}
	return host, int32(n), true
}

// ParseAdvertised reads a list of addresses, "host:port,host:port",
// into their JoinHostPort forms; the error names the one that is not.
func ParseAdvertised(s string) ([]string, error) {
	var out []string
	for _, a := range strings.Split(s, ",") {
		a = strings.TrimSpace(a)
		if a == "" {
			continue
		}
		host, port, ok := SplitHostPort(a)
		if !ok {
			return nil, xfmt.Errorf("%q is not HOST:PORT (a port from 1 to 65535)", a)
		}
		out = append(out, JoinHostPort(host, port))
	}
	if len(out) == 0 {
		return nil, xfmt.Errorf("no address: give HOST:PORT[,HOST:PORT...]")
	}
	return out, nil
}

// Endpoints lists a decoded frame's endpoints (the atlas's host and port
// fields side by side in one struct) that a node id names, with their
// paths; N, Conn, Key and Version are left zero.
func Endpoints(f *codec.Frame) []Leak {
	_, bp, err := f.Plans()
	if err != nil || !f.Body.IsList() {
		return nil
	}
	var out []Leak
	walkEndpoints(bp.Root, nil, f.Body.List(), "", -1, false, &out, 0)
	return out
}

// walkEndpoints walks one struct value: node is the node id of its
// parent struct, named whether that had one.
func walkEndpoints(sp *codec.StructPlan, parent *schemas.Field, vals []codec.Value, path string, node int32, named bool, out *[]Leak, depth int) {
	if depth > 32 {
		return
	}
	var host, port, nodeF, listener *codec.FieldPlan
	for _, fp := range sp.Fields {
		if !fp.Present || fp.Index >= len(vals) {
			continue
		}
		switch atlas.KindOf(fp.Field, parent) {
		case atlas.Host:
			host = fp
		case atlas.Port:
			port = fp
		case atlas.Listener:
			listener = fp
		case atlas.Node:
			if fp.Kind == schemas.KindInt32 && (nodeF == nil || fp.Field.EntityType == "brokerId" && nodeF.Field.EntityType != "brokerId") {
				nodeF = fp
			}
		}
	}
	if nodeF != nil {
		node, named = int32(vals[nodeF.Index].Int()), true
	}
	if host != nil && port != nil && named {
		l := Leak{Path: path + host.Field.Name, PortPath: path + port.Field.Name, Host: vals[host.Index].Str(),
			Port: int32(vals[port.Index].Int()), Node: node}
		if listener != nil {
			l.Listener = vals[listener.Index].Str()
		}
		*out = append(*out, l)
	}
	if nodeF == nil {
		node, named = -1, false
	}
	for _, fp := range sp.Fields {
		if fp.Struct == nil || !fp.Present || fp.Index >= len(vals) {
			continue
		}
		v := vals[fp.Index]
		if v.IsNull() || !v.IsList() {
			continue
		}
		if fp.Kind == schemas.KindArray {
			for i, el := range v.List() {
				if el.IsList() {
					walkEndpoints(fp.Struct, fp.Field, el.List(), path+fp.Field.Name+"["+strconv.Itoa(i)+"].", node, named, out, depth+1)
				}
			}
			continue
		}
		walkEndpoints(fp.Struct, fp.Field, v.List(), path+fp.Field.Name+".", node, named, out, depth+1)
	}
}

// carries caches Carries by API key.
var carries struct {
	sync.Mutex
	keys map[int16]bool
}

// Carries says whether responses of an API may carry an endpoint: the
// newest release's response schema of it has a host field (the atlas's),
// so that the others need not be decoded.
func Carries(key int16) bool {
	carries.Lock()
	defer carries.Unlock()
	if c, ok := carries.keys[key]; ok {
		return c
	}
	if carries.keys == nil {
		carries.keys = map[int16]bool{}
	}
	c := false
	if s, err := sets.Load(sets.Newest()); err == nil {
		if api := s.APIByKey(key); api != nil && api.Response != nil {
			c = hasHost(api.Response.Fields, nil, 0)
		}
	}
	carries.keys[key] = c
	return c
}

func hasHost(fs []*schemas.Field, parent *schemas.Field, depth int) bool {
	for _, f := range fs {
		if atlas.KindOf(f, parent) == atlas.Host {
			return true
		}
		if f.Struct != nil && depth < 16 && hasHost(f.Struct.Fields, f, depth+1) {
			return true
		}
	}
	return false
}
