package main

import (
	"bytes"
	"encoding/binary"
	"encoding/hex"
	"fmt"
	"strings"
	"testing"

	"kwire/codec"
	"kwire/codec/records"
	"kwire/schemas/sets"
)

// produceHex is a Produce v9 request (set 4.0) with one partition per
// records field, as hex.
func produceHex(t *testing.T, fields ...[]byte) string {
	t.Helper()
	set, err := sets.Load("4.0")
	if err != nil {
		t.Fatal(err)
	}
	f, err := codec.NewFrame(set, set.APIByKey(0), 9, codec.Request)
	if err != nil {
		t.Fatal(err)
	}
	var parts []string
	for i, r := range fields {
		parts = append(parts, fmt.Sprintf(`{"Index":%d,"Records":"%x"}`, i, r))
	}
	body := `{"Acks":-1,"TimeoutMs":30000,"TopicData":[{"Name":"t","PartitionData":[` + strings.Join(parts, ",") + `]}]}`
	if err := f.SetJSON([]byte(body)); err != nil {
		t.Fatal(err)
	}
	b, err := f.Encode()
	if err != nil {
		t.Fatal(err)
	}
	return hex.EncodeToString(b)
}

// batchOf encodes batches.
func batchOf(t *testing.T, bs ...records.Batch) []byte {
	t.Helper()
	for i := range bs {
		if bs[i].Magic == 2 {
			bs[i].Fill()
		}
	}
	b, err := records.Encode(bs)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// nRecords is a batch of n records compressed with c.
func nRecords(n int, c records.Codec) records.Batch {
	b := records.Batch{Magic: 2, Attributes: int16(c), ProducerID: -1, ProducerEpoch: -1, BaseSequence: -1}
	for i := range n {
		b.Records = append(b.Records, records.Record{OffsetDelta: int32(i), Value: []byte(fmt.Sprint("value ", i))})
	}
	return b
}

// patch returns a RecordBatch v2 with count and payload in place of
// its own, and a correct CRC.
func patch(b []byte, count int32, payload []byte) []byte {
	b = append(bytes.Clone(b[:records.BatchHeaderSize]), payload...)
	binary.BigEndian.PutUint32(b[8:], uint32(len(b)-12))
	binary.BigEndian.PutUint32(b[57:], uint32(count))
	binary.BigEndian.PutUint32(b[17:], records.CRC32C(b[21:]))
	return b
}

// TestDecodeExitStatus: kwire decode exits 1 when any node of the tree
// holds an error, even with every byte read, and says where on stderr;
// the whole tree is still printed.
func TestDecodeExitStatus(t *testing.T) {
	good := batchOf(t, nRecords(20, records.None))
	badCRC := bytes.Clone(good)
	badCRC[20] ^= 1
	maxCount := patch(good, 1<<31-1, good[records.BatchHeaderSize:])
	longVarint := patch(good, 1, []byte{0xff, 0xff, 0xff, 0xff, 0xff, 0x01})
	nested := batchOf(t, records.Batch{Magic: 1, Attributes: int16(records.Gzip), Messages: []records.Batch{
		{Magic: 1, Attributes: int16(records.Gzip), Messages: []records.Batch{
			{Magic: 1, Attributes: int16(records.Gzip), Messages: []records.Batch{{Magic: 1, Value: []byte("x")}}}}}}})
	gz := batchOf(t, nRecords(20, records.Gzip))
	badGzip := patch(gz, 20, append([]byte{0x1f, 0x8b}, bytes.Repeat([]byte{0x55}, 40)...))
	big := batchOf(t, nRecords(50_000, records.Gzip))
	cases := []struct {
		name  string
		hex   string
		args  []string
		code  int
		error string // on stderr
	}{
		{"clean", produceHex(t, good), nil, 0, ""},
		{"partial batch at the end", produceHex(t, append(bytes.Clone(good), good[:30]...)), nil, 0, ""},
		{"CRC mismatch", produceHex(t, badCRC), nil, 1, "CRC-32C mismatch"},
		{"record count 2^31-1", produceHex(t, maxCount), nil, 1, "recordCount is 2147483647 but the records end after 20"},
		{"over-long varint", produceHex(t, longVarint), nil, 1, "varint longer than its type allows"},
		{"deep legacy nesting", produceHex(t, nested), nil, 1, "nested too deeply"},
		{"decompression failure", produceHex(t, badGzip), nil, 1, "gzip: "},
		{"records budget", produceHex(t, good, good), []string{"--max-records", "30"}, 1, "budget of 30 records is spent (kwire decode --max-records raises it)"},
		{"records budget raised", produceHex(t, good, good), []string{"--max-records", "40"}, 0, ""},
		{"decompression budget", produceHex(t, big), []string{"--max-decompressed", "100000"}, 1, "decompression budget of 100000 bytes"},
		{"decompression budget raised", produceHex(t, big), []string{"--max-decompressed", "1000000", "--max-records", "50000"}, 0, ""},
	}
	for _, c := range cases {
		for _, format := range []string{"tree", "json"} {
			t.Run(c.name+"/"+format, func(t *testing.T) {
				args := append([]string{"decode", "--format", format}, c.args...)
				out, errs, code := kwire(t, c.hex, args...)
				if code != c.code {
					t.Fatalf("exit %d, want %d; stderr:\n%s", code, c.code, errs)
				}
				if c.code == 0 && errs != "" {
					t.Errorf("stderr: %s", errs)
				}
				if c.code != 0 && (!strings.Contains(errs, c.error) || !strings.HasPrefix(errs, "kwire: decode error at offset ") || !strings.Contains(errs, "TopicData[0].PartitionData[")) {
					t.Errorf("stderr does not say where and %q:\n%s", c.error, errs)
				}
				if !strings.Contains(out, "tagged_fields") && !strings.Contains(out, `"Acks": -1`) {
					t.Errorf("the whole message is not printed:\n%.2000s", out)
				}
			})
		}
	}
}

// TestDecodeEmptyBody: ApiVersions v0-2 and ListGroups v0-2 requests have
// no body; an empty standard input is that empty body.
func TestDecodeEmptyBody(t *testing.T) {
	for _, api := range []string{"ApiVersions", "ListGroups"} {
		for _, v := range []string{"0", "1", "2"} {
			for _, format := range []string{"tree", "json"} {
				out, errs, code := kwire(t, "\n", "decode", "--body", "--api", api, "--version", v, "--format", format)
				if code != 0 || errs != "" {
					t.Errorf("%s v%s %s: exit %d: %s", api, v, format, code, errs)
				}
				if format == "json" && strings.TrimSpace(out) != "{}" {
					t.Errorf("%s v%s: JSON %q", api, v, out)
				}
			}
		}
	}
	// A frame still needs bytes.
	if _, errs, code := kwire(t, "", "decode"); code == 0 || !strings.Contains(errs, "empty") {
		t.Errorf("an empty frame: exit %d: %s", code, errs)
	}
}

// TestUsageExitsTwo: every command line that asks for nothing kwire can
// do exits 2 and says what, escaped; bad input exits 1.
func TestUsageExitsTwo(t *testing.T) {
	for _, c := range []struct {
		args []string
		want string
	}{
		{[]string{"site"}, "--out DIR"},
		{[]string{"site", "--out", "d", "extra"}, "--out DIR"},
		{[]string{"schema", "bogus"}, `unknown schema command "bogus"`},
		{[]string{"schema", "lint"}, "takes one FILE"},
		{[]string{"decode", "--request", "--response", "00"}, "exclude each other"},
		{[]string{"encode", "--api", "JoinGroup", "--version", "9", "x"}, `unexpected argument "x"`},
		{[]string{"encode", "--api", "JoinGroup", "--version", "9", "\x1b[31m"}, `unexpected argument "\x1b[31m"`},
		{[]string{"encode"}, "--api is required"},
		{[]string{"encode", "--api", "JoinGroup", "--set", "3.9", "--version", "10"}, "has no version 10"},
		{[]string{"apis", "extra"}, `unexpected argument "extra"`},
		{[]string{"serve", "a", "b"}, "one folder"},
		{[]string{"decode", "--file", "x", "00"}, "not both"},
	} {
		_, errs, code := kwire(t, "", c.args...)
		if code != 2 || !strings.Contains(errs, c.want) || strings.Contains(errs, "\x1b") {
			t.Errorf("kwire %q: status %d, stderr %q; want 2 and %q", c.args, code, errs, c.want)
		}
	}
	if _, errs, code := kwire(t, "", "decode", "zz"); code != 1 {
		t.Errorf("kwire decode zz: status %d (%q), want 1: bad input", code, errs)
	}
}
