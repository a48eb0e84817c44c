package sets

import (
	"io/fs"
	"sort"
	"strconv"
	"strings"

	"kwire/internal/xfmt"
	"kwire/schemas"
)

// Auto is the set name that chooses a release per frame: the newest
// release that has the frame's API version (see ForVersion). Where no
// frame names a version (listing APIs, the smallest instance), it is the
// newest release.
const Auto = "auto"

// Release describes one set: its name, the Kafka version and date its
// SOURCE file gives ("4.3.1", "2026-06-17"; empty when it has none).
type Release struct {
	Name    string
	Version string
	Date    string
}

// String is "trunk (4.5.0-SNAPSHOT, 2026-08-23)", or the name alone.
func (r Release) String() string {
	switch {
	case r.Version != "" && r.Date != "":
		return r.Name + " (" + r.Version + ", " + r.Date + ")"
	case r.Version != "":
		return r.Name + " (" + r.Version + ")"
	}
	return r.Name
}

// ParseSource reads a set's SOURCE file: "Apache Kafka 4.3.1" on its first
// line, then "key: value" lines of which "date" is used.
func ParseSource(name, src string) Release {
	r := Release{Name: name}
	for i, line := range strings.Split(src, "\n") {
		line = strings.TrimSpace(line)
		if i == 0 {
			r.Version = strings.TrimSpace(strings.TrimPrefix(line, "Apache Kafka"))
			continue
		}
		if v, ok := strings.CutPrefix(line, "date:"); ok {
			r.Date = strings.TrimSpace(v)
		}
	}
	return r
}

// Releases lists the sets oldest first: by the Kafka version their SOURCE
// names (a snapshot after its release), then by name, with sets that name
// no version last but before none, and "trunk" newest among equals.
func Releases() []Release {
	mu.Lock()
	defer mu.Unlock()
	return append([]Release(nil), releases()...)
}

// releases is Releases with mu held; the list is shared, not to be changed.
func releases() []Release {
	if releaseList == nil {
		for _, n := range names(data) {
			src, _ := readSource(n)
			releaseList = append(releaseList, ParseSource(n, src))
		}
		sortReleases(releaseList)
	}
	return releaseList
}

func sortReleases(rs []Release) {
	sort.SliceStable(rs, func(i, j int) bool { return releaseLess(rs[i], rs[j]) })
}

func readSource(name string) (string, error) {
	b, err := fs.ReadFile(data, "data/"+name+"/SOURCE")
	return string(b), err
}

// releaseLess orders two releases by Kafka version: numbers compared as
// numbers, a "-SNAPSHOT" or other suffix after the plain version; a
// release without a version by its name, "trunk" last.
func releaseLess(a, b Release) bool {
	ka, kb := versionKey(a), versionKey(b)
	if keyLess(ka, kb) || keyLess(kb, ka) {
		return keyLess(ka, kb)
	}
	if (a.Name == "trunk") != (b.Name == "trunk") {
		return b.Name == "trunk"
	}
	return a.Name < b.Name
}

// keyLess orders two versionKeys.
func keyLess(ka, kb []int) bool {
	for i := range min(len(ka), len(kb)) {
		if ka[i] != kb[i] {
			return ka[i] < kb[i]
		}
	}
	return len(ka) < len(kb)
}

// versionKey is a release's version as numbers: 4.5.0-SNAPSHOT is
// [4 5 0 0] and 4.5.0 is [4 5 0 1], so a snapshot comes before its
// release; without a version the set's name is read as one ("3.9").
func versionKey(r Release) []int {
	v := r.Version
	if v == "" {
		v = r.Name
	}
	plain, suffix, _ := strings.Cut(v, "-")
	var key []int
	for _, p := range strings.Split(plain, ".") {
		n, err := strconv.Atoi(p)
		if err != nil {
			if r.Name == "trunk" {
				return []int{1 << 30}
			}
			return []int{-1}
		}
		key = append(key, n)
	}
	for len(key) < 3 {
		key = append(key, 0)
	}
	if suffix != "" {
		return append(key, 0)
	}
	return append(key, 1)
}

// Newest is the name of the newest release ("" when there is none).
func Newest() string {
	rs := Releases()
	if len(rs) == 0 {
		return ""
	}
	return rs[len(rs)-1].Name
}

// ReleaseOf returns the release of a set by name.
func ReleaseOf(name string) Release {
	mu.Lock()
	defer mu.Unlock()
	for _, r := range releases() {
		if r.Name == name {
			return r
		}
	}
	return Release{Name: name}
}

// A VersionError says that no release has an API version, and what the
// newest release has.
type VersionError struct {
	Key      int16
	Version  int16
	Response bool
	// Name is the message's name in the newest release that has the
	// API ("FetchRequest"), or "" when none has it.
	Name string
	// Hi is the highest version of the newest release that has the API,
	// Newest that release.
	Hi     int16
	Newest Release
}

func (e *VersionError) Error() string {
	dir := "request"
	if e.Response {
		dir = "response"
	}
	if e.Name == "" {
		return xfmt.Sprintf("no release kwire knows has an API with key %d (the newest is %s)", e.Key, e.Newest)
	}
	if e.Version > e.Hi {
		return xfmt.Sprintf("%s v%d is newer than every release kwire knows; the newest is v%d, in %s of %s",
			e.Name, e.Version, e.Hi, e.Newest.Name, e.Newest.Date)
	}
	return xfmt.Sprintf("no release kwire knows has %s v%d (API key %d, %s; the newest, %s, has %s)",
		e.Name, e.Version, e.Key, dir, e.Newest, rangeText(e))
}

func rangeText(e *VersionError) string {
	s, err := Load(e.Newest.Name)
	if err != nil {
		return "?"
	}
	if a := s.APIByKey(e.Key); a != nil {
		m := a.Request
		if e.Response {
			m = a.Response
		}
		return "versions " + m.ValidVersions.String()
	}
	return "no such API"
}

// Newer says whether the error is about a version above every release's
// (a frame kwire can decode only as a guess).
func (e *VersionError) Newer() bool { return e.Name != "" && e.Version > e.Hi }

// ForVersion returns the set to decode an API version with: the newest
// release that has it, one where it is stable (not the latest version of
// a request marked latestVersionUnstable) before one where it is not.
// Sets are loaded newest first and only as far as needed. When no
// release has the version, the error is a *VersionError; when the version
// is newer than every release's, the set returned with it is the newest
// release that has the API, to read the frame as a guess.
func ForVersion(key, version int16, response bool) (*schemas.Set, error) {
	rs := Releases()
	var unstable, newest *schemas.Set
	verr := &VersionError{Key: key, Version: version, Response: response, Hi: -1}
	for i := len(rs) - 1; i >= 0; i-- {
		s, err := Load(rs[i].Name)
		if err != nil {
			return nil, err
		}
		a := s.APIByKey(key)
		if a == nil || a.Removed() {
			continue
		}
		if verr.Name == "" {
			m := a.Request
			if response {
				m = a.Response
			}
			verr.Name, verr.Hi, verr.Newest = m.Name, m.ValidVersions.Hi, rs[i]
			newest = s
		}
		m := a.Request
		if response {
			m = a.Response
		}
		if !m.ValidVersions.Contains(version) {
			continue
		}
		if !Unstable(a, version) {
			return s, nil
		}
		if unstable == nil {
			unstable = s
		}
	}
	if unstable != nil {
		return unstable, nil
	}
	if verr.Name == "" && len(rs) > 0 {
		verr.Newest = rs[len(rs)-1]
	}
	if verr.Newer() {
		return newest, verr
	}
	return nil, verr
}

// Unstable says whether version is the unstable latest version of an API
// in its set (the request's latestVersionUnstable, which covers both
// directions).
func Unstable(a *schemas.API, version int16) bool {
	return a.Request.LatestVersionUnstable && version == a.Request.ValidVersions.Hi
}

// NewestWith returns the newest release's schema of an API: the set to guess
// with when a frame's version is newer than every release's.
func NewestWith(key int16) (*schemas.Set, *schemas.API, error) {
	rs := Releases()
	for i := len(rs) - 1; i >= 0; i-- {
		s, err := Load(rs[i].Name)
		if err != nil {
			return nil, nil, err
		}
		if a := s.APIByKey(key); a != nil && !a.Removed() {
			return s, a, nil
		}
	}
	return nil, nil, xfmt.Errorf("no release kwire knows has an API with key %d", key)
}

// Choice chooses a request frame's set as ForVersion does (it is a
// codec.SetChooser).
type Choice struct{}

// ChooseSet returns ForVersion(key, version, false).
func (Choice) ChooseSet(key, version int16) (*schemas.Set, error) {
	return ForVersion(key, version, false)
}

// Removal says which release removed an API: the first release, after
// one that had it, whose set lacks it or lists it with no valid version;
// Last is the release before it. ok is false for an API that no release
// removed.
func Removal(key int16) (removed, last Release, ok bool) {
	had := false
	for _, r := range Releases() {
		s, err := Load(r.Name)
		if err != nil {
			continue
		}
		a := s.APIByKey(key)
		present := a != nil && !a.Removed()
		switch {
		case present:
			had, last, ok = true, r, false
		case had && !ok:
			removed, ok = r, true
		}
	}
	return removed, last, ok
}

// Match is how one release compares with the API versions a broker
// advertised (an ApiVersions response).
type Match struct {
	Release Release
	Same    int      // APIs advertised with exactly this release's versions
	Differ  []string // the others: "Produce: 0-12, 4.3 has 3-13"
}

// Produce's versions 0-2 were removed in Kafka 4.0 (its schema starts at
// 3), but its brokers still advertise Produce from version 0 in their
// ApiVersions responses, because librdkafka asks for a compressed produce
// only of a broker that lists v0 (KAFKA-18659,
// ApiKeys.PRODUCE_API_VERSIONS_RESPONSE_MIN_VERSION); seen from Kafka
// 4.0.2 and 4.4.0 brokers.
const (
	keyProduce    = 0
	producePre4Lo = 0
	produce4Lo    = 3
)

// MatchAdvertised compares the API versions a broker advertised with
// every release's request versions, closest first: the fewest APIs that
// differ, then the most alike. A latest version that a release marks
// unstable may be left out (brokers hide it unless told otherwise), and
// Produce from 0 matches a release whose Produce starts at 3 (KAFKA-18659).
func MatchAdvertised(adv []schemas.APIVersions) []Match {
	var out []Match
	for _, r := range Releases() {
		s, err := Load(r.Name)
		if err != nil {
			continue
		}
		m := Match{Release: r}
		for _, av := range adv {
			a := s.APIByKey(av.Key)
			if a == nil || a.Removed() {
				m.Differ = append(m.Differ, xfmt.Sprintf("key %d: %s, %s has no such API", av.Key, av.Versions, r.Name))
				continue
			}
			vs, got := a.Request.ValidVersions, av.Versions
			if got.Lo == producePre4Lo && av.Key == keyProduce && vs.Lo == produce4Lo {
				got.Lo = vs.Lo // KAFKA-18659: see producePre4Lo
			}
			if got.Lo == vs.Lo && (got.Hi == vs.Hi || (got.Hi == vs.Hi-1 && a.Request.LatestVersionUnstable)) {
				m.Same++
				continue
			}
			m.Differ = append(m.Differ, xfmt.Sprintf("%s: %s, %s has %s", a.Name, got, r.Name, vs))
		}
		out = append(out, m)
	}
	sort.SliceStable(out, func(i, j int) bool {
		if len(out[i].Differ) != len(out[j].Differ) {
			return len(out[i].Differ) < len(out[j].Differ)
		}
		return out[i].Same > out[j].Same
	})
	return out
}

// Describe says in one line which releases advertised versions match:
// "matches 4.2 (4.2.1, 2026-05-13), 4.3 (4.3.1, 2026-06-17)", or the
// closest release and where it differs (at most a few APIs named).
func Describe(ms []Match) string {
	if len(ms) == 0 {
		return "no release to compare with"
	}
	var exact []string
	for _, m := range ms {
		if len(m.Differ) == 0 {
			exact = append(exact, m.Release.String())
		}
	}
	if len(exact) > 0 {
		return "the advertised versions match " + strings.Join(exact, ", ")
	}
	c := ms[0]
	d := c.Differ
	more := ""
	if len(d) > 4 {
		d, more = d[:4], xfmt.Sprintf("; and %d more", len(c.Differ)-4)
	}
	return xfmt.Sprintf("no release matches the advertised versions; the closest is %s (%d APIs alike, %d differ: %s%s)",
		c.Release, c.Same, len(c.Differ), strings.Join(d, "; "), more)
}

// FindAPI finds an API by name or key ("JoinGroup", "11") in the newest
// release that has it and has not removed it; nil when none does.
func FindAPI(nameOrKey string) (*schemas.Set, *schemas.API) {
	rs := Releases()
	for i := len(rs) - 1; i >= 0; i-- {
		s, err := Load(rs[i].Name)
		if err != nil {
			continue
		}
		if a, err := s.LookupAPI(nameOrKey); err == nil && !a.Removed() {
			return s, a
		}
	}
	return nil, nil
}

// VersionsOf is the span of an API's versions over every release, from the
// lowest any release has to the highest: msg is its request or response
// schema in one release. A release not loaded yet is not parsed whole for
// it: its file of that name is read alone, or, when it has none, the file
// of its that names the API's key (an API renamed since).
func VersionsOf(msg *schemas.Message) schemas.Versions {
	vs := schemas.NoVersions
	for _, r := range Releases() {
		o := versionsIn(r.Name, msg)
		switch {
		case o.None:
		case vs.None:
			vs = o
		default:
			vs.Lo, vs.Hi = min(vs.Lo, o.Lo), max(vs.Hi, o.Hi)
		}
	}
	return vs
}

// versionsIn is the versions of msg's API and direction in one release.
func versionsIn(release string, msg *schemas.Message) schemas.Versions {
	key := release + "/" + msg.Name
	mu.Lock()
	vs, ok := versionsOf[key]
	s := loaded[release]
	mu.Unlock()
	if ok {
		return vs
	}
	var m *schemas.Message
	if s != nil {
		if a := s.APIByKey(int16(msg.APIKey)); a != nil {
			m = a.Request
			if msg.Type == "response" {
				m = a.Response
			}
		}
	} else if fsys, err := FS(release); err == nil {
		m = messageFile(fsys, msg)
	}
	vs = schemas.NoVersions
	if m != nil {
		vs = m.ValidVersions
	}
	mu.Lock()
	versionsOf[key] = vs
	mu.Unlock()
	return vs
}

// messageFile reads the schema of msg's API and direction from a set's
// files: the file of msg's name, else the one whose apiKey is msg's.
func messageFile(fsys fs.FS, msg *schemas.Message) *schemas.Message {
	parse := func(file string, src []byte) *schemas.Message {
		m, err := schemas.Parse(file, src)
		if err != nil || m.APIKey != msg.APIKey || m.Type != msg.Type {
			return nil
		}
		return m
	}
	file := "message/" + msg.Name + ".json"
	if src, err := fs.ReadFile(fsys, file); err == nil {
		return parse(file, src)
	}
	suffix := "Request.json"
	if msg.Type == "response" {
		suffix = "Response.json"
	}
	entries, _ := fs.ReadDir(fsys, "message")
	want := `"apiKey": ` + strconv.Itoa(msg.APIKey) + `,`
	for _, e := range entries {
		if !strings.HasSuffix(e.Name(), suffix) {
			continue
		}
		file := "message/" + e.Name()
		if src, err := fs.ReadFile(fsys, file); err == nil && strings.Contains(string(src), want) {
			if m := parse(file, src); m != nil {
				return m
			}
		}
	}
	return nil
}
