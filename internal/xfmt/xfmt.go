// Package xfmt formats as package fmt does, for the verbs, flags and types
// kwire's packages use, without fmt: fmt's printer reaches most of reflect
// (method values, calls, map sorting), which costs the browser app about
// 100 KB of gzip. The output is fmt's for %v %d %s %q %x %X %c %t %T %f
// %e %g %b %o %U %w and %%, with the flags # 0 + - space, a width and a
// precision (no * and no argument indexes), for booleans, numbers,
// strings, byte slices, errors, Stringers, and through reflect for named
// basic types, slices, arrays, structs and pointers to them; wrong verbs,
// missing and extra arguments are written as fmt writes them. No
// fmt.Formatter, no %#v, no maps.
//
// Under `go test` on the host every call is also made with fmt and a
// difference panics (check_native.go), so that the tests of every package
// that uses xfmt compare the two on the texts they produce.
package xfmt

import (
	"errors"
	"io"
	"reflect"
	"strconv"
	"unicode/utf8"
)

// Stringer is fmt.Stringer.
type Stringer interface{ String() string }

// Sprintf is fmt.Sprintf.
func Sprintf(format string, a ...any) string {
	p := printer{}
	p.doPrintf(format, a)
	s := string(p.buf)
	check(s, format, a...)
	return s
}

// Appendf is fmt.Appendf.
func Appendf(b []byte, format string, a ...any) []byte {
	p := printer{}
	p.doPrintf(format, a)
	check(string(p.buf), format, a...)
	return append(b, p.buf...)
}

// Fprintf is fmt.Fprintf.
func Fprintf(w io.Writer, format string, a ...any) (int, error) {
	p := printer{}
	p.doPrintf(format, a)
	check(string(p.buf), format, a...)
	return w.Write(p.buf)
}

// Sprint is fmt.Sprint: operands formatted as %v, a space between two
// that are not strings.
func Sprint(a ...any) string {
	p := printer{}
	prevString := false
	for i, arg := range a {
		isString := arg != nil && reflect.TypeOf(arg).Kind() == reflect.String
		if i > 0 && !isString && !prevString {
			p.buf = append(p.buf, ' ')
		}
		p.printArg(arg, 'v')
		prevString = isString
	}
	s := string(p.buf)
	checkPrint(s, a...)
	return s
}

// Errorf is fmt.Errorf: the error it returns unwraps to the operands of
// its %w verbs.
func Errorf(format string, a ...any) error {
	p := printer{wrapErrs: true}
	p.doPrintf(format, a)
	s := string(p.buf)
	checkErrorf(s, format, a...)
	switch len(p.wrapped) {
	case 0:
		return errors.New(s)
	case 1:
		w := &wrapError{msg: s}
		w.err, _ = a[p.wrapped[0]].(error)
		return w
	}
	var errs []error
	for i, n := range p.wrapped {
		if i > 0 && p.wrapped[i-1] == n {
			continue
		}
		if e, ok := a[n].(error); ok {
			errs = append(errs, e)
		}
	}
	return &wrapErrors{s, errs}
}

type wrapError struct {
	msg string
	err error
}

func (e *wrapError) Error() string { return e.msg }
func (e *wrapError) Unwrap() error { return e.err }

type wrapErrors struct {
	msg  string
	errs []error
}

func (e *wrapErrors) Error() string   { return e.msg }
func (e *wrapErrors) Unwrap() []error { return e.errs }

var (
	errorType    = reflect.TypeFor[error]()
	stringerType = reflect.TypeFor[Stringer]()
)

const (
	ldigits = "0123456789abcdefx"
	udigits = "0123456789ABCDEFX"
)

// flags are those of one verb.
type flags struct {
	widPresent, precPresent   bool
	minus, plus, sharp, space bool
	zero                      bool
	wid, prec                 int
}

type printer struct {
	buf      []byte
	f        flags
	arg      any
	value    reflect.Value // what printValue prints, for badVerb
	erroring bool          // writing a bad verb: no Error or String methods
	wrapErrs bool
	wrapped  []int // operands of %w
}

func (p *printer) doPrintf(format string, a []any) {
	end := len(format)
	argNum := 0
	for i := 0; i < end; {
		lasti := i
		for i < end && format[i] != '%' {
			i++
		}
		p.buf = append(p.buf, format[lasti:i]...)
		if i >= end {
			break
		}
		i++ // the %
		p.f = flags{}
	flagLoop:
		for ; i < end; i++ {
			switch format[i] {
			case '#':
				p.f.sharp = true
			case '0':
				p.f.zero = !p.f.minus
			case '+':
				p.f.plus = true
			case '-':
				p.f.minus = true
				p.f.zero = false
			case ' ':
				p.f.space = true
			default:
				break flagLoop
			}
		}
		p.f.wid, p.f.widPresent, i = parsenum(format, i, end)
		if i < end && format[i] == '.' {
			i++
			p.f.prec, p.f.precPresent, i = parsenum(format, i, end)
			if !p.f.precPresent {
				p.f.prec = 0
				p.f.precPresent = true
			}
		}
		if i >= end {
			p.buf = append(p.buf, "%!(NOVERB)"...)
			break
		}
		verb, size := rune(format[i]), 1
		if verb >= utf8.RuneSelf {
			verb, size = utf8.DecodeRuneInString(format[i:])
		}
		i += size
		switch {
		case verb == '%':
			p.buf = append(p.buf, '%')
		case argNum >= len(a):
			p.buf = append(p.buf, "%!"...)
			p.buf = utf8.AppendRune(p.buf, verb)
			p.buf = append(p.buf, "(MISSING)"...)
		default:
			if verb == 'w' {
				p.wrapped = append(p.wrapped, argNum)
			}
			if verb == 'v' && p.f.plus {
				p.f.plus = false // %+v is %v for what xfmt prints
			}
			p.printArg(a[argNum], verb)
			argNum++
		}
	}
	if argNum < len(a) {
		p.f = flags{}
		p.buf = append(p.buf, "%!(EXTRA "...)
		for i, arg := range a[argNum:] {
			if i > 0 {
				p.buf = append(p.buf, ", "...)
			}
			if arg == nil {
				p.buf = append(p.buf, "<nil>"...)
			} else {
				p.buf = append(p.buf, reflect.TypeOf(arg).String()...)
				p.buf = append(p.buf, '=')
				p.printArg(arg, 'v')
			}
		}
		p.buf = append(p.buf, ')')
	}
}

func parsenum(s string, start, end int) (num int, isnum bool, newi int) {
	for newi = start; newi < end && '0' <= s[newi] && s[newi] <= '9'; newi++ {
		if num > 1e6 {
			return 0, false, end
		}
		num = num*10 + int(s[newi]-'0')
		isnum = true
	}
	return
}

func (p *printer) printArg(arg any, verb rune) {
	p.arg = arg
	p.value = reflect.Value{}
	if arg == nil {
		switch verb {
		case 'T', 'v':
			p.padString("<nil>")
		default:
			p.badVerb(verb)
		}
		return
	}
	if verb == 'T' {
		p.padString(reflect.TypeOf(arg).String())
		return
	}
	switch v := arg.(type) {
	case bool:
		p.fmtBool(v, verb)
	case float32:
		p.fmtFloat(float64(v), 32, verb)
	case float64:
		p.fmtFloat(v, 64, verb)
	case int:
		p.fmtInteger(uint64(v), true, verb)
	case int8:
		p.fmtInteger(uint64(v), true, verb)
	case int16:
		p.fmtInteger(uint64(v), true, verb)
	case int32:
		p.fmtInteger(uint64(v), true, verb)
	case int64:
		p.fmtInteger(uint64(v), true, verb)
	case uint:
		p.fmtInteger(uint64(v), false, verb)
	case uint8:
		p.fmtInteger(uint64(v), false, verb)
	case uint16:
		p.fmtInteger(uint64(v), false, verb)
	case uint32:
		p.fmtInteger(uint64(v), false, verb)
	case uint64:
		p.fmtInteger(v, false, verb)
	case uintptr:
		p.fmtInteger(uint64(v), false, verb)
	case string:
		p.fmtString(v, verb)
	case []byte:
		p.fmtBytes(v, verb, "[]byte")
	default:
		if !p.handleMethods(verb) {
			p.printValue(reflect.ValueOf(v), verb, 0)
		}
	}
}

// handleMethods writes an error's Error or a Stringer's String for the
// verbs that take a string, and reports whether it did.
func (p *printer) handleMethods(verb rune) (handled bool) {
	if p.erroring {
		return false
	}
	if verb == 'w' {
		if _, ok := p.arg.(error); !ok || !p.wrapErrs {
			p.badVerb(verb)
			return true
		}
		verb = 'v'
	}
	switch verb {
	case 'v', 's', 'x', 'X', 'q':
		switch v := p.arg.(type) {
		case error:
			handled = true
			defer p.catchPanic(p.arg, verb, "Error")
			p.fmtString(v.Error(), verb)
			return
		case Stringer:
			handled = true
			defer p.catchPanic(p.arg, verb, "String")
			p.fmtString(v.String(), verb)
			return
		}
	}
	return false
}

func (p *printer) catchPanic(arg any, verb rune, method string) {
	err := recover()
	if err == nil {
		return
	}
	if v := reflect.ValueOf(arg); v.Kind() == reflect.Pointer && v.IsNil() {
		p.buf = append(p.buf, "<nil>"...)
		return
	}
	if p.erroring {
		panic(err)
	}
	f := p.f
	p.f = flags{}
	p.buf = append(p.buf, "%!"...)
	p.buf = utf8.AppendRune(p.buf, verb)
	p.buf = append(p.buf, "(PANIC="...)
	p.buf = append(p.buf, method...)
	p.buf = append(p.buf, " method: "...)
	p.erroring = true
	p.printArg(err, 'v')
	p.erroring = false
	p.buf = append(p.buf, ')')
	p.f = f
}

func (p *printer) badVerb(verb rune) {
	p.erroring = true
	p.buf = append(p.buf, "%!"...)
	p.buf = utf8.AppendRune(p.buf, verb)
	p.buf = append(p.buf, '(')
	switch {
	case p.arg != nil:
		p.buf = append(p.buf, reflect.TypeOf(p.arg).String()...)
		p.buf = append(p.buf, '=')
		p.printArg(p.arg, 'v')
	case p.value.IsValid():
		p.buf = append(p.buf, p.value.Type().String()...)
		p.buf = append(p.buf, '=')
		p.printValue(p.value, 'v', 0)
	default:
		p.buf = append(p.buf, "<nil>"...)
	}
	p.buf = append(p.buf, ')')
	p.erroring = false
}

// printValue writes what reflect sees, for the types printArg does not
// know by name.
func (p *printer) printValue(v reflect.Value, verb rune, depth int) {
	// fmt calls the Error or String method of an element; xfmt does not:
	// reflect.Value.Interface would bring reflect's method calls into the
	// browser app (17 KB of gzip).
	switch verb {
	case 'v', 's', 'x', 'X', 'q':
		if depth > 0 && v.IsValid() && v.Kind() != reflect.Interface && (v.Type().Implements(errorType) || v.Type().Implements(stringerType)) {
			p.unsupported(v, verb)
			return
		}
	}
	p.arg = nil
	p.value = v
	switch v.Kind() {
	case reflect.Invalid:
		if depth == 0 {
			p.buf = append(p.buf, "<invalid reflect.Value>"...)
		} else if verb == 'v' {
			p.buf = append(p.buf, "<nil>"...)
		} else {
			p.badVerb(verb)
		}
	case reflect.Bool:
		p.fmtBool(v.Bool(), verb)
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		p.fmtInteger(uint64(v.Int()), true, verb)
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		p.fmtInteger(v.Uint(), false, verb)
	case reflect.Float32:
		p.fmtFloat(v.Float(), 32, verb)
	case reflect.Float64:
		p.fmtFloat(v.Float(), 64, verb)
	case reflect.String:
		p.fmtString(v.String(), verb)
	case reflect.Struct:
		p.buf = append(p.buf, '{')
		for i := range v.NumField() {
			if i > 0 {
				p.buf = append(p.buf, ' ')
			}
			p.printValue(v.Field(i), verb, depth+1)
		}
		p.buf = append(p.buf, '}')
	case reflect.Interface:
		if e := v.Elem(); !e.IsValid() {
			p.buf = append(p.buf, "<nil>"...)
		} else {
			p.printValue(e, verb, depth+1)
		}
	case reflect.Array, reflect.Slice:
		switch verb {
		case 's', 'q', 'x', 'X':
			if v.Type().Elem().Kind() == reflect.Uint8 {
				b := make([]byte, v.Len())
				for i := range b {
					b[i] = byte(v.Index(i).Uint())
				}
				p.fmtBytes(b, verb, v.Type().String())
				return
			}
		}
		p.buf = append(p.buf, '[')
		for i := range v.Len() {
			if i > 0 {
				p.buf = append(p.buf, ' ')
			}
			p.printValue(v.Index(i), verb, depth+1)
		}
		p.buf = append(p.buf, ']')
	case reflect.Pointer:
		if depth == 0 && !v.IsNil() {
			switch v.Elem().Kind() {
			case reflect.Array, reflect.Slice, reflect.Struct:
				p.buf = append(p.buf, '&')
				p.printValue(v.Elem(), verb, depth+1)
				return
			}
		}
		p.unsupported(v, verb)
	default:
		p.unsupported(v, verb)
	}
}

// unsupported writes what fmt would not: xfmt does not print maps,
// channels, functions or addresses.
func (p *printer) unsupported(v reflect.Value, verb rune) {
	p.buf = append(p.buf, "%!"...)
	p.buf = utf8.AppendRune(p.buf, verb)
	p.buf = append(p.buf, "(xfmt: "...)
	p.buf = append(p.buf, v.Type().String()...)
	p.buf = append(p.buf, ')')
}

func (p *printer) fmtBool(v bool, verb rune) {
	switch verb {
	case 't', 'v':
		if v {
			p.padString("true")
		} else {
			p.padString("false")
		}
	default:
		p.badVerb(verb)
	}
}

func (p *printer) fmtInteger(v uint64, signed bool, verb rune) {
	switch verb {
	case 'v', 'd':
		p.integer(v, 10, signed, verb, ldigits)
	case 'b':
		p.integer(v, 2, signed, verb, ldigits)
	case 'o', 'O':
		p.integer(v, 8, signed, verb, ldigits)
	case 'x':
		p.integer(v, 16, signed, verb, ldigits)
	case 'X':
		p.integer(v, 16, signed, verb, udigits)
	case 'c':
		p.pad(utf8.AppendRune(nil, toRune(v)))
	case 'q':
		if p.f.plus {
			p.pad(strconv.AppendQuoteRuneToASCII(nil, toRune(v)))
		} else {
			p.pad(strconv.AppendQuoteRune(nil, toRune(v)))
		}
	case 'U':
		p.unicode(v)
	default:
		p.badVerb(verb)
	}
}

func toRune(v uint64) rune {
	if v > utf8.MaxRune {
		return utf8.RuneError
	}
	return rune(v)
}

// unicode writes U+0078, or with # U+0078 'x'.
func (p *printer) unicode(u uint64) {
	b := []byte("U+")
	h := strconv.FormatUint(u, 16)
	prec := 4
	if p.f.precPresent && p.f.prec > 4 {
		prec = p.f.prec
	}
	for n := len(h); n < prec; n++ {
		b = append(b, '0')
	}
	for i := range len(h) {
		b = append(b, udigits[hexval(h[i])])
	}
	if p.f.sharp && u <= utf8.MaxRune && strconv.IsPrint(rune(u)) {
		b = append(b, " '"...)
		b = utf8.AppendRune(b, rune(u))
		b = append(b, '\'')
	}
	zero := p.f.zero
	p.f.zero = false
	p.pad(b)
	p.f.zero = zero
}

func hexval(c byte) int {
	if c <= '9' {
		return int(c - '0')
	}
	return int(c-'a') + 10
}

// integer is fmt's fmtInteger.
func (p *printer) integer(u uint64, base int, isSigned bool, verb rune, digits string) {
	negative := isSigned && int64(u) < 0
	if negative {
		u = -u
	}
	buf := make([]byte, 68+3+p.f.wid+p.f.prec)
	prec := 0
	if p.f.precPresent {
		prec = p.f.prec
		if prec == 0 && u == 0 {
			zero := p.f.zero
			p.f.zero = false
			p.writePadding(p.f.wid)
			p.f.zero = zero
			return
		}
	} else if p.f.zero && !p.f.minus && p.f.widPresent {
		prec = p.f.wid
		if negative || p.f.plus || p.f.space {
			prec--
		}
	}
	i := len(buf)
	shift := uint(4)
	switch base {
	case 2:
		shift = 1
	case 8:
		shift = 3
	}
	for u >= uint64(base) {
		i--
		if base == 10 {
			buf[i] = byte('0' + u%10)
			u /= 10
		} else {
			buf[i] = digits[u&uint64(base-1)]
			u >>= shift
		}
	}
	i--
	buf[i] = digits[u]
	for i > 0 && prec > len(buf)-i {
		i--
		buf[i] = '0'
	}
	if p.f.sharp {
		switch base {
		case 2:
			i -= 2
			buf[i], buf[i+1] = '0', 'b'
		case 8:
			if buf[i] != '0' {
				i--
				buf[i] = '0'
			}
		case 16:
			i -= 2
			buf[i], buf[i+1] = '0', digits[16]
		}
	}
	if verb == 'O' {
		i -= 2
		buf[i], buf[i+1] = '0', 'o'
	}
	switch {
	case negative:
		i--
		buf[i] = '-'
	case p.f.plus:
		i--
		buf[i] = '+'
	case p.f.space:
		i--
		buf[i] = ' '
	}
	zero := p.f.zero
	p.f.zero = false
	p.pad(buf[i:])
	p.f.zero = zero
}

func (p *printer) fmtFloat(v float64, size int, verb rune) {
	switch verb {
	case 'v':
		p.float(v, size, 'g', -1)
	case 'b', 'g', 'G', 'x', 'X':
		p.float(v, size, verb, -1)
	case 'f', 'e', 'E':
		p.float(v, size, verb, 6)
	case 'F':
		p.float(v, size, 'f', 6)
	default:
		p.badVerb(verb)
	}
}

// float is fmt's fmtFloat but for the # flag, which xfmt does not take.
func (p *printer) float(v float64, size int, verb rune, prec int) {
	if p.f.precPresent {
		prec = p.f.prec
	}
	num := strconv.AppendFloat([]byte{0}, v, byte(verb), prec, size)
	if num[1] == '-' || num[1] == '+' {
		num = num[1:]
	} else {
		num[0] = '+'
	}
	if p.f.space && num[0] == '+' && !p.f.plus {
		num[0] = ' '
	}
	if num[1] == 'I' || num[1] == 'N' {
		zero := p.f.zero
		p.f.zero = false
		if num[1] == 'N' && !p.f.space && !p.f.plus {
			num = num[1:]
		}
		p.pad(num)
		p.f.zero = zero
		return
	}
	if p.f.plus || num[0] != '+' {
		if p.f.zero && !p.f.minus && p.f.widPresent && p.f.wid > len(num) {
			p.buf = append(p.buf, num[0])
			p.writePadding(p.f.wid - len(num))
			p.buf = append(p.buf, num[1:]...)
			return
		}
		p.pad(num)
		return
	}
	p.pad(num[1:])
}

func (p *printer) fmtString(s string, verb rune) {
	switch verb {
	case 'v', 's':
		p.padString(p.truncate(s))
	case 'x':
		p.hex(s, ldigits)
	case 'X':
		p.hex(s, udigits)
	case 'q':
		p.quote(s)
	default:
		p.badVerb(verb)
	}
}

func (p *printer) fmtBytes(v []byte, verb rune, typeString string) {
	switch verb {
	case 'v', 'd':
		p.buf = append(p.buf, '[')
		for i, c := range v {
			if i > 0 {
				p.buf = append(p.buf, ' ')
			}
			p.integer(uint64(c), 10, false, verb, ldigits)
		}
		p.buf = append(p.buf, ']')
	case 's', 'x', 'X', 'q':
		p.fmtString(string(v), verb)
	default:
		p.printValue(reflect.ValueOf(v), verb, 0)
	}
}

// truncate cuts s to the precision, in runes.
func (p *printer) truncate(s string) string {
	if p.f.precPresent {
		n := p.f.prec
		for i := range s {
			n--
			if n < 0 {
				return s[:i]
			}
		}
	}
	return s
}

func (p *printer) quote(s string) {
	s = p.truncate(s)
	var b []byte
	switch {
	case p.f.sharp && strconv.CanBackquote(s):
		b = append(append(append(b, '`'), s...), '`')
	case p.f.plus:
		b = strconv.AppendQuoteToASCII(nil, s)
	default:
		b = strconv.AppendQuote(nil, s)
	}
	p.pad(b)
}

// hex is fmt's fmtSbx for a string.
func (p *printer) hex(s string, digits string) {
	length := len(s)
	if p.f.precPresent && p.f.prec < length {
		length = p.f.prec
	}
	width := 2 * length
	if width == 0 {
		if p.f.widPresent {
			p.writePadding(p.f.wid)
		}
		return
	}
	if p.f.space {
		if p.f.sharp {
			width *= 2
		}
		width += length - 1
	} else if p.f.sharp {
		width += 2
	}
	if p.f.widPresent && p.f.wid > width && !p.f.minus {
		p.writePadding(p.f.wid - width)
	}
	if p.f.sharp {
		p.buf = append(p.buf, '0', digits[16])
	}
	for i := range length {
		if p.f.space && i > 0 {
			p.buf = append(p.buf, ' ')
			if p.f.sharp {
				p.buf = append(p.buf, '0', digits[16])
			}
		}
		p.buf = append(p.buf, digits[s[i]>>4], digits[s[i]&0xF])
	}
	if p.f.widPresent && p.f.wid > width && p.f.minus {
		p.writePadding(p.f.wid - width)
	}
}

func (p *printer) writePadding(n int) {
	pad := byte(' ')
	if p.f.zero && !p.f.minus {
		pad = '0'
	}
	for ; n > 0; n-- {
		p.buf = append(p.buf, pad)
	}
}

func (p *printer) pad(b []byte) {
	if !p.f.widPresent || p.f.wid == 0 {
		p.buf = append(p.buf, b...)
		return
	}
	width := p.f.wid - utf8.RuneCount(b)
	if !p.f.minus {
		p.writePadding(width)
		p.buf = append(p.buf, b...)
	} else {
		p.buf = append(p.buf, b...)
		p.writePadding(width)
	}
}

func (p *printer) padString(s string) {
	if !p.f.widPresent || p.f.wid == 0 {
		p.buf = append(p.buf, s...)
		return
	}
	width := p.f.wid - utf8.RuneCountInString(s)
	if !p.f.minus {
		p.writePadding(width)
		p.buf = append(p.buf, s...)
	} else {
		p.buf = append(p.buf, s...)
		p.writePadding(width)
	}
}
