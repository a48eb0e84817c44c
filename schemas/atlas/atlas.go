// Package atlas finds, in the schemas of each release, every field that
// carries a broker's address or names a broker: a host, a port, a node
// id, a listener or a rack, per API, direction and version, tagged fields
// and common structs included, with the release that added it. It is
// derived from the schemas alone (a field's entityType, its name, its
// about text), so that a new release's new field is found without a
// change here; the tests hold it to a list written by hand.
package atlas

import (
	"sort"
	"strings"

	"kwire/schemas"
	"kwire/schemas/sets"
)

// Kind is what an address field carries.
type Kind uint8

// The kinds of address fields.
const (
	None Kind = iota
	Host
	Port
	Node
	Listener
	Rack
)

var kindNames = [...]string{None: "", Host: "host", Port: "port", Node: "node", Listener: "listener", Rack: "rack"}

func (k Kind) String() string { return kindNames[k] }

// says reports whether an about text has one of the words (a word is a
// run of letters; case is ignored), or, for a word of several, the
// words in a row.
func says(about string, words ...string) bool {
	text := " " + strings.Join(strings.FieldsFunc(strings.ToLower(about), func(r rune) bool {
		return !(r >= 'a' && r <= 'z')
	}), " ") + " "
	for _, w := range words {
		if strings.Contains(text, " "+w+" ") {
			return true
		}
	}
	return false
}

// nodeSuffixes end the names of int32 fields that hold a broker's node id
// in schemas that do not mark them with entityType brokerId.
var nodeSuffixes = []string{"NodeId", "BrokerId", "LeaderId", "ControllerId", "VoterId", "CoordinatorId", "ReplicaId"}

// KindOf says what address a field carries, if any: parent is the field
// whose struct holds it (nil at the top of a message), for a listener's
// name, which its struct's name tells.
//   - a node id: entityType brokerId, or an int32 (or array of them)
//     named ...NodeId, ...BrokerId, ...LeaderId, ...ControllerId,
//     ...VoterId, ...CoordinatorId or ...ReplicaId;
//   - a host: a string named ...Host or whose about text says host;
//   - a port: an int32 or uint16 named ...Port or whose about text says
//     port;
//   - a listener: a string named ...Listener... or whose about text says
//     listener or "name of the endpoint", or the Name of a struct of
//     Listeners;
//   - a rack: a string named ...Rack... or whose about text says rack.
func KindOf(f, parent *schemas.Field) Kind {
	t := f.Type.Kind
	elem := t
	if t == schemas.KindArray && f.Type.Elem != nil {
		elem = f.Type.Elem.Kind
	}
	if (elem == schemas.KindInt32) && (f.EntityType == "brokerId" || hasSuffix(f.Name, nodeSuffixes)) {
		return Node
	}
	if t == schemas.KindString {
		switch {
		case strings.Contains(f.Name, "Listener") || says(f.About, "listener", "listeners", "name of the endpoint") ||
			f.Name == "Name" && parent != nil && strings.Contains(parent.Name, "Listener"):
			return Listener
		case strings.HasSuffix(f.Name, "Host") || says(f.About, "host", "hosts", "hostname", "hostnames"):
			return Host
		case strings.Contains(f.Name, "Rack") || says(f.About, "rack", "racks"):
			return Rack
		}
	}
	if (t == schemas.KindInt32 || t == schemas.KindUint16) && (strings.HasSuffix(f.Name, "Port") || says(f.About, "port", "ports")) {
		return Port
	}
	return None
}

func hasSuffix(s string, suffixes []string) bool {
	for _, x := range suffixes {
		if strings.HasSuffix(s, x) {
			return true
		}
	}
	return false
}

// Field is one address field of one API and direction in one release.
type Field struct {
	Key  int16
	API  string // "Metadata"
	Dir  schemas.Direction
	Path string // "Brokers[].Host"; a common struct's fields under the field that holds it
	Kind Kind
	Type string // "string", "[]int32"
	// Versions are the message's versions that have the field.
	Versions schemas.Versions
	// Tag is the tag of the tagged field it is or is in, else -1.
	Tag int
	// Common is the common struct the field is in ("" for none).
	Common     string
	EntityType string
	About      string
	// Added is the oldest release that has the field at this path in
	// this API and direction (the oldest release kwire knows when it
	// has it: the field may be older).
	Added string
}

// ID is the field's API, direction and path: "Metadata response Brokers[].Host".
func (f Field) ID() string { return f.API + " " + f.Dir.String() + " " + f.Path }

// Of lists the address fields of a set: by API key, requests before
// responses, then in schema order.
func Of(s *schemas.Set) []Field {
	var out []Field
	for _, a := range s.APIs() {
		if a.Removed() {
			continue
		}
		for _, d := range []schemas.Direction{schemas.Request, schemas.Response} {
			m := d.Schema(a)
			if m == nil {
				continue
			}
			w := walker{api: a, dir: d, out: &out}
			w.fields(m.Fields, nil, "", m.ValidVersions, -1, 0)
		}
	}
	return out
}

type walker struct {
	api *schemas.API
	dir schemas.Direction
	out *[]Field
}

func (w walker) fields(fs []*schemas.Field, parent *schemas.Field, prefix string, vs schemas.Versions, tag, depth int) {
	if depth > 16 {
		return
	}
	common := ""
	if parent != nil && parent.Struct != nil && parent.Struct.Common {
		common = parent.Struct.Name
	}
	for _, f := range fs {
		fv := f.Versions.Intersect(vs)
		if fv.None || fv.Hi < fv.Lo {
			continue
		}
		path := prefix + f.Name
		ftag := tag
		if f.Tagged() {
			ftag = f.Tag
		}
		if k := KindOf(f, parent); k != None {
			*w.out = append(*w.out, Field{Key: w.api.Key, API: w.api.Name, Dir: w.dir, Path: path, Kind: k,
				Type: f.Type.Name, Versions: fv, Tag: ftag, Common: common, EntityType: f.EntityType, About: f.About})
		}
		if f.Struct != nil {
			sub := path + "."
			if f.Type.Kind == schemas.KindArray {
				sub = path + "[]."
			}
			w.fields(f.Struct.Fields, f, sub, fv, ftag, depth+1)
		}
	}
}

// Atlas is the address fields of every release, each field with the
// release that added it.
type Atlas struct {
	// Releases are the releases, oldest first, and Fields each one's.
	Releases []sets.Release
	Fields   map[string][]Field
}

// Load builds the atlas of every release kwire knows.
func Load() (*Atlas, error) {
	rs := sets.Releases()
	ss := make([]*schemas.Set, len(rs))
	for i, r := range rs {
		s, err := sets.Load(r.Name)
		if err != nil {
			return nil, err
		}
		ss[i] = s
	}
	return Build(rs, ss), nil
}

// Build builds the atlas of the sets ss, of the releases rs, oldest
// first.
func Build(rs []sets.Release, ss []*schemas.Set) *Atlas {
	at := &Atlas{Releases: rs, Fields: map[string][]Field{}}
	added := map[string]string{}
	for i, r := range rs {
		fs := Of(ss[i])
		for i := range fs {
			id := fs[i].ID()
			if _, ok := added[id]; !ok {
				added[id] = r.Name
			}
			fs[i].Added = added[id]
		}
		at.Fields[r.Name] = fs
	}
	return at
}

// New lists the fields a release added: those whose Added is it (none for
// the oldest release, whose fields may be older).
func (at *Atlas) New(release string) []Field {
	if len(at.Releases) > 0 && at.Releases[0].Name == release {
		return nil
	}
	var out []Field
	for _, f := range at.Fields[release] {
		if f.Added == release {
			out = append(out, f)
		}
	}
	return out
}

// Sorted is fields ordered by API key, direction and path (a copy).
func Sorted(fs []Field) []Field {
	out := append([]Field(nil), fs...)
	sort.SliceStable(out, func(i, j int) bool {
		a, b := out[i], out[j]
		if a.Key != b.Key {
			return a.Key < b.Key
		}
		if a.Dir != b.Dir {
			return a.Dir < b.Dir
		}
		return a.Path < b.Path
	})
	return out
}
