package codecs

import (
	"encoding/binary"
	"errors"
)

// Raw snappy blocks (format_description.txt of google/snappy), written out
// for the browser app (codecs_js.go), where s2 would bring crypto/rand and
// math/big. The native programs use s2; the tests check the two agree.

// SnappyLen reads the uncompressed length that starts a block.
func SnappyLen(src []byte) (int, error) {
	n, k := binary.Uvarint(src)
	if k <= 0 || n > 1<<32-1 {
		return 0, errSnappyCorrupt
	}
	return int(n), nil
}

var errSnappyCorrupt = errors.New("snappy: corrupt input")

// DecodeSnappy decodes a block into dst when it has room.
func DecodeSnappy(dst, src []byte) ([]byte, error) {
	n, k := binary.Uvarint(src)
	if k <= 0 || n > uint64(len(src))*255+64 { // a copy element of 1 byte makes at most 64
		return nil, errSnappyCorrupt
	}
	out := dst[:0]
	if uint64(cap(out)) < n {
		out = make([]byte, 0, n)
	}
	s := src[k:]
	for len(s) > 0 {
		tag := s[0]
		var length, offset int
		switch tag & 3 {
		case 0: // literal
			length = int(tag>>2) + 1
			s = s[1:]
			if length > 60 {
				w := length - 60
				if len(s) < w {
					return nil, errSnappyCorrupt
				}
				length = 1
				for i := 0; i < w; i++ {
					length += int(s[i]) << (8 * i)
				}
				s = s[w:]
			}
			if length > len(s) || uint64(len(out)+length) > n {
				return nil, errSnappyCorrupt
			}
			out = append(out, s[:length]...)
			s = s[length:]
			continue
		case 1:
			if len(s) < 2 {
				return nil, errSnappyCorrupt
			}
			length, offset = int(tag>>2&7)+4, int(tag>>5)<<8|int(s[1])
			s = s[2:]
		case 2:
			if len(s) < 3 {
				return nil, errSnappyCorrupt
			}
			length, offset = int(tag>>2)+1, int(binary.LittleEndian.Uint16(s[1:]))
			s = s[3:]
		case 3:
			if len(s) < 5 {
				return nil, errSnappyCorrupt
			}
			length, offset = int(tag>>2)+1, int(binary.LittleEndian.Uint32(s[1:]))
			s = s[5:]
		}
		if offset <= 0 || offset > len(out) || uint64(len(out)+length) > n {
			return nil, errSnappyCorrupt
		}
		for i := 0; i < length; i++ { // copies may overlap their own output
			out = append(out, out[len(out)-offset])
		}
	}
	if uint64(len(out)) != n {
		return nil, errSnappyCorrupt
	}
	return out, nil
}

// EncodeSnappyLiterals writes src as a valid snappy block of literals only:
// the browser app's snappy batches are correct but not smaller.
func EncodeSnappyLiterals(src []byte) []byte {
	out := binary.AppendUvarint(nil, uint64(len(src)))
	for len(src) > 0 {
		n := min(len(src), 1<<16)
		if n <= 60 {
			out = append(out, byte(n-1)<<2)
		} else {
			out = append(out, 61<<2, byte(n-1), byte((n-1)>>8)) // 61: two bytes of length-1 follow
		}
		out = append(out, src[:n]...)
		src = src[n:]
	}
	return out
}
