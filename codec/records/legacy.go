package records

import (
	"hash/crc32"

	"kwire/codec/wire"
)

// Legacy message sets: magic 0 (Kafka 0.8) and magic 1 (0.10, KIP-32,
// which added the timestamp). A message is
//
//	offset int64, messageSize int32, crc uint32 (CRC-32 of the rest),
//	magic int8, attributes int8, [timestamp int64, magic 1],
//	key bytes, value bytes (int32 lengths, -1 for null)
//
// A compressed message (a wrapper) holds a whole message set, compressed,
// as its value. In a magic 1 wrapper the inner offsets count from 0 and
// the wrapper's offset is the last inner message's (KIP-31).

// legacyCRC is the checksum of magic 0 and 1 messages: CRC-32 (IEEE) of
// the bytes from magic to the end.
func legacyCRC(b []byte) uint32 { return crc32.ChecksumIEEE(b) }

// maxNesting bounds compressed message sets inside compressed message
// sets; Kafka writes none, so one level is enough to show what is there.
const maxNesting = 2

// lastOffset returns the offset field of the last whole message in s.
func lastOffset(s []byte) int64 {
	var last int64
	for len(s) >= 12 {
		size := wire.Int32At(s, offLength)
		if size < 0 || int(size) > len(s)-12 {
			break
		}
		last = wire.Int64At(s, 0)
		s = s[12+int(size):]
	}
	return last
}

// Indexes of messageFields.
const (
	msgFieldOffset     = 0
	msgFieldCRC        = 2
	msgFieldAttributes = 4
	msgFieldTimestamp  = 5
)

// legacyLength reads the int32 length of a legacy message's key or value
// (what) at b[p:], -1 for null, checked against the bytes left.
func legacyLength(b []byte, p int, what string) (int32, error) {
	n, k := wire.ConsumeInt32(b[p:])
	if k < 0 {
		return 0, errNoLegacyLength(what)
	}
	if n < -1 || int(n) > len(b)-p-4 {
		return 0, errLegacyLength(what, n, len(b)-p-4)
	}
	return n, nil
}

// messageHeader reads the header of the legacy message b (exactly its
// bytes; its magic 0 or 1) and the CRC-32 its bytes give (KeepCRC when it
// is not the one the message says); hsize is the header's size, with the
// key and value lengths.
func messageHeader(b []byte) (m Batch, hsize int, crc uint32, err error) {
	m.Magic = int8(b[offMagic])
	hsize = legacyHeaderV0
	if m.Magic == 1 {
		hsize = legacyHeaderV1
	}
	if len(b) < hsize {
		return m, hsize, 0, errShortMessage(len(b), m.Magic, hsize)
	}
	m.BaseOffset, m.Attributes = wire.Int64At(b, 0), int16(b[17])
	m.CRC = wire.Uint32At(b, 12)
	crc = legacyCRC(b[offMagic:])
	m.KeepCRC = crc != m.CRC
	if m.Magic == 1 {
		m.BaseTimestamp = wire.Int64At(b, 18)
	}
	return m, hsize, crc, nil
}
