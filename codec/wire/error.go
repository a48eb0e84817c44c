package wire

import (
	"errors"

	"kwire/internal/xfmt"
)

// DecodeError is the one error type of kwire's decoders: where (the byte
// offset into the original buffer and the field path) and what (the cause,
// one of this package's sentinels wrapped with detail).
type DecodeError struct {
	Offset int    // byte offset in the buffer given to the decoder
	Path   string // field path such as "Topics[0].Partitions[2].Index"
	Err    error
}

func (e *DecodeError) Error() string {
	if e.Path == "" {
		return xfmt.Sprintf("offset %d (0x%04x): %v", e.Offset, e.Offset, e.Err)
	}
	return xfmt.Sprintf("offset %d (0x%04x): %s: %v", e.Offset, e.Offset, e.Path, e.Err)
}

func (e *DecodeError) Unwrap() error { return e.Err }

// Errorf builds a DecodeError whose cause wraps sentinel with detail.
func Errorf(off int, sentinel error, format string, args ...any) *DecodeError {
	return &DecodeError{Offset: off, Err: xfmt.Errorf("%w: "+format, append([]any{sentinel}, args...)...)}
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
