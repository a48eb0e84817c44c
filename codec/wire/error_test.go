package wire

import (
	"errors"
	"io"
	"testing"

	"kwire/internal/xfmt"
	"kwire/tree"
)

// TestMark: a marked error keeps its text, is its sentinel and still
// wraps what it wrapped.
func TestMark(t *testing.T) {
	inner := xfmt.Errorf("gzip: %w", io.ErrUnexpectedEOF)
	err := Mark(ErrDecompress, inner)
	if err.Error() != "gzip: unexpected EOF" || !errors.Is(err, ErrDecompress) || !errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, ErrBudget) {
		t.Errorf("%q: is ErrDecompress %v, EOF %v, ErrBudget %v", err, errors.Is(err, ErrDecompress), errors.Is(err, io.ErrUnexpectedEOF), errors.Is(err, ErrBudget))
	}
	if Mark(ErrShort, nil) != nil {
		t.Error("a nil error marked is not nil")
	}
	de := &DecodeError{Offset: 3, Err: err}
	if !errors.Is(WithPath(de, "Records"), ErrDecompress) || de.Error() != "offset 3 (0x0003): Records: gzip: unexpected EOF" {
		t.Errorf("%q", de)
	}
}

// TestNodeError: a tree's error node says where as a DecodeError does.
func TestNodeError(t *testing.T) {
	for _, c := range []struct {
		n    tree.Node
		off  int
		want string
	}{
		{tree.Node{Name: "crc", Path: "Topics[0].Records", Err: errors.New("CRC-32C mismatch")}, 57, "offset 57 (0x0039): Topics[0].Records: crc: CRC-32C mismatch"},
		{tree.Node{Name: "Topics", Path: "Topics[0].Name", Err: errors.New("unexpected end of input")}, 20, "offset 20 (0x0014): Topics[0].Name: unexpected end of input"},
		{tree.Node{Name: "error", Err: errors.New("3 bytes left")}, 9, "offset 9 (0x0009): 3 bytes left"},
		{tree.Node{Name: "more", Offset: 16, Relative: true, Path: "R", Err: errors.New("left out")}, 40, "offset 40 (0x0028): R: at +0x0010 of the decompressed records: left out"},
	} {
		if got := NodeError(&c.n, c.off).Error(); got != c.want {
			t.Errorf("%q, want %q", got, c.want)
		}
	}
}

// TestNestedDecodeError: a DecodeError inside another lies in bytes
// decompressed from where the outer one says; one text says both.
func TestNestedDecodeError(t *testing.T) {
	de := &DecodeError{Offset: 61, Path: "[0].records", Err: &DecodeError{Offset: 4, Path: "[0]", Err: Mark(ErrLength, errors.New("key length 32 does not fit"))}}
	want := "offset 61 (0x003d): [0].records: at +0x0004 of the decompressed records: [0]: key length 32 does not fit"
	if got := de.Error(); got != want || !errors.Is(de, ErrLength) || errors.Is(de, ErrCRC) {
		t.Errorf("%q, want %q (ErrLength)", got, want)
	}
}
