package realkafka

import (
	"bytes"
	"encoding/json"
	"os"
	"sort"
	"strconv"
	"strings"
	"testing"

	"kwire/capture"
	"kwire/codec"
	"kwire/codec/records"
	"kwire/schemas"
	"kwire/schemas/sets"
	"kwire/tree"
	"kwire/tree/treetest"
)

// passwords are the cluster's (scripts/realkafka.sh): never in a tree's text.
var passwords = []string{"alice-secret", "admin-secret", "bob-secret"}

// result is what one capture held, as kwire read it.
type result struct {
	name      string
	events    int
	frames    int
	responses int
	byAPI     map[string]int // frames (requests and responses) per API
	facts     map[string]int // what the trees held: "nested ConsumerProtocolSubscription", "sasl SCRAM-SHA-256 client-first-message", ...
	records   map[string]map[string]int
	// advertised: the API versions of each broker's ApiVersions responses,
	// by its address, on the client listeners.
	advertised map[string][]schemas.APIVersions
	tlsConns   int
	incomplete int // frames cut at the end of their connection
}

func (r *result) fact(f string) { r.facts[f]++ }

// readCapture reads a pcap with package capture and checks every event
// against what tcpdump recorded (readWire): each frame found once and whole,
// nothing skipped, every response paired, every frame decoded without an
// error node and written back from its JSON form to the same bytes. client
// are the ports of the brokers' client listeners; frames: the capture must
// hold Kafka frames (not only TLS).
func readCapture(t *testing.T, path string, client map[uint16]bool, frames bool) *result {
	t.Helper()
	w := readWire(t, path)
	for _, h := range w.holes {
		t.Errorf("%s: tcpdump lost bytes: %s", path, h)
	}
	r := &result{name: path, byAPI: map[string]int{}, facts: map[string]int{}, records: map[string]map[string]int{},
		advertised: map[string][]schemas.APIVersions{}}
	left := map[string]int{}
	for k, v := range w.frames {
		left[k] = v
	}
	ids := map[string]string{} // topic id -> name, from the responses that name them
	f, err := os.Open(path)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	limits := capture.Options{}.Limits
	_, err = capture.Read(f, capture.Options{}, func(e *capture.Event) {
		r.events++
		switch e.Kind {
		case capture.KindTLS:
			r.tlsConns++
			if !w.tls[e.Conn.Client.String()+">"+e.Conn.Broker.String()] {
				t.Errorf("%s: event %d: TLS on %s, which tcpdump's bytes do not start with a handshake", path, e.N, e.Conn)
			}
			return
		case capture.KindNote, capture.KindSkipped:
			t.Errorf("%s: event %d on %v: %s", path, e.N, e.Conn, e.Note)
			return
		}
		src, dst := e.Conn.Client.String(), e.Conn.Broker.String()
		if e.Dir == codec.Response {
			src, dst = dst, src
		}
		k := frameKey(src, dst, e.Data)
		if e.Incomplete != "" {
			if tail := w.tails[src+">"+dst]; len(tail) > 0 && bytes.Equal(tail, e.Data) {
				r.incomplete++ // cut in tcpdump's bytes too, at the connection's end
				return
			}
			t.Errorf("%s: event %d (%s %v) incomplete: %s", path, e.N, capture.APIName(e.Key), e.Dir, e.Incomplete)
			return
		}
		if left[k] == 0 && !w.mid[src+">"+dst] {
			t.Errorf("%s: event %d (%s %v, correlation %d) is no frame tcpdump recorded, or is seen twice", path, e.N, capture.APIName(e.Key), e.Dir, e.Correlation)
		}
		left[k]--
		if e.Kind != capture.KindFrame {
			return
		}
		r.frames++
		api := capture.APIName(e.Key)
		r.byAPI[api]++
		if e.Dir == codec.Response {
			r.responses++
			if e.Request == nil {
				t.Errorf("%s: event %d: a response (correlation %d) without its request", path, e.N, e.Correlation)
				return
			}
		}
		checkFrame(t, r, e, limits, client, ids)
	})
	if err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	var unseen []string
	for k, v := range left {
		if v > 0 {
			unseen = append(unseen, strconv.Quote(k[:min(len(k), 60)]))
		}
	}
	if len(unseen) > 0 {
		sort.Strings(unseen)
		t.Errorf("%s: %d frames tcpdump recorded were not found: %s", path, len(unseen), strings.Join(unseen[:min(5, len(unseen))], ", "))
	}
	if frames && r.frames == 0 {
		t.Errorf("%s: no Kafka frame", path)
	}
	return r
}

// checkFrame decodes one frame: no error, no error node, the JSON form
// encodes back to the frame's bytes, the values-only decode writes the same
// JSON; it notes what the tree holds.
func checkFrame(t *testing.T, r *result, e *capture.Event, limits records.Limits, client map[uint16]bool, ids map[string]string) {
	t.Helper()
	path, api := r.name, capture.APIName(e.Key)
	where := path + ": event " + strconv.Itoa(e.N) + " (" + api + " v" + strconv.Itoa(int(e.Version)) + " " + e.Dir.String() + ")"
	fr, fl, err := e.Decode(limits)
	if err != nil {
		t.Errorf("%s: %v", where, err)
		return
	}
	if j, off := fl.FirstError(0); j >= 0 {
		t.Errorf("%s: error node at byte %d: %s", where, off, fl.Node(j, nil).Err)
	}
	j, err := fr.AppendJSON(nil, e.Size)
	if err != nil {
		t.Errorf("%s: JSON: %v", where, err)
		return
	}
	back, _, err := e.Decode(limits)
	if err == nil {
		err = back.SetJSON(j)
	}
	var enc []byte
	if err == nil {
		enc, err = back.Encode()
	}
	if err != nil || !bytes.Equal(enc, e.Data) {
		t.Errorf("%s: the JSON form does not encode back to the frame (%v):\n got %x\nwant %x\n%s", where, err, enc, e.Data, j)
	}
	if fv, err := e.DecodeValues(limits); err != nil {
		t.Errorf("%s: DecodeValues: %v", where, err)
	} else if jv, _ := fv.AppendJSON(nil, e.Size); !bytes.Equal(jv, j) {
		t.Errorf("%s: the values-only decode writes another JSON form", where)
	}

	// What the tree holds.
	text := ""
	for _, n := range treetest.All(fl) {
		switch {
		case strings.HasPrefix(n.Name, "ConsumerProtocolSubscription"), strings.HasPrefix(n.Name, "ConsumerProtocolAssignment"):
			r.fact("nested " + strings.Fields(n.Name)[0])
		case n.Name == "SASL":
			r.fact("sasl " + n.Type + " " + n.Value)
		case n.Type == tree.Secret:
			r.fact("secret")
		case n.Name == "MetricsData":
			r.fact("otlp MetricsData")
		case n.Type == "Metric" && strings.HasPrefix(n.Value, `"org.apache.kafka.`):
			r.fact("otlp metric")
		}
	}
	for _, p := range passwords {
		if bytes.Contains(e.Data, []byte(p)) {
			if text == "" {
				text = treetest.Text(fl)
			}
			if strings.Contains(text, p) {
				t.Errorf("%s: the tree shows the password %q", where, p)
			}
			r.fact("password masked")
		}
	}
	if e.Key == 18 && e.Dir == codec.Response && client[e.Conn.Broker.Port()] {
		if adv := fr.Advertised(); len(adv) > 0 {
			r.advertised[e.Conn.Broker.String()] = adv
		}
	}
	if e.Dir == codec.Request && (e.Key == 0 || e.Key == 1) {
		jsonFacts(t, r, e, j, client, ids)
	}
	if e.Dir == codec.Response && capture.NamesTopics(e.Key) {
		var fj struct {
			Body struct {
				Topics []struct {
					Name    *string
					TopicId string
				}
			}
		}
		if json.Unmarshal(j, &fj) == nil {
			for _, tp := range fj.Body.Topics {
				if tp.Name != nil && tp.TopicId != "" {
					ids[tp.TopicId] = *tp.Name
				}
			}
		}
	}
}

// jsonFacts reads a Produce request's records (key, value, headers) and a
// Fetch request's replica from the frame's JSON form.
func jsonFacts(t *testing.T, r *result, e *capture.Event, j []byte, client map[uint16]bool, ids map[string]string) {
	var fj struct {
		Body struct {
			ReplicaId    *int
			ReplicaState *struct{ ReplicaId int }
			TopicData    []struct {
				Name          string
				Topic         string
				TopicId       string
				PartitionData []struct {
					Records []struct {
						Records []struct {
							Key     any
							Value   any
							Headers []struct {
								Key   string
								Value any
							}
						}
					}
				}
			}
		}
	}
	if err := json.Unmarshal(j, &fj); err != nil {
		t.Errorf("%s: event %d: its JSON form: %v", r.name, e.N, err)
		return
	}
	if e.Key == 1 {
		replica := -1
		if fj.Body.ReplicaId != nil {
			replica = *fj.Body.ReplicaId
		}
		if fj.Body.ReplicaState != nil {
			replica = fj.Body.ReplicaState.ReplicaId
		}
		if replica >= 0 {
			if client[e.Conn.Broker.Port()] {
				r.fact("fetch from a replica (broker)")
			} else {
				r.fact("fetch from a replica (controller)")
			}
		}
		return
	}
	for _, td := range fj.Body.TopicData {
		name := td.Name
		if name == "" {
			name = ids[td.TopicId]
		}
		for _, pd := range td.PartitionData {
			for _, b := range pd.Records {
				for _, rec := range b.Records {
					var h []string
					for _, hd := range rec.Headers {
						h = append(h, hd.Key+"="+str(hd.Value))
					}
					k := str(rec.Key) + "|" + str(rec.Value) + "|" + strings.Join(h, ",")
					if r.records[name] == nil {
						r.records[name] = map[string]int{}
					}
					r.records[name][k]++
				}
			}
		}
	}
}

func str(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case nil:
		return "<null>"
	default:
		b, _ := json.Marshal(v)
		return string(b)
	}
}

// checkRecords: every record a workload produced is in the capture.
func checkRecords(t *testing.T, r *result, specs []recordSpec) {
	t.Helper()
	for _, s := range specs {
		for i := range s.n {
			k := "key-" + strconv.Itoa(i) + "|value-" + strconv.Itoa(i) + " from " + s.src + "|src=" + s.src + ",i=" + strconv.Itoa(i)
			if r.records[s.topic][k] == 0 {
				var got []string
				for g := range r.records[s.topic] {
					got = append(got, g)
				}
				sort.Strings(got)
				t.Errorf("%s: no record %q produced to %s; it has %d: %.300q", r.name, k, s.topic, len(got), got)
				break
			}
		}
	}
}

// checkRelease: each broker's ApiVersions response names its release when
// kwire knows it (a release of the same major.minor matches exactly), and
// names no other release when kwire does not.
func checkRelease(t *testing.T, r *result, version string) {
	t.Helper()
	if len(r.advertised) == 0 {
		t.Errorf("%s: no ApiVersions response from a broker's client listener", r.name)
	}
	mm := strings.Join(strings.SplitN(version, ".", 3)[:2], ".")
	known := false
	for _, rel := range sets.Releases() {
		if rel.Name == mm || strings.HasPrefix(rel.Version, mm+".") {
			known = true
		}
	}
	for broker, adv := range r.advertised {
		ms := sets.MatchAdvertised(adv)
		var exact, older []string
		for _, m := range ms {
			if len(m.Differ) == 0 {
				exact = append(exact, m.Release.Name)
				if versionLess(m.Release.Version, version) {
					older = append(older, m.Release.Name)
				}
			}
		}
		t.Logf("%s: broker %s (Kafka %s): %s", r.name, broker, version, sets.Describe(ms))
		switch {
		case known && !contains(exact, mm):
			t.Errorf("%s: broker %s is Kafka %s, kwire knows %s, but its ApiVersions matches %v: %s", r.name, broker, version, mm, exact, sets.Describe(ms))
		case !known && len(older) > 0:
			// A newer set (trunk) may advertise the same versions; an
			// older release may not: it would name the broker wrongly.
			t.Errorf("%s: broker %s is Kafka %s, which kwire does not know, but its ApiVersions matches the older %v", r.name, broker, version, older)
		case !known && len(exact) == 0 && versionLess(ms[0].Release.Version, version) && !newestBefore(ms[0].Release, version):
			t.Errorf("%s: broker %s is Kafka %s; the closest release kwire names, %s, is not the newest before it", r.name, broker, version, ms[0].Release)
		}
	}
}

// versionLess compares Kafka versions ("4.3.0", "4.5.0-SNAPSHOT") by their
// numbers; "" is less than any.
func versionLess(a, b string) bool {
	num := func(v string) []int {
		v, _, _ = strings.Cut(v, "-")
		var out []int
		for _, p := range strings.Split(v, ".") {
			n, _ := strconv.Atoi(p)
			out = append(out, n)
		}
		return out
	}
	x, y := num(a), num(b)
	for i := range max(len(x), len(y)) {
		var p, q int
		if i < len(x) {
			p = x[i]
		}
		if i < len(y) {
			q = y[i]
		}
		if p != q {
			return p < q
		}
	}
	return false
}

// newestBefore: rel is the newest release kwire knows older than version.
func newestBefore(rel sets.Release, version string) bool {
	for _, o := range sets.Releases() {
		if versionLess(rel.Version, o.Version) && versionLess(o.Version, version) {
			return false
		}
	}
	return true
}

func contains(l []string, s string) bool {
	for _, x := range l {
		if x == s {
			return true
		}
	}
	return false
}

// table is a capture's frames by API, for the log (and the report).
func (r *result) table() string {
	var names []string
	for n := range r.byAPI {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		if r.byAPI[names[i]] != r.byAPI[names[j]] {
			return r.byAPI[names[i]] > r.byAPI[names[j]]
		}
		return names[i] < names[j]
	})
	var b strings.Builder
	for _, n := range names {
		b.WriteString(n + " " + strconv.Itoa(r.byAPI[n]) + ", ")
	}
	return strings.TrimSuffix(b.String(), ", ")
}
