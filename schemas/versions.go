package schemas

import (
	"math"
	"strconv"
	"strings"

	"kwire/internal/xfmt"
)

// Versions is an inclusive range of message versions as written in a schema:
// "0+", "3-7", "5" or "none".
type Versions struct {
	Lo, Hi int16 // Hi is math.MaxInt16 for an open range ("3+")
	None   bool  // "none": no version at all
}

// NoVersions is the empty range ("none"): Hi is below Lo, so that a loop
// from Lo to Hi visits no version.
var NoVersions = Versions{Lo: 0, Hi: -1, None: true}

// AllVersions is "0+".
var AllVersions = Versions{Lo: 0, Hi: math.MaxInt16}

// ParseVersions parses a version range.
func ParseVersions(s string) (Versions, error) {
	s = strings.TrimSpace(s)
	switch {
	case s == "none":
		return NoVersions, nil
	case strings.HasSuffix(s, "+"):
		lo, err := parseVersion(strings.TrimSuffix(s, "+"))
		if err != nil {
			return Versions{}, xfmt.Errorf("bad version range %q: %w", s, err)
		}
		return Versions{Lo: lo, Hi: math.MaxInt16}, nil
	case strings.Contains(s, "-"):
		a, b, _ := strings.Cut(s, "-")
		lo, err1 := parseVersion(a)
		hi, err2 := parseVersion(b)
		if err1 != nil || err2 != nil {
			return Versions{}, xfmt.Errorf("bad version range %q", s)
		}
		if hi < lo {
			return Versions{}, xfmt.Errorf("bad version range %q: %d is below %d", s, hi, lo)
		}
		return Versions{Lo: lo, Hi: hi}, nil
	default:
		v, err := parseVersion(s)
		if err != nil {
			return Versions{}, xfmt.Errorf("bad version range %q: %w", s, err)
		}
		return Versions{Lo: v, Hi: v}, nil
	}
}

func parseVersion(s string) (int16, error) {
	n, err := strconv.ParseInt(strings.TrimSpace(s), 10, 16)
	if err != nil || n < 0 {
		return 0, xfmt.Errorf("%q is not a version number", s)
	}
	return int16(n), nil
}

// Contains reports whether v is in the range.
func (r Versions) Contains(v int16) bool { return !r.None && v >= r.Lo && v <= r.Hi }

// Open reports whether the range has no upper bound.
func (r Versions) Open() bool { return !r.None && r.Hi == math.MaxInt16 }

// Intersect returns the versions in both ranges.
func (r Versions) Intersect(o Versions) Versions {
	if r.None || o.None {
		return NoVersions
	}
	lo, hi := max(r.Lo, o.Lo), min(r.Hi, o.Hi)
	if hi < lo {
		return NoVersions
	}
	return Versions{Lo: lo, Hi: hi}
}

// Within reports whether every version of r is in o.
func (r Versions) Within(o Versions) bool {
	return r.None || (!o.None && r.Lo >= o.Lo && r.Hi <= o.Hi)
}

// String writes the range as schemas do.
func (r Versions) String() string {
	switch {
	case r.None:
		return "none"
	case r.Open():
		return xfmt.Sprintf("%d+", r.Lo)
	case r.Lo == r.Hi:
		return strconv.Itoa(int(r.Lo))
	default:
		return xfmt.Sprintf("%d-%d", r.Lo, r.Hi)
	}
}

// APIVersions are the versions of one API, by key: what an ApiVersions
// response advertises.
type APIVersions struct {
	Key      int16
	Versions Versions
}
