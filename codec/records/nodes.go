package records

import (
	"encoding/binary"
	"fmt"
	"strconv"

	"kwire/codec/wire"
	"kwire/tree"
)

// Nodes returns the tree nodes of the batches in a records field whose
// bytes b start at offset base. relative marks offsets that count from a
// decompressed stream.
func Nodes(b []byte, base int, relative bool) []*tree.Node {
	var out []*tree.Node
	off := 0
	for off < len(b) {
		n, size := batchNode(b[off:], base+off, relative)
		out = append(out, n)
		if size <= 0 {
			break
		}
		off += size
	}
	return out
}

func batchNode(b []byte, base int, relative bool) (*tree.Node, int) {
	n := &tree.Node{Name: "RecordBatch", Offset: base, Size: len(b), Section: tree.RecordBatch, Relative: relative}
	if len(b) < 17 {
		n.Type, n.Err = "partial", fmt.Sprintf("%d bytes, too few for a batch header", len(b))
		return n, -1
	}
	length := int(int32(binary.BigEndian.Uint32(b[8:])))
	magic := int8(b[16])
	n.Type = "v" + strconv.Itoa(int(magic))
	total := 12 + length
	if length < 0 || total > len(b) {
		n.Value = fmt.Sprintf("partial: %d of %d bytes", len(b), total)
		n.About = "a batch cut off at the end of the records (brokers may send one at the end of a Fetch response)"
		return n, -1
	}
	n.Size = total
	if magic != 2 || total < BatchHeaderSize {
		n.About = "legacy message set"
		return n, total
	}
	fields := []struct {
		name, typ string
		size      int
		about     string
	}{
		{"baseOffset", "int64", 8, "offset of the first record"},
		{"batchLength", "int32", 4, "bytes that follow"},
		{"partitionLeaderEpoch", "int32", 4, "leader epoch of the partition"},
		{"magic", "int8", 1, "format version of the batch"},
		{"crc", "uint32", 4, "CRC-32C of the bytes from attributes to the end"},
		{"attributes", "int16", 2, "compression, timestamp type, transactional, control"},
		{"lastOffsetDelta", "int32", 4, "offset of the last record, from baseOffset"},
		{"baseTimestamp", "int64", 8, "timestamp of the first record"},
		{"maxTimestamp", "int64", 8, "largest timestamp in the batch"},
		{"producerId", "int64", 8, "idempotent or transactional producer, or -1"},
		{"producerEpoch", "int16", 2, "epoch of the producer"},
		{"baseSequence", "int32", 4, "sequence number of the first record"},
		{"recordCount", "int32", 4, "number of records"},
	}
	off := 0
	for _, f := range fields {
		var val string
		switch f.size {
		case 1:
			val = strconv.Itoa(int(int8(b[off])))
		case 2:
			x, _ := wire.ConsumeInt16(b[off:])
			val = strconv.Itoa(int(x))
		case 4:
			x, _ := wire.ConsumeInt32(b[off:])
			val = strconv.Itoa(int(x))
			if f.typ == "uint32" {
				val = fmt.Sprintf("0x%08x", uint32(x))
			}
		case 8:
			x, _ := wire.ConsumeInt64(b[off:])
			val = strconv.FormatInt(x, 10)
		}
		c := &tree.Node{Name: f.name, Type: f.typ, Value: val, Offset: base + off, Size: f.size, Section: tree.RecordBatch, About: f.about, Relative: relative}
		if f.name == "crc" {
			want := binary.BigEndian.Uint32(b[off:])
			if got := CRC32C(b[21:total]); got == want {
				c.Detail = "(ok)"
			} else {
				c.Detail = fmt.Sprintf("(mismatch: computed 0x%08x)", got)
			}
		}
		n.Add(c)
		off += f.size
	}
	if total > BatchHeaderSize {
		n.Add(&tree.Node{Name: "records", Type: "bytes", Value: fmt.Sprintf("%d bytes", total-BatchHeaderSize), Offset: base + BatchHeaderSize, Size: total - BatchHeaderSize, Section: tree.Record, Relative: relative})
	}
	return n, total
}
