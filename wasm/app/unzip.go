package app

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
	"path"
	"strings"

	"kwire/internal/xfmt"
)

// unzip reads the files of a zip archive (stored or deflated; PKWARE's
// APPNOTE, sections 4.3.7 to 4.3.16), at most maxZipFiles of them and
// maxZipBytes in all, whatever its headers say, each checked against its
// CRC-32. It stands in for archive/zip, which costs the browser app 52 KB
// of gzip; its tests check it against archive/zip.
func unzip(b []byte) (map[string][]byte, error) {
	le := binary.LittleEndian
	// The end of central directory record: 22 bytes and a comment of at
	// most 65,535, at the end.
	eocd := -1
	for i := len(b) - 22; i >= 0 && i >= len(b)-22-0xffff; i-- {
		if le.Uint32(b[i:]) == 0x06054b50 {
			eocd = i
			break
		}
	}
	if eocd < 0 {
		return nil, errors.New("not a zip: no end of central directory record")
	}
	count := int(le.Uint16(b[eocd+10:]))
	cdSize, cdOff := int64(le.Uint32(b[eocd+12:])), int64(le.Uint32(b[eocd+16:]))
	switch {
	case count == 0xffff || cdSize == 0xffffffff || cdOff == 0xffffffff:
		return nil, errors.New("zip64 archives are not read here")
	case count > maxZipFiles:
		return nil, xfmt.Errorf("%d files in the zip; at most %d", count, maxZipFiles)
	case cdOff+cdSize > int64(eocd):
		return nil, xfmt.Errorf("the central directory (%d bytes at %d) runs past its end record at %d", cdSize, cdOff, eocd)
	}
	files := map[string][]byte{}
	total := 0
	p := int(cdOff)
	for n := range count {
		if p+46 > eocd || le.Uint32(b[p:]) != 0x02014b50 {
			return nil, xfmt.Errorf("central directory entry %d at %d: bad header", n, p)
		}
		flags, method := le.Uint16(b[p+8:]), le.Uint16(b[p+10:])
		crc, csize, usize := le.Uint32(b[p+16:]), int64(le.Uint32(b[p+20:])), int64(le.Uint32(b[p+24:]))
		nameLen, extraLen, commentLen := int(le.Uint16(b[p+28:])), int(le.Uint16(b[p+30:])), int(le.Uint16(b[p+32:]))
		local := int64(le.Uint32(b[p+42:]))
		if p+46+nameLen > eocd {
			return nil, xfmt.Errorf("central directory entry %d at %d: its name runs past the directory", n, p)
		}
		name := string(b[p+46 : p+46+nameLen])
		p += 46 + nameLen + extraLen + commentLen
		if strings.HasSuffix(name, "/") {
			continue // a folder
		}
		switch {
		case flags&1 != 0:
			return nil, xfmt.Errorf("%s: encrypted", name)
		case csize == 0xffffffff || usize == 0xffffffff || local == 0xffffffff:
			return nil, xfmt.Errorf("%s: zip64 entries are not read here", name)
		case usize > int64(maxZipBytes-total):
			return nil, xfmt.Errorf("the zip holds more than %d MB", maxZipBytes>>20)
		case local+30 > int64(len(b)) || le.Uint32(b[local:]) != 0x04034b50:
			return nil, xfmt.Errorf("%s: no local header at %d", name, local)
		}
		start := local + 30 + int64(le.Uint16(b[local+26:])) + int64(le.Uint16(b[local+28:]))
		if start+csize > int64(len(b)) {
			return nil, xfmt.Errorf("%s: %d bytes at %d run past the end", name, csize, start)
		}
		raw := b[start : start+csize]
		var data []byte
		switch method {
		case 0:
			data = raw
		case 8:
			var err error
			data, err = io.ReadAll(io.LimitReader(flate.NewReader(bytes.NewReader(raw)), usize+1))
			if err != nil {
				return nil, xfmt.Errorf("%s: %w", name, err)
			}
		default:
			return nil, xfmt.Errorf("%s: compression method %d is not read here (only stored and deflated)", name, method)
		}
		if int64(len(data)) != usize || crc32.ChecksumIEEE(data) != crc {
			return nil, xfmt.Errorf("%s: %d bytes, CRC %08x; the directory says %d bytes, CRC %08x", name, len(data), crc32.ChecksumIEEE(data), usize, crc)
		}
		total += len(data)
		files[path.Clean("/" + name)[1:]] = data
	}
	return files, nil
}
