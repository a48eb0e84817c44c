// Package unzip reads the files of a zip archive (a jar, a zip of schema
// folders) from outside, within limits: PKWARE's APPNOTE.TXT (sections
// 4.3.7 to 4.3.16 for the records, 4.3.14 and 4.3.15 for zip64's end
// records), stored and deflated entries only, each checked against its
// size and CRC-32.
//
// Every entry's name is checked (no "..", no absolute path, no
// backslash, no NUL, none twice), whether it is read or not; only the
// entries asked for are decompressed, each at most Limits.EntryBytes and
// all of them at most Limits.TotalBytes, whatever the headers say, and
// nothing is allocated from a count or a size before it is checked
// against the bytes there are. It stands in for archive/zip, which costs
// the browser app 52 KB of gzip; its tests check it against archive/zip.
//
// The zip reader of jars and dropped zips, natively and in the browser
// (archive/zip would add 52 KB gzip there): stored and deflated entries,
// CRC-checked, zip64's end record read for its count; within Limits
// (entries, bytes per entry and in all, compression ratio) and every name
// checked (no .., absolute path, backslash, NUL, name twice) before anything
// is decompressed, only the entries asked for decompressed; an Error names
// the entry or the byte offset. Compared with archive/zip on every fuzz
// input.
package unzip

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"strings"

	"kwire/internal/xfmt"
)

// Limits bound what Read accepts.
type Limits struct {
	// Entries is the most entries (files and folders) the central
	// directory may list.
	Entries int
	// EntryBytes is the most bytes one entry read may hold, decompressed.
	EntryBytes int64
	// TotalBytes is the most bytes all the entries read may hold.
	TotalBytes int64
	// Ratio is the most an entry read may grow by when decompressed
	// (its size over its compressed size), for entries over 64 KiB.
	// DEFLATE cannot reach 1,032; Kafka's JSON is 4 to 10.
	Ratio int64
}

// Default are the limits of a jar or zip of schemas: kafka-clients 4.4.0
// has 4,689 entries, 27 MB decompressed of which its JSON is 1.3 MB.
var Default = Limits{Entries: 50_000, EntryBytes: 8 << 20, TotalBytes: 64 << 20, Ratio: 100}

// A File is one entry read.
type File struct {
	// Name is the entry's name ("common/message/FetchRequest.json").
	Name string
	// Date is its modification date as "2026-10-06" (MS-DOS date), or
	// "" when it has none.
	Date string
	// Data is its bytes, decompressed.
	Data []byte
}

// An Error is a zip that Read refuses: where (the entry, or the byte
// offset when no entry is at fault) and what.
type Error struct {
	// Entry is the entry's name, or "".
	Entry string
	// Offset is the byte offset in the archive of the record at fault.
	Offset int64
	Err    error
}

func (e *Error) Error() string {
	if e.Entry != "" {
		return xfmt.Sprintf("entry %q (at byte %d): %v", e.Entry, e.Offset, e.Err)
	}
	return xfmt.Sprintf("at byte %d: %v", e.Offset, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// ErrNotZip is the error of bytes that are no zip (no end of central
// directory record).
var ErrNotZip = errors.New("not a zip, or a zip cut short (no end of central directory record)")

const (
	sigLocal    = 0x04034b50
	sigCentral  = 0x02014b50
	sigEnd      = 0x06054b50
	sigEnd64    = 0x06064b50
	sigLocator  = 0x07064b50
	endLen      = 22
	locatorLen  = 20
	end64Len    = 56
	centralLen  = 46
	localLen    = 30
	ratioFloor  = 64 << 10
	dirEntryMin = centralLen
)

// Read returns the entries of the zip b that want accepts (by name; nil
// accepts every file), in the order of its central directory, without
// folders. It fails with an *Error on the first thing wrong, and then
// returns no file.
func Read(b []byte, want func(name string) bool, lim Limits) ([]File, error) {
	le := binary.LittleEndian
	n := int64(len(b))
	// The end of central directory record: 22 bytes and a comment of at
	// most 65,535, at the end.
	end := int64(-1)
	for i := n - endLen; i >= 0 && i >= n-endLen-0xffff; i-- {
		if le.Uint32(b[i:]) == sigEnd && i+endLen+int64(le.Uint16(b[i+20:])) <= n {
			end = i
			break
		}
	}
	if end < 0 {
		return nil, &Error{Offset: 0, Err: ErrNotZip}
	}
	count := int64(le.Uint16(b[end+10:]))
	cdSize, cdOff := int64(le.Uint32(b[end+12:])), int64(le.Uint32(b[end+16:]))
	limit := end // the central directory ends before this
	if count == 0xffff || cdSize == 0xffffffff || cdOff == 0xffffffff {
		// zip64: a locator just before the end record points at the
		// zip64 end record, which has the real count, size and offset.
		loc := end - locatorLen
		if loc < 0 || le.Uint32(b[loc:]) != sigLocator {
			if count != 0xffff || cdSize == 0xffffffff || cdOff == 0xffffffff {
				return nil, &Error{Offset: end, Err: errors.New("a zip64 end record is announced but there is no zip64 locator before the end record")}
			}
		} else {
			off := le.Uint64(b[loc+8:])
			if off > uint64(loc) || uint64(loc)-off < end64Len || le.Uint32(b[off:]) != sigEnd64 {
				return nil, &Error{Offset: loc, Err: xfmt.Errorf("the zip64 locator points at byte %d, where there is no zip64 end record", off)}
			}
			c64, s64, o64 := le.Uint64(b[off+32:]), le.Uint64(b[off+40:]), le.Uint64(b[off+48:])
			switch {
			case c64 > uint64(lim.Entries):
				return nil, &Error{Offset: int64(off), Err: xfmt.Errorf("%d entries; at most %d are read", c64, lim.Entries)}
			case s64 > uint64(n) || o64 > uint64(n):
				return nil, &Error{Offset: int64(off), Err: xfmt.Errorf("the zip64 end record says %d bytes of directory at %d, in an archive of %d bytes", s64, o64, n)}
			}
			count, cdSize, cdOff, limit = int64(c64), int64(s64), int64(o64), int64(off)
		}
	}
	switch {
	case count > int64(lim.Entries):
		return nil, &Error{Offset: end, Err: xfmt.Errorf("%d entries; at most %d are read", count, lim.Entries)}
	case cdOff+cdSize > limit:
		return nil, &Error{Offset: end, Err: xfmt.Errorf("the central directory (%d bytes at %d) runs past its end record at %d: the zip is cut or corrupt", cdSize, cdOff, limit)}
	case count*dirEntryMin > cdSize:
		return nil, &Error{Offset: end, Err: xfmt.Errorf("%d entries cannot fit in a central directory of %d bytes", count, cdSize)}
	}
	var files []File
	seen := make(map[string]bool, count)
	var total int64
	p := cdOff
	for i := range count {
		if p+centralLen > cdOff+cdSize || le.Uint32(b[p:]) != sigCentral {
			return nil, &Error{Offset: p, Err: xfmt.Errorf("central directory entry %d: no entry header", i)}
		}
		flags, method := le.Uint16(b[p+8:]), le.Uint16(b[p+10:])
		dosDate := le.Uint16(b[p+14:])
		crc, csize, usize := le.Uint32(b[p+16:]), int64(le.Uint32(b[p+20:])), int64(le.Uint32(b[p+24:]))
		nameLen, extraLen, commentLen := int64(le.Uint16(b[p+28:])), int64(le.Uint16(b[p+30:])), int64(le.Uint16(b[p+32:]))
		local := int64(le.Uint32(b[p+42:]))
		at := p
		next := p + centralLen + nameLen + extraLen + commentLen
		if next > cdOff+cdSize {
			return nil, &Error{Offset: p, Err: xfmt.Errorf("central directory entry %d runs past the directory", i)}
		}
		name := string(b[p+centralLen : p+centralLen+nameLen])
		p = next
		if err := checkName(name); err != nil {
			return nil, &Error{Entry: name, Offset: at, Err: err}
		}
		if seen[name] {
			return nil, &Error{Entry: name, Offset: at, Err: errors.New("a second entry of that name")}
		}
		seen[name] = true
		if strings.HasSuffix(name, "/") || (want != nil && !want(name)) {
			continue
		}
		bad := func(err error) ([]File, error) { return nil, &Error{Entry: name, Offset: at, Err: err} }
		switch {
		case flags&1 != 0:
			return bad(errors.New("encrypted"))
		case csize == 0xffffffff || usize == 0xffffffff || local == 0xffffffff:
			return bad(errors.New("zip64 sizes (an entry of 4 GB or more): not read"))
		case usize > lim.EntryBytes:
			return bad(xfmt.Errorf("%d bytes decompressed; at most %d are read from one entry", usize, lim.EntryBytes))
		case usize > lim.TotalBytes-total:
			return bad(xfmt.Errorf("the entries read would hold more than %d bytes decompressed", lim.TotalBytes))
		case usize > ratioFloor && usize > csize*lim.Ratio:
			return bad(xfmt.Errorf("%d bytes from %d compressed: a ratio over %d to 1 (a zip bomb?)", usize, csize, lim.Ratio))
		case local+localLen > cdOff || le.Uint32(b[local:]) != sigLocal:
			return bad(xfmt.Errorf("no local header at byte %d", local))
		}
		start := local + localLen + int64(le.Uint16(b[local+26:])) + int64(le.Uint16(b[local+28:]))
		if start+csize > cdOff {
			return bad(xfmt.Errorf("its %d bytes at %d run past the data, which ends at %d", csize, start, cdOff))
		}
		raw := b[start : start+csize]
		var data []byte
		switch method {
		case 0:
			if csize != usize {
				return bad(xfmt.Errorf("stored, but %d bytes compressed and %d decompressed", csize, usize))
			}
			data = bytes.Clone(raw)
		case 8:
			// usize bytes, then the end of the stream: a byte more is
			// read to see that there is none.
			data = make([]byte, usize+1)
			n, err := io.ReadFull(flate.NewReader(bytes.NewReader(raw)), data)
			if err != nil && err != io.ErrUnexpectedEOF && err != io.EOF {
				return bad(xfmt.Errorf("deflate: %w", err))
			}
			data = data[:n:n]
		default:
			return bad(xfmt.Errorf("compression method %d: only stored (0) and deflated (8) are read", method))
		}
		if int64(len(data)) != usize || crc32.ChecksumIEEE(data) != crc {
			return bad(xfmt.Errorf("%d bytes, CRC %08x; the directory says %d bytes, CRC %08x", len(data), crc32.ChecksumIEEE(data), usize, crc))
		}
		total += usize
		files = append(files, File{Name: name, Date: dosDateText(dosDate), Data: data})
	}
	return files, nil
}

// checkName refuses a name that could leave the folder it is written
// into, or that names no file.
func checkName(name string) error {
	switch {
	case name == "":
		return errors.New("an empty name")
	case strings.ContainsAny(name, "\\\x00"):
		return errors.New("a backslash or a NUL in its name")
	case name[0] == '/' || (len(name) > 1 && name[1] == ':'):
		return errors.New("an absolute path")
	}
	for _, el := range strings.Split(strings.TrimSuffix(name, "/"), "/") {
		switch el {
		case "..":
			return errors.New("a \"..\" in its path")
		case "", ".":
			return errors.New("an empty or \".\" element in its path")
		}
	}
	return nil
}

// dosDateText is an MS-DOS date (APPNOTE 4.4.6: bits 9-15 the year from
// 1980, 5-8 the month, 0-4 the day) as "2026-10-06".
func dosDateText(d uint16) string {
	y, m, day := 1980+int(d>>9), int(d>>5&15), int(d&31)
	if m < 1 || m > 12 || day < 1 {
		return ""
	}
	return xfmt.Sprintf("%04d-%02d-%02d", y, m, day)
}
