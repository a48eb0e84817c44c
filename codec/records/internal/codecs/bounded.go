package codecs

import (
	"kwire/codec/wire"
	"kwire/internal/xfmt"
)

// What the browser app's own decoders (lz4.go, zstd.go) share, written
// for size, which matters more there than speed: a failure panics with
// a decodeFail, which the decoder's entry point recovers with
// catchFail (as encoding/json and regexp/syntax do), so that no call
// needs an error check; errors are built from ints only; the output
// grows through one function.

// decodeFail carries a decoding error to catchFail.
type decodeFail struct{ err error }

// catchFail, deferred by a decoder's entry point, returns the error a
// failure carries, with no output. Other panics are bugs, not bad
// input: they go on.
func catchFail(out *[]byte, err *error) {
	if e := recover(); e != nil {
		f, ok := e.(decodeFail)
		if !ok {
			panic(e)
		}
		*out, *err = nil, f.err
	}
}

// fail stops the decoding when bad is true, with a *wire.DecodeError at
// byte at of the input that says msg, its verbs filled by args. Hot
// loops test bad before the call, which then costs nothing on good input.
//
//go:noinline
func fail(bad bool, at int, msg string, args ...int) {
	if bad {
		a := make([]any, len(args))
		for k, v := range args {
			a[k] = v
		}
		panic(decodeFail{&wire.DecodeError{Offset: at, Err: xfmt.Errorf(msg, a...)}})
	}
}

// failTooBig stops the decoding with ErrTooBig when bad is true.
//
//go:noinline
func failTooBig(bad bool) {
	if bad {
		panic(decodeFail{ErrTooBig})
	}
}

// boundedOut is a decoder's output, which grows to limit bytes at most.
type boundedOut struct {
	out   []byte
	limit int
}

// emit appends b, then n bytes copied from off bytes back, which may
// overlap the bytes they make (a match of lz4 or zstd); the caller checks
// that off reaches no further back than the output.
//
//go:noinline
func (w *boundedOut) emit(b []byte, off, n int) {
	k := len(b) + n
	if k > w.limit-len(w.out) {
		failTooBig(true)
	}
	if k > cap(w.out)-len(w.out) {
		o := make([]byte, len(w.out), min(max(2*cap(w.out), len(w.out)+k, 4096), w.limit))
		copy(o, w.out)
		w.out = o
	}
	e := len(w.out) + k
	w.out = w.out[:e]
	p := e - n
	copy(w.out[p-len(b):], b)
	// Each copy doubles what the next can take: the bytes from s repeat
	// every off bytes.
	for s := p - off; p < e; {
		p += copy(w.out[p:e], w.out[s:p])
	}
}
