package identify

import (
	"math"
	"strings"
	"unicode"
	"unicode/utf8"

	"kwire/codec"
	"kwire/schemas"
)

// scorer adds up the penalties of the values of one decoded message: each
// value that a broker or client would rarely write adds to pen.
type scorer struct {
	set *schemas.Set
	pen float64
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
)

// Milliseconds since the epoch of 2001-01-01 and 2100-01-01.
const (
	minTimeMs = 978307200000
	maxTimeMs = 4102444800000
)

func (s *scorer) structV(sp *codec.StructPlan, v codec.Value) {
	list := v.List()
	for _, fp := range sp.Wire {
		if fp.Index < len(list) {
			s.field(fp, list[fp.Index])
		}
	}
	for _, fp := range sp.Tagged {
		if fp.Index < len(list) && !fp.IsDefault(list[fp.Index]) {
			s.field(fp, list[fp.Index])
		}
	}
	s.pen += penUnknownTag * float64(len(v.Unknown()))
}

func (s *scorer) field(fp *codec.FieldPlan, v codec.Value) {
	if v.IsNull() {
		return
	}
	switch fp.Kind {
	case schemas.KindStruct:
		s.structV(fp.Struct, v)
	case schemas.KindArray:
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
		if !readable(v.Str()) {
			s.pen += penString
		}
	case schemas.KindRecords:
		if b := v.Str(); len(b) > 0 && (len(b) < 17 || b[16] > 2) {
			s.pen += penRecords
		}
	}
}

func (s *scorer) integer(k schemas.Kind, name string, n int64) {
	switch {
	case strings.HasSuffix(name, "ErrorCode") && k == schemas.KindInt16:
		if _, ok := s.set.ErrorCode(int16(n)); !ok {
			s.pen += penUnknownError
		}
	case isTime(name):
		if n != -1 && n != 0 && (n < minTimeMs || n > maxTimeMs) {
			s.pen += penTime
		}
	case isOpaque(name):
		if n < -1 {
			s.pen += penNegative
		}
	case n < -1 || n > 1<<20:
		s.pen += penLarge
	}
}

// isTime says whether a field holds a point in time in milliseconds.
func isTime(name string) bool {
	return strings.Contains(name, "Timestamp") || name == "LogAppendTimeMs" || strings.HasSuffix(name, "TimeMs") && !strings.Contains(name, "Throttle")
}

// isOpaque says whether a field holds a number of any size: ids, epochs,
// offsets, sizes, hashes.
func isOpaque(name string) bool {
	for _, s := range []string{"Id", "Epoch", "Offset", "Hash", "Crc", "Checksum", "Bytes", "Size", "Sequence", "Ms", "Mask", "Seed"} {
		if strings.Contains(name, s) {
			return true
		}
	}
	return false
}

// readable says whether s is text a person or a program would write: UTF-8
// without control characters.
func readable(s string) bool {
	if !utf8.ValidString(s) {
		return false
	}
	for _, r := range s {
		if r < 0x20 || r == 0x7f || r == utf8.RuneError || !unicode.IsPrint(r) && r != ' ' {
			return false
		}
	}
	return true
}
