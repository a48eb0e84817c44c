package sets

import (
	"strconv"

	"kwire/internal/xfmt"
	"kwire/schemas"
)

// removalKIP is which KIP removed what, written by hand: the releases'
// schemas say what went and when (Refuses computes it), not why. A
// removal the table does not name is reported with its release alone.
var removalKIP = []struct {
	release string
	keys    []int16 // nil: every API
	api     bool    // the API itself, not some of its versions
	kip     string
}{
	// KIP-500 replaced ZooKeeper with KRaft; 4.0 removed ZooKeeper mode
	// and with it the APIs only a ZooKeeper-mode broker served
	// (LeaderAndIsr, StopReplica, UpdateMetadata, ControlledShutdown).
	{"4.0", nil, true, "KIP-500"},
	// KIP-896: "Remove old client protocol API versions in Kafka 4.0"
	// (the baseline of Kafka 2.1), for the client APIs it lists.
	{"4.0", []int16{0, 1, 2, 3, 8, 9, 10, 11, 17, 19, 20, 23, 29, 30, 31, 32, 34, 35, 38, 39, 40, 41, 42}, false, "KIP-896"},
	// KIP-932: the share groups' early-access version 0 went when 4.1
	// made them a preview (version 1).
	{"4.1", []int16{76, 77, 78, 79}, false, "KIP-932"},
}

// RemovalKIP names the KIP behind a removal in a release ("" when the
// table has none): of an API when api is true, else of some of its
// versions.
func RemovalKIP(release string, key int16, api bool) string {
	for _, r := range removalKIP {
		if r.release != release || r.api != api {
			continue
		}
		if r.keys == nil {
			return r.kip
		}
		for _, k := range r.keys {
			if k == key {
				return r.kip
			}
		}
	}
	return ""
}

// A Refusal says why a release would refuse an API version (a broker of
// that release answers UNSUPPORTED_VERSION, or closes the connection for
// an API it does not have).
type Refusal struct {
	Key, Version int16
	API          string // the API's name in the newest release that has it
	// Why says it in a sentence: "4.0 removed Produce v2 (KIP-896);
	// 4.0 has v3-12".
	Why string
	// RemovedIn is the release that removed the version or the API
	// (Name "" when none did: the version is newer than the target's, or
	// no release had it); KIP names the KIP behind it, when known.
	RemovedIn Release
	KIP       string
	// Instead is the version of the API the target has that is nearest
	// to the one refused (its lowest for an old one, its highest for a
	// newer one), or -1 when it has none: "if the client supports vN".
	Instead int16
}

// Refuses says whether release target would refuse version of the API
// with key as a request, and why; refused is false when it has the
// version.
// The releases before target say which one removed it.
func Refuses(target string, key, version int16) (r Refusal, refused bool, err error) {
	ts, err := Load(target)
	if err != nil {
		return r, false, err
	}
	r = Refusal{Key: key, Version: version, Instead: -1}
	ta := ts.APIByKey(key)
	if ta != nil && !ta.Removed() && ta.Request.ValidVersions.Contains(version) {
		return r, false, nil
	}
	// Where the version went: the first release, after one that had
	// it, that does not (the target itself when the one before had it).
	var had bool
	var removed Release
	for _, rel := range Releases() {
		s, err := Load(rel.Name)
		if err != nil {
			continue
		}
		a := s.APIByKey(key)
		if a != nil && !a.Removed() && a.Request.ValidVersions.Contains(version) {
			had, removed = true, Release{}
		} else if had && removed.Name == "" {
			removed = rel
		}
		if rel.Name == target {
			break
		}
	}
	if _, api, err := NewestWith(key); err == nil {
		r.API = api.Name
	} else {
		r.API = "API key " + strconv.Itoa(int(key))
	}
	tv := schemas.NoVersions
	if ta != nil && !ta.Removed() {
		tv = ta.Request.ValidVersions
	}
	switch {
	case tv.None && removed.Name != "":
		r.RemovedIn, r.KIP = removed, RemovalKIP(removed.Name, key, true)
		if r.KIP == "" {
			r.KIP = RemovalKIP(removed.Name, key, false)
		}
		r.Why = xfmt.Sprintf("%s removed %s%s", removed.Name, r.API, kipNote(r.KIP))
	case tv.None:
		r.Why = xfmt.Sprintf("%s has no %s", target, r.API)
	case version < tv.Lo:
		r.Instead = tv.Lo
		if removed.Name != "" {
			r.RemovedIn, r.KIP = removed, RemovalKIP(removed.Name, key, false)
			r.Why = xfmt.Sprintf("%s removed %s v%d%s; %s has v%s", removed.Name, r.API, version, kipNote(r.KIP), target, tv)
			if key == keyProduce && tv.Lo == produce4Lo { // KAFKA-18659: see producePre4Lo
				r.Why += " (its ApiVersions still says v0, for librdkafka, KAFKA-18659, but it answers UNSUPPORTED_VERSION)"
			}
		} else {
			r.Why = xfmt.Sprintf("%s has %s v%s, not v%d", target, r.API, tv, version)
		}
	default:
		r.Instead = tv.Hi
		r.Why = xfmt.Sprintf("v%d is newer than %s's %s v%s", version, target, r.API, tv)
		if added := firstWith(key, version); added != "" {
			r.Why += "; " + added + " added it"
		}
	}
	return r, true, nil
}

func kipNote(kip string) string {
	if kip == "" {
		return ""
	}
	return " (" + kip + ")"
}

// firstWith is the oldest release that has an API version ("" for none).
func firstWith(key, version int16) string {
	for _, rel := range Releases() {
		s, err := Load(rel.Name)
		if err != nil {
			continue
		}
		if a := s.APIByKey(key); a != nil && !a.Removed() && a.Request.ValidVersions.Contains(version) {
			return rel.Name
		}
	}
	return ""
}
