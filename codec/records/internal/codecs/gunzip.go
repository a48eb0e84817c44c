package codecs

import (
	"bytes"
	"compress/flate"
	"encoding/binary"
	"errors"
	"hash/crc32"
	"io"
)

// GzipMembers reads the gzip members of a byte slice as compress/gzip's
// Reader does (RFC 1952: multistream, the header's CRC-16 and each
// trailer's CRC-32 and size checked, the same errors), for the browser
// app (codecs_js.go), where it is 2.3 KB of gzip smaller than
// compress/gzip's Reader (its Header, bufio). Its test and fuzz target
// read every input alongside compress/gzip.
type GzipMembers struct {
	r      *bytes.Reader
	flate  io.ReadCloser
	digest uint32
	size   uint32
	err    error
}

var (
	errGzipHeader   = errors.New("gzip: invalid header")
	errGzipChecksum = errors.New("gzip: invalid checksum")
)

// Reset starts reading r (a *bytes.Reader: gunzip's) from its first
// member's header.
func (z *GzipMembers) Reset(r io.Reader) error {
	z.r, _ = r.(*bytes.Reader)
	z.digest, z.size = 0, 0
	z.err = z.header()
	return z.err
}

// gzipNoEOF: a member cut short is io.ErrUnexpectedEOF.
func gzipNoEOF(err error) error {
	if err == io.EOF {
		return io.ErrUnexpectedEOF
	}
	return err
}

// header reads a member's header, up to its deflate stream; io.EOF when
// there is none left.
func (z *GzipMembers) header() error {
	var buf [10]byte
	if _, err := io.ReadFull(z.r, buf[:]); err != nil {
		return err
	}
	if buf[0] != 0x1f || buf[1] != 0x8b || buf[2] != 8 {
		return errGzipHeader
	}
	flg := buf[3]
	z.digest = crc32.ChecksumIEEE(buf[:])
	if flg&4 != 0 { // FEXTRA
		if _, err := io.ReadFull(z.r, buf[:2]); err != nil {
			return gzipNoEOF(err)
		}
		z.digest = crc32.Update(z.digest, crc32.IEEETable, buf[:2])
		n := int(binary.LittleEndian.Uint16(buf[:2]))
		if n > z.r.Len() {
			z.r.Seek(0, io.SeekEnd)
			return io.ErrUnexpectedEOF
		}
		extra := make([]byte, n)
		z.r.Read(extra)
		z.digest = crc32.Update(z.digest, crc32.IEEETable, extra)
	}
	for _, f := range [2]byte{8, 16} { // FNAME, FCOMMENT: NUL-terminated, at most 512 bytes with it
		if flg&f == 0 {
			continue
		}
		var s [512]byte
		for i := 0; ; i++ {
			if i >= len(s) {
				return errGzipHeader
			}
			c, err := z.r.ReadByte()
			if err != nil {
				return gzipNoEOF(err)
			}
			if s[i] = c; c == 0 {
				z.digest = crc32.Update(z.digest, crc32.IEEETable, s[:i+1])
				break
			}
		}
	}
	if flg&2 != 0 { // FHCRC
		if _, err := io.ReadFull(z.r, buf[:2]); err != nil {
			return gzipNoEOF(err)
		}
		if binary.LittleEndian.Uint16(buf[:2]) != uint16(z.digest) {
			return errGzipHeader
		}
	}
	z.digest = 0
	if z.flate == nil {
		z.flate = flate.NewReader(z.r)
	} else {
		z.flate.(flate.Resetter).Reset(z.r, nil)
	}
	return nil
}

// Read reads decompressed bytes, checking each member's trailer at its
// end and going on with the next member.
func (z *GzipMembers) Read(p []byte) (n int, err error) {
	if z.err != nil {
		return 0, z.err
	}
	for n == 0 {
		n, z.err = z.flate.Read(p)
		z.digest = crc32.Update(z.digest, crc32.IEEETable, p[:n])
		z.size += uint32(n)
		if z.err != io.EOF {
			return n, z.err
		}
		var buf [8]byte
		if _, err := io.ReadFull(z.r, buf[:]); err != nil {
			z.err = gzipNoEOF(err)
			return n, z.err
		}
		if binary.LittleEndian.Uint32(buf[:4]) != z.digest || binary.LittleEndian.Uint32(buf[4:]) != z.size {
			z.err = errGzipChecksum
			return n, z.err
		}
		z.digest, z.size = 0, 0
		if z.err = z.header(); z.err != nil {
			return n, z.err
		}
	}
	return n, nil
}
