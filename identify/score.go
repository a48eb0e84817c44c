package identify

import (
	"math"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	"kwire/codec"
	"kwire/schemas"
)

// scorer adds up the penalties of the values of one decoded message: each
// value that a broker or client would rarely write adds to pen.
// sum hashes what was read (kinds, values, lengths, without names), so
// that two layouts that read the bytes the same way have the same sum.
type scorer struct {
	set   *schemas.Set
	api   string // the API's name
	dir   codec.Direction
	words string // the API's words (apiWords)
	pen   float64
	sum   uint64
}

// mix adds x to the sum (FNV-1a over 64-bit words).
func (s *scorer) mix(x uint64) {
	s.sum ^= x
	s.sum *= 1099511628211
}

// The penalties, in the units of the score's exponent.
const (
	penUnknownError = 4   // an error code the release does not know
	penUnknownTag   = 3   // a tagged field the schema does not define
	penBool         = 3   // a bool byte other than 0 and 1
	penString       = 2.5 // a string that is not readable text
	penRecords      = 3   // records that do not start like a batch
	penTime         = 2   // a timestamp outside 2001-2100 (not -1 or 0)
	penNegative     = 1.5 // an id, offset or size below -1
	penLarge        = 0.7 // a plain number above 2^20 or below -1
	penFloat        = 1   // a float that is NaN, infinite or huge
	penEmpty        = 0.2 // a response's own array of structs is empty
	penEmptyAsk     = 0.5 // a request's: it asks about nothing
	penAlien        = 1.5 // an error about things the API does not deal with
	penPort         = 1   // a port outside 1-65535
	penNoName       = 0.5 // an empty name, host or string id
	penError        = 0.3 // any error at all: most answers have none
	penThrottle     = 0.3 // a throttle time other than 0
	penUUID         = 1   // a uuid neither zero nor random-looking
	penUnknownKey   = 2   // an API key the release does not know
	penUnknownEnum  = 2   // an enum's UNKNOWN, or a value out of its range
	penBumped       = 0.3 // a producer id handed out with its epoch bumped
	penNoTimeout    = 0.5 // a request that gives the broker no time (clients send 30 or 60 s)
	penUnlisted     = 0.5 // a SaslHandshake response that lists no mechanism, an ApiVersions one no API
	penNoProtocol   = 0.5 // a SyncGroup response without its protocol's type or name
	penNoAssignment = 0.5 // a SyncGroup response without error or assignment
)

// maxVersion is more than any version of an API, a record or a feature
// has reached.
const maxVersion = 1000

// Milliseconds since the epoch of 2001-01-01 and 2100-01-01.
const (
	minTimeMs = 978307200000
	maxTimeMs = 4102444800000
)

// message scores a message body: its fields, and whether it holds any of
// the entities (topics, groups, results) that its arrays list; a request
// asks about some and a response answers for them.
// A response with an error at its top answers for nothing: its arrays
// are empty then.
func (s *scorer) message(sp *codec.StructPlan, v codec.Value, dir codec.Direction) {
	list := v.List()
	failed := false
	for _, fp := range sp.Wire {
		failed = failed || fp.Field.Name == "ErrorCode" && fp.Index < len(list) && list[fp.Index].Int() != 0
	}
	for _, fp := range sp.Wire {
		if fp.Index >= len(list) || dir != codec.Response {
			continue
		}
		switch l := list[fp.Index]; {
		case s.api == "SaslHandshake" && fp.Field.Name == "Mechanisms" && len(l.List()) == 0,
			s.api == "ApiVersions" && fp.Field.Name == "ApiKeys" && len(l.List()) == 0:
			// A broker lists the mechanisms its listener enables (KIP-43)
			// and the versions it supports (KIP-35, KIP-511), with or
			// without an error; six zero bytes are a Heartbeat's.
			s.pen += penUnlisted
		case s.api == "SyncGroup" && !failed && (fp.Field.Name == "ProtocolType" || fp.Field.Name == "ProtocolName") && (l.IsNull() || len(l.Str()) == 0):
			// A broker names the group's protocol from v5 on (KIP-559):
			// its type ("consumer", "connect") and the assignor's name.
			s.pen += penNoProtocol
		case s.api == "SyncGroup" && !failed && fp.Field.Name == "Assignment" && len(l.Str()) == 0:
			// The leader's assignor writes an assignment for every member
			// (ConsumerProtocolAssignment, or Connect's: never empty), and
			// the broker hands out empty bytes only with an error.
			s.pen += penNoAssignment
		}
	}
	for _, fp := range sp.Wire {
		if fp.Kind == schemas.KindArray && fp.Index < len(list) && (dir == codec.Request || fp.Elem == schemas.KindStruct && !failed) {
			if l := list[fp.Index]; !l.IsNull() && len(l.List()) == 0 {
				s.pen += map[codec.Direction]float64{codec.Request: penEmptyAsk, codec.Response: penEmpty}[dir]
			}
		}
	}
	s.structV(sp, v)
}

func (s *scorer) structV(sp *codec.StructPlan, v codec.Value) {
	list := v.List()
	lo, hi := -1, -1 // MinVersion, MaxVersion
	for _, fp := range sp.Wire {
		if fp.Index < len(list) {
			s.field(fp, list[fp.Index])
			switch fp.Field.Name {
			case "MinVersion":
				lo = fp.Index
			case "MaxVersion":
				hi = fp.Index
			}
		}
	}
	for _, fp := range sp.Tagged {
		if fp.Index < len(list) && !fp.IsDefault(list[fp.Index]) {
			s.field(fp, list[fp.Index])
		}
	}
	s.pen += penUnknownTag * float64(len(v.Unknown()))
	s.mix(uint64(len(v.Unknown())))
	// A range of versions runs upwards.
	if lo >= 0 && hi >= 0 && list[lo].Int() > list[hi].Int() {
		s.pen += penLarge
	}
}

func (s *scorer) field(fp *codec.FieldPlan, v codec.Value) {
	s.mix(uint64(fp.Kind)<<8 | uint64(fp.Elem))
	if v.IsNull() {
		s.mix(1)
		return
	}
	switch fp.Kind {
	case schemas.KindStruct:
		s.structV(fp.Struct, v)
	case schemas.KindArray:
		s.mix(uint64(len(v.List())))
		for _, e := range v.List() {
			if fp.Elem == schemas.KindStruct {
				s.structV(fp.Struct, e)
			} else {
				s.primitive(fp.Elem, fp.Field.Name, e)
			}
		}
	default:
		s.primitive(fp.Kind, fp.Field.Name, v)
	}
}

func (s *scorer) primitive(k schemas.Kind, name string, v codec.Value) {
	if k == schemas.KindString || k == schemas.KindBytes || k == schemas.KindRecords || k == schemas.KindUUID {
		s.mix(uint64(len(v.Str())))
	} else {
		s.mix(uint64(v.Int()))
	}
	switch k {
	case schemas.KindBool:
		if v.Int() > 1 {
			s.pen += penBool
		}
	case schemas.KindInt8, schemas.KindInt16, schemas.KindInt32, schemas.KindInt64:
		s.integer(k, name, v.Int())
	case schemas.KindFloat64:
		if f := v.Float64(); math.IsNaN(f) || math.IsInf(f, 0) || math.Abs(f) > 1e12 {
			s.pen += penFloat
		}
	case schemas.KindString:
		switch str := v.Str(); {
		case !readable(str):
			s.pen += penString
		case str == "" && isName(name):
			s.pen += penNoName
		}
	case schemas.KindRecords:
		if b := v.Str(); len(b) > 0 && (len(b) < 17 || b[16] > 2) {
			s.pen += penRecords
		}
	case schemas.KindUUID:
		// Random ids have a zero byte in 16 one time in 16, three one
		// time in 30,000.
		if zeros := strings.Count(v.Str(), "\x00"); zeros >= 3 && zeros < 16 {
			s.pen += penUUID
		}
	}
}

func (s *scorer) integer(k schemas.Kind, name string, n int64) {
	switch {
	case strings.HasSuffix(name, "ErrorCode") && k == schemas.KindInt16:
		switch ec, ok := s.set.ErrorCode(int16(n)); {
		case !ok:
			s.pen += penUnknownError
		case s.alien(ec.Name):
			s.pen += penAlien
		case n != 0:
			s.pen += penError
		}
	case k == schemas.KindInt8 && unknownZero(name):
		if n <= 0 || n > 32 {
			s.pen += penUnknownEnum
		}
	case name == "ProducerEpoch" && s.api == "EndTxn" && n == 0:
		// EndTxn hands out the epoch of the next transaction (KIP-890):
		// bumped, never 0.
		s.pen += penUnknownEnum
	case name == "ProducerEpoch" && s.api == "InitProducerId" && n > 0:
		// Most producers are idempotent ones, whose ids start at epoch
		// 0; only a transactional id's producer is bumped.
		s.pen += penBumped
	case name == "ApiKey" && k == schemas.KindInt16:
		if s.set.APIByKey(int16(n)) == nil {
			s.pen += penUnknownKey
		}
	case k == schemas.KindInt16 && (strings.HasSuffix(name, "Version") || strings.HasSuffix(name, "VersionLevel")):
		if n < -1 || n > maxVersion {
			s.pen += penLarge
		}
	case name == "TimeoutMs" || name == "timeoutMs":
		if s.dir == codec.Request && n == 0 {
			s.pen += penNoTimeout
		}
	case name == "SessionLifetimeMs":
		// 0 without re-authentication, else what is left of
		// connections.max.reauth.ms (KIP-368): minutes to hours.
		if n < 0 || n > 0 && n < 60000 {
			s.pen += penLarge
		}
	case name == "ThrottleTimeMs":
		if n != 0 {
			s.pen += penThrottle
		}
	case name == "Port":
		if n < 1 || n > 65535 {
			s.pen += penPort
		}
	case name == "Timestamp" && s.api == "ListOffsets" && n < 0 && n >= -6:
		// The special timestamps a ListOffsets request asks for: latest
		// (-1), earliest (-2), max timestamp (-3, KIP-734), earliest
		// local and latest tiered (-4, -5, KIP-1005), earliest pending
		// upload (-6, KIP-1023).
	case isTime(name):
		if n != -1 && n != 0 && (n < minTimeMs || n > maxTimeMs) {
			s.pen += penTime
		}
	case containsAny(name, "Operations", "Hash", "Crc", "Checksum", "Mask", "Seed"):
		// Bit fields and hashes: any value.
	case containsAny(name, "Id", "Epoch", "Offset", "Bytes", "Size", "Sequence", "Ms"):
		// Ids, epochs, offsets, sizes: from -1 up.
		switch {
		case n < -1:
			s.pen += penNegative
		case n > 1<<40:
			s.pen += penLarge // a trillion ids, offsets or bytes
		case k == schemas.KindInt32 && n > 1<<24 && strings.HasSuffix(name, "Epoch"):
			s.pen += penLarge // epochs count elections and rebalances
		case k == schemas.KindInt32 && n > 1<<28 && n != math.MaxInt32 && containsAny(name, "Bytes", "Size"):
			s.pen += penLarge // sizes of a message are megabytes, or "any"
		}
	case n < -1 || n > 1<<20:
		s.pen += penLarge
	}
}

// unknownZero says whether a field is one of the enums of ACLs and config resources (resource and
// pattern types, operations, permissions), in which 0 is UNKNOWN, which
// neither clients nor brokers write, and no value is above 32.
func unknownZero(name string) bool {
	switch name {
	case "ResourceType", "ResourceTypeFilter", "PatternType", "PatternTypeFilter", "ResourcePatternType", "Operation", "PermissionType":
		return true
	}
	return false
}

// entities are the kinds of things error names are about, each with the
// words an API that deals with them has in its names.
var entities = []struct{ error, api []string }{
	{[]string{"GROUP"}, []string{"GROUP"}},
	{[]string{"TOPIC"}, []string{"TOPIC"}},
	{[]string{"TRANSACTION", "TXN"}, []string{"TRANSACTION", "TXN"}},
	{[]string{"PRODUCER"}, []string{"PRODUCER"}},
}

// alien says whether an error name is about things that the API does not
// deal with (GROUP_ID_NOT_FOUND from an API with no group).
func (s *scorer) alien(errorName string) bool {
	if s.words == "" {
		return false
	}
	for _, e := range entities {
		if containsAny(errorName, e.error...) && !containsAny(s.words, e.api...) {
			return true
		}
	}
	return false
}

// isTime says whether a field holds a point in time in milliseconds.
func isTime(name string) bool {
	return strings.Contains(name, "Timestamp") || name == "LogAppendTimeMs" || strings.HasSuffix(name, "TimeMs") && !strings.Contains(name, "Throttle")
}

// isName says whether a string field names something that has a name:
// a topic, a group, a host.
func isName(name string) bool {
	return name == "Name" || name == "Host" || name == "Topic" || strings.HasSuffix(name, "Name") ||
		strings.HasSuffix(name, "Id") && name != "MemberId"
}

// containsAny says whether name contains any of the words.
func containsAny(name string, words ...string) bool {
	return slices.ContainsFunc(words, func(w string) bool { return strings.Contains(name, w) })
}

// readable says whether s is text a person or a program would write: UTF-8
// without control characters.
func readable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError || !strconv.IsPrint(r) && r != ' ' {
			return false
		}
	}
	return true
}
