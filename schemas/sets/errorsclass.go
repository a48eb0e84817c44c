//go:build !js

package sets

import (
	"encoding/binary"
	"errors"
	"strconv"
	"strings"

	"kwire/internal/xfmt"
)

// errorTable reads Kafka's error codes from Errors.class as an errors.tsv
// (code, name, message), without running it: the enum's static
// initializer constructs each constant as
//
//	new Errors("UNKNOWN_SERVER_ERROR", 0, -1, "The server experienced ...", UnknownServerException::new)
//
// that is, in its bytecode, a "new" of the class, then pushes of
// constants (the name, the ordinal, the code, the message or null; the
// lambda is an invokedynamic, passed over), then the invokespecial of its
// <init>. The class file is read as the JVM specification lays it out
// (JVMS 4.1 ClassFile, 4.4 the constant pool, 4.7.3 the Code attribute,
// 6.5 the instructions and their lengths), every index and length
// checked against the bytes there are. The browser app has no reader of
// class files (errorsclass_js.go: 10 KB of gzip): there a release from
// jars has the nearest release's table, which for 4.4.0's jars is the
// built-in 4.4's, read from the same class at build time.
func errorTable(class []byte) ([]byte, error) {
	r := &classReader{b: class}
	if r.u4() != 0xcafebabe {
		return nil, errors.New("not a class file")
	}
	r.skip(4) // minor and major version
	n := int(r.u2())
	if n*3 > len(class) {
		return nil, xfmt.Errorf("%d constants in %d bytes", n, len(class))
	}
	type constant struct {
		tag  byte
		a, b int    // indexes (Class, String, refs, NameAndType)
		i    int32  // Integer
		s    string // Utf8
	}
	cp := make([]constant, n)
	for i := 1; i < n && r.err == nil; i++ {
		c := &cp[i]
		c.tag = r.u1()
		switch c.tag {
		case 1: // Utf8 (modified UTF-8: Kafka's texts are ASCII)
			c.s = string(r.bytes(int(r.u2())))
		case 3:
			c.i = int32(r.u4())
		case 4:
			r.skip(4)
		case 5, 6: // Long, Double: two entries
			r.skip(8)
			i++
		case 7, 8, 16, 19, 20: // Class, String, MethodType, Module, Package
			c.a = int(r.u2())
		case 9, 10, 11, 12, 17, 18: // refs, NameAndType, Dynamic, InvokeDynamic
			c.a, c.b = int(r.u2()), int(r.u2())
		case 15: // MethodHandle
			r.skip(3)
		default:
			return nil, xfmt.Errorf("constant %d: unknown tag %d", i, c.tag)
		}
	}
	utf8 := func(i int) string {
		if i > 0 && i < n && cp[i].tag == 1 {
			return cp[i].s
		}
		return ""
	}
	className := func(i int) string {
		if i > 0 && i < n && cp[i].tag == 7 {
			return utf8(cp[i].a)
		}
		return ""
	}
	r.skip(2) // access flags
	this := className(int(r.u2()))
	r.skip(2)               // super class
	r.skip(2 * int(r.u2())) // interfaces
	skipMembers := func() {
		for range int(r.u2()) {
			r.skip(6)
			for range int(r.u2()) {
				r.skip(2)
				r.skip(int(r.u4()))
			}
		}
	}
	skipMembers() // fields
	var code []byte
	for range int(r.u2()) {
		r.skip(2)
		name := utf8(int(r.u2()))
		r.skip(2)
		for range int(r.u2()) {
			attr := utf8(int(r.u2()))
			body := r.bytes(int(r.u4()))
			if name == "<clinit>" && attr == "Code" && len(body) >= 8 {
				size := int(binary.BigEndian.Uint32(body[4:]))
				if size <= len(body)-8 {
					code = body[8 : 8+size]
				}
			}
		}
	}
	for range int(r.u2()) { // the class's attributes, to its end
		r.skip(2)
		r.skip(int(r.u4()))
	}
	switch {
	case r.err != nil:
		return nil, r.err
	case r.off != len(class):
		return nil, xfmt.Errorf("%d bytes after the class's end at %d", len(class)-r.off, r.off)
	case this == "" || code == nil:
		return nil, errors.New("no static initializer")
	}
	out := []byte("code\tname\tmessage\n")
	var pushed []any // the constants since the last "new" of the class
	building := false
	names, codes := map[string]bool{}, map[int32]bool{}
	for pc := 0; pc < len(code); {
		op := code[pc]
		size, err := instructionSize(code, pc)
		if err != nil {
			return nil, xfmt.Errorf("<clinit> at %d: %w", pc, err)
		}
		arg := code[pc+1 : pc+size]
		u2 := func() int { return int(binary.BigEndian.Uint16(arg)) }
		ldc := func(i int) {
			if i > 0 && i < n {
				switch cp[i].tag {
				case 3:
					pushed = append(pushed, cp[i].i)
				case 8:
					pushed = append(pushed, utf8(cp[i].a))
				}
			}
		}
		switch {
		case op == 0xbb: // new
			building = className(u2()) == this
			pushed = pushed[:0]
		case !building:
		case op == 0x01: // aconst_null
			pushed = append(pushed, nil)
		case op >= 0x02 && op <= 0x08: // iconst_m1 to iconst_5
			pushed = append(pushed, int32(op)-3)
		case op == 0x10: // bipush
			pushed = append(pushed, int32(int8(arg[0])))
		case op == 0x11: // sipush
			pushed = append(pushed, int32(int16(u2())))
		case op == 0x12: // ldc
			ldc(int(arg[0]))
		case op == 0x13: // ldc_w
			ldc(u2())
		case op == 0xb7: // invokespecial: the constructor
			building = false
			var strs []any
			var ints []int32
			for _, v := range pushed {
				if i, ok := v.(int32); ok {
					ints = append(ints, i)
				} else {
					strs = append(strs, v)
				}
			}
			var name string
			if len(strs) > 0 {
				name, _ = strs[0].(string)
			}
			if len(strs) < 2 || len(ints) < 2 || name == "" || names[name] || codes[ints[1]] {
				return nil, xfmt.Errorf("<clinit> at %d: a constant constructed of %v, not of a name, an ordinal, a code and a message", pc, pushed)
			}
			msg, _ := strs[1].(string)
			names[name], codes[ints[1]] = true, true
			msg = strings.Map(func(r rune) rune {
				if r == '\t' || r == '\n' || r == '\r' {
					return ' '
				}
				return r
			}, msg)
			out = append(out, strconv.Itoa(int(ints[1]))+"\t"+name+"\t"+msg+"\n"...)
		}
		pc += size
	}
	if !names["NONE"] || !codes[0] {
		return nil, errors.New("no NONE with code 0 among its constants")
	}
	return out, nil
}

// instructionSize is the length of the instruction at pc (JVMS 6.5).
func instructionSize(code []byte, pc int) (int, error) {
	op := code[pc]
	size := 1
	switch {
	case op == 0x10 || op == 0x12 || (op >= 0x15 && op <= 0x19) || (op >= 0x36 && op <= 0x3a) || op == 0xa9 || op == 0xbc:
		size = 2
	case op == 0x11 || op == 0x13 || op == 0x14 || op == 0x84 || (op >= 0x99 && op <= 0xa8) ||
		(op >= 0xb2 && op <= 0xb8) || op == 0xbb || op == 0xbd || op == 0xc0 || op == 0xc1 || op == 0xc6 || op == 0xc7:
		size = 3
	case op == 0xc5:
		size = 4
	case op == 0xb9 || op == 0xba || op == 0xc8 || op == 0xc9:
		size = 5
	case op == 0xc4: // wide
		size = 4
		if pc+1 < len(code) && code[pc+1] == 0x84 {
			size = 6
		}
	case op == 0xaa || op == 0xab: // tableswitch, lookupswitch: padded to 4
		p := pc + 1 + (3-pc%4)%4
		if p+12 > len(code) {
			return 0, errors.New("a switch cut short")
		}
		a, b := int64(int32(binary.BigEndian.Uint32(code[p+4:]))), int64(int32(binary.BigEndian.Uint32(code[p+8:])))
		var body int64
		if op == 0xaa {
			body = 12 + (b-a+1)*4
		} else {
			body = 8 + a*8
		}
		if body < 8 || int64(p)+body > int64(len(code)) {
			return 0, errors.New("a switch past the code")
		}
		size = p + int(body) - pc
	case op > 0xc9:
		return 0, xfmt.Errorf("opcode %d", op)
	}
	if pc+size > len(code) {
		return 0, errors.New("an instruction past the code")
	}
	return size, nil
}

// classReader reads a class file's big-endian fields; past the end it
// reads zeros and keeps the error.
type classReader struct {
	b   []byte
	off int
	err error
}

// bytes returns the next n bytes, or nil past the end.
func (r *classReader) bytes(n int) []byte {
	if r.err != nil || n < 0 || n > len(r.b)-r.off {
		if r.err == nil {
			r.err = xfmt.Errorf("cut short at byte %d", r.off)
		}
		return nil
	}
	r.off += n
	return r.b[r.off-n : r.off]
}

func (r *classReader) skip(n int) { r.bytes(n) }

// u reads an n-byte unsigned integer.
func (r *classReader) u(n int) uint32 {
	var v uint32
	for _, c := range r.bytes(n) {
		v = v<<8 | uint32(c)
	}
	return v
}

func (r *classReader) u1() byte   { return byte(r.u(1)) }
func (r *classReader) u2() uint16 { return uint16(r.u(2)) }
func (r *classReader) u4() uint32 { return r.u(4) }
