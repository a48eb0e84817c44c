// Command wasmtop prints where the bytes of a Go WebAssembly binary are:
// the size of each section, and the code of each function summed by
// package, largest first, with the gzip size of each package's code
// compressed on its own (an estimate of its share of the served binary).
// The binary must keep its name section (built without -ldflags='-s -w');
// scripts/wasm-top.sh builds the explorer that way and runs this.
//
//	go run ./scripts/wasmtop [-n 40] [-syms 40] [-match REGEXP] file.wasm
package main

import (
	"bytes"
	"compress/gzip"
	"encoding/binary"
	"errors"
	"flag"
	"fmt"
	"os"
	"regexp"
	"sort"
	"strings"
)

func main() {
	n := flag.Int("n", 40, "packages to print")
	syms := flag.Int("syms", 40, "functions to print")
	match := flag.String("match", "", "print only packages and functions whose name matches this regexp")
	flag.Parse()
	if flag.NArg() != 1 {
		fmt.Fprintln(os.Stderr, "usage: wasmtop [-n N] [-syms N] [-match RE] file.wasm")
		os.Exit(2)
	}
	b, err := os.ReadFile(flag.Arg(0))
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	m, err := parse(b)
	if err != nil {
		fmt.Fprintln(os.Stderr, "wasmtop:", err)
		os.Exit(1)
	}
	var re *regexp.Regexp
	if *match != "" {
		re = regexp.MustCompile(*match)
	}
	fmt.Printf("%-24s %10s\n", "section", "bytes")
	for _, s := range m.sections {
		fmt.Printf("%-24s %10d\n", s.name, s.size)
	}
	if len(m.names) == 0 {
		fmt.Fprintln(os.Stderr, "wasmtop: no name section (built with -s -w?)")
		os.Exit(1)
	}
	type pkg struct {
		name  string
		size  int
		funcs int
		code  bytes.Buffer
	}
	pkgs := map[string]*pkg{}
	type fn struct {
		name string
		size int
	}
	var fns []fn
	for i, body := range m.bodies {
		name := m.names[m.imported+i]
		if name == "" {
			name = fmt.Sprintf("func%d", m.imported+i)
		}
		p := pkgs[pkgOf(name)]
		if p == nil {
			p = &pkg{name: pkgOf(name)}
			pkgs[p.name] = p
		}
		p.size += len(body)
		p.funcs++
		p.code.Write(body)
		fns = append(fns, fn{name, len(body)})
	}
	var ps []*pkg
	total := 0
	for _, p := range pkgs {
		total += p.size
		if re == nil || re.MatchString(p.name) {
			ps = append(ps, p)
		}
	}
	sort.Slice(ps, func(i, j int) bool {
		return ps[i].size > ps[j].size || ps[i].size == ps[j].size && ps[i].name < ps[j].name
	})
	fmt.Printf("\n%-52s %6s %10s %10s\n", "package (code)", "funcs", "bytes", "gzip")
	sum, sumgz := 0, 0
	for i, p := range ps {
		gz := gzipLen(p.code.Bytes())
		sum += p.size
		sumgz += gz
		if i < *n {
			fmt.Printf("%-52s %6d %10d %10d\n", p.name, p.funcs, p.size, gz)
		}
	}
	fmt.Printf("%-52s %6s %10d %10d\n", "(printed packages, all matching)", "", sum, sumgz)
	fmt.Printf("%-52s %6s %10d\n", "(all code)", "", total)
	sort.Slice(fns, func(i, j int) bool {
		return fns[i].size > fns[j].size || fns[i].size == fns[j].size && fns[i].name < fns[j].name
	})
	fmt.Printf("\n%-70s %10s\n", "function", "bytes")
	k := 0
	for _, f := range fns {
		if k >= *syms {
			break
		}
		if re != nil && !re.MatchString(f.name) {
			continue
		}
		fmt.Printf("%-70s %10d\n", trunc(f.name, 70), f.size)
		k++
	}
}

func trunc(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return s[:n-1] + "…"
}

// pkgOf returns the import path a Go symbol belongs to: what comes before
// the first dot after the last slash (generic instantiations count for the
// package that declares the function).
func pkgOf(sym string) string {
	s := sym
	if i := strings.IndexByte(s, '['); i >= 0 {
		s = s[:i]
	}
	slash := strings.LastIndexByte(s, '/')
	if i := strings.IndexByte(s[slash+1:], '.'); i >= 0 {
		return s[:slash+1+i]
	}
	return s
}

func gzipLen(b []byte) int {
	var buf bytes.Buffer
	w, _ := gzip.NewWriterLevel(&buf, gzip.BestCompression)
	w.Write(b)
	w.Close()
	return buf.Len()
}

type section struct {
	name string
	size int
}

type module struct {
	sections []section
	imported int            // imported functions (they come first in the index space)
	bodies   [][]byte       // code section bodies, in order
	names    map[int]string // function index -> name
}

var sectionNames = []string{"custom", "type", "import", "function", "table", "memory", "global", "export", "start", "element", "code", "data", "datacount"}

type reader struct {
	b   []byte
	off int
}

var errShort = errors.New("truncated")

func (r *reader) uleb() (uint64, error) {
	var v uint64
	for shift := 0; shift < 64; shift += 7 {
		if r.off >= len(r.b) {
			return 0, errShort
		}
		c := r.b[r.off]
		r.off++
		v |= uint64(c&0x7f) << shift
		if c < 0x80 {
			return v, nil
		}
	}
	return 0, errors.New("uleb too long")
}

func (r *reader) bytes(n uint64) ([]byte, error) {
	if n > uint64(len(r.b)-r.off) {
		return nil, errShort
	}
	s := r.b[r.off : r.off+int(n)]
	r.off += int(n)
	return s, nil
}

func (r *reader) name() (string, error) {
	n, err := r.uleb()
	if err != nil {
		return "", err
	}
	s, err := r.bytes(n)
	return string(s), err
}

func parse(b []byte) (*module, error) {
	if len(b) < 8 || !bytes.Equal(b[:4], []byte("\x00asm")) || binary.LittleEndian.Uint32(b[4:8]) != 1 {
		return nil, errors.New("not a wasm module")
	}
	m := &module{names: map[int]string{}}
	r := &reader{b: b, off: 8}
	for r.off < len(b) {
		id := b[r.off]
		r.off++
		size, err := r.uleb()
		if err != nil {
			return nil, err
		}
		body, err := r.bytes(size)
		if err != nil {
			return nil, err
		}
		name := fmt.Sprintf("id %d", id)
		if int(id) < len(sectionNames) {
			name = sectionNames[id]
		}
		s := &reader{b: body}
		switch id {
		case 0:
			cn, err := s.name()
			if err != nil {
				return nil, err
			}
			name = "custom " + cn
			if cn == "name" {
				if err := m.readNames(s); err != nil {
					return nil, fmt.Errorf("name section: %w", err)
				}
			}
		case 2:
			if err := m.readImports(s); err != nil {
				return nil, fmt.Errorf("import section: %w", err)
			}
		case 10:
			if err := m.readCode(s); err != nil {
				return nil, fmt.Errorf("code section: %w", err)
			}
		}
		m.sections = append(m.sections, section{name, int(size)})
	}
	return m, nil
}

func (m *module) readImports(s *reader) error {
	n, err := s.uleb()
	if err != nil {
		return err
	}
	for range n {
		if _, err := s.name(); err != nil {
			return err
		}
		if _, err := s.name(); err != nil {
			return err
		}
		kind, err := s.bytes(1)
		if err != nil {
			return err
		}
		switch kind[0] {
		case 0: // function: type index
			m.imported++
			_, err = s.uleb()
		case 1: // table: reftype, limits
			if _, err = s.bytes(1); err == nil {
				err = limits(s)
			}
		case 2: // memory
			err = limits(s)
		case 3: // global: valtype, mut
			_, err = s.bytes(2)
		default:
			return fmt.Errorf("import kind %d", kind[0])
		}
		if err != nil {
			return err
		}
	}
	return nil
}

func limits(s *reader) error {
	f, err := s.bytes(1)
	if err != nil {
		return err
	}
	if _, err := s.uleb(); err != nil {
		return err
	}
	if f[0]&1 != 0 {
		_, err = s.uleb()
	}
	return err
}

func (m *module) readCode(s *reader) error {
	n, err := s.uleb()
	if err != nil {
		return err
	}
	for range n {
		size, err := s.uleb()
		if err != nil {
			return err
		}
		body, err := s.bytes(size)
		if err != nil {
			return err
		}
		m.bodies = append(m.bodies, body)
	}
	return nil
}

func (m *module) readNames(s *reader) error {
	for s.off < len(s.b) {
		id, err := s.bytes(1)
		if err != nil {
			return err
		}
		size, err := s.uleb()
		if err != nil {
			return err
		}
		sub, err := s.bytes(size)
		if err != nil {
			return err
		}
		if id[0] != 1 {
			continue
		}
		t := &reader{b: sub}
		n, err := t.uleb()
		if err != nil {
			return err
		}
		for range n {
			idx, err := t.uleb()
			if err != nil {
				return err
			}
			name, err := t.name()
			if err != nil {
				return err
			}
			m.names[int(idx)] = name
		}
	}
	return nil
}
