// Package tlsrec recognises a TLS record where a Kafka frame should start.
// A Kafka frame starts with its size, and a TLS record's first four bytes
// read as one are 335 to 403 million: a client in the clear that meets a
// TLS listener reads its alert as a frame size and may try to allocate it
// (KAFKA-4090), and a broker in the clear meeting a TLS client reads its
// ClientHello the same way. Sniff says what such bytes are instead.
package tlsrec

import "strconv"

// Content types of a TLS record (RFC 8446 section 5.1; heartbeat, RFC
// 6520).
const (
	ChangeCipherSpec = 20
	Alert            = 21
	Handshake        = 22
	ApplicationData  = 23
	Heartbeat        = 24
)

// MaxLength is the longest record a peer may send: 2^14 bytes of
// plaintext and 2048 of expansion (RFC 5246 section 6.2.3; TLS 1.3 allows
// less, RFC 8446 section 5.2).
const MaxLength = 1<<14 + 2048

// Record is a TLS record's header, and what its first bytes say when
// they are there.
type Record struct {
	Type    uint8  // content type: Alert, Handshake, ...
	Version uint16 // legacy record version: 0x0301 for TLS 1.0 ... 0x0303
	Length  int    // bytes that follow the 5-byte header; -1 when b ends before it
	// Of an alert in the clear (Length 2, both bytes present): its level
	// (1 warning, 2 fatal) and description (RFC 8446 section 6).
	Level, Desc uint8
	HasAlert    bool
	// Of a handshake record: the first message's type (1 ClientHello, 2
	// ServerHello), when present.
	HandshakeType uint8
	HasHandshake  bool
}

// Sniff reports whether b starts as a TLS record does: a content type of
// 20 to 24, a version of SSL 3.0 to TLS 1.3, and a length a record may
// have. Four bytes are enough to tell (the length's high byte is then
// checked alone); a frame's size of 335 million or more is never Kafka's.
func Sniff(b []byte) (Record, bool) {
	if len(b) < 4 || b[0] < ChangeCipherSpec || b[0] > Heartbeat || b[1] != 3 || b[2] > 4 {
		return Record{}, false
	}
	r := Record{Type: b[0], Version: uint16(b[1])<<8 | uint16(b[2]), Length: -1}
	if len(b) < 5 {
		if int(b[3])<<8 > MaxLength {
			return Record{}, false
		}
		return r, true
	}
	r.Length = int(b[3])<<8 | int(b[4])
	if r.Length > MaxLength {
		return Record{}, false
	}
	switch {
	case r.Type == Alert && r.Length == 2 && len(b) >= 7:
		r.Level, r.Desc, r.HasAlert = b[5], b[6], true
	case r.Type == Handshake && r.Length > 0 && len(b) >= 6:
		r.HandshakeType, r.HasHandshake = b[5], true
	}
	return r, true
}

// String says what the record is: "a TLS 1.2 alert record: fatal
// protocol_version (70)", "a TLS 1.0 handshake record: ClientHello".
func (r Record) String() string {
	s := "a " + VersionName(r.Version) + " " + typeName(r.Type) + " record"
	switch {
	case r.HasAlert:
		s += ": " + levelName(r.Level) + " " + AlertName(r.Desc) + " (" + strconv.Itoa(int(r.Desc)) + ")"
	case r.Type == Alert && r.Length > 2:
		s += ", encrypted"
	case r.HasHandshake:
		s += ": " + handshakeName(r.HandshakeType)
	}
	return s
}

// VersionName names a record version: "TLS 1.2", "SSL 3.0".
func VersionName(v uint16) string {
	switch {
	case v == 0x0300:
		return "SSL 3.0"
	case v > 0x0300 && v <= 0x0304:
		return "TLS 1." + strconv.Itoa(int(v-0x0301))
	}
	return "TLS version 0x" + strconv.FormatUint(uint64(v), 16)
}

func typeName(t uint8) string {
	switch t {
	case ChangeCipherSpec:
		return "change_cipher_spec"
	case Alert:
		return "alert"
	case Handshake:
		return "handshake"
	case ApplicationData:
		return "application_data"
	case Heartbeat:
		return "heartbeat"
	}
	return "content type " + strconv.Itoa(int(t))
}

func levelName(l uint8) string {
	switch l {
	case 1:
		return "warning"
	case 2:
		return "fatal"
	}
	return "level " + strconv.Itoa(int(l))
}

func handshakeName(t uint8) string {
	switch t {
	case 1:
		return "ClientHello"
	case 2:
		return "ServerHello"
	}
	return "handshake message type " + strconv.Itoa(int(t))
}

// alertNames are the alert descriptions of RFC 8446 section 6 and RFC
// 5246 section 7.2, by number.
var alertNames = map[uint8]string{
	0: "close_notify", 10: "unexpected_message", 20: "bad_record_mac", 21: "decryption_failed",
	22: "record_overflow", 30: "decompression_failure", 40: "handshake_failure", 41: "no_certificate",
	42: "bad_certificate", 43: "unsupported_certificate", 44: "certificate_revoked", 45: "certificate_expired",
	46: "certificate_unknown", 47: "illegal_parameter", 48: "unknown_ca", 49: "access_denied",
	50: "decode_error", 51: "decrypt_error", 60: "export_restriction", 70: "protocol_version",
	71: "insufficient_security", 80: "internal_error", 86: "inappropriate_fallback", 90: "user_canceled",
	100: "no_renegotiation", 109: "missing_extension", 110: "unsupported_extension", 111: "certificate_unobtainable",
	112: "unrecognized_name", 113: "bad_certificate_status_response", 114: "bad_certificate_hash_value",
	115: "unknown_psk_identity", 116: "certificate_required", 120: "no_application_protocol",
	121: "ech_required", // RFC 9849
}

// AlertName names an alert description: "handshake_failure"; "alert 255"
// for one no RFC names.
func AlertName(d uint8) string {
	if s, ok := alertNames[d]; ok {
		return s
	}
	return "alert " + strconv.Itoa(int(d))
}
