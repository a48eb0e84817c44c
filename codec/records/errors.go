package records

import (
	"errors"

	"kwire/codec/wire"
	"kwire/internal/xfmt"
)

// What is wrong with a records field, in the words that Parse's errors
// and the tree's error spans share. None says where: Parse places them in
// a *wire.DecodeError (place), the tree on the span that has them; their
// kind is a sentinel of wire where one fits (errors.Is).

var (
	errNoWrapperValue = errors.New("a compressed message needs a value")
	errNoAttributes   = wire.Mark(wire.ErrShort, errors.New("the record ends before its attributes"))
	errNested         = errors.New("compressed message set nested too deeply (Kafka writes none inside a compressed message)")
	errControlKey     = errors.New("a control record key is an int16 version and an int16 type (4 bytes)")
)

func errNegativeLength(length int32, rest int) error {
	return wire.Mark(wire.ErrLength, xfmt.Errorf("length %d is negative; the rest of the records (%d bytes) cannot be read", length, rest))
}

func errNoMagic(length int32) error {
	return wire.Mark(wire.ErrLength, xfmt.Errorf("length %d is too small to hold a magic byte", length))
}

func errMagic(magic int8) error {
	return xfmt.Errorf("magic %d is not a record format (0 and 1 are message sets, 2 is RecordBatch)", magic)
}

func errShortBatch(size int) error {
	return wire.Mark(wire.ErrLength, xfmt.Errorf("batchLength %d is too small for a RecordBatch v2 header (49 bytes after the length)", size-12))
}

func errShortMessage(size int, magic int8, hsize int) error {
	return wire.Mark(wire.ErrLength, xfmt.Errorf("messageSize %d is too small for a magic %d message (at least %d)", size-12, magic, hsize-12))
}

func errNegativeCount(count int32) error {
	return wire.Mark(wire.ErrLength, xfmt.Errorf("recordCount %d is negative", count))
}

func errMissingRecords(count int32, read int) error {
	return wire.Mark(wire.ErrShort, xfmt.Errorf("recordCount is %d but the records end after %d", count, read))
}

func errTrailingRecords(n int, count int32) error {
	return wire.Mark(wire.ErrTrailing, xfmt.Errorf("%s after the last of the %d records", plural(n, "byte"), count))
}

func errTrailingHeaders(n int) error {
	return wire.Mark(wire.ErrTrailing, errors.New(plural(n, "byte")+" left in the record after its headers"))
}

func errTrailingMessage(n int) error {
	return wire.Mark(wire.ErrTrailing, errors.New(plural(n, "byte")+" after the value, inside the message"))
}

func errNoLegacyLength(what string) error {
	return wire.Mark(wire.ErrShort, errors.New("the message ends before the "+what+" length"))
}

func errLegacyLength(what string, n int32, left int) error {
	return wire.Mark(wire.ErrLength, xfmt.Errorf("%s length %d does not fit the %d bytes left in the message", what, n, left))
}

// errCRC32C is a RecordBatch v2 whose CRC-32C is not its bytes' (KIP-98).
func errCRC32C(want, got uint32) error {
	return wire.Mark(wire.ErrCRC, xfmt.Errorf("CRC-32C mismatch: the batch says 0x%08x, its bytes give 0x%08x", want, got))
}

// errCRC32 is a magic 0 or 1 message whose CRC-32 is not its bytes'.
func errCRC32(want, got uint32) error {
	return wire.Mark(wire.ErrCRC, xfmt.Errorf("CRC-32 mismatch: the message says 0x%08x, its bytes give 0x%08x", want, got))
}

// place makes err a *wire.DecodeError at off in the bytes read, its path
// seg ("records", "[3]", "" for none) before the path it has: an err that
// is a DecodeError already, placed in the bytes that start at off, moves
// by off.
func place(err error, off int, seg string) error {
	if de, ok := err.(*wire.DecodeError); ok {
		de.Offset += off
		if seg != "" {
			wire.WithPath(de, seg)
		}
		return de
	}
	return &wire.DecodeError{Offset: off, Path: seg, Err: err}
}

// moved is err moved by off when it is a *wire.DecodeError placed in the
// bytes that start there (a decompressor's, in the compressed bytes);
// other errors say no more than where their span is.
func moved(err error, off int) error {
	if de, ok := err.(*wire.DecodeError); ok {
		de.Offset += off
	}
	return err
}
