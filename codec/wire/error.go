package wire

import (
	"errors"
	"strings"

	"kwire/internal/xfmt"
	"kwire/tree"
)

// DecodeError is the one error type of kwire's decoders: where (the byte
// offset and the field path) and what (the cause, one of this package's
// sentinels wrapped with detail, for errors.Is).
//
// Offset is relative to the first byte of the buffer given to the decoder
// that returned it: the frame or body for codec's decoders (so its size
// prefix is byte 0 of a frame), the records field's bytes for
// records.Parse. Path is built only on the way out (WithPath), as
// encoding/json/jsontext builds its pointer.
type DecodeError struct {
	Offset int    // byte offset in the buffer given to the decoder
	Path   string // field path such as "Topics[0].Partitions[2].Index"
	Err    error
}

// Error is the one text of a positioned error, on the command line and in
// the explorer: "offset 12 (0x000c): Topics[0].Name: what". When the cause
// is itself a DecodeError, it lies in bytes decompressed from where e
// says (a compressed batch's records), at an offset in them:
// "offset 61 (0x003d): [0].records: at +0x0011 of the decompressed
// records: [3]: what".
func (e *DecodeError) Error() string {
	var b []byte
	for e != nil {
		if b == nil {
			b = xfmt.Appendf(b, "offset %d (0x%04x): ", e.Offset, e.Offset)
		} else {
			b = xfmt.Appendf(b, "at +0x%04x of the decompressed records: ", e.Offset)
		}
		if e.Path != "" {
			b = append(b, e.Path...)
			b = append(b, ": "...)
		}
		inner, ok := e.Err.(*DecodeError)
		if !ok {
			return string(append(b, e.errText()...))
		}
		e = inner
	}
	return string(b)
}

func (e *DecodeError) errText() string {
	if e.Err == nil {
		return "<nil>"
	}
	return e.Err.Error()
}

func (e *DecodeError) Unwrap() error { return e.Err }

// Errorf builds a DecodeError whose cause wraps sentinel with detail.
func Errorf(off int, sentinel error, format string, args ...any) *DecodeError {
	return &DecodeError{Offset: off, Err: xfmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)}
}

// Mark makes err a case of sentinel for errors.Is (and errors.As still
// finds what err wraps) without changing its text: the decoders' messages
// say what happened in their own words, the sentinel says which kind.
func Mark(sentinel, err error) error {
	if err == nil {
		return nil
	}
	return &marked{err: err, kind: sentinel}
}

type marked struct{ err, kind error }

func (m *marked) Error() string   { return m.err.Error() }
func (m *marked) Unwrap() []error { return []error{m.kind, m.err} }

// NodeError is the DecodeError of a tree's error node at offset off (as
// tree.Flat.FirstError gives them): its path, and its text after where in
// decompressed bytes it lies (a node with Relative offsets) and its name
// when the path does not end with it; it wraps the node's Err.
func NodeError(n *tree.Node, off int) *DecodeError {
	what := n.Err // its chain kept: errors.Is finds the sentinels it wraps
	if n.Name != "" && n.Name != "error" && n.Name != "more" && !strings.HasPrefix(n.Path, n.Name) {
		what = xfmt.Errorf("%s: %w", n.Name, what)
	}
	if n.Relative {
		return &DecodeError{Offset: off, Path: n.Path, Err: &DecodeError{Offset: n.Offset, Err: what}}
	}
	return &DecodeError{Offset: off, Path: n.Path, Err: what}
}

// WithPath prefixes the path of a DecodeError with a field name or index;
// other errors are returned unchanged. seg is "Name" or "[3]".
func WithPath(err error, seg string) error {
	var de *DecodeError
	if !errors.As(err, &de) {
		return err
	}
	switch {
	case de.Path == "":
		de.Path = seg
	case de.Path[0] == '[':
		de.Path = seg + de.Path
	default:
		de.Path = seg + "." + de.Path
	}
	return de
}
